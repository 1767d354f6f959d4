package etcdstore

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/fairy-go/fairy/knowledge"

	"github.com/fairy-go/fairy/knowledge/etcdstore/etcdtest"
)

// backend opens stores on one shared place: several opens are several agents.
type backend struct {
	name string
	open func(t testing.TB) *knowledge.Store
}

// backends are the two implementations of the knowledge API: a bbolt file and etcd. The
// suite below runs the same assertions on both.
func backends(t testing.TB) []backend {
	path := filepath.Join(t.TempDir(), "k.db")
	srv := etcdtest.Start(t)
	open := func(t testing.TB, loc string) *knowledge.Store {
		t.Helper()
		var s *knowledge.Store
		var err error
		if IsURL(loc) {
			var cfg Config
			cfg, err = ParseURL(loc)
			if err == nil {
				s, err = Open(cfg, knowledge.Options{})
			}
		} else {
			s, err = knowledge.Open(loc, knowledge.Options{})
		}
		if err != nil {
			t.Fatalf("open %s: %v", loc, err)
		}
		t.Cleanup(func() { _ = s.Close() })
		return s
	}
	return []backend{
		{"bbolt", func(t testing.TB) *knowledge.Store { return open(t, path) }},
		{"etcd", func(t testing.TB) *knowledge.Store { return open(t, srv.URL("fairy-test")) }},
	}
}

func page(key string) knowledge.Page {
	return knowledge.Page{Key: key, Activity: ".Main", Signature: key, Description: "page " + key}
}

func tap(text string) knowledge.Action {
	return knowledge.Action{Kind: knowledge.ActionTap, Target: knowledge.Element{Text: text}}
}

// eventually polls cond: another agent's write reaches a replica through the watch.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not seen within 5s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestBackends(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			a, other := b.open(t), b.open(t)
			// Tricks: near-duplicates merge, search finds, demotion is seen by the other agent.
			tr, _, err := a.UpsertTrick(knowledge.Trick{App: "com.mail", Kind: knowledge.KindAction, Text: "Tap the pencil to write a new mail."})
			if err != nil {
				t.Fatal(err)
			}
			if _, merged, err := other.UpsertTrick(knowledge.Trick{App: "com.mail", Kind: knowledge.KindAction, Text: "Tap the pencil to write a new mail quickly."}); err != nil || !merged {
				eventually(t, "first trick at the other agent", func() bool { ts, _ := other.Tricks("com.mail", ""); return len(ts) == 1 })
				if _, merged, err = other.UpsertTrick(knowledge.Trick{App: "com.mail", Kind: knowledge.KindAction, Text: "Tap the pencil to write a new mail quickly."}); err != nil || !merged {
					t.Fatalf("upsert of a near-duplicate: merged=%v err=%v", merged, err)
				}
			}
			hits, err := a.Search("com.mail", knowledge.KindAction, "write a mail", 3)
			if err != nil || len(hits) != 1 || hits[0].Trick.ID != tr.ID {
				t.Fatalf("search = %+v, %v", hits, err)
			}
			if _, err := other.Demote(tr.ID); err != nil {
				t.Fatal(err)
			}
			eventually(t, "demotion", func() bool { got, err := a.Trick(tr.ID); return err == nil && got.Demotions == 1 })

			// App Map: pages and transitions from two agents, a path through both.
			if _, err := a.RecordTransition("com.mail", knowledge.Transition{From: "inbox", To: "compose", Action: tap("Compose")}, true); err != nil {
				t.Fatal(err)
			}
			if _, err := other.RecordTransition("com.mail", knowledge.Transition{From: "compose", To: "sent", Action: tap("Send")}, true); err != nil {
				t.Fatal(err)
			}
			eventually(t, "the other agent's transition", func() bool { _, err := a.Path("com.mail", "inbox", "sent"); return err == nil })
			path, err := a.Path("com.mail", "inbox", "sent")
			if err != nil || len(path) != 2 {
				t.Fatalf("path = %v, %v", path, err)
			}
			m, err := a.Map("com.mail")
			if err != nil || len(m.Pages) != 3 || len(m.Transitions) != 2 {
				t.Fatalf("map = %+v, %v", m, err)
			}

			// App metadata, runs, readings.
			if _, err := a.PutApp(knowledge.App{Package: "com.mail", Label: "Mail", Description: "reads and sends mail"}); err != nil {
				t.Fatal(err)
			}
			if err := a.PutRun(knowledge.Run{ID: "r1", Instruction: "send a mail", Outcome: "done"}); err != nil {
				t.Fatal(err)
			}
			if err := a.PutReading("com.mail", "inbox", []knowledge.Fact{{Key: "unread", Value: "3"}}); err != nil {
				t.Fatal(err)
			}
			eventually(t, "app, run and reading", func() bool {
				app, err1 := other.GetApp("com.mail")
				runs, err2 := other.Runs(10)
				_, ok, err3 := other.Reading("com.mail", "inbox")
				return err1 == nil && app.Label == "Mail" && err2 == nil && len(runs) == 1 && err3 == nil && ok
			})

			// Removal: a deleted trick is gone for the other agent too.
			if err := a.DeleteTrick(tr.ID); err != nil {
				t.Fatal(err)
			}
			eventually(t, "deletion", func() bool { _, err := other.Trick(tr.ID); return errors.Is(err, knowledge.ErrNotFound) })
		})
	}
}

