package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/fairy-go/fairy/internal/table"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/knowledge/etcdstore"
	"github.com/spf13/cobra"
)

// newKnowledgeCmd builds `fairy knowledge export|import|check|repair`: the knowledge file
// as a whole.
func newKnowledgeCmd(knowledgePath knowledgeRef) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "knowledge",
		Short: "Move everything learned between machines as JSON; check and repair the knowledge file",
	}
	export := &cobra.Command{
		Use:   "export FILE",
		Short: "Write all knowledge (apps, maps, tricks, runs) as JSON to FILE (- for stdout)",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runKnowledgeExport(c.OutOrStdout(), c.ErrOrStderr(), knowledgePath, args[0])
		},
	}
	imp := &cobra.Command{
		Use:   "import FILE",
		Short: "Merge knowledge exported by 'fairy knowledge export' (FILE, or - for stdin)",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runKnowledgeImport(c.InOrStdin(), c.OutOrStdout(), knowledgePath, args[0])
		},
	}
	check := &cobra.Command{
		Use:   "check [FILE]",
		Short: "Check a knowledge file (default: the configured one): exit 0 when sound, 2 with what is wrong",
		Long: `Reads every page and record of the knowledge file: bbolt's structure, every record, and
that the records agree (transitions and their pages, the trick index and the tricks).
Exit status 0 when it is sound, 2 with what is wrong otherwise. The file is only read.
Shared knowledge on etcd (--knowledge etcd://HOST:PORT/PREFIX, or FILE as such a location)
has no file: every record under the prefix is read and checked in the same way.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runKnowledgeCheck(c.OutOrStdout(), knowledgePath, args)
		},
	}
	var repairOut string
	repair := &cobra.Command{
		Use:   "repair [FILE] --out NEW",
		Short: "Copy every record of a damaged knowledge file that still reads into NEW; FILE is not changed",
		Long: `Reads the knowledge file (default: the configured one) page by page, skipping what is
damaged, and copies every record that still reads — apps, pages, transitions, tricks, runs,
with their IDs — into the new file NEW, which must not exist. It reports, kind by kind,
what it saved and what it lost. FILE itself is never written: use NEW with --knowledge
NEW, or move it in place of FILE.`,
		Example: "  fairy knowledge repair ~/.local/share/fairy/knowledge.db --out ~/knowledge-repaired.db",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runKnowledgeRepair(c.OutOrStdout(), knowledgePath, args, repairOut)
		},
	}
	repair.Flags().StringVar(&repairOut, "out", "", "the new file for the repaired copy (must not exist)")
	cmd.AddCommand(export, imp, check, repair)
	return cmd
}

// runKnowledgeExport is `fairy knowledge export FILE`: file "-" is out.
func runKnowledgeExport(out, errOut io.Writer, knowledgePath knowledgeRef, file string) error {
	return withKnowledge(knowledgePath, false, func(s *knowledge.Store) error {
		if file == "-" {
			return s.Export(out)
		}
		// Write beside the target and rename, so a failed export never leaves half a file.
		tmp, err := os.CreateTemp(filepath.Dir(file), ".fairy-export-*")
		if err != nil {
			return fmt.Errorf("export knowledge: %w", err)
		}
		defer os.Remove(tmp.Name())
		if err := s.Export(tmp); err != nil {
			tmp.Close()
			return err
		}
		if err := tmp.Close(); err != nil {
			return fmt.Errorf("export knowledge: %w", err)
		}
		if err := os.Rename(tmp.Name(), file); err != nil {
			return fmt.Errorf("export knowledge: %w", err)
		}
		fmt.Fprintf(errOut, "Exported knowledge to %s.\n", file)
		return nil
	})
}

// runKnowledgeImport is `fairy knowledge import FILE`: file "-" is in.
func runKnowledgeImport(in io.Reader, out io.Writer, knowledgePath knowledgeRef, file string) error {
	r := in
	if file != "-" {
		f, err := os.Open(file)
		if err != nil {
			return withExit(exitUsage, fmt.Errorf("import knowledge: %w", err)) // FILE is a bad argument
		}
		defer f.Close()
		if info, err := f.Stat(); err == nil && info.Size() > knowledge.MaxImportBytes {
			return withExit(2, fmt.Errorf("import knowledge: %s is %d MiB, over the %d MiB cap for an export: "+
				"nothing imported: %w",
				file, info.Size()>>20, knowledge.MaxImportBytes>>20, knowledge.ErrTooLarge))
		}
		r = f
	}
	return withKnowledge(knowledgePath, true, func(s *knowledge.Store) error {
		st, err := s.Import(r)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "Imported %s.\n", knowledgeCounts(st.Apps, st.Pages, st.Transitions, st.Tricks, st.Runs))
		return nil
	})
}

// fileArg is the FILE argument of check and repair: the configured knowledge file when
// none is given.
func fileArg(knowledgePath knowledgeRef, args []string) (string, error) {
	if len(args) == 1 {
		return args[0], nil
	}
	return knowledgePath.Path()
}

// runKnowledgeCheck is `fairy knowledge check [FILE]`.
func runKnowledgeCheck(out io.Writer, knowledgePath knowledgeRef, args []string) error {
	path, err := fileArg(knowledgePath, args)
	if err != nil {
		return withExit(2, err)
	}
	s, err := openKnowledgeStore(path, knowledge.Options{ReadOnly: true, Timeout: knowledgeLockWait},
		knowledgePath.Access())
	if err == nil {
		err = s.Check()
		if err == nil {
			err = printSound(out, s)
		}
		if cerr := s.Close(); err == nil {
			err = cerr
		}
	}
	if errors.Is(err, fs.ErrNotExist) {
		return withExit(2, fmt.Errorf("no knowledge file at %s: nothing to check (a run or fairy explore makes it); "+
			"name another with 'fairy knowledge check FILE'", path))
	}
	var de *knowledge.DamageError
	if errors.As(err, &de) {
		fmt.Fprintf(out, "%s is damaged:\n", path)
		for _, p := range de.Problems {
			fmt.Fprintf(out, "  - %s\n", p)
		}
		// The error says what to do; the problems are listed once, above it.
		listed := *de
		listed.Problems = []string{table.Count(len(de.Problems), "problem", "problems") + ", listed above"}
		err = &listed
	}
	if err != nil {
		return withExit(2, err)
	}
	return nil
}

// printSound says that the file of s is sound and what it holds.
func printSound(out io.Writer, s *knowledge.Store) error {
	apps, err := s.Apps()
	if err != nil {
		return err
	}
	runs, err := s.Runs(0)
	if err != nil {
		return err
	}
	var pages, trans, tricks int
	for _, a := range apps {
		pages, trans, tricks = pages+a.Pages, trans+a.Transitions, tricks+a.Tricks
	}
	fmt.Fprintf(out, "%s is sound: %s.\n", s.File(), knowledgeCounts(len(apps), pages, trans, tricks, len(runs)))
	return nil
}

// runKnowledgeRepair is `fairy knowledge repair [FILE] --out NEW`.
func runKnowledgeRepair(w io.Writer, knowledgePath knowledgeRef, args []string, out string) error {
	if out == "" {
		return withExit(2, errors.New("--out NEW is required: the repaired copy goes to a new file, "+
			"and FILE is never changed"))
	}
	path, err := fileArg(knowledgePath, args)
	if err != nil {
		return withExit(2, err)
	}
	if etcdstore.IsURL(path) {
		return withExit(2, fmt.Errorf("knowledge repair mends a knowledge file, and %s is shared knowledge on etcd: "+
			"'fairy knowledge check' says whether its records agree", path))
	}
	rep, err := knowledge.Repair(path, out, knowledge.Options{Timeout: knowledgeLockWait})
	if err != nil {
		return withExit(2, err)
	}
	if len(rep.Problems) == 0 {
		fmt.Fprintf(w, "%s has no damage; copied it whole.\n", path)
	} else {
		fmt.Fprintf(w, "%s is damaged:\n", path)
		for _, p := range rep.Problems {
			fmt.Fprintf(w, "  - %s\n", p)
		}
	}
	tw := table.NewWriter(w)
	fmt.Fprintln(tw, "KIND\tSAVED\tLOST\tDAMAGED PAGES")
	uncounted := false
	for _, k := range rep.Kinds {
		lost := strconv.Itoa(k.Lost)
		switch {
		case k.Uncounted && k.Lost == 0:
			lost = "unknown"
		case k.Uncounted:
			lost = "at least " + lost
		}
		uncounted = uncounted || k.Uncounted
		fmt.Fprintf(tw, "%s\t%d\t%s\t%d\n", k.Kind, k.Saved, lost, k.LostPages)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "Saved to %s; %s is unchanged. Use the copy with --knowledge %s, or move it in place of %s.\n", out,
		path, out, path)
	fmt.Fprintln(w, "LOST: records not saved (unreadable, on a damaged page that still counts them, "+
		"or named by the trick index); DAMAGED PAGES: pages skipped whole.")
	if uncounted {
		fmt.Fprintln(w, "\"unknown\" and \"at least\": damaged pages held records of that kind that nothing left in the "+
			"file counts.")
	}
	return nil
}
