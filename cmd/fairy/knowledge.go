package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fairy-go/fairy/internal/table"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/knowledge/etcdstore"
	"github.com/spf13/cobra"
)

// Commands to inspect and edit long-term knowledge: `fairy map …`, `fairy
// tricks …`, `fairy knowledge export|import|check|repair`. Each takes knowledgePath,
// which resolves the --knowledge flag or its default when the command runs. A damaged
// file is exit status 2 with the knowledge package's sentence saying what to do.

// knowledgeLockWait is how long inspection commands wait for a file that a
// running fairy holds.
const knowledgeLockWait = 2 * time.Second

// openKnowledge opens the knowledge file; read-only commands on a missing file
// get errNoKnowledge so they can say there is nothing learned yet.
func openKnowledge(knowledgePath knowledgeRef, write bool) (*knowledge.Store, error) {
	path, err := knowledgePath.Path()
	if err != nil {
		return nil, err
	}
	if write && !etcdstore.IsURL(path) {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, fmt.Errorf("create knowledge directory: %w", err)
		}
	}
	s, err := openKnowledgeStore(path, knowledge.Options{ReadOnly: !write, Timeout: knowledgeLockWait}, knowledgePath.Access())
	if !write && errors.Is(err, fs.ErrNotExist) {
		if note := knowledgePath.demoNote(); note != "" {
			return nil, fmt.Errorf("no knowledge file at %s yet (%s): %w", path, note, errNoKnowledge)
		}
		return nil, fmt.Errorf("no knowledge file at %s yet: run a task first, or pass --knowledge FILE: %w", path, errNoKnowledge)
	}
	return s, err
}

var errNoKnowledge = errors.New("nothing learned yet")

// printDemoNote follows "nothing learned" with where the demo's knowledge is, if there is
// one the person may be looking for.
func printDemoNote(w io.Writer, knowledgePath knowledgeRef) {
	if note := knowledgePath.demoNote(); note != "" {
		fmt.Fprintf(w, "(%s)\n", note)
	}
}

// withKnowledge runs f on an open store and closes it.
func withKnowledge(knowledgePath knowledgeRef, write bool, f func(*knowledge.Store) error) error {
	s, err := openKnowledge(knowledgePath, write)
	if err != nil {
		return err
	}
	err = f(s)
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	return err
}

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
	return fmt.Errorf("%w: %s and %s are connected only through %s, which changes the app; an action that changes the app is never a way to a page",
		noPath, from.ID, to.ID, strings.Join(effects, " and "))
}

