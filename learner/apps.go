package learner

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/fairy-go/fairy/knowledge"
)

// AppInfo is an installed app as the device lists it (adb.App has the same fields).
type AppInfo struct {
	Package, Activity, Label string
}

// LearnApps stores what the device says about its apps (label, launcher activity) in one
// transaction; learned descriptions are kept.
func (l *Learner) LearnApps(apps []AppInfo) error {
	err := l.cfg.Store.Update(func(tx *knowledge.Tx) error {
		for _, a := range apps {
			if a.Package == "" {
				continue
			}
			if _, err := tx.PutApp(knowledge.App{Package: a.Package, Label: a.Label, LauncherActivity: a.Activity}); err != nil {
				return fmt.Errorf("app %s: %w", a.Package, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%w: learn apps: %w", errStore, err)
	}
	return nil
}

// DescribeApps writes one line per app for the Global Planner: package, label and the
// learned description of what the app is for. packages limits the list (nil: every app
// the knowledge file knows); unknown packages are listed bare.
func (l *Learner) DescribeApps(ctx context.Context, packages []string) (string, error) {
	var apps []knowledge.App
	if packages == nil {
		all, err := l.cfg.Store.ListApps()
		if err != nil {
			return "", fmt.Errorf("%w: list apps: %w", errStore, err)
		}
		apps = all
	} else {
		for _, p := range packages {
			if err := ctx.Err(); err != nil {
				return "", err
			}
			a, err := l.cfg.Store.GetApp(p)
			if errors.Is(err, knowledge.ErrNotFound) {
				a = knowledge.App{Package: p}
			} else if err != nil {
				return "", fmt.Errorf("%w: app %s: %w", errStore, p, err)
			}
			apps = append(apps, a)
		}
	}
	var b strings.Builder
	for _, a := range apps {
		b.WriteString("- " + a.Package)
		if a.Label != "" {
			fmt.Fprintf(&b, " (%s)", a.Label)
		}
		if a.Description != "" {
			b.WriteString(": " + a.Description)
		}
		b.WriteString("\n")
	}
	return b.String(), nil
}

// search is the store's trick search with a kind given as a string.
func (l *Learner) search(app, kind, query string, k int) ([]knowledge.Hit, error) {
	var kd knowledge.Kind
	if kind != "" {
		var err error
		if kd, err = knowledge.ParseKind(kind); err != nil {
			return nil, fmt.Errorf("tricks of %s: %w", app, err)
		}
	}
	hits, err := l.cfg.Store.Search(app, kd, query, k)
	if err != nil {
		return nil, fmt.Errorf("%w: tricks of %s: %w", errStore, app, err)
	}
	return hits, nil
}

// Tricks returns the k tricks of app (and common ones) of kind ("planning", "action",
// "error-recovery", or "" for all) most relevant to query, as prompt lines. Use a
// Session's Tricks during a run, so the tricks given are counted after the task.
func (l *Learner) Tricks(ctx context.Context, app, kind, query string, k int) ([]string, error) {
	hits, err := l.search(app, kind, query, k)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(hits))
	for _, h := range hits {
		out = append(out, h.Trick.Text)
	}
	return out, nil
}
