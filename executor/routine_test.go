package executor

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/perception"
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

// seekStep taps the row labelled row, seeking it with a swipe up its page when it is not
// on the screen (a routine's row step, replay.Learned's Seek).
type seekStep struct {
	row  string
	page string // the signature of the row's page
}

func (s seekStep) Resolve(screen *perception.Screen) (event.Action, error) {
	a, err := tapStep{s.row}.Resolve(screen)
	if err != nil {
		return a, fmt.Errorf("%w: %v", replay.ErrMismatch, err)
	}
	return a, nil
}

func (s seekStep) String() string { return "tap row " + s.row }

func (s seekStep) Seeking() (replay.Learned, bool) {
	return replay.Learned{Signature: s.page, Kind: "swipe", Direction: "up"}, true
}

// rowRoutine replays Apps → All apps → the row its argument names (seeking it) → Turn off.
type rowRoutine struct {
	oneRoutine
	page string // the signature of the list page
}

func (o *rowRoutine) Steps(_ context.Context, _, _, _ string, args []string, _ int) (replay.Run, error) {
	return replay.Run{Steps: []replay.Step{tapStep{"Apps"}, tapStep{"All apps"}, seekStep{args[0], o.page}, tapStep{"Turn off"}}}, nil
}

func (o *rowRoutine) Offer(ctx context.Context, app, sig, task string, a, b []string) []replay.Offer {
	return o.oneRoutine.Offer(ctx, app, sig, task, a, b)
}

// TestRoutineSeeksItsRow: the row a routine's argument names lies further down the list
// than where it was learned: the replay swipes the list until the row shows, then taps it
// and goes on, with no model call; the swipes are actions of the replay. A row the list
// does not hold stops the replay after the swipes each way, and the task goes on step by
// step.
func TestRoutineSeeksItsRow(t *testing.T) {
	for _, tc := range []struct {
		name     string
		row      string
		replayed int
		swipes   int
	}{
		{"found two swipes down", "Maps", 4, 2},
		{"not in the list", "Clock", 2, 2 * maxSeek},
	} {
		t.Run(tc.name, func(t *testing.T) {
			phone := deepPhone()
			row := func(label string) fakeNode { return fakeNode{kind: "button", text: label, to: "info"} }
			phone.screens["all"] = []fakeNode{{kind: "text", text: "All apps"}, row("Calculator")}
			phone.screens["all2"] = []fakeNode{{kind: "text", text: "All apps"}, row("Camera")}
			phone.screens["all3"] = []fakeNode{{kind: "text", text: "All apps"}, row("Maps")}
			phone.swipeTo = map[string]string{"all": "all2", "all2": "all3", "all3": "all3"}
			if tc.row == "Clock" {
				phone.swipeTo = map[string]string{"all": "all2", "all2": "all3", "all3": "all2"} // never shows it
			}
			phone.cur = "all"
			xml, _ := phone.Dump(t.Context())
			page, err := perception.Parse(xml)
			if err != nil {
				t.Fatal(err)
			}
			phone.cur = "home"
			var asked []string
			rt := &rowRoutine{oneRoutine: oneRoutine{phone: phone}, page: page.Signature}
			h := newHarness(t, phone, routineModel("Turn off notifications for {1}", []string{tc.row}, &asked), nil, func(c *Config) { c.Routines = rt })
			h.run(t, "Turn off "+tc.row+" notifications")
			ran := find[event.RoutineRan](h)
			if len(ran) != 1 || ran[0].Replayed != tc.replayed {
				t.Fatalf("routine runs %+v, want one that replayed %d steps", ran, tc.replayed)
			}
			if phone.swipes != tc.swipes {
				t.Errorf("swipes = %d, want %d", phone.swipes, tc.swipes)
			}
			if tc.row == "Maps" && (phone.cur != "off" || h.model.count(llm.RoleDecider) != 0) {
				t.Errorf("phone on %q, decider calls %d: want the routine to reach the end alone", phone.cur, h.model.count(llm.RoleDecider))
			}
			if tc.row == "Clock" && ran[0].Stopped == "" {
				t.Errorf("the routine ran on without its row: %+v", ran[0])
			}
		})
	}
}
