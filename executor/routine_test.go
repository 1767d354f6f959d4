package executor

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/replay"
)

// oneRoutine offers one routine on every page but the last, replaying the whole way to the
// switch; it records what it was asked.
type oneRoutine struct {
	phone   *fakePhone
	offered int
	runs    [][]string // the args of each Steps call
}

func (o *oneRoutine) Offer(_ context.Context, _, _, _ string, _, _ []string) []replay.Offer {
	o.phone.mu.Lock()
	defer o.phone.mu.Unlock()
	if o.phone.cur == "off" {
		return nil
	}
	o.offered++
	return []replay.Offer{{ID: "r1", Name: "Turn off notifications for {1}", Params: []string{"an app row"}, Steps: 4, Fit: []string{"Maps"}}}
}

func (o *oneRoutine) Steps(_ context.Context, _, id, _ string, args []string, _ int) (replay.Run, error) {
	o.runs = append(o.runs, args)
	if id != "r1" {
		return replay.Run{}, fmt.Errorf("no routine %s", id)
	}
	return replay.Run{Steps: []replay.Step{tapStep{"Apps"}, tapStep{"All apps"}, tapStep{args[0]}, tapStep{"Turn off"}}}, nil
}

// routineModel takes the offered routine with name and args once (the first prompt that
// lists it), then goes page by page; it keeps every Re-Planner prompt.
func routineModel(name string, args []string, prompts *[]string) *fakeModel {
	m := deepModel()
	page := m.fn[llm.RoleReplanner]
	taken := false
	m.fn[llm.RoleReplanner] = func(n int, u string) string {
		*prompts = append(*prompts, u)
		if !taken && strings.Contains(u, "<<<ROUTINES") {
			taken = true
			a, _ := json.Marshal(args)
			return fmt.Sprintf(`{"result":"","reflection":"","progress":"","plan":["Run it"],"subgoal":"Run it","facts":[],"routine":{"name":%q,"args":%s},"interaction":0,"reason":""}`, name, a)
		}
		return page(n, u)
	}
	return m
}

// TestRoutineRun: a routine the Re-Planner names runs whole with no decider call; a name
// not offered or the wrong number of arguments goes back to the Re-Planner with a note
// saying so; a routine that meets a page it does not know stops there, is not offered
// again in the task, and the task still finishes step by step.
func TestRoutineRun(t *testing.T) {
	tests := []struct {
		name         string
		routine      string
		args         []string
		change       bool
		wantReplayed int
		wantNote     string
		wantDecider  int
	}{
		{name: "runs whole", routine: "Turn off notifications for {1}", args: []string{"Maps"}, wantReplayed: 4},
		{name: "unknown name", routine: "Turn off everything", args: []string{"Maps"}, wantNote: `There is no routine "Turn off everything"`, wantDecider: 4},
		{name: "wrong arguments", routine: "Turn off notifications for {1}", args: []string{"Maps", "now"}, wantNote: "takes 1 argument(s)", wantDecider: 4},
		{name: "changed page", routine: "Turn off notifications for {1}", args: []string{"Maps"}, change: true, wantReplayed: 2,
			wantNote: "the screen was not what it learned", wantDecider: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			phone := deepPhone()
			if tt.change {
				phone.screens["all"][1].text = "Maps app" // the list changed since it was learned
			}
			var asked []string
			rt := &oneRoutine{phone: phone}
			h := newHarness(t, phone, routineModel(tt.routine, tt.args, &asked), nil, func(c *Config) { c.Routines = rt })
			res := h.run(t, "Turn off Maps notifications")
			if res.Outcome != event.OutcomeDone || phone.cur != "off" {
				t.Fatalf("outcome %s (%s), phone on %q", res.Outcome, res.Reason, phone.cur)
			}
			ran := find[event.RoutineRan](h)
			replayed := 0
			for _, r := range ran {
				replayed += r.Replayed
			}
			if replayed != tt.wantReplayed {
				t.Errorf("replayed %d steps (%+v), want %d", replayed, ran, tt.wantReplayed)
			}
			if got := h.model.count(llm.RoleDecider); got != tt.wantDecider {
				t.Errorf("decider calls = %d, want %d", got, tt.wantDecider)
			}
			if tt.wantNote != "" && !strings.Contains(strings.Join(asked, "\n"), tt.wantNote) {
				t.Errorf("no Re-Planner prompt says %q", tt.wantNote)
			}
			if tt.change {
				if len(ran) != 1 || ran[0].Stopped == "" || ran[0].Held {
					t.Errorf("routine runs %+v, want one stopped at the surprise", ran)
				}
				listed := 0
				for _, p := range asked {
					if strings.Contains(p, "<<<ROUTINES") {
						listed++
					}
				}
				if rt.offered < 2 || listed != 1 {
					t.Errorf("offered %d times, listed in %d prompts; want it listed once: a routine that met a surprise is not offered again", rt.offered, listed)
				}
			}
		})
	}
}
