package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fairy-go/fairy/internal/table"
	"github.com/fairy-go/fairy/rundir"
	"github.com/spf13/cobra"
)

// `fairy runs list|show|open`: the run directories that `fairy run`, `fairy demo` and
// `fairy mcp` leave under --runs, each with its summary.json, trace.jsonl, screenshots and
// report.html (written by writeRunPage as the run ends).

// runsDeps are the hooks of `fairy runs`.
type runsDeps struct {
	RunsDir func() (string, error)
	Stdout  io.Writer
	// Open shows a page to the person (xdg-open); nil never opens one.
	Open func(ctx context.Context, path string) error
}

// runJSON is one run of `fairy runs list --format json`; the schema is stable: fields are
// only added.
type runJSON struct {
	ID          string    `json:"id"`
	Dir         string    `json:"dir"`
	Instruction string    `json:"instruction"`
	Outcome     string    `json:"outcome"`
	Reason      string    `json:"reason"`
	Steps       int       `json:"steps"`
	ModelCalls  int       `json:"model_calls"`
	Questions   int       `json:"questions"`
	Started     time.Time `json:"started"`
	WallSeconds float64   `json:"wall_seconds"`
	Report      string    `json:"report"` // the page's path; "" when the run has none yet
}

// listRuns reads the run directories under dir, newest first. A directory that is not a
// run (an evaluation's, say) is left out; a missing dir has no runs.
func listRuns(dir string) ([]runJSON, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list runs in %s: %w", dir, err)
	}
	var out []runJSON
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		path := filepath.Join(dir, e.Name())
		v, err := rundir.Read(path)
		if err != nil {
			continue
		}
		out = append(out, runRow(v))
	}
	slices.SortFunc(out, func(a, b runJSON) int {
		return cmp.Or(b.Started.Compare(a.Started), strings.Compare(b.ID, a.ID))
	})
	return out, nil
}

func runRow(v *rundir.Run) runJSON {
	s := v.Summary
	r := runJSON{ID: s.RunID, Dir: v.Dir, Instruction: s.Instruction, Outcome: string(s.Outcome), Reason: s.Reason,
		Steps: s.Steps, ModelCalls: s.ModelCalls, Questions: s.Interactions, Started: s.Started, WallSeconds: s.WallSeconds}
	if r.Outcome == "" {
		r.Outcome = "unfinished"
	}
	if n, ok := traceSteps(v); ok {
		r.Steps = n
	}
	if r.Started.IsZero() {
		if info, err := os.Stat(v.Dir); err == nil {
			r.Started = info.ModTime()
		}
	}
	if _, err := os.Stat(filepath.Join(v.Dir, rundir.PageFile)); err == nil {
		r.Report = filepath.Join(v.Dir, rundir.PageFile)
	}
	return r
}

// traceSteps counts the steps of a run whose summary.json is missing or unreadable (the
// run was killed before writing it) from its trace, which is written as the run goes; ok
// is false when the summary has the figures or there is no trace to count from.
func traceSteps(v *rundir.Run) (n int, ok bool) {
	if v.Note == "" || v.Trajectory == nil {
		return 0, false
	}
	for _, ev := range v.Trajectory.Events {
		if ev.Kind == "StepStarted" {
			n++
		}
	}
	return n, true
}

// findRun resolves RUN: a run directory's path, a run ID, a unique ID prefix, or "last"
// (also no argument) for the newest run.
func findRun(runsDir string, args []string) (string, error) {
	ref := "last"
	if len(args) == 1 {
		ref = args[0]
	}
	if strings.ContainsRune(ref, os.PathSeparator) || ref == "." {
		if _, err := rundir.Read(ref); err != nil {
			return "", withExit(exitUsage, fmt.Errorf("%s: %w", ref, err))
		}
		return ref, nil
	}
	runs, err := listRuns(runsDir)
	if err != nil {
		return "", err
	}
	if len(runs) == 0 {
		return "", withExit(exitUsage, fmt.Errorf("no runs in %s yet: run a task (fairy run, fairy demo), "+
			"or pass --runs DIR", runsDir))
	}
	if ref == "last" || ref == "latest" {
		return runs[0].Dir, nil
	}
	var found []string
	for _, r := range runs {
		if r.ID == ref || filepath.Base(r.Dir) == ref {
			return r.Dir, nil
		}
		if strings.HasPrefix(filepath.Base(r.Dir), ref) {
			found = append(found, filepath.Base(r.Dir))
		}
	}
	switch len(found) {
	case 0:
		return "", withExit(exitUsage, fmt.Errorf("no run %q in %s: see 'fairy runs list'", ref, runsDir))
	case 1:
		return filepath.Join(runsDir, found[0]), nil
	}
	return "", withExit(exitUsage, fmt.Errorf("run %q matches %d runs (%s): give more of its ID", ref, len(found),
		strings.Join(found[:min(3, len(found))], ", ")))
}