// newMapCmd builds `fairy map list|show|path|export|view` (view: mapview.go).
func newMapCmd(knowledgePath knowledgeRef) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "map",
		Short: "Inspect the learned App Maps (pages and transitions of each app)",
	}
	var listFormat, showFormat, pathFormat string
	list := &cobra.Command{
		Use:   "list [--format table|json]",
		Short: "List apps with their page, transition and trick counts",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := checkFormat(listFormat); err != nil {
				return err
			}
			err := withKnowledge(knowledgePath, false, func(s *knowledge.Store) error {
				apps, err := s.Apps()
				if err != nil {
					return err
				}
				if isJSON(listFormat) {
					return writeMapList(c.OutOrStdout(), apps)
				}
				if len(apps) == 0 {
					fmt.Fprintln(c.OutOrStdout(), "No apps learned yet.")
					printDemoNote(c.OutOrStdout(), knowledgePath)
					return nil
				}
				tw := table.NewWriter(c.OutOrStdout())
				fmt.Fprintln(tw, "PACKAGE\tLABEL\tPAGES\tTRANSITIONS\tTRICKS")
				for _, a := range apps {
					fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\n", a.Package, a.Label, a.Pages, a.Transitions, a.Tricks)
				}
				return tw.Flush()
			})
			if errors.Is(err, errNoKnowledge) {
				if isJSON(listFormat) {
					return writeMapList(c.OutOrStdout(), nil)
				}
				fmt.Fprintln(c.OutOrStdout(), "No apps learned yet.")
				printDemoNote(c.OutOrStdout(), knowledgePath)
				return nil
			}
			return err
		},
	}
	show := &cobra.Command{
		Use:               "show PKG [--format table|json]",
		Short:             "Show an app's pages and transitions as a table (or the map as JSON)",
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeMapApps(knowledgePath),
		RunE: func(c *cobra.Command, args []string) error {
			if err := checkFormat(showFormat); err != nil {
				return err
			}
			return withKnowledge(knowledgePath, false, func(s *knowledge.Store) error {
				m, err := appMap(s, args[0])
				if err != nil {
					return err
				}
				if isJSON(showFormat) {
					return m.WriteJSON(c.OutOrStdout())
				}
				return m.WriteTable(c.OutOrStdout())
			})
		},
	}
	path := &cobra.Command{
		Use:               "path PKG FROM TO [--format table|json]",
		Short:             "Show the known path between two pages (page IDs like p3, keys, or key prefixes)",
		Args:              cobra.ExactArgs(3),
		ValidArgsFunction: completeMapPath(knowledgePath),
		RunE: func(c *cobra.Command, args []string) error {
			if err := checkFormat(pathFormat); err != nil {
				return err
			}
			return withKnowledge(knowledgePath, false, func(s *knowledge.Store) error {
				steps, err := s.Path(args[0], args[1], args[2])
				if errors.Is(err, knowledge.ErrNoPath) {
					return onlyThroughEffects(s, args, err)
				}
				if err != nil {
					return err
				}
				out := c.OutOrStdout()
				if len(steps) == 0 && !isJSON(pathFormat) {
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
				if isJSON(pathFormat) {
					return writePath(out, steps, name)
				}
				tw := table.NewWriter(out)
				fmt.Fprintln(tw, "STEP\tFROM\tACTION\tTO\tRELIABILITY")
				for i, t := range steps {
					fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%.2f\n", i+1, name(t.From), t.Action, name(t.To), t.Reliability())
				}
				return tw.Flush()
			})
		},
	}
	var format string
	export := &cobra.Command{
		Use:   "export PKG",
		Short: "Write an app's map as Graphviz DOT, JSON or Mermaid to stdout",
		Example: `  fairy map export com.android.settings --format dot | dot -Tsvg > settings.svg
  fairy map export com.android.settings --format mermaid`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			write := map[string]func(*knowledge.Map, io.Writer) error{
				"dot": (*knowledge.Map).WriteDOT, "json": (*knowledge.Map).WriteJSON, "mermaid": (*knowledge.Map).WriteMermaid,
			}[strings.ToLower(format)]
			if write == nil {
				return withExit(2, fmt.Errorf("--format %q: want dot, json or mermaid", format))
			}
			return withKnowledge(knowledgePath, false, func(s *knowledge.Store) error {
				m, err := appMap(s, args[0])
				if err != nil {
					return err
				}
				return write(m, c.OutOrStdout())
			})
		},
	}
	export.Flags().StringVar(&format, "format", "dot", "output format: dot, json or mermaid")
	_ = export.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"dot", "json", "mermaid"}, cobra.ShellCompDirectiveNoFileComp))
	export.ValidArgsFunction = completeMapApps(knowledgePath)
	addFormatFlag(list, &listFormat)
	addFormatFlag(show, &showFormat)
	addFormatFlag(path, &pathFormat)
	cmd.AddCommand(list, show, path, export, newMapViewCmd(knowledgePath))
	return cmd
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
			if err := checkFormat(listFormat); err != nil {
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
			err := withKnowledge(knowledgePath, false, func(s *knowledge.Store) error {
				tricks, err := s.Tricks(app, kind)
				if err != nil {
					return err
				}
				if isJSON(listFormat) {
					return writeTricks(c.OutOrStdout(), tricks)
				}
				if len(tricks) == 0 {
					fmt.Fprintln(c.OutOrStdout(), "No tricks.")
					printDemoNote(c.OutOrStdout(), knowledgePath)
					return nil
				}
				tw := table.NewWriter(c.OutOrStdout())
				fmt.Fprintln(tw, "ID\tAPP\tKIND\tSCORE\tUSES\tTEXT")
				for _, t := range tricks {
					text := strings.Join(strings.Fields(t.Text), " ")
					if r := []rune(text); len(r) > 70 {
						text = string(r[:69]) + "…"
					}
					fmt.Fprintf(tw, "%s\t%s\t%s\t%.2f\t%d/%d\t%s\n", t.ID, t.App, t.Kind, t.Score, t.Successes, t.Uses, text)
				}
				return tw.Flush()
			})
			if errors.Is(err, errNoKnowledge) {
				if isJSON(listFormat) {
					return writeTricks(c.OutOrStdout(), nil)
				}
				fmt.Fprintln(c.OutOrStdout(), "No tricks.")
				printDemoNote(c.OutOrStdout(), knowledgePath)
				return nil
			}
			return err
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
			return withKnowledge(knowledgePath, false, func(s *knowledge.Store) error {
				t, err := s.Trick(args[0])
				if err != nil {
					return err
				}
				tw := table.NewWriter(c.OutOrStdout())
				for _, row := range [][2]string{
					{"ID", t.ID}, {"App", t.App}, {"Kind", string(t.Kind)}, {"Text", t.Text},
					{"Score", fmt.Sprintf("%.2f", t.Score)},
					{"Uses", fmt.Sprintf("%d (%d succeeded)", t.Uses, t.Successes)},
					{"Merged", fmt.Sprint(t.Merges)}, {"Demoted", fmt.Sprint(t.Demotions)},
					{"Learned", t.Provenance.Time.Local().Format("2006-01-02 15:04:05")},
					{"Instruction", t.Provenance.Instruction}, {"Run", t.Provenance.RunID}, {"Outcome", t.Provenance.Outcome},
				} {
					if row[1] != "" {
						fmt.Fprintf(tw, "%s:\t%s\n", row[0], row[1])
					}
				}
				return tw.Flush()
			})
		},
	}
	var addApp, addKind string
	add := &cobra.Command{
		Use:     "add --app PKG --kind KIND TEXT...",
		Short:   "Add a trick by hand",
		Example: `  fairy tricks add --app com.android.settings --kind action "Wi-Fi is under Network & internet."`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			kind, err := knowledge.ParseKind(addKind)
			if err != nil {
				return withExit(2, err)
			}
			if addApp == "" {
				return withExit(2, errors.New("--app is required (a package, or \"common\")"))
			}
			return withKnowledge(knowledgePath, true, func(s *knowledge.Store) error {
				t, merged, err := s.UpsertTrick(knowledge.Trick{App: addApp, Kind: kind, Text: strings.Join(args, " "),
					Provenance: knowledge.Provenance{Outcome: "manual"}})
				if err != nil {
					return err
				}
				if merged {
					fmt.Fprintf(c.OutOrStdout(), "Merged into similar trick %s.\n", t.ID)
				} else {
					fmt.Fprintf(c.OutOrStdout(), "Added trick %s.\n", t.ID)
				}
				return nil
			})
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
			return withKnowledge(knowledgePath, true, func(s *knowledge.Store) error {
				for _, id := range args {
					if err := s.DeleteTrick(id); err != nil {
						return err
					}
					fmt.Fprintf(c.OutOrStdout(), "Removed trick %s.\n", id)
				}
				return nil
			})
		},
	}
	cmd.AddCommand(list, show, add, rm)
	return cmd
}

