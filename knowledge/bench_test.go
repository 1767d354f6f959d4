package knowledge

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// buildTreeMap writes an app map of n pages shaped like a real app: a tree
// (each page opens up to three child pages, Back returns to the parent) plus
// one cross link per page (tabs, deep links), in one transaction.
func buildTreeMap(tb testing.TB, s *Store, app string, n int, rng *rand.Rand) {
	tb.Helper()
	key := func(i int) string { return fmt.Sprintf(".Page%d#sig%d", i%40, i) }
	err := s.Update(func(tx *Tx) error {
		for i := range n {
			if _, err := tx.RecordPage(app, Page{Key: key(i), Activity: fmt.Sprintf(".Page%d", i%40), Description: fmt.Sprintf("page %d", i),
				Elements: []Element{{ResourceID: "title", Text: fmt.Sprint(i)}}}); err != nil {
				return err
			}
		}
		rec := func(from, to int, a Action, ok bool) error {
			_, err := tx.RecordTransition(app, Transition{From: key(from), To: key(to), Action: a}, ok)
			return err
		}
		for i := 1; i < n; i++ {
			parent := (i - 1) / 3
			if err := rec(parent, i, Action{Kind: ActionTap, Target: Element{ResourceID: fmt.Sprintf("item_%d", i%3), Text: fmt.Sprint(i)}}, true); err != nil {
				return err
			}
			if err := rec(i, parent, Action{Kind: ActionBack}, true); err != nil {
				return err
			}
			if to := rng.IntN(n); to != i {
				if err := rec(i, to, Action{Kind: ActionTap, Target: Element{Desc: "link"}}, rng.IntN(4) != 0); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
}

func BenchmarkShortestPath10k(b *testing.B) {
	const n = 10_000
	s, _ := openTemp(b, Options{})
	rng := rand.New(rand.NewPCG(1, 2))
	buildTreeMap(b, s, "com.big", n, rng)
	type pair struct{ from, to string }
	pairs := make([]pair, 512)
	for i := range pairs {
		f, t := rng.IntN(n), rng.IntN(n)
		pairs[i] = pair{fmt.Sprintf(".Page%d#sig%d", f%40, f), fmt.Sprintf(".Page%d#sig%d", t%40, t)}
	}
	var m *appMap
	if err := s.withMap("com.big", func(am *appMap) error { m = am; return nil }); err != nil {
		b.Fatal(err)
	}
	run := func(b *testing.B, find func(from, to string) ([]Transition, error)) {
		hops := 0
		i := 0
		for b.Loop() {
			p := pairs[i%len(pairs)]
			i++
			path, err := find(p.from, p.to)
			if err != nil {
				b.Fatal(err)
			}
			hops += len(path)
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
		b.ReportMetric(float64(hops)/float64(b.N), "hops/op")
	}
	b.Run("index", func(b *testing.B) { run(b, func(f, t string) ([]Transition, error) { return s.Path("com.big", f, t) }) })
	b.Run("dominikbraun", func(b *testing.B) { run(b, m.pathViaGraph) })
}

// write100Apps writes a file holding 100 apps, each with 50 pages, ~150 transitions,
// 20 tricks and metadata.
func write100Apps(b *testing.B, path string) {
	s, err := Open(path, Options{Clock: fakeClock()})
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for a := range 100 {
		app := fmt.Sprintf("com.example.app%03d", a)
		buildTreeMap(b, s, app, 50, rng)
		err := s.Update(func(tx *Tx) error {
			if _, err := tx.PutApp(App{Package: app, Label: fmt.Sprintf("App %d", a), Description: "An example app."}); err != nil {
				return err
			}
			for i := range 20 {
				if _, err := tx.AddTrick(Trick{App: app, Kind: Kinds()[i%3], Text: fmt.Sprintf("Tip %d for app %d: tap the search icon, then the %d-th result.", i, a, i)}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkOpen100Apps opens a file holding 100 apps (write100Apps): lazily (maps load on
// first use), lazily plus loading one app's map and searching its tricks (a run's start),
// and eagerly (every map loaded at Open). Open verifies the file each time
// (BenchmarkOpenVerified).
func BenchmarkOpen100Apps(b *testing.B) {
	path := filepath.Join(b.TempDir(), "k.db")
	write100Apps(b, path)
	for _, bm := range []struct {
		name string
		opts Options
		use  func(*Store) error
	}{
		{"lazy", Options{}, nil},
		{"lazy+one-app", Options{}, func(s *Store) error {
			if _, err := s.Map("com.example.app042"); err != nil {
				return err
			}
			_, err := s.Search("com.example.app042", KindAction, "tap the search icon", 5)
			return err
		}},
		{"eager", Options{Preload: true}, nil},
	} {
		b.Run(bm.name, func(b *testing.B) {
			for b.Loop() {
				s, err := Open(path, bm.opts)
				if err != nil {
					b.Fatal(err)
				}
				if bm.use != nil {
					if err := bm.use(s); err != nil {
						b.Fatal(err)
					}
				}
				if err := s.Close(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
		})
	}
}

// BenchmarkOpenVerified measures what verifying a file at Open costs, on the 100-app file
// of BenchmarkOpen100Apps (16 MiB) and on the realistic file of the damage tests (6 apps,
// 0.5 MiB): Open as fairy run does it (verified, for writing), the verification alone,
// bbolt's open with no verification (what Open cost before), and bbolt's own consistency
// check (Tx.Check) for comparison.
func BenchmarkOpenVerified(b *testing.B) {
	big := filepath.Join(b.TempDir(), "k.db")
	write100Apps(b, big)
	small := filepath.Join(b.TempDir(), "k.db")
	writeRealistic(b, small)
	for _, file := range []struct{ name, path string }{{"100apps", big}, {"6apps", small}} {
		info, err := os.Stat(file.path)
		if err != nil {
			b.Fatal(err)
		}
		path := file.path
		for _, bm := range []struct {
			name string
			run  func() error
		}{
			{"open", func() error {
				s, err := Open(path, Options{})
				if err != nil {
					return err
				}
				return s.Close()
			}},
			{"verify-only", func() error { return verifyFile(path) }},
			{"bbolt-open-unverified", func() error {
				db, err := bolt.Open(path, 0o600, nil)
				if err != nil {
					return err
				}
				return db.Close()
			}},
			{"bbolt-tx-check", func() error {
				db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
				if err != nil {
					return err
				}
				defer db.Close()
				return db.View(func(tx *bolt.Tx) error {
					var first error
					for err := range tx.Check() {
						first = cmp.Or(first, err)
					}
					return first
				})
			}},
		} {
			b.Run(file.name+"/"+bm.name, func(b *testing.B) {
				for b.Loop() {
					if err := bm.run(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
				b.ReportMetric(float64(info.Size())/(1<<20), "file-MiB")
			})
		}
	}
}
