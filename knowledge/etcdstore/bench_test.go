package etcdstore

import (
	"fmt"
	"testing"

	"github.com/fairy-go/fairy/knowledge"
)

// BenchmarkStepLookups measures a step's knowledge lookups — the App Map (Map, what
// Predict and Navigate read), a trick search, the app's routines and a known reading —
// on a bbolt file and on etcd side by side, with the same 60-page map and 40 tricks.
// On etcd every lookup reads the local replica, so the figure is within 1.5× of the file.
func BenchmarkStepLookups(b *testing.B) {
	const app = "com.bench"
	for _, be := range backends(b) {
		s := be.open(b)
		err := s.Update(func(tx *knowledge.Tx) error {
			for i := range 60 {
				if _, err := tx.RecordTransition(app, knowledge.Transition{From: fmt.Sprint("p", i/3), To: fmt.Sprint("p", i+1), Action: tap(fmt.Sprint("Item ", i))}, true); err != nil {
					return err
				}
			}
			for i := range 40 {
				if _, err := tx.AddTrick(knowledge.Trick{App: app, Kind: knowledge.KindAction, Text: fmt.Sprintf("On page %d tap item %d to reach the %dth list.", i, i+1, i)}); err != nil {
					return err
				}
			}
			_, err := tx.PutApp(knowledge.App{Package: app, Label: "Bench"})
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
		if err := s.PutReading(app, "p1", []knowledge.Fact{{Key: "items", Value: "3"}}); err != nil {
			b.Fatal(err)
		}
		step := func() error {
			if _, err := s.Map(app); err != nil {
				return err
			}
			if _, err := s.Search(app, knowledge.KindAction, "tap item 7 to reach the list", 3); err != nil {
				return err
			}
			if _, err := s.Routines(app); err != nil {
				return err
			}
			_, _, err := s.Reading(app, "p1")
			return err
		}
		b.Run(be.name, func(b *testing.B) {
			if err := step(); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if err := step(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1000/float64(b.N), "µs/step")
		})
	}
}

// BenchmarkLearningWrite measures one learning write (a transition recorded) on a bbolt
// file and on etcd, in an app whose map holds 500 pages: on etcd the write lists its
// changes by walking the replica and commits them with a compare-and-swap.
func BenchmarkLearningWrite(b *testing.B) {
	const app = "com.big"
	for _, be := range backends(b) {
		s := be.open(b)
		err := s.Update(func(tx *knowledge.Tx) error {
			for i := range 500 {
				if _, err := tx.RecordTransition(app, knowledge.Transition{From: fmt.Sprint("p", i/3), To: fmt.Sprint("p", i+1), Action: tap(fmt.Sprint("Item ", i))}, true); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(be.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := s.RecordTransition(app, knowledge.Transition{From: "p1", To: "p2", Action: tap("Item 1")}, true); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1000/float64(b.N), "µs/write")
		})
	}
}
