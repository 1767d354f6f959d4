package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"gopkg.in/yaml.v3"

	"github.com/fairy-go/fairy/guard"
	"github.com/fairy-go/fairy/internal/table"
)

// guardDeps is what `fairy guard` needs from the settings.
type guardDeps struct {
	Rules      func() ([]guard.PersonRule, error) // the person's rules, checked
	Categories func() ([]string, error)           // the categories the guard knows
	ConfigFile func() (string, error)             // the file add and remove write
	Explainer  func() (*guardExplainer, error)    // the guard with the person's rules, for explain
}

// newGuardCmd builds `fairy guard list|add|remove|explain`: the person's own rules, what
// is always asked and what is not.
func newGuardCmd(d guardDeps) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "guard",
		Short: "Your own guard rules: what is always asked, what goes unasked, what is never done; alone, it lists them",
		Long: `fairy holds an action that pays, orders, deletes, sends or grants a permission until you say
yes. Your own rules, per app and category, change that:

  allow  lets it through unasked (within an amount with --up-to, to one recipient with --to)
  ask    always asks, whatever an allow rule says
  never  refuses it outright: the action is blocked, not asked

The strictest rule that applies wins (never, then ask, then allow). The rules are kept in
your config file under guard.person; only you change them, with this command or by editing
the file: no model, MCP client or text on a screen does. Categories: payment, transfer,
order, subscription, delete, send, call, permission (and those of guard.rules), and login
(submitting a sign-in form).`,
		Example: `  fairy guard add never delete --app com.fairy.notes
  fairy guard add allow payment --app com.fairy.shop --up-to ¥20
  fairy guard add allow send --app com.fairy.messages --to "Alice Chen"
  fairy guard add allow login
  fairy guard list
  fairy guard remove 2
  fairy guard explain screen.xml`,
	}
	var format string
	list := &cobra.Command{
		Use:   "list [--format table|json]",
		Short: "List your rules, numbered as remove takes them",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := checkFormat(format); err != nil {
				return err
			}
			rules, err := d.Rules()
			if err != nil {
				return withExit(exitUsage, err)
			}
			return writePersonRules(c.OutOrStdout(), rules, isJSON(format))
		},
	}
	addFormatFlag(list, &format)
	cmd.AddCommand(list, newGuardAddCmd(d), newGuardRemoveCmd(d), newGuardExplainCmd(d))
	addFormatFlag(cmd, &format)
	cmd.Args = cobra.NoArgs
	cmd.RunE = list.RunE
	return cmd
}

// personRuleJSON is one rule of `fairy guard list --format json`.
type personRuleJSON struct {
	N        int    `json:"n"`
	App      string `json:"app"`
	Category string `json:"category"`
	Verdict  string `json:"verdict"`
	To       string `json:"to"`
	UpTo     string `json:"up_to"`
}

