package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/fairy-go/fairy/internal/table"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/spf13/cobra"
)

// newMapCmd builds `fairy map list|show|path|export|view` (view: map_view.go).
func newMapCmd(knowledgePath knowledgeRef) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "map",
		Short: "Inspect the learned App Maps (pages and transitions of each app)",
	}
	var listFormat, showFormat, pathFormat, exportFormat string
	var listAll bool
	list := &cobra.Command{
		Use:   "list [--all] [--format table|json]",
		Short: "List the apps something was learned of, with their page, transition and trick counts",
		Long: `Lists the apps that something was learned of: pages, transitions or tricks. Every app the
phone showed is known by its name too, most with nothing learned; --all lists those as well.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return runMapList(c.OutOrStdout(), knowledgePath, listFormat, listAll)
		},
	}
	list.Flags().BoolVar(&listAll, "all", false, "also list the apps with nothing learned yet "+
		"(every app the phone showed)")
	show := &cobra.Command{
		Use:               "show PKG [--format table|json]",
		Short:             "Show an app's pages and transitions as a table (or the map as JSON)",
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeMapApps(knowledgePath),
		RunE: func(c *cobra.Command, args []string) error {
			return runMapShow(c.OutOrStdout(), knowledgePath, showFormat, args[0])
		},
	}
	path := &cobra.Command{
		Use:               "path PKG FROM TO [--format table|json]",
		Short:             "Show the known path between two pages (page IDs like p3, keys, or key prefixes)",
		Args:              cobra.ExactArgs(3),
		ValidArgsFunction: completeMapPath(knowledgePath),
		RunE: func(c *cobra.Command, args []string) error {
			return runMapPath(c.OutOrStdout(), knowledgePath, pathFormat, args)
		},
	}
	export := &cobra.Command{
		Use:   "export PKG",
		Short: "Write an app's map as Graphviz DOT, JSON or Mermaid to stdout",
		Example: `  fairy map export com.android.settings --format dot | dot -Tsvg > settings.svg
  fairy map export com.android.settings --format mermaid`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeMapApps(knowledgePath),
		RunE: func(c *cobra.Command, args []string) error {
			return runMapExport(c.OutOrStdout(), knowledgePath, exportFormat, args[0])
		},
	}
	export.Flags().StringVar(&exportFormat, "format", "dot", "output format: dot, json or mermaid")
	_ = export.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"dot", "json", "mermaid"},
		cobra.ShellCompDirectiveNoFileComp))
	addFormatFlag(list, &listFormat)
	addFormatFlag(show, &showFormat)
	addFormatFlag(path, &pathFormat)
	cmd.AddCommand(list, show, path, export, newMapViewCmd(knowledgePath))
	return cmd
}

// runMapList is `fairy map list`: the apps something was learned of (all with all) with
// their counts; none yet when there is no knowledge file.
func runMapList(out io.Writer, knowledgePath knowledgeRef, format string, all bool) error {
	if err := checkFormat(format); err != nil {
		return err
	}
	return withKnowledgeList(knowledgePath, (*knowledge.Store).Apps, func(apps []knowledge.AppSummary) error {
		hidden := 0
		if !all {
			apps, hidden = learnedApps(apps)
		}
		return writeApps(out, knowledgePath, format, apps, hidden)
	})
}

// learnedApps keeps the apps something was learned of (pages, transitions or tricks) and
// counts the others: every app the phone ever showed has metadata, most nothing more.
func learnedApps(apps []knowledge.AppSummary) (learned []knowledge.AppSummary, hidden int) {
	for _, a := range apps {
		if a.Pages+a.Transitions+a.Tricks > 0 {
			learned = append(learned, a)
		} else {
			hidden++
		}
	}
	return learned, hidden
}

// writeApps writes the list of `fairy map list`; hidden apps with nothing learned were
// left out (JSON: left out too, the count is not written).
func writeApps(out io.Writer, knowledgePath knowledgeRef, format string, apps []knowledge.AppSummary,
	hidden int) error {
	if isJSON(format) {
		return writeMapList(out, apps)
	}
	// hiddenNote says how many apps were left out.
	hiddenNote := func(one, many string) string {
		it := "them"
		if hidden == 1 {
			it = "it"
		}
		return fmt.Sprintf("%s the phone showed, with nothing learned yet: 'fairy map list --all' lists %s.",
			table.Count(hidden, one, many), it)
	}
	if len(apps) == 0 {
		fmt.Fprintln(out, "No apps learned yet.")
		if hidden > 0 {
			fmt.Fprintln(out, hiddenNote("app", "apps"))
		}
		printDemoNote(out, knowledgePath)
		return nil
	}
	tw := table.NewWriter(out)
	fmt.Fprintln(tw, "PACKAGE\tLABEL\tPAGES\tTRANSITIONS\tTRICKS")
	for _, a := range apps {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\n", table.Escape(a.Package), table.Escape(a.Label), a.Pages,
			a.Transitions, a.Tricks)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if hidden > 0 {
		fmt.Fprintln(out, hiddenNote("more app", "more apps"))
	}
	return nil
}

// runMapShow is `fairy map show PKG`.
func runMapShow(out io.Writer, knowledgePath knowledgeRef, format, app string) error {
	if err := checkFormat(format); err != nil {
		return err
	}
	return withKnowledge(knowledgePath, false, func(s *knowledge.Store) error {
		m, err := appMap(s, app)
		if err != nil {
			return err
		}
		if isJSON(format) {
			return m.WriteJSON(out)
		}
		return m.WriteTable(out)
	})
}

// runMapPath is `fairy map path PKG FROM TO`.
func runMapPath(out io.Writer, knowledgePath knowledgeRef, format string, args []string) error {
	if err := checkFormat(format); err != nil {
		return err
	}
	return withKnowledge(knowledgePath, false, func(s *knowledge.Store) error {
		return writeMapPath(out, s, format, args)
	})
}

// writeMapPath writes the known path from args[1] to args[2] in the map of app args[0].
func writeMapPath(out io.Writer, s *knowledge.Store, format string, args []string) error {
	steps, err := s.Path(args[0], args[1], args[2])
	if errors.Is(err, knowledge.ErrNoPath) {
		return onlyThroughEffects(s, args, err)
	}
	if err != nil {
		return err
	}
	if len(steps) == 0 && !isJSON(format) {
		fmt.Fprintln(out, "Already there: FROM and TO are the same page.")
		return nil
	}
	m, err := s.Map(args[0])
	if err != nil {
		return err
	}
	name := func(key string) string {
		if p, err := m.Page(key); err == nil {
			return p.ID + " (" + p.Name() + ")"
		}
		return key
	}
	if isJSON(format) {
		return writePath(out, steps, name)
	}
	tw := table.NewWriter(out)
	fmt.Fprintln(tw, "STEP\tFROM\tACTION\tTO\tRELIABILITY")
	for i, t := range steps {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%.2f\n", i+1, table.Escape(name(t.From)), table.Escape(t.Action.String()),
			table.Escape(name(t.To)), t.Reliability())
	}
	return tw.Flush()
}

// runMapExport is `fairy map export PKG --format dot|json|mermaid`.
func runMapExport(out io.Writer, knowledgePath knowledgeRef, format, app string) error {
	write := map[string]func(*knowledge.Map, io.Writer) error{
		"dot": (*knowledge.Map).WriteDOT, "json": (*knowledge.Map).WriteJSON, "mermaid": (*knowledge.Map).WriteMermaid,
	}[strings.ToLower(format)]
	if write == nil {
		return withExit(2, fmt.Errorf("--format %q: want dot, json or mermaid", format))
	}
	return withKnowledge(knowledgePath, false, func(s *knowledge.Store) error {
		m, err := appMap(s, app)
		if err != nil {
			return err
		}
		return write(m, out)
	})
}

// appMap returns app's map, or an error that says the app has none.
func appMap(s *knowledge.Store, app string) (*knowledge.Map, error) {
	m, err := s.Map(app)
	if err != nil {
		return nil, err
	}
	if len(m.Pages) == 0 {
		return nil, noMapError(app)
	}
	return m, nil
}

// noMapError says that no map of the app is learned; it matches knowledge.ErrNotFound
// without that sentinel's words as a tail after the advice.
type noMapError string

func (e noMapError) Error() string {
	return fmt.Sprintf("no map learned for %s: see 'fairy map list'", string(e))
}

// Unwrap returns knowledge.ErrNotFound.
func (e noMapError) Unwrap() error { return knowledge.ErrNotFound }

// onlyThroughEffects explains a missing path when the pages are connected, but only
// through actions that change the app (a payment, a toggle, "add to cart"): those are
// effects, never ways to a page, so no path goes through them. noPath is the error of
// Path, returned as it is when no such route exists either.
func onlyThroughEffects(s *knowledge.Store, args []string, noPath error) error {
	m, err := s.Map(args[0])
	if err != nil {
		return noPath
	}
	from, err1 := m.Page(args[1])
	to, err2 := m.Page(args[2])
	if err1 != nil || err2 != nil {
		return noPath
	}
	// Breadth first over every transition, side effects included.
	prev := map[string]*knowledge.Transition{from.Key: nil}
	queue := []string{from.Key}
	for len(queue) > 0 && prev[to.Key] == nil {
		k := queue[0]
		queue = queue[1:]
		for i := range m.Transitions {
			t := &m.Transitions[i]
			if _, seen := prev[t.To]; t.From == k && !seen {
				prev[t.To] = t
				queue = append(queue, t.To)
			}
		}
	}
	if prev[to.Key] == nil {
		return noPath
	}
	id := func(key string) string {
		if p, err := m.Page(key); err == nil {
			return p.ID
		}
		return key
	}
	var effects []string
	for t := prev[to.Key]; t != nil; t = prev[t.From] {
		if why := t.Action.Args[knowledge.ArgSideEffect]; why != "" {
			a := t.Action
			a.Args = nil
			effects = append([]string{fmt.Sprintf("%s on %s (%s)", a, id(t.From), why)}, effects...)
		}
	}
	return fmt.Errorf("%w: %s and %s are connected only through %s, which changes the app; "+
		"an action that changes the app is never a way to a page",
		noPath, from.ID, to.ID, strings.Join(effects, " and "))
}