// TestConcurrentLearnersMerge runs several learners at once, each with its own store on
// one backing (several agents), all recording the same page visit and transition many
// rounds: no count is lost.
func TestConcurrentLearnersMerge(t *testing.T) {
	const learners, rounds = 4, 50
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			stores := make([]*knowledge.Store, learners)
			for i := range stores {
				stores[i] = b.open(t)
			}
			tr, err := stores[0].AddTrick(knowledge.Trick{App: "com.shop", Kind: knowledge.KindAction, Text: "Swipe up to see the cart."})
			if err != nil {
				t.Fatal(err)
			}
			eventually(t, "the trick at every agent", func() bool {
				for _, s := range stores {
					if _, err := s.Trick(tr.ID); err != nil {
						return false
					}
				}
				return true
			})
			var wg sync.WaitGroup
			errs := make(chan error, learners)
			for i, s := range stores {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for r := range rounds {
						err := s.Update(func(tx *knowledge.Tx) error {
							if _, err := tx.RecordPage("com.shop", page("home")); err != nil {
								return err
							}
							if _, err := tx.RecordTransition("com.shop", knowledge.Transition{From: "home", To: "cart", Action: tap("Cart")}, true); err != nil {
								return err
							}
							if _, err := tx.RecordUse(tr.ID, true); err != nil {
								return err
							}
							// The same tip from every learner: merged into one, never two.
							_, _, err := tx.UpsertTrick(knowledge.Trick{App: "com.shop", Kind: knowledge.KindPlanning, Text: "Open the cart from the home page before paying."})
							return err
						})
						if err != nil {
							errs <- fmt.Errorf("learner %d round %d: %w", i, r, err)
							return
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			check := b.open(t) // a new agent reads what all wrote
			m, err := check.Map("com.shop")
			if err != nil {
				t.Fatal(err)
			}
			var visits, successes int
			for _, p := range m.Pages {
				if p.Key == "home" {
					visits = p.Visits
				}
			}
			for _, x := range m.Transitions {
				successes += x.Successes
			}
			got, err := check.Trick(tr.ID)
			if err != nil {
				t.Fatal(err)
			}
			want := learners * rounds
			if tips, err := check.Tricks("com.shop", knowledge.KindPlanning); err != nil || len(tips) != 1 {
				t.Errorf("planning tricks after every learner upserted the same tip: %d, %v; want 1 (merged)", len(tips), err)
			}
			// RecordTransition counts a visit of its From page as well as RecordPage does.
			if successes != want || got.Successes != want || visits < want {
				t.Fatalf("after %d learners × %d rounds: transition successes %d, trick successes %d, home visits %d; want %d each (no lost update)",
					learners, rounds, successes, got.Successes, visits, want)
			}
		})
	}
}