// writePersonRules writes the rules as a table or JSON.
func writePersonRules(w io.Writer, rules []guard.PersonRule, asJSON bool) error {
	if asJSON {
		out := make([]personRuleJSON, 0, len(rules))
		for i, r := range rules {
			out = append(out, personRuleJSON{N: i + 1, App: r.App, Category: r.Category, Verdict: r.Verdict, To: r.To,
				UpTo: r.UpTo})
		}
		return writeJSON(w, out)
	}
	if len(rules) == 0 {
		_, err := fmt.Fprintln(w, "No rules of your own: fairy asks before every action the guard holds.\n"+
			"Add one with 'fairy guard add VERDICT CATEGORY' (see 'fairy guard --help').")
		return err
	}
	tw := tabwriter.NewWriter(table.EscapingWriter(w), 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tVERDICT\tCATEGORY\tAPP\tWHEN")
	for i, r := range rules {
		app := r.App
		if app == "" {
			app = "(every app)"
		}
		var when []string
		if r.To != "" {
			when = append(when, "to "+strconv.QuoteToGraphic(r.To))
		}
		if r.UpTo != "" {
			when = append(when, "up to "+r.UpTo)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", i+1, r.Verdict, r.Category, app, strings.Join(when, ", "))
	}
	return tw.Flush()
}

// newGuardAddCmd builds `fairy guard add VERDICT CATEGORY`.
func newGuardAddCmd(d guardDeps) *cobra.Command {
	var r guard.PersonRule
	cmd := &cobra.Command{
		Use:   "add VERDICT CATEGORY [--app PKG] [--to NAME] [--up-to AMOUNT]",
		Short: "Add a rule of yours (VERDICT: allow, ask or never) to the config file",
		Example: `  fairy guard add never delete --app com.fairy.notes
  fairy guard add allow payment --up-to "20 EUR"`,
		Args: cobra.ExactArgs(2),
		ValidArgsFunction: func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			switch len(args) {
			case 0:
				return guard.PersonVerdicts, cobra.ShellCompDirectiveNoFileComp
			case 1:
				cats, _ := d.Categories()
				return append(cats, guard.CategoryLogin), cobra.ShellCompDirectiveNoFileComp
			}
			return nil, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			r.Verdict, r.Category = strings.ToLower(args[0]), strings.ToLower(args[1])
			cats, err := d.Categories()
			if err != nil {
				return withExit(exitUsage, err)
			}
			if err := guard.CheckPersonRule(r, cats); err != nil {
				return withExit(exitUsage, err)
			}
			existing, err := d.Rules()
			if err != nil {
				return withExit(exitUsage, err)
			}
			if i := slices.Index(existing, r); i >= 0 {
				return withExit(exitUsage, fmt.Errorf("you have this rule already: %d. %s", i+1, r))
			}
			path, err := d.ConfigFile()
			if err != nil {
				return withExit(exitUsage, err)
			}
			if err := editPersonRules(path, func(rules *yaml.Node) error {
				rules.Content = append(rules.Content, personRuleNode(r))
				return nil
			}); err != nil {
				return err
			}
			_, err = fmt.Fprintf(c.OutOrStdout(), "added %d. %s (in %s)\n", len(existing)+1, r, path)
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&r.App, "app", "", "the app's package (default: every app)")
	f.StringVar(&r.To, "to", "", "send, transfer or call: only to this recipient, exactly as the page names it")
	f.StringVar(&r.UpTo, "up-to", "", `allow payment, transfer, order or subscription: up to this amount ("20", "¥20", "20 EUR"); more is asked`)
	return cmd
}

// newGuardRemoveCmd builds `fairy guard remove N`.
func newGuardRemoveCmd(d guardDeps) *cobra.Command {
	return &cobra.Command{
		Use:   "remove N",
		Short: "Remove your rule number N (as 'fairy guard list' numbers it) from the config file",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			n, err := strconv.Atoi(args[0])
			if err != nil || n < 1 {
				return withExit(exitUsage, fmt.Errorf("%q is not a rule number: 'fairy guard list' numbers them from 1", args[0]))
			}
			path, err := d.ConfigFile()
			if err != nil {
				return withExit(exitUsage, err)
			}
			var removed guard.PersonRule
			if err := editPersonRules(path, func(rules *yaml.Node) error {
				if n > len(rules.Content) {
					return withExit(exitUsage, fmt.Errorf("no rule %d: you have %s ('fairy guard list' shows them)", n,
						table.Count(len(rules.Content), "rule", "rules")))
				}
				if removed, err = decodePersonRule(rules.Content[n-1]); err != nil {
					return fmt.Errorf("config %s:%d: %w", path, rules.Content[n-1].Line, err)
				}
				rules.Content = slices.Delete(rules.Content, n-1, n)
				return nil
			}); err != nil {
				return err
			}
			_, err = fmt.Fprintf(c.OutOrStdout(), "removed %d. %s (from %s)\n", n, removed, path)
			return err
		},
	}
}
