package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fairy-go/fairy/guard"
	"github.com/fairy-go/fairy/internal/table"
	"github.com/fairy-go/fairy/perception"
)

// guardExplainer is the guard a run would use — the config's policy with the person's
// rules — for `fairy guard explain`.
type guardExplainer struct {
	g     *guard.Guard
	rules []guard.PersonRule
}

// guardExplainer builds the guard of a run from the config.
func (s *settings) guardExplainer() (*guardExplainer, error) {
	rules, err := s.personRules()
	if err != nil {
		return nil, err
	}
	p, err := s.guardPolicy()
	if err != nil {
		return nil, err
	}
	g, err := guard.New(p)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", keyGuard, err)
	}
	return &guardExplainer{g: g, rules: rules}, nil
}

// newGuardExplainCmd builds `fairy guard explain DUMP.xml`.
func newGuardExplainCmd(d guardDeps) *cobra.Command {
	var app string
	cmd := &cobra.Command{
		Use: "explain DUMP.xml [--app PKG]",
		Short: "Say, for each element of a screen dump, whether a run would act on it unasked, " +
			"ask first or refuse it, and why",
		Long: `Reads a UI Automator dump ('fairy screen --xml FILE', or adb shell uiautomator dump) and
says, for each element a tap reaches, whether fairy would act on it unasked (free), ask
first (held) or refuse it (never): the category, the element's words or the page's cues
that decided, and which of your rules changed the verdict and why.`,
		Example: `  fairy screen --xml screen.xml && fairy guard explain screen.xml
  fairy guard explain checkout.xml --app com.example.shop`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			data, err := os.ReadFile(args[0])
			if err != nil {
				return withExit(exitUsage, fmt.Errorf("read dump: %w", err))
			}
			s, err := perception.Parse(data)
			if err != nil {
				return withExit(exitUsage, fmt.Errorf("dump %s: %w (want a UI Automator XML dump)", args[0], err))
			}
			if app != "" {
				s.Package = app
			}
			x, err := d.Explainer()
			if err != nil {
				return withExit(exitUsage, err)
			}
			return x.explain(c.OutOrStdout(), args[0], s)
		},
	}
	cmd.Flags().StringVar(&app, "app", "", "judge the screen as this app's (default: the dump's package)")
	return cmd
}

// explain writes, for each element of s a tap reaches, the guard's verdict and why:
//
//	[3] button "Pay ¥18" — free (payment): its words "pay"; your rule allows it: …
func (x *guardExplainer) explain(w io.Writer, name string, s *perception.Screen) error {
	w = table.EscapingWriter(w)
	app := s.Package
	if app == "" {
		app = "an unknown app"
	}
	fmt.Fprintf(w, "%s: a screen of %s; %s of yours\n", name, app, table.Count(len(x.rules), "rule", "rules"))
	held, free, never := 0, 0, 0
	for _, e := range x.g.Explain(s) {
		line := fmt.Sprintf("[%d] %s %s — %s", e.Element.Index, e.Element.Role,
			strconv.QuoteToGraphic(e.Element.Name()), e.Verdict)
		if e.Category != "" {
			line += " (" + e.Category + ")"
		}
		line += ": " + e.Cue
		if e.Person.Why != "" {
			line += "; " + e.Person.Why
		}
		switch e.Verdict {
		case guard.ExplainHeld:
			held++
		case guard.ExplainNever:
			never++
		default:
			free++
		}
		fmt.Fprintln(w, strings.TrimSpace(line))
	}
	_, err := fmt.Fprintf(w, "%d held (asked first), %d refused by your rules, %d free\n", held, never, free)
	return err
}
