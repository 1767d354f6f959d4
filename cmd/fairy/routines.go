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

// newRoutinesCmd builds `fairy routines list|show`: the learned routines, what the
// Re-Planner is offered to run by name.
func newRoutinesCmd(knowledgePath knowledgeRef) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "routines [--format table|json]",
		Short: "List and show learned routines (finished tasks the agent can replay by name); alone, it lists them",
	}
	var listFormat string
	list := &cobra.Command{
		Use:               "list [PKG] [--format table|json]",
		Short:             "List routines, most run first",
		Args:              cobra.MaximumNArgs(1),
		ValidArgsFunction: completeMapApps(knowledgePath),
		RunE: func(c *cobra.Command, args []string) error {
			if err := checkFormat(listFormat); err != nil {
				return err
			}
			app := ""
			if len(args) == 1 {
				app = args[0]
			}
			var rs []knowledge.Routine
			err := withKnowledge(knowledgePath, false, func(s *knowledge.Store) error {
				var err error
				rs, err = s.Routines(app)
				return err
			})
			if err != nil && !errors.Is(err, errNoKnowledge) {
				return err
			}
			if err := writeRoutines(c.OutOrStdout(), rs, isJSON(listFormat)); err != nil || len(rs) > 0 || isJSON(listFormat) {
				return err
			}
			printDemoNote(c.OutOrStdout(), knowledgePath)
			return nil
		},
	}
	addFormatFlag(list, &listFormat)
	show := &cobra.Command{
		Use: "show ID",
		Short: "Show one routine: its names, parameters and steps (ID: " +
			"the routine's ID or a unique prefix of it)",
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeRoutineIDs(knowledgePath),
		RunE: func(c *cobra.Command, args []string) error {
			return withKnowledge(knowledgePath, false, func(s *knowledge.Store) error {
				rs, err := s.Routines("")
				if err != nil {
					return err
				}
				r, err := findRoutine(rs, args[0])
				if err != nil {
					return err
				}
				return showRoutine(c.OutOrStdout(), r)
			})
		},
	}
	cmd.AddCommand(list, show)
	// `fairy routines` alone lists, as `fairy routines list` does.
	addFormatFlag(cmd, &listFormat)
	cmd.Args = cobra.NoArgs
	cmd.RunE = list.RunE
	return cmd
}

// findRoutine resolves ID as `runs show` does RUN: the routine with that ID, or the one
// whose ID starts with it.
func findRoutine(rs []knowledge.Routine, ref string) (knowledge.Routine, error) {
	var found []knowledge.Routine
	for _, r := range rs {
		if r.ID == ref {
			return r, nil
		}
		if ref != "" && strings.HasPrefix(r.ID, ref) {
			found = append(found, r)
		}
	}
	switch len(found) {
	case 0:
		return knowledge.Routine{}, withExit(exitUsage, fmt.Errorf("no routine %q: see 'fairy routines list'", ref))
	case 1:
		return found[0], nil
	}
	ids := make([]string, 0, 3)
	for _, r := range found[:min(3, len(found))] {
		ids = append(ids, r.ID)
	}
	return knowledge.Routine{}, withExit(exitUsage, fmt.Errorf("routine %q matches %d routines (%s): "+
		"give more of its ID", ref, len(found), strings.Join(ids, ", ")))
}

// routineJSON is one row of `routines list --format json`.
type routineJSON struct {
	ID     string   `json:"id"`
	App    string   `json:"app"`
	Name   string   `json:"name"`
	Also   []string `json:"also"`
	Params []string `json:"params"`
	Steps  int      `json:"steps"`
	Runs   int      `json:"runs"`
	Stops  int      `json:"stops"`
	// Demoted counts the times it was demoted (a replay that stopped at a surprise, a
	// failed finish check, a refused consent, a failed or wrong task after it).
	Demoted int `json:"demoted"`
	// Trusted: clean runs confirmed it on two instances since it was last demoted; only
	// a trusted routine is offered for replay.
	Trusted bool `json:"trusted"`
}

func writeRoutines(w io.Writer, rs []knowledge.Routine, asJSON bool) error {
	if asJSON {
		rows := make([]routineJSON, len(rs))
		for i, r := range rs {
			rows[i] = routineJSON{ID: r.ID, App: r.App, Name: r.Name, Also: append([]string{}, r.Also...), Params: []string{},
				Steps: len(r.Steps), Runs: r.Runs, Stops: r.Stops, Demoted: r.Demoted, Trusted: r.Trusted()}
			for _, p := range r.Params {
				rows[i].Params = append(rows[i].Params, p.What)
			}
		}
		return writeJSON(w, rows)
	}
	if len(rs) == 0 {
		fmt.Fprintln(w, "No routines.")
		return nil
	}
	tw := table.NewWriter(w)
	fmt.Fprintln(tw, "ID\tAPP\tRUNS\tSTOPS\tDEMOTED\tSTEPS\tNAME")
	for _, r := range rs {
		name := r.Name
		if n := len(r.Also); n > 0 {
			name += " (+" + table.Count(n, "other name", "other names") + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%s\n", table.Escape(r.ID), table.Escape(r.App), r.Runs, r.Stops, r.Demoted,
			len(r.Steps), table.Escape(name))
	}
	return tw.Flush()
}

func showRoutine(w io.Writer, r knowledge.Routine) error {
	w = table.EscapingWriter(w) // names, texts and pages learned from a phone
	fmt.Fprintf(w, "Routine %s in %s: run %d times to a good end, stopped %d times at a surprise", r.ID, r.App,
		r.Runs, r.Stops)
	if r.Demoted > 0 {
		fmt.Fprintf(w, ", demoted %d times after a wrong result", r.Demoted)
	}
	fmt.Fprintln(w)
	for _, n := range r.Names() {
		fmt.Fprintf(w, "  name: %s\n", n)
	}
	for i, p := range r.Params {
		ex := ""
		if p.Example != "" {
			ex = fmt.Sprintf(" (learned with %q)", p.Example)
		}
		fmt.Fprintf(w, "  {%d}: %s%s\n", i+1, p.What, ex)
	}
	for i, s := range r.Steps {
		page := s.Activity
		if j := strings.LastIndex(page, "."); j >= 0 {
			page = page[j+1:]
		}
		act := s.Action.String()
		if s.Text > 0 {
			act += fmt.Sprintf(" ← {%d}", s.Text)
		}
		fmt.Fprintf(w, "  %2d. on %s (%s): %s\n", i+1, page, s.Signature, act)
	}
	if r.End != "" {
		fmt.Fprintf(w, "  ends on page %s\n", r.End)
	}
	return nil
}

// completeRoutineIDs offers routine ids with their name.
func completeRoutineIDs(knowledgePath knowledgeRef) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []cobra.Completion
		if st := readKnowledge(knowledgePath); st != nil {
			defer st.Close()
			if rs, err := st.Routines(""); err == nil {
				for _, r := range rs {
					out = append(out, cobra.CompletionWithDesc(r.ID, r.App+": "+r.Name))
				}
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}