// TestExportImportAcrossBackends copies a knowledge file into etcd and back: the same
// export comes out.
func TestExportImportAcrossBackends(t *testing.T) {
	bs := backends(t)
	file, shared := bs[0].open(t), bs[1].open(t)
	if _, err := file.AddTrick(knowledge.Trick{App: "com.a", Kind: knowledge.KindPlanning, Text: "Open settings first."}); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if _, err := file.RecordTransition("com.a", knowledge.Transition{From: fmt.Sprint("p", i), To: fmt.Sprint("p", i+1), Action: tap(fmt.Sprint("Next ", i))}, true); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	if err := file.Export(&out); err != nil {
		t.Fatal(err)
	}
	if _, err := shared.Import(bytes.NewReader(out.Bytes())); err != nil {
		t.Fatalf("import into etcd: %v", err)
	}
	back := filepath.Join(t.TempDir(), "back.db")
	again, err := knowledge.Open(back, knowledge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	var viaEtcd bytes.Buffer
	if err := bs[1].open(t).Export(&viaEtcd); err != nil {
		t.Fatal(err)
	}
	if _, err := again.Import(bytes.NewReader(viaEtcd.Bytes())); err != nil {
		t.Fatal(err)
	}
	m, err := again.Map("com.a")
	if err != nil || len(m.Pages) != 4 || len(m.Transitions) != 3 {
		t.Fatalf("map after file → etcd → file: %+v, %v", m, err)
	}
	ts, err := again.Tricks("com.a", "")
	if err != nil || len(ts) != 1 || ts[0].Text != "Open settings first." {
		t.Fatalf("tricks after file → etcd → file: %+v, %v", ts, err)
	}
}

// TestEtcdGoesAway kills the etcd server under an open store: reads go on from the
// replica, writes are queued (ErrRemoteAway, at once after the first), and Close says how
// many could not be stored.
func TestEtcdGoesAway(t *testing.T) {
	srv := etcdtest.Start(t)
	cfg, err := ParseURL(srv.URL("away"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(cfg, knowledge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordTransition("com.a", knowledge.Transition{From: "a", To: "b", Action: tap("B")}, true); err != nil {
		t.Fatal(err)
	}
	srv.Kill()
	m, err := s.Map("com.a")
	if err != nil || len(m.Transitions) != 1 {
		t.Fatalf("read after etcd died: %+v, %v", m, err)
	}
	for i := range 3 {
		start := time.Now()
		_, err := s.RecordTransition("com.a", knowledge.Transition{From: "b", To: "c", Action: tap("C")}, true)
		if !errors.Is(err, knowledge.ErrRemoteAway) {
			t.Fatalf("write %d with etcd dead: %v, want ErrRemoteAway", i, err)
		}
		if i > 0 && time.Since(start) > 500*time.Millisecond {
			t.Fatalf("write %d with etcd known away took %v: it must queue at once", i, time.Since(start))
		}
	}
	if q, _ := s.Pending(); q != 3 {
		t.Fatalf("pending = %d, want 3", q)
	}
	if _, err := s.Search("com.a", knowledge.KindAction, "anything", 3); err != nil {
		t.Fatalf("search with etcd dead: %v", err)
	}
	err = s.Close()
	if !errors.Is(err, knowledge.ErrRemoteAway) {
		t.Fatalf("Close with 3 writes never stored: %v, want ErrRemoteAway", err)
	}
	t.Log(err)
}

func TestParseURL(t *testing.T) {
	for _, c := range []struct {
		in     string
		eps    int
		prefix string
		bad    bool
	}{
		{in: "etcd://127.0.0.1:2379/fairy", eps: 1, prefix: "fairy"},
		{in: "etcd://a:1,b:2,c:3/team/fleet/", eps: 3, prefix: "team/fleet"},
		{in: "etcd://127.0.0.1:2379", bad: true},
		{in: "etcd://127.0.0.1/fairy", bad: true},
		{in: "etcd://user:pw@h:1/fairy", bad: true},
		{in: "/home/me/k.db", bad: true},
	} {
		cfg, err := ParseURL(c.in)
		if c.bad {
			if !errors.Is(err, ErrBadURL) {
				t.Errorf("ParseURL(%q) = %+v, %v; want ErrBadURL", c.in, cfg, err)
			}
			continue
		}
		if err != nil || len(cfg.Endpoints) != c.eps || cfg.Prefix != c.prefix {
			t.Errorf("ParseURL(%q) = %+v, %v", c.in, cfg, err)
		}
	}
}

// TestQueuedWritesReachEtcdWhenItIsBack: writes made while etcd is down are queued and
// stored once it is back, merged with what another agent wrote meanwhile.
func TestQueuedWritesReachEtcdWhenItIsBack(t *testing.T) {
	srv := etcdtest.Start(t)
	cfg, err := ParseURL(srv.URL("back"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(cfg, knowledge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	home := knowledge.Transition{From: "home", To: "cart", Action: tap("Cart")}
	if _, err := s.RecordTransition("com.shop", home, true); err != nil {
		t.Fatal(err)
	}
	srv.Kill()
	for range 2 {
		if _, err := s.RecordTransition("com.shop", home, true); !errors.Is(err, knowledge.ErrRemoteAway) {
			t.Fatalf("write with etcd down: %v, want ErrRemoteAway", err)
		}
	}
	srv.Restart(t)
	other, err := Open(cfg, knowledge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.RecordTransition("com.shop", home, true); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the queued writes stored", func() bool { q, _ := s.Pending(); return q == 0 })
	successes := func(st *knowledge.Store) int {
		m, err := st.Map("com.shop")
		if err != nil || len(m.Transitions) != 1 {
			return -1
		}
		return m.Transitions[0].Successes
	}
	eventually(t, "4 successes at both agents", func() bool { return successes(s) == 4 && successes(other) == 4 })
	if err := s.Close(); err != nil {
		t.Fatalf("Close with every write stored: %v", err)
	}
}
