package eval

import (
	"strings"
	"testing"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/sim"
)

func newPhone(t *testing.T) *sim.Phone {
	t.Helper()
	p, err := sim.New(sim.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPrepareSimClock: a task's phone starts at its suite's clock, whenever it runs.
func TestPrepareSimClock(t *testing.T) {
	ph := newPhone(t)
	if err := prepareSim(t.Context(), ph, &suite.SimPhone{Clock: "2023-10-15T15:34:00Z"}, "t"); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if _, err := ph.Shell(t.Context(), "date", &out); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); !strings.Contains(got, "15:34:") || !strings.Contains(got, "2023") {
		t.Errorf("date = %q, want 2023-10-15 15:34", got)
	}
	// A reset brings back the host's clock; the next task's preparation sets it again.
	if err := prepareSim(t.Context(), ph, &suite.SimPhone{}, "t"); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if _, err := ph.Shell(t.Context(), "date", &out); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "2023") {
		t.Errorf("date after a task with no clock = %q, want the host's", out.String())
	}
	if err := prepareSim(t.Context(), ph, &suite.SimPhone{Clock: "soon"}, "t"); err == nil || !strings.Contains(err.Error(), "clock") {
		t.Errorf("bad clock: err = %v", err)
	}
}

// TestFaultDrawsFollowTheTask: a task with faults and no seed of its own meets the same
// dead taps on whichever phone runs it (the phones' own seeds differ), and another task
// meets others.
func TestFaultDrawsFollowTheTask(t *testing.T) {
	run := func(seed uint64, id string) string {
		ph, err := sim.New(sim.Config{Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if err := prepareSim(t.Context(), ph, &suite.SimPhone{Faults: "deadtap=0.5"}, id); err != nil {
			t.Fatal(err)
		}
		var log strings.Builder
		for range 24 {
			var out strings.Builder
			if _, err := ph.Shell(t.Context(), "input tap 135 300", &out); err != nil {
				t.Fatal(err)
			}
			log.WriteString(ph.ScreenID() + "|")
			if _, err := ph.Shell(t.Context(), "input keyevent HOME", &out); err != nil {
				t.Fatal(err)
			}
		}
		return log.String()
	}
	a, b := run(1, "settings-battery-saver-deadtap"), run(2, "settings-battery-saver-deadtap")
	if a != b {
		t.Errorf("one task, two phones, different fault draws:\n%s\n%s", a, b)
	}
	if !strings.Contains(a, "workspace") || strings.Count(a, "workspace") == 24 {
		t.Fatalf("taps at deadtap=0.5 = %s, want some lost and some not", a)
	}
	if c := run(1, "another-task"); c == a {
		t.Error("two tasks drew the same 24 dead taps")
	}
}
