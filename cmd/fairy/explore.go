package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"sort"
	"time"

	"github.com/spf13/cobra"

	"github.com/fairy-go/fairy/executor/adb"
	"github.com/fairy-go/fairy/explore"
	"github.com/fairy-go/fairy/guard"
	"github.com/fairy-go/fairy/internal/table"
	"github.com/fairy-go/fairy/knowledge"
)

// exploreDeps are the hooks of `fairy explore`.
type exploreDeps struct {
	OpenDevice    func(ctx context.Context) (*adb.Device, error)
	Target        func() deviceTarget // the phone, for completing PKG; nil: the knowledge file's apps only
	KnowledgePath knowledgeRef
	Guard         func() (*guard.Guard, error) // nil guard: the default policy
	Logger        func() *slog.Logger
	Stdout        io.Writer
	Style         termStyle
}

// exploreFlags are `fairy explore`'s options.
type exploreFlags struct {
	budget   int
	depth    int
	time     time.Duration
	dryRun   bool
	pictures bool
}

// packageName is an Android package name.
var packageName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$`)

// newExploreCmd builds `fairy explore`.
func newExploreCmd(d exploreDeps) *cobra.Command {
	var f exploreFlags
	cmd := &cobra.Command{
		Use:   "explore PKG [--budget N] [--depth D] [--time T] [--dry-run]",
		Short: "Map an app's pages before any task, with no model: a safe breadth-first crawler",
		Long: `Launches the app and visits its pages breadth first through the elements that open a page
(list rows, tabs, buttons), recording pages and transitions into the App Map exactly as a
task would; the pages are marked explored. No model is used.

