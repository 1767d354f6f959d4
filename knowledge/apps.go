package knowledge

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// App is an app's metadata: what the Global Planner knows about it.
type App struct {
	Package          string    `json:"package"`
	Label            string    `json:"label,omitempty"`
	LauncherActivity string    `json:"launcher_activity,omitempty"`
	Description      string    `json:"description,omitempty"` // learned: what the app is for
	Updated          time.Time `json:"updated"`
}

// PutApp stores an app's metadata. Empty fields keep their stored values, so
// a device scan (label, activity) and the learner (description) can each
// write what they know.
func (s *Store) PutApp(a App) (App, error) {
	err := s.Update(func(tx *Tx) error { var err error; a, err = tx.PutApp(a); return err })
	return a, err
}

// GetApp returns an app's metadata.
func (s *Store) GetApp(pkg string) (App, error) {
	var a App
	err := s.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketApps)
		var v []byte
		if b != nil {
			v = b.Get([]byte(pkg))
		}
		if v == nil {
			return fmt.Errorf("app %s: %w", pkg, ErrNotFound)
		}
		return decode("app", []byte(pkg), v, &a)
	})
	return a, err
}

// ListApps returns every app's metadata, sorted by package.
func (s *Store) ListApps() ([]App, error) {
	var out []App
	err := s.view(func(tx *bolt.Tx) error { var err error; out, err = listApps(tx); return err })
	if err != nil {
		return nil, fmt.Errorf("list apps: %w", err)
	}
	return out, nil
}

func listApps(tx *bolt.Tx) ([]App, error) {
	var out []App
	err := eachJSON(tx.Bucket(bucketApps), "app", func(_ []byte, a App) error { out = append(out, a); return nil })
	slices.SortFunc(out, func(a, b App) int { return cmp.Compare(a.Package, b.Package) })
	return out, err
}

// PutApp stores app metadata in this transaction (see Store.PutApp).
func (tx *Tx) PutApp(a App) (App, error) {
	a.Package = strings.TrimSpace(a.Package)
	if a.Package == "" || a.Package == Common {
		return App{}, fmt.Errorf("put app: bad package %q: %w", a.Package, ErrInvalid)
	}
	if tx.s.opts.ReadOnly {
		return App{}, errReadOnly
	}
	b, err := root(tx.tx, bucketApps)
	if err != nil {
		return App{}, fmt.Errorf("put app %s: %w", a.Package, err)
	}
	if v := b.Get([]byte(a.Package)); v != nil {
		var old App
		if err := decode("app", []byte(a.Package), v, &old); err != nil {
			return App{}, fmt.Errorf("put app %s: %w", a.Package, err)
		}
		a.Label = cmp.Or(a.Label, old.Label)
		a.LauncherActivity = cmp.Or(a.LauncherActivity, old.LauncherActivity)
		a.Description = cmp.Or(a.Description, old.Description)
	}
	if a.Updated.IsZero() {
		a.Updated = tx.s.now()
	}
	a.Updated = a.Updated.UTC()
	if err := putJSON(b, a.Package, a); err != nil {
		return App{}, fmt.Errorf("put app %s: %w", a.Package, err)
	}
	return a, nil
}

// AppSummary is one line of `fairy map list`.
type AppSummary struct {
	Package     string `json:"package"`
	Label       string `json:"label,omitempty"`
	Pages       int    `json:"pages"`
	Transitions int    `json:"transitions"`
	Tricks      int    `json:"tricks"`
}

// Apps summarises every app known to the store (metadata, map or tricks):
// page, transition and trick counts, sorted by package.
func (s *Store) Apps() ([]AppSummary, error) {
	byPkg := map[string]*AppSummary{}
	get := func(pkg string) *AppSummary {
		if a, ok := byPkg[pkg]; ok {
			return a
		}
		a := &AppSummary{Package: pkg}
		byPkg[pkg] = a
		return a
	}
	err := s.view(func(tx *bolt.Tx) error {
		if err := eachJSON(tx.Bucket(bucketApps), "app", func(k []byte, a App) error {
			get(string(k)).Label = a.Label
			return nil
		}); err != nil {
			return err
		}
		if b := tx.Bucket(bucketMaps); b != nil {
			if err := b.ForEachBucket(func(k []byte) error {
				ab := b.Bucket(k)
				a := get(string(k))
				if p := ab.Bucket(bucketPages); p != nil {
					a.Pages = p.Stats().KeyN
				}
				if t := ab.Bucket(bucketTrans); t != nil {
					a.Transitions = t.Stats().KeyN
				}
				return nil
			}); err != nil {
				return err
			}
		}
		if b := tx.Bucket(bucketTricks); b != nil {
			return b.ForEachBucket(func(k []byte) error {
				get(string(k)).Tricks = b.Bucket(k).Stats().KeyN
				return nil
			})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list apps: %w", err)
	}
	out := make([]AppSummary, 0, len(byPkg))
	for _, a := range byPkg {
		out = append(out, *a)
	}
	slices.SortFunc(out, func(a, b AppSummary) int { return cmp.Compare(a.Package, b.Package) })
	return out, nil
}