// newRunsCmd builds `fairy runs list|show|open`.
func newRunsCmd(d runsDeps) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "runs [--format table|json]",
		Short: "List the runs of fairy run and fairy demo, show one, open its page; alone, it lists them",
	}
	var format string
	list := &cobra.Command{
		Use:   "list [--format table|json]",
		Short: "List the run directories, newest first: instruction, outcome, time",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := checkFormat(format); err != nil {
				return err
			}
			dir, err := d.RunsDir()
			if err != nil {
				return withExit(exitUsage, err)
			}
			runs, err := listRuns(dir)
			if err != nil {
				return err
			}
			out := c.OutOrStdout()
			if isJSON(format) {
				if runs == nil {
					runs = []runJSON{} // always an array
				}
				return writeJSON(out, runs)
			}
			if len(runs) == 0 {
				fmt.Fprintf(out, "No runs in %s yet.\n", dir)
				return nil
			}
			tw := table.NewWriter(out)
			fmt.Fprintln(tw, "RUN\tSTARTED\tOUTCOME\tSTEPS\tINSTRUCTION")
			for _, r := range runs {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", filepath.Base(r.Dir), r.Started.Local().Format("2006-01-02 15:04"),
					r.Outcome, r.Steps, clipWidth(oneLine(r.Instruction), 60))
			}
			return tw.Flush()
		},
	}
	addFormatFlag(list, &format)
	show := &cobra.Command{
		Use:   "show [RUN]",
		Short: "Summarise a run (RUN: its ID, an ID prefix, its directory, or last; default last)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			dir, err := d.RunsDir()
			if err != nil {
				return withExit(exitUsage, err)
			}
			run, err := findRun(dir, args)
			if err != nil {
				return err
			}
			v, err := rundir.Read(run)
			if err != nil {
				return err
			}
			return showRun(c.OutOrStdout(), v)
		},
	}
	open := &cobra.Command{
		Use:   "open [RUN]",
		Short: "Print the path of a run's report.html (writing it if missing); on a terminal, open it",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			dir, err := d.RunsDir()
			if err != nil {
				return withExit(exitUsage, err)
			}
			run, err := findRun(dir, args)
			if err != nil {
				return err
			}
			page := filepath.Join(run, rundir.PageFile)
			if _, err := os.Stat(page); err != nil {
				if page, err = rundir.WritePage(run); err != nil {
					return fmt.Errorf("write the run's page: %w", err)
				}
			}
			fmt.Fprintln(c.OutOrStdout(), page)
			if d.Open != nil && isTerminal(d.Stdout) {
				if err := d.Open(c.Context(), page); err != nil {
					fmt.Fprintf(c.ErrOrStderr(), "fairy: could not open it (%v): open %s in a browser\n", err, page)
				}
			}
			return nil
		},
	}
	cmd.AddCommand(list, show, open)
	// `fairy runs` alone lists, as `fairy runs list` does.
	addFormatFlag(cmd, &format)
	cmd.Args = cobra.NoArgs
	cmd.RunE = list.RunE
	return cmd
}