It never taps what the guard judges sensitive, never toggles a switch, checkbox or radio
button, never types, never confirms a dialog (it dismisses it with Back), never taps a
control whose words say it acts (clear, stop, reset, OK, Open, …), and leaves another app
at once. It comes back with Back, or relaunches the app and replays the path.
Ctrl-C stops it and keeps what it learned.`,
		Example: `  fairy explore com.android.settings --budget 200
  fairy explore com.example.app --dry-run`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeExplorable(d),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExplore(cmd.Context(), d, f, args[0], cmd.OutOrStdout())
		},
	}
	fl := cmd.Flags()
	fl.IntVar(&f.budget, "budget", explore.DefaultBudget, "most actions to take (taps, Back presses, scrolls, launches)")
	fl.IntVar(&f.depth, "depth", explore.DefaultDepth, "deepest page to explore, in taps from the first page")
	fl.DurationVar(&f.time, "time", 0, "longest wall time, e.g. 5m (0: the budget bounds it)")
	fl.BoolVar(&f.dryRun, "dry-run", false, "launch the app and print what would be tapped on its first page, "+
		"without a tap")
	fl.BoolVar(&f.pictures, "pictures", true, "file a small picture of every new page for the map view")
	return cmd
}

// completeExplorable offers PKG: the phone's launchable apps (explore maps an app before
// any task, so the knowledge file may not know it yet), or the knowledge file's apps when
// the phone cannot be reached.
func completeExplorable(d exploreDeps) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if d.Target != nil {
			if out, dir := completeLaunchable(d.Target)(cmd, args, toComplete); len(out) > 0 {
				return out, dir
			}
		}
		return completeMapApps(d.KnowledgePath)(cmd, args, toComplete)
	}
}

func runExplore(ctx context.Context, d exploreDeps, f exploreFlags, app string, stdout io.Writer) error {
	switch {
	case !packageName.MatchString(app):
		return withExit(exitUsage, fmt.Errorf("%q is no package name: pass one like com.android.settings "+
			"(see `fairy apps`)", app))
	case f.budget < 1:
		return withExit(exitUsage, fmt.Errorf("--budget must be at least 1, got %d", f.budget))
	case f.depth < 1:
		return withExit(exitUsage, fmt.Errorf("--depth must be at least 1, got %d", f.depth))
	case f.time < 0:
		return withExit(exitUsage, fmt.Errorf("--time must not be negative, got %s", f.time))
	}
	out := stdout
	if d.Stdout != nil {
		out = d.Stdout
	}
	out = d.Style.wrap(out)
	var guard *guard.Guard
	if d.Guard != nil {
		g, err := d.Guard()
		if err != nil {
			return withExit(exitUsage, err)
		}
		guard = g
	}
	log := slog.New(slog.DiscardHandler)
	if d.Logger != nil {
		log = d.Logger()
	}
	dev, err := d.OpenDevice(ctx)
	if err != nil {
		return err
	}
	defer dev.Close(context.WithoutCancel(ctx))
	store, err := openKnowledge(d.KnowledgePath, true)
	if err != nil {
		return err
	}
	defer store.Close()

	if !f.dryRun {
		keepLabel(ctx, dev, store, app, log)
	}

	tw, live := out.(*termWriter)
	cfg := explore.Config{Device: dev, Store: store, App: app, Guard: guard, Budget: f.budget,
		Depth: f.depth, Time: f.time,
		DryRun: f.dryRun, Pictures: f.pictures && !f.dryRun, Logger: log,
		Progress: func(p explore.Progress) {
			if p.Found != "" {
				// The map's page ID, so that `fairy map show` finds the page under the same name.
				fmt.Fprintf(out, "+ page %s: %s · %d pages, %d transitions · %d actions, %d left\n", p.PageID,
					table.Escape(p.Found), p.Pages, p.Transitions, p.Actions, p.Left)
			}
			if live && tw.style.Live {
				tw.showStatus(fmt.Sprintf("%d pages · %d transitions · %d actions left · %s on %s", p.Pages, p.Transitions,
					p.Left, p.Doing, p.Page))
			}
		}}
	if f.dryRun {
		fmt.Fprintf(out, "dry run: %s, first page only, no tap\n", app)
	} else {
		fmt.Fprintf(out, "exploring %s: budget %d actions, depth %d (no model; Ctrl-C keeps what is learned)\n", app,
			f.budget, f.depth)
	}
	sum, err := explore.Run(ctx, cfg)
	if live {
		tw.clearStatus()
	}
	if err != nil {
		if errors.Is(err, explore.ErrNotLaunched) || errors.Is(err, adb.ErrNoLauncher) {
			return withExit(exitUsage, err)
		}
		return err
	}
	if f.dryRun {
		for _, t := range sum.Taps {
			fmt.Fprintf(out, "would tap   %s %q\n", t.Role, t.Element)
		}
		for _, t := range sum.Left {
			fmt.Fprintf(out, "leave alone %s %q: %s\n", t.Role, t.Element, t.Reason)
		}
		return nil
	}
	fmt.Fprintf(out, "explored %s: %d pages (%d new), %d transitions, %d actions in %s; ended: %s\n",
		app, sum.Pages, sum.NewPages, sum.Transitions, sum.Actions, sum.Elapsed.Round(100*time.Millisecond), sum.Stopped)
	if len(sum.Skipped) > 0 {
		reasons := make([]string, 0, len(sum.Skipped))
		for r := range sum.Skipped {
			reasons = append(reasons, r)
		}
		sort.Strings(reasons)
		fmt.Fprint(out, "left alone:")
		for _, r := range reasons {
			fmt.Fprintf(out, " %d %s;", sum.Skipped[r], r)
		}
		fmt.Fprintln(out)
	}
	if sum.Unreached > 0 {
		fmt.Fprintf(out, "%s found but not explored: %s\n", table.Count(sum.Unreached, "page", "pages"),
			unexploredAdvice(ctx, sum.Stopped))
	}
	fmt.Fprintf(out, "see it: fairy map show %s%s\n", app, d.KnowledgePath.flag())
	if ctx.Err() != nil {
		// Ctrl-C: what was learned is kept; the exit status says it was cut short.
		return fmt.Errorf("explore stopped: what it learned is kept: %w", ctx.Err())
	}
	return nil
}

// unexploredAdvice says why pages were left unexplored, by why the crawl ended, and what
// to do: an interrupted crawl was cut short by the person, not by its budget.
func unexploredAdvice(ctx context.Context, stopped string) string {
	switch {
	case stopped == "interrupted" || ctx.Err() != nil:
		return "the exploration was interrupted before it reached them (what it learned is kept); " +
			"run it again to explore them"
	case stopped == "time":
		return "the --time limit ended it; run it again with a longer --time"
	case stopped == "budget":
		return "the --budget of actions ran out; run it again with a larger --budget"
	}
	return "run it again with a larger --budget or --depth"
}

// keepLabel tells the knowledge file the app's label and launcher activity as the phone
// lists them, as a run does, so that `fairy map list` names an app only explored. A phone
// that cannot list its apps leaves the label unknown.
func keepLabel(ctx context.Context, dev *adb.Device, store *knowledge.Store, app string, log *slog.Logger) {
	list, err := dev.Apps(ctx)
	if err != nil {
		log.Warn("listing the phone's apps failed; the app's label stays unknown", "err", err)
		return
	}
	for _, a := range list {
		if a.Package == app && a.Label != "" {
			if _, err := store.PutApp(knowledge.App{Package: app, Label: a.Label, LauncherActivity: a.Activity}); err != nil {
				log.Warn("keeping the app's label failed", "err", err)
			}
			return
		}
	}
}
