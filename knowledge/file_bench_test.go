package knowledge

import (
	"path/filepath"
	"testing"
)

// BenchmarkTransaction measures what opening the file for each transaction costs a run
// (file.go): a trick search, a cached App Map read (which opens the file to learn whether
// another process wrote) and a learning write (synced), on the realistic 6-app file of the
// damage tests, with the file opened per transaction ("per-tx", what a Store does) and
// held open throughout ("held", what a Store did before, for comparison).
func BenchmarkTransaction(b *testing.B) {
	path := filepath.Join(b.TempDir(), "k.db")
	writeRealistic(b, path)
	s, err := Open(path, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	apps, err := s.Apps()
	if err != nil || len(apps) == 0 {
		b.Fatalf("apps: %v, %v", apps, err)
	}
	app := apps[0].Package
	ops := []struct {
		name string
		run  func() error
	}{
		{"search", func() error { _, err := s.Search(app, KindAction, "tap the search icon", 5); return err }},
		{"map-cached", func() error { _, err := s.Map(app); return err }},
		{"write", func() error {
			_, err := s.RecordTransition(app, Transition{From: "Bench#1", To: "Bench#2", Action: Action{Kind: ActionTap, Target: Element{Text: "Next"}}}, true)
			return err
		}},
	}
	for _, mode := range []string{"per-tx", "held"} {
		for _, op := range ops {
			b.Run(mode+"/"+op.name, func(b *testing.B) {
				if mode == "held" {
					if _, err := s.acquire(); err != nil {
						b.Fatal(err)
					}
					defer s.release()
				}
				if err := op.run(); err != nil { // loads the map into the cache
					b.Fatal(err)
				}
				for b.Loop() {
					if err := op.run(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1000/float64(b.N), "µs/op")
			})
		}
	}
}