// newKnowledgeCmd builds `fairy knowledge export|import|check|repair`.
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
			return withKnowledge(knowledgePath, false, func(s *knowledge.Store) error {
				if args[0] == "-" {
					return s.Export(c.OutOrStdout())
				}
				// Write beside the target and rename, so a failed export never leaves half a file.
				tmp, err := os.CreateTemp(filepath.Dir(args[0]), ".fairy-export-*")
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
				if err := os.Rename(tmp.Name(), args[0]); err != nil {
					return fmt.Errorf("export knowledge: %w", err)
				}
				fmt.Fprintf(c.ErrOrStderr(), "Exported knowledge to %s.\n", args[0])
				return nil
			})
		},
	}
	imp := &cobra.Command{
		Use:   "import FILE",
		Short: "Merge knowledge exported by 'fairy knowledge export' (FILE, or - for stdin)",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			var r io.Reader = c.InOrStdin()
			if args[0] != "-" {
				f, err := os.Open(args[0])
				if err != nil {
					return withExit(exitUsage, fmt.Errorf("import knowledge: %w", err)) // FILE is a bad argument
				}
				defer f.Close()
				if info, err := f.Stat(); err == nil && info.Size() > knowledge.MaxImportBytes {
					return withExit(2, fmt.Errorf("import knowledge: %s is %d MiB, over the %d MiB cap for an export: nothing imported: %w",
						args[0], info.Size()>>20, knowledge.MaxImportBytes>>20, knowledge.ErrTooLarge))
				}
				r = f
			}
			return withKnowledge(knowledgePath, true, func(s *knowledge.Store) error {
				st, err := s.Import(r)
				if err != nil {
					return err
				}
				fmt.Fprintf(c.OutOrStdout(), "Imported %s.\n", knowledgeCounts(st.Apps, st.Pages, st.Transitions, st.Tricks, st.Runs))
				return nil
			})
		},
	}
	cmd.AddCommand(export, imp, newKnowledgeCheckCmd(knowledgePath), newKnowledgeRepairCmd(knowledgePath))
	return cmd
}