// showRun writes a person's summary of a run.
func showRun(w io.Writer, v *rundir.Run) error {
	w = table.EscapingWriter(w) // the instruction, questions and answers, what was learned
	s := v.Summary
	tw := table.NewWriter(w)
	outcome := string(s.Outcome)
	if outcome == "" {
		outcome = "unfinished"
	}
	if s.Reason != "" {
		outcome += " — " + oneLine(s.Reason)
	}
	rows := [][2]string{
		{"Run", s.RunID}, {"Directory", v.Dir}, {"Instruction", oneLine(s.Instruction)}, {"Outcome", outcome},
		{"Answer", oneLine(s.Answer)},
	}
	if !s.Started.IsZero() {
		rows = append(rows, [2]string{"Started", s.Started.Local().Format("2006-01-02 15:04:05")})
	}
	if n, ok := traceSteps(v); ok {
		rows = append(rows, [2]string{"Steps", fmt.Sprintf("%d (counted from the trace)", n)})
	}
	if v.Note == "" {
		rows = append(rows,
			[2]string{"Steps", fmt.Sprint(s.Steps)},
			[2]string{"Model calls", fmt.Sprintf("%d%s", s.ModelCalls, byRole(s.ModelCallsByRole))},
			[2]string{"Tokens", fmt.Sprintf("%d prompt, %d completion", s.PromptTokens, s.CompletionTokens)},
			[2]string{"Cost", fmt.Sprintf("$%.4f", s.Cost)},
			[2]string{"Time", fmt.Sprintf("%.1f s", s.WallSeconds)})
	}
	for _, r := range rows {
		if r[1] != "" {
			fmt.Fprintf(tw, "%s:\t%s\n", r[0], table.Escape(r[1]))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if v.Note != "" {
		fmt.Fprintln(w, v.Note)
	}
	if len(s.Tasks) > 0 {
		fmt.Fprintln(w, "\nApp tasks:")
		tw = table.NewWriter(w)
		for _, t := range s.Tasks {
			fmt.Fprintf(tw, "  %d.\t%s\t%s\t%s\t%s\n", t.Index+1, table.Escape(t.App), oneLine(t.Task),
				table.Escape(string(t.Outcome)), table.Count(t.Steps, "step", "steps"))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if len(v.Questions) > 0 {
		fmt.Fprintln(w, "\nQuestions:")
		for _, q := range v.Questions {
			fmt.Fprintf(w, "  %s → %s\n", oneLine(q.Text), oneLine(q.Answer))
		}
	}
	fmt.Fprintln(w, "\nKnowledge:")
	for _, k := range v.Knowledge {
		fmt.Fprintf(w, "  %s\n", k)
	}
	page := filepath.Join(v.Dir, rundir.PageFile)
	if _, err := os.Stat(page); err == nil {
		fmt.Fprintf(w, "\nReport: %s\n", page)
	} else {
		fmt.Fprintf(w, "\nReport: none yet: 'fairy runs open %s' writes it\n", filepath.Base(v.Dir))
	}
	return nil
}

func byRole(m map[string]int) string {
	if len(m) == 0 {
		return ""
	}
	roles := make([]string, 0, len(m))
	for r := range m {
		roles = append(roles, r)
	}
	slices.Sort(roles)
	parts := make([]string, len(roles))
	for i, r := range roles {
		parts[i] = fmt.Sprintf("%s %d", r, m[r])
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// oneLine folds s onto one line: text from a model or a screen may hold newlines and
// control characters, which would break a table or move the terminal's cursor.
func oneLine(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r < ' ' || r == 0x7f || r == ' ' }), " ")
}

// clipWidth cuts s to at most n terminal columns, ending it with "…" when cut.
func clipWidth(s string, n int) string {
	if table.Width(s) <= n {
		return s
	}
	w := 0
	for i, r := range s {
		rw := table.Width(string(r))
		if w+rw > n-1 {
			return s[:i] + "…"
		}
		w += rw
	}
	return s
}

// writeRunPage writes the run directory's report.html and says where, or why not: the
// run's outcome stands either way.
func writeRunPage(out io.Writer, dir string) {
	page, err := rundir.WritePage(dir)
	if err != nil {
		fmt.Fprintf(out, "report: not written: %v\n", err)
		return
	}
	fmt.Fprintf(out, "report: %s\n", page)
}

// xdgOpen opens path with the desktop's default application. The path is one argument of
// its own: no shell reads it.
func xdgOpen(ctx context.Context, path string) error {
	bin, err := exec.LookPath("xdg-open")
	if err != nil {
		return errors.New("xdg-open is not installed")
	}
	// xdg-open hands the page to the browser and returns.
	return exec.CommandContext(ctx, bin, path).Run()
}
