package main

import (
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/executor"
	"github.com/fairy-go/fairy/internal/table"
	"github.com/fairy-go/fairy/perception"
)

// guardExplainer is the guard a run would use — the config's policy with the person's
// rules — for `fairy guard explain`.
type guardExplainer struct {
	g *executor.Guard
}

// guardExplainer builds the guard of a run from the config.
func (s *settings) guardExplainer() (*guardExplainer, error) {
	p, err := s.guardPolicy()
	if err != nil {
		return nil, err
	}
	if _, err := s.personRules(); err != nil {
		return nil, err
	}
	g, err := executor.NewGuard(p)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", keyGuard, err)
	}
	return &guardExplainer{g: g}, nil
}

// newGuardExplainCmd builds `fairy guard explain DUMP.xml`.
func newGuardExplainCmd(d guardDeps) *cobra.Command {
	var app string
	cmd := &cobra.Command{
		Use:   "explain DUMP.xml [--app PKG]",
		Short: "Say, for each element of a screen dump, whether the guard would hold it and why",
		Long: `Reads a UI Automator dump (adb shell uiautomator dump, or 'fairy screen --format xml') and
says, for each element a tap can reach, whether fairy would act on it unasked (free), ask
first (held) or refuse it (never): the category, the words or page cues that decided, and
which of your rules changed the verdict.`,
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

// explain writes, for each element of s a tap reaches, the guard's verdict and why.
func (x *guardExplainer) explain(w io.Writer, name string, s *perception.Screen) error {
	w = table.EscapingWriter(w)
	fmt.Fprintf(w, "%s: %s, %d elements\n", name, s.Package, len(s.Elements))
	for i := range s.Elements {
		e := &s.Elements[i]
		if e.Editable {
			continue
		}
		v, held := x.g.Check(event.Action{Type: event.Tap, Index: e.Index}, e, s)
		verdict := "free"
		if held {
			verdict = "held: " + v.Category
		}
		fmt.Fprintf(w, "[%d] %s — %s\n", e.Index, strconv.QuoteToGraphic(e.Label), verdict)
	}
	return nil
}