// fileArg is the FILE argument of check and repair: the configured knowledge file when
// none is given.
func fileArg(knowledgePath knowledgeRef, args []string) (string, error) {
	if len(args) == 1 {
		return args[0], nil
	}
	return knowledgePath.Path()
}

// newKnowledgeCheckCmd builds `fairy knowledge check [FILE]`.
func newKnowledgeCheckCmd(knowledgePath knowledgeRef) *cobra.Command {
	return &cobra.Command{
		Use:   "check [FILE]",
		Short: "Check a knowledge file (default: the configured one): exit 0 when sound, 2 with what is wrong",
		Long: `Reads every page and record of the knowledge file: bbolt's structure, every record, and
that the records agree (transitions and their pages, the trick index and the tricks).
Exit status 0 when it is sound, 2 with what is wrong otherwise. The file is only read.
Shared knowledge on etcd (--knowledge etcd://HOST:PORT/PREFIX, or FILE as such a location)
has no file: every record under the prefix is read and checked in the same way.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			path, err := fileArg(knowledgePath, args)
			if err != nil {
				return withExit(2, err)
			}
			out := c.OutOrStdout()
			s, err := openKnowledgeStore(path, knowledge.Options{ReadOnly: true, Timeout: knowledgeLockWait}, knowledgePath.Access())
			if err == nil {
				err = s.Check()
				if err == nil {
					err = printSound(out, s)
				}
				if cerr := s.Close(); err == nil {
					err = cerr
				}
			}
			var de *knowledge.DamageError
			if errors.As(err, &de) {
				fmt.Fprintf(out, "%s is damaged:\n", path)
				for _, p := range de.Problems {
					fmt.Fprintf(out, "  - %s\n", p)
				}
			}
			if err != nil {
				return withExit(2, err)
			}
			return nil
		},
	}
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

// newKnowledgeRepairCmd builds `fairy knowledge repair [FILE] --out NEW`.
func newKnowledgeRepairCmd(knowledgePath knowledgeRef) *cobra.Command {
	var out string
	cmd := &cobra.Command{
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
			if out == "" {
				return withExit(2, errors.New("--out NEW is required: the repaired copy goes to a new file, and FILE is never changed"))
			}
			path, err := fileArg(knowledgePath, args)
			if err != nil {
				return withExit(2, err)
			}
			if etcdstore.IsURL(path) {
				return withExit(2, fmt.Errorf("knowledge repair mends a knowledge file, and %s is shared knowledge on etcd: 'fairy knowledge check' says whether its records agree", path))
			}
			rep, err := knowledge.Repair(path, out, knowledge.Options{Timeout: knowledgeLockWait})
			if err != nil {
				return withExit(2, err)
			}
			w := c.OutOrStdout()
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
			for _, k := range rep.Kinds {
				fmt.Fprintf(tw, "%s\t%d\t%d\t%d\n", k.Kind, k.Saved, k.Lost, k.LostPages)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			fmt.Fprintf(w, "Saved to %s; %s is unchanged. Use the copy with --knowledge %s, or move it in place of %s.\n", out, path, out, path)
			fmt.Fprintln(w, "LOST: records known but not saved (unreadable, or named by the trick index); DAMAGED PAGES: pages skipped whole, their records uncounted.")
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "the new file for the repaired copy (must not exist)")
	return cmd
}

// knowledgeCounts says how much knowledge there is: "1 app, 3 pages, 2 transitions, 1 trick, 0 runs".
func knowledgeCounts(apps, pages, transitions, tricks, runs int) string {
	return strings.Join([]string{table.Count(apps, "app", "apps"), table.Count(pages, "page", "pages"),
		table.Count(transitions, "transition", "transitions"), table.Count(tricks, "trick", "tricks"), table.Count(runs, "run", "runs")}, ", ")
}
