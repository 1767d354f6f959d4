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
	"github.com/fairy-go/fairy/prompts"
	"github.com/fairy-go/fairy/replay"
)

// anyRoutine offers one routine, named name, on every page but the last; Steps fails with
// err when it is set, else returns steps.
type anyRoutine struct {
	phone *fakePhone
	name  string
	steps []replay.Step
	err   error
}

func (o *anyRoutine) Offer(_ context.Context, _, _, _ string, _, _ []string) []replay.Offer {
	o.phone.mu.Lock()
	defer o.phone.mu.Unlock()
	if o.phone.cur == "off" {
		return nil
	}
	return []replay.Offer{{ID: "r1", Name: o.name, Params: []string{"an app row"}, Steps: len(o.steps), Fit: []string{"Maps"}}}
}

func (o *anyRoutine) Steps(context.Context, string, string, string, []string, int) (replay.Run, error) {
	if o.err != nil {
		return replay.Run{}, o.err
	}
	return replay.Run{Steps: o.steps}, nil
}

// stubbornModel answers the routine name with args in every Re-Planner call that lists
// routines (always, with always), else goes page by page; it keeps every prompt.
func stubbornModel(name string, always bool, prompts *[]string) *fakeModel {
	m := deepModel()
	page := m.fn[llm.RoleReplanner]
	m.fn[llm.RoleReplanner] = func(n int, u string) string {
		*prompts = append(*prompts, u)
		if always || strings.Contains(u, "<<<ROUTINES") {
			a, _ := json.Marshal([]string{"Maps"})
			return fmt.Sprintf(`{"result":"","reflection":"","progress":"","plan":["Run it"],"subgoal":"Run it","facts":[],"routine":{"name":%q,"args":%s},"interaction":0,"reason":""}`, name, a)
		}
		return page(n, u)
	}
	return m
}

// TestRefusedRoutineNotOfferedAgain: a routine answer the executor cannot run (a name not
// offered, a routine that cannot run here) is refused once: the routine is not listed
// again in the task, the Re-Planner is told so, and the task goes on step by step instead
// of asking for it every step until the budget is spent.
func TestRefusedRoutineNotOfferedAgain(t *testing.T) {
	for _, tc := range []struct {
		name, answer string
		err          error
	}{
		{"unknown name", "Turn off everything", nil},
		{"cannot run here", "Turn off notifications for {1}", fmt.Errorf("routine does not pass through this screen")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			phone := deepPhone()
			var asked []string
			rt := &anyRoutine{phone: phone, name: "Turn off notifications for {1}", err: tc.err,
				steps: []replay.Step{tapStep{"Apps"}, tapStep{"All apps"}, tapStep{"Maps"}, tapStep{"Turn off"}}}
			h := newHarness(t, phone, stubbornModel(tc.answer, false, &asked), nil, func(c *Config) { c.Routines = rt; c.Limits.MaxSteps = 12 })
			res := h.run(t, "Turn off Maps notifications")
			if res.Outcome != event.OutcomeDone || phone.cur != "off" {
				t.Fatalf("outcome %s (%s), phone on %q", res.Outcome, res.Reason, phone.cur)
			}
			listed := 0
			for _, p := range asked {
				if strings.Contains(p, "<<<ROUTINES") {
					listed++
				}
			}
			if listed != 1 {
				t.Errorf("the routine was listed in %d prompts, want 1: a refused routine is not offered again", listed)
			}
			if all := strings.Join(asked, "\n"); !strings.Contains(all, prompts.MarkRoutineRefused) || !strings.Contains(all, "not offered again") {
				t.Errorf("no Re-Planner prompt says the routine was refused and is not offered again")
			}
		})
	}
}

// TestRefusedRoutineCountsAsNoProgress: a model that answers a routine in every step,
// listed or not, makes no progress: three refusals in a row ask for a full new plan, as
// three idle results do.
func TestRefusedRoutineCountsAsNoProgress(t *testing.T) {
	phone := deepPhone()
	var asked []string
	rt := &anyRoutine{phone: phone, name: "Turn off notifications for {1}", steps: []replay.Step{tapStep{"Apps"}}}
	h := newHarness(t, phone, stubbornModel("Turn off everything", true, &asked), nil, func(c *Config) { c.Routines = rt; c.Limits.MaxSteps = 5 })
	_ = h.run(t, "Turn off Maps notifications")
	if len(asked) < 4 || !strings.Contains(asked[3], "make a full new plan") {
		t.Fatalf("%d Re-Planner prompts; the fourth does not ask for a full new plan after three refusals", len(asked))
	}
}

// TestRoutineNamedAsQuoted: a routine whose name holds a line break is shown quoted in the
// prompt (\n); a model that answers the name as it reads it there runs the routine.
func TestRoutineNamedAsQuoted(t *testing.T) {
	phone := deepPhone()
	var asked []string
	rt := &anyRoutine{phone: phone, name: "Turn off\nnotifications for {1}",
		steps: []replay.Step{tapStep{"Apps"}, tapStep{"All apps"}, tapStep{"Maps"}, tapStep{"Turn off"}}}
	h := newHarness(t, phone, stubbornModel(`Turn off\nnotifications for {1}`, false, &asked), nil, func(c *Config) { c.Routines = rt })
	res := h.run(t, "Turn off Maps notifications")
	if res.Outcome != event.OutcomeDone || phone.cur != "off" {
		t.Fatalf("outcome %s (%s), phone on %q", res.Outcome, res.Reason, phone.cur)
	}
	if ran := find[event.RoutineRan](h); len(ran) != 1 || ran[0].Replayed != 4 {
		t.Errorf("routine runs %+v, want one that replayed 4 steps", ran)
	}
}

// satisfiedStep is a switch step whose switch already shows the wanted state.
type satisfiedStep struct{}

func (satisfiedStep) Resolve(*perception.Screen) (event.Action, error) {
	return event.Action{}, fmt.Errorf("%w: %q is already off", replay.ErrSatisfied, "Wi-Fi")
}
func (satisfiedStep) String() string { return "tap Wi-Fi" }

// TestReplaySkipsASwitchAlreadySet: a switch step whose switch already shows the state the
// task wants is skipped, not tapped and not a surprise: the routine runs on to its end.
func TestReplaySkipsASwitchAlreadySet(t *testing.T) {
	phone := deepPhone()
	var asked []string
	rt := &anyRoutine{phone: phone, name: "Turn off notifications for {1}",
		steps: []replay.Step{tapStep{"Apps"}, satisfiedStep{}, tapStep{"All apps"}, tapStep{"Maps"}, tapStep{"Turn off"}}}
	h := newHarness(t, phone, stubbornModel("Turn off notifications for {1}", false, &asked), nil, func(c *Config) { c.Routines = rt })
	res := h.run(t, "Turn off Maps notifications")
	if res.Outcome != event.OutcomeDone || phone.cur != "off" {
		t.Fatalf("outcome %s (%s), phone on %q", res.Outcome, res.Reason, phone.cur)
	}
	ran := find[event.RoutineRan](h)
	if len(ran) != 1 || ran[0].Replayed != 4 || ran[0].Stopped != "" {
		t.Errorf("routine runs %+v, want one that ran whole, 4 taps, the set switch skipped", ran)
	}
	if all := strings.Join(asked, "\n"); !strings.Contains(all, "skipped tap Wi-Fi") {
		t.Errorf("no Re-Planner prompt says the switch step was skipped")
	}
}
