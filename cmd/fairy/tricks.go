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

// newTricksCmd builds `fairy tricks list|show|add|rm`.
func newTricksCmd(knowledgePath knowledgeRef) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tricks",
		Short: "List, show, add and remove App Tricks (learned tips per app)",
	}
	var kindFlag, listFormat string
	list := &cobra.Command{
		Use:               "list [PKG] [--kind K] [--format table|json]",
		Short:             "List tricks, best first (PKG: one app, or \"common\")",
		Args:              cobra.MaximumNArgs(1),
		ValidArgsFunction: completeTrickApps(knowledgePath),
		RunE: func(c *cobra.Command, args []string) error {
			return runTricksList(c.OutOrStdout(), knowledgePath, listFormat, kindFlag, args)
		},
	}
	list.Flags().StringVar(&kindFlag, "kind", "", "only this kind: planning, action or error-recovery")
	_ = list.RegisterFlagCompletionFunc("kind", completeKinds)
	addFormatFlag(list, &listFormat)
	show := &cobra.Command{
		Use:               "show ID",
		Short:             "Show one trick with its provenance and counters",
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeTrickIDs(knowledgePath, false),
		RunE: func(c *cobra.Command, args []string) error {
			return runTricksShow(c.OutOrStdout(), knowledgePath, args[0])
		},
	}
	var addApp, addKind string
	add := &cobra.Command{
		Use:     "add --app PKG --kind KIND TEXT...",
		Short:   "Add a trick by hand",
		Example: `  fairy tricks add --app com.android.settings --kind action "Wi-Fi is under Network & internet."`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runTricksAdd(c.OutOrStdout(), knowledgePath, addApp, addKind, args)
		},
	}
	add.Flags().StringVar(&addApp, "app", "", "app package, or \"common\" for every app")
	_ = add.RegisterFlagCompletionFunc("app", completeTrickApps(knowledgePath))
	_ = add.RegisterFlagCompletionFunc("kind", completeKinds)
	add.Flags().StringVar(&addKind, "kind", string(knowledge.KindAction), "planning, action or error-recovery")
	rm := &cobra.Command{
		Use:               "rm ID...",
		Short:             "Remove tricks",
		Args:              cobra.MinimumNArgs(1),
		ValidArgsFunction: completeTrickIDs(knowledgePath, true),
		RunE: func(c *cobra.Command, args []string) error {
			return runTricksRemove(c.OutOrStdout(), knowledgePath, args)
		},
	}
	cmd.AddCommand(list, show, add, rm)
	return cmd
}

// runTricksList is `fairy tricks list [PKG] [--kind K]`: none when there is no knowledge
// file yet.
func runTricksList(out io.Writer, knowledgePath knowledgeRef, format, kindFlag string, args []string) error {
	if err := checkFormat(format); err != nil {
		return err
	}
	var kind knowledge.Kind
	if kindFlag != "" {
		k, err := knowledge.ParseKind(kindFlag)
		if err != nil {
			return withExit(2, err)
		}
		kind = k
	}
	app := ""
	if len(args) == 1 {
		app = args[0]
	}
	read := func(s *knowledge.Store) ([]knowledge.Trick, error) { return s.Tricks(app, kind) }
	return withKnowledgeList(knowledgePath, read, func(tricks []knowledge.Trick) error {
		return writeTrickList(out, knowledgePath, format, tricks)
	})
}

// writeTrickList writes the list of `fairy tricks list`, each trick's text on one line.
func writeTrickList(out io.Writer, knowledgePath knowledgeRef, format string, tricks []knowledge.Trick) error {
	if isJSON(format) {
		return writeTricks(out, tricks)
	}
	if len(tricks) == 0 {
		fmt.Fprintln(out, "No tricks.")
		printDemoNote(out, knowledgePath)
		return nil
	}
	tw := table.NewWriter(out)
	fmt.Fprintln(tw, "ID\tAPP\tKIND\tSCORE\tUSES\tTEXT")
	for _, t := range tricks {
		text := strings.Join(strings.Fields(t.Text), " ")
		if r := []rune(text); len(r) > 70 {
			text = string(r[:69]) + "…"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.2f\t%d/%d\t%s\n", table.Escape(t.ID), table.Escape(t.App), t.Kind, t.Score,
			t.Successes, t.Uses, text)
	}
	return tw.Flush()
}

// runTricksShow is `fairy tricks show ID`.
func runTricksShow(out io.Writer, knowledgePath knowledgeRef, id string) error {
	return withKnowledge(knowledgePath, false, func(s *knowledge.Store) error {
		t, err := s.Trick(id)
		if err != nil {
			return err
		}
		tw := table.NewWriter(out)
		for _, row := range [][2]string{
			{"ID", t.ID}, {"App", t.App}, {"Kind", string(t.Kind)}, {"Text", t.Text},
			{"Score", fmt.Sprintf("%.2f", t.Score)},
			{"Uses", fmt.Sprintf("%d (%d succeeded)", t.Uses, t.Successes)},
			{"Merged", fmt.Sprint(t.Merges)}, {"Demoted", fmt.Sprint(t.Demotions)},
			{"Learned", t.Provenance.Time.Local().Format("2006-01-02 15:04:05")},
			{"Instruction", t.Provenance.Instruction}, {"Run", t.Provenance.RunID}, {"Outcome", t.Provenance.Outcome},
		} {
			if row[1] != "" {
				fmt.Fprintf(tw, "%s:\t%s\n", row[0], table.Escape(row[1])) // one field a row, whatever it holds
			}
		}
		return tw.Flush()
	})
}

// runTricksAdd is `fairy tricks add --app PKG --kind KIND TEXT...`.
func runTricksAdd(out io.Writer, knowledgePath knowledgeRef, app, kindFlag string, args []string) error {
	kind, err := knowledge.ParseKind(kindFlag)
	if err != nil {
		return withExit(2, err)
	}
	if app == "" {
		return withExit(2, errors.New("--app is required (a package, or \"common\")"))
	}
	return withKnowledge(knowledgePath, true, func(s *knowledge.Store) error {
		t, merged, err := s.UpsertTrick(knowledge.Trick{App: app, Kind: kind, Text: strings.Join(args, " "),
			Provenance: knowledge.Provenance{Outcome: "manual"}})
		if err != nil {
			return err
		}
		if merged {
			fmt.Fprintf(out, "Merged into similar trick %s.\n", t.ID)
		} else {
			fmt.Fprintf(out, "Added trick %s.\n", t.ID)
		}
		return nil
	})
}

// runTricksRemove is `fairy tricks rm ID...`.
func runTricksRemove(out io.Writer, knowledgePath knowledgeRef, ids []string) error {
	return withKnowledge(knowledgePath, true, func(s *knowledge.Store) error {
		for _, id := range ids {
			if err := s.DeleteTrick(id); err != nil {
				return err
			}
			fmt.Fprintf(out, "Removed trick %s.\n", id)
		}
		return nil
	})
}
