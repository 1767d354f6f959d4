package knowledge

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
)

func testRoutine(app, name, row string) Routine {
	return Routine{App: app, Name: name, Runs: 1, Params: []RoutineParam{{What: "a row", Example: "Maps"}},
		Steps: []RoutineStep{{Activity: ".Main", Signature: "s1", Action: Action{Kind: ActionTap, Target: Element{Text: "Apps"}}},
			{Activity: ".Apps", Signature: "s2", Action: Action{Kind: ActionTap, Target: Element{ResourceID: "x:id/row", Text: row}}}}}
}

// TestRoutines: the same steps are one routine (runs add up, every name kept); invalid
// routines are refused; past MaxRoutines the least run goes; export and import carry
// them, and an imported routine whose ID does not match its steps is refused.
func TestRoutines(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "k.db"), Options{noSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	put := func(r Routine) (Routine, error) {
		var out Routine
		err := s.Update(func(tx *Tx) error { var err error; out, err = tx.PutRoutine(r); return err })
		return out, err
	}
	a, err := put(testRoutine("com.set", "Turn off notifications for {1}", "{1}"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := put(testRoutine("com.set", "Stop {1} from notifying me", "{1}"))
	if err != nil || b.ID != a.ID || b.Runs != 2 || b.Name != "Stop {1} from notifying me" || len(b.Also) != 1 || b.Also[0] != a.Name {
		t.Fatalf("second put = %+v, %v; want one routine, run twice, with both names", b, err)
	}
	for _, bad := range []Routine{
		{App: "com.set", Name: "no steps"},
		{Name: "no app", Steps: testRoutine("x", "x", "x").Steps},
		func() Routine { r := testRoutine("com.set", "types param 3", "{1}"); r.Steps[0].Text = 3; return r }(),
	} {
		if _, err := put(bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("put %q = %v, want ErrInvalid", bad.Name, err)
		}
	}
	if err := s.Update(func(tx *Tx) error { return tx.RoutineStopped("com.set", a.ID) }); err != nil {
		t.Fatal(err)
	}
	for i := range maxRoutines {
		if _, err := put(testRoutine("com.cap", fmt.Sprintf("task %d", i), fmt.Sprintf("row %d", i))); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := put(testRoutine("com.cap", "task 0", "row 0")); err != nil { // run twice: kept
		t.Fatal(err)
	}
	if _, err := put(testRoutine("com.cap", "one more", "row x")); err != nil {
		t.Fatal(err)
	}
	capped, _ := s.Routines("com.cap")
	if len(capped) != maxRoutines || capped[0].Name != "task 0" || capped[0].Runs != 2 {
		t.Errorf("%d routines kept (first %+v), want %d with the one run twice first", len(capped), capped[0], maxRoutines)
	}

	var doc bytes.Buffer
	if err := s.Export(&doc); err != nil {
		t.Fatal(err)
	}
	other, err := Open(filepath.Join(t.TempDir(), "other.db"), Options{noSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	st, err := other.Import(bytes.NewReader(doc.Bytes()))
	if err != nil || st.Routines != maxRoutines+1 {
		t.Fatalf("import = %+v, %v", st, err)
	}
	got, _ := other.Routines("com.set")
	if len(got) != 1 || got[0].Runs != 2 || got[0].Stops != 1 || len(got[0].Names()) != 2 {
		t.Errorf("imported routine = %+v", got)
	}
	forged := bytes.Replace(doc.Bytes(), []byte(`"Apps"`), []byte(`"Pay"`), 1)
	if _, err := other.Import(bytes.NewReader(forged)); !errors.Is(err, ErrInvalid) {
		t.Errorf("import of a routine whose steps do not match its ID = %v, want ErrInvalid", err)
	}
}

// TestRoutineLearnedFrom: a routine remembers the run it was first learned from; the same
// steps learned again by another run keep the first source.
func TestRoutineLearnedFrom(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "k.db"), Options{noSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	put := func(r Routine, from string) Routine {
		r.LearnedFrom = from
		var out Routine
		if err := s.Update(func(tx *Tx) error { var err error; out, err = tx.PutRoutine(r); return err }); err != nil {
			t.Fatal(err)
		}
		return out
	}
	put(testRoutine("com.set", "Turn off notifications for {1}", "{1}"), "SystemWifiTurnOnVerify-0")
	if b := put(testRoutine("com.set", "Stop {1} from notifying me", "{1}"), "SystemWifiTurnOn-0"); b.LearnedFrom != "SystemWifiTurnOnVerify-0" {
		t.Errorf("merged routine learned from %q, want the first run's", b.LearnedFrom)
	}
	rs, err := s.Routines("com.set")
	if err != nil || len(rs) != 1 || rs[0].LearnedFrom != "SystemWifiTurnOnVerify-0" {
		t.Errorf("stored routines %+v %v", rs, err)
	}
}

// TestRoutineTrustRecord: runs of one routine add their instance and binding keys (each
// once); a stop or a demotion forgets them at once; a step bound to an on/off parameter
// must name a State parameter.
func TestRoutineTrustRecord(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "k.db"), Options{noSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	put := func(inst string) Routine {
		t.Helper()
		r := testRoutine("com.set", "Turn off notifications for {1}", "{1}")
		r.Instances, r.Bindings = []string{inst}, []string{inst}
		var out Routine
		if err := s.Update(func(tx *Tx) error { var err error; out, err = tx.PutRoutine(r); return err }); err != nil {
			t.Fatal(err)
		}
		return out
	}
	if r := put("a"); r.Trusted() {
		t.Errorf("one instance: %+v trusted", r)
	}
	if r := put("a"); r.Trusted() || len(r.Instances) != 1 {
		t.Errorf("the same instance twice: %+v", r)
	}
	r := put("b")
	if !r.Trusted() || len(r.Bindings) != 2 {
		t.Fatalf("two instances: %+v, want trusted", r)
	}
	for _, demote := range []func(tx *Tx) error{
		func(tx *Tx) error { return tx.RoutineStopped("com.set", r.ID) },
		func(tx *Tx) error { return tx.RoutineDemoted("com.set", r.ID) },
	} {
		put("a")
		put("b")
		if err := s.Update(demote); err != nil {
			t.Fatal(err)
		}
		rs, _ := s.Routines("com.set")
		if len(rs) != 1 || rs[0].Trusted() || len(rs[0].Bindings) != 0 || rs[0].Demoted == 0 {
			t.Errorf("after a demotion: %+v, want no confirmation left", rs)
		}
	}
	bad := testRoutine("com.set", "Turn {2} notifications for {1}", "{1}")
	bad.Steps[1].Want = 1 // parameter 1 is a row, not on/off
	if err := s.Update(func(tx *Tx) error { _, err := tx.PutRoutine(bad); return err }); !errors.Is(err, ErrInvalid) {
		t.Errorf("a step bound to a row parameter's state: %v, want ErrInvalid", err)
	}
}

// TestRoutineTrustImport: importing the knowledge of runs that each learned into their own
// file (the cold pass of an evaluation, merged for the warm pass) keeps every instance that
// confirmed a routine, so two runs with different bindings make it trusted, and the binding
// each confirmed stays replayable; a side that was demoted more often keeps its own record
// (nothing its demotion took back comes back), and importing a document twice changes
// nothing.
func TestRoutineTrustImport(t *testing.T) {
	dir := t.TempDir()
	doc := func(name string, insts ...string) []byte {
		t.Helper()
		s, err := Open(filepath.Join(dir, name+".db"), Options{noSync: true})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		r := testRoutine("com.set", "Turn off notifications for {1}", "{1}")
		for _, inst := range insts {
			r.Instances, r.Bindings = []string{inst}, []string{"b" + inst}
			if err := s.Update(func(tx *Tx) error { var err error; r, err = tx.PutRoutine(r); return err }); err != nil {
				t.Fatal(err)
			}
		}
		if len(insts) == 0 { // learned once, then demoted
			if err := s.Update(func(tx *Tx) error { var err error; r, err = tx.PutRoutine(r); return err }); err != nil {
				t.Fatal(err)
			}
			if err := s.Update(func(tx *Tx) error { return tx.RoutineDemoted("com.set", r.ID) }); err != nil {
				t.Fatal(err)
			}
		}
		var b bytes.Buffer
		if err := s.Export(&b); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	maps, messages, demoted := doc("maps", "a"), doc("messages", "b"), doc("demoted")
	s, err := Open(filepath.Join(dir, "merged.db"), Options{noSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	stored := func(what string, imports ...[]byte) Routine {
		t.Helper()
		for _, d := range imports {
			if _, err := s.Import(bytes.NewReader(d)); err != nil {
				t.Fatal(err)
			}
		}
		rs, err := s.Routines("com.set")
		if err != nil || len(rs) != 1 {
			t.Fatalf("%s: routines %+v %v, want one", what, rs, err)
		}
		return rs[0]
	}
	if r := stored("one run's file", maps); r.Trusted() || fmt.Sprint(r.Bindings) != "[ba]" {
		t.Errorf("one run's file: %+v, want its one binding, not trusted", r)
	}
	if r := stored("two runs' files", messages); !r.Trusted() || fmt.Sprint(r.Instances) != "[a b]" || fmt.Sprint(r.Bindings) != "[ba bb]" {
		t.Errorf("two runs' files: instances %v bindings %v, want [a b] [ba bb] and trusted", r.Instances, r.Bindings)
	}
	if r := stored("the same files again", maps, messages); fmt.Sprint(r.Instances) != "[a b]" || fmt.Sprint(r.Bindings) != "[ba bb]" {
		t.Errorf("imported twice: instances %v bindings %v, want them unchanged", r.Instances, r.Bindings)
	}
	if r := stored("a demoted run's file", demoted); r.Trusted() || len(r.Bindings) != 0 || r.Demoted != 1 {
		t.Errorf("after a file where it was demoted: %+v, want no confirmation left", r)
	}
	if r := stored("a clean run's file after it", maps); r.Trusted() || len(r.Bindings) != 0 || r.Demoted != 1 {
		t.Errorf("a clean file imported after the demoted one: %+v, want the demotion to hold", r)
	}
}
