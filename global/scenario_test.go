package global_test

import (
	"strings"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/executor"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/llm/scripted"
)

const dinner = "Add an event Dinner at 19:00 to my calendar"

// dinnerSaved reports whether the Calendar holds the Dinner event at 19:00.
func dinnerSaved(o outcome) bool {
	for _, e := range o.phone.Events() {
		if e.Title == "Dinner" && e.Time == "19:00" {
			return true
		}
	}
	return false
}

func TestKeyContextFlowsBetweenApps(t *testing.T) {
	o := scenario{rules: "maps_to_messages.yaml", user: []interaction.Rule{{Pattern: `send`, Reply: "yes"}}}.
		run(t, "Find the address of Blue Bottle Coffee in Maps and text it to Alice")
	if o.err != nil || o.res.Outcome != event.OutcomeDone {
		t.Fatalf("run: %v, %+v", o.err, o.res)
	}
	const addr = "66 Mint St, San Francisco, CA 94103"
	var sent bool
	for _, m := range o.phone.Messages() {
		sent = sent || (m.Outgoing && m.To == "Alice Chen" && strings.Contains(m.Text, addr))
	}
	if !sent {
		t.Errorf("no message to Alice Chen with %q: %+v", addr, o.phone.Messages())
	}
	started := eventsOf[event.AppTaskStarted](o)
	if len(started) != 2 || len(started[1].Context) == 0 || started[1].Context[0].Value != addr {
		t.Errorf("the Messages task did not receive the address as key context: %+v", started)
	}
	// Sending is guarded: the person was asked once; declining the location permission was not.
	if len(o.asked) != 1 || !strings.Contains(o.asked[0].Question.Text, "Send SMS") {
		t.Errorf("questions = %+v, want one about sending", o.asked)
	}
	if g := eventsOf[event.ActionGuarded](o); len(g) != 1 || g[0].Category != "send" {
		t.Errorf("guarded = %+v", g)
	}
}

func TestGuardStopsPaymentAndNoEndsUnpaid(t *testing.T) {
	o := scenario{rules: "shop.yaml", user: []interaction.Rule{
		{Pattern: `提交订单`, Reply: "yes"},
		{Pattern: `支付`, Reply: "no"},
	}}.run(t, "Buy a bubble tea in the shop")
	if o.err != nil || o.res.Outcome != event.OutcomeRefused {
		t.Fatalf("outcome %+v (%v), want refused", o.res, o.err)
	}
	orders := o.phone.Orders()
	if len(orders) != 1 || orders[0].Paid {
		t.Errorf("orders = %+v, want one unpaid order", orders)
	}
	var paymentHeld bool
	for _, g := range eventsOf[event.ActionGuarded](o) {
		paymentHeld = paymentHeld || (g.Category == "payment" && g.Target == "支付")
	}
	if !paymentHeld {
		t.Errorf("the guard did not hold back the tap on 支付: %+v", eventsOf[event.ActionGuarded](o))
	}
	for _, e := range eventsOf[event.ActionExecuted](o) {
		if e.Element != nil && e.Element.Label == "支付" {
			t.Errorf("支付 was tapped: %+v", e)
		}
	}
	if o.phone.ScreenID() != "pay" {
		t.Errorf("screen %s, want the phone left on the payment page", o.phone.ScreenID())
	}
}

// decider returns a rule that answers the decider once (times) for a sub-goal.
func decider(subgoal string, times int, answer string) scripted.Rule {
	return scripted.Rule{Name: "astray: " + answer, Role: "decider", Match: scripted.Patterns{"Current sub-goal: " + subgoal}, Times: times, Answer: answer}
}

func TestOutOfRangeIndexIsReasked(t *testing.T) {
	o := scenario{rules: "calendar.yaml", extra: []scripted.Rule{
		decider("Create a new event", 1, `{"thought":"","actions":[{"type":"Tap","index":99}],"expect":""}`),
	}}.run(t, dinner)
	if o.res.Outcome != event.OutcomeDone || !dinnerSaved(o) {
		t.Fatalf("outcome %+v (%v); events %+v", o.res, o.err, o.phone.Events())
	}
	rej := eventsOf[event.ActionRejected](o)
	if len(rej) != 1 || rej[0].Action.Index != 99 || !strings.Contains(rej[0].Reason, "not on the current screen") {
		t.Errorf("rejected = %+v", rej)
	}
	for _, e := range eventsOf[event.ActionExecuted](o) {
		if e.Action.Index == 99 {
			t.Errorf("index 99 was executed: %+v", e)
		}
	}
}

func TestThreeFailuresForceFullReplan(t *testing.T) {
	o := scenario{rules: "calendar.yaml", extra: []scripted.Rule{
		{Name: "no change", Role: "replanner", Match: scripted.Patterns{`\[\d+\] input "Add title" id=title`}, Not: scripted.Patterns{"The last three steps failed"}, Times: 3,
			Answer: `{"result":"D","reflection":"nothing changed","progress":"","plan":["Wait for the form"],"subgoal":"Wait for the form","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}`},
		decider("Wait for the form", 0, `{"thought":"","actions":[{"type":"Wait","seconds":0.01}],"expect":""}`),
	}}.run(t, dinner)
	if o.res.Outcome != event.OutcomeDone || !dinnerSaved(o) {
		t.Fatalf("outcome %+v (%v)", o.res, o.err)
	}
	var full int
	for _, p := range eventsOf[event.Planned](o) {
		if p.Full {
			full++
		}
	}
	if full != 1 {
		t.Errorf("%d full re-plans, want 1", full)
	}
}

func TestDeciderNeedInteractionAsks(t *testing.T) {
	o := scenario{rules: "calendar.yaml", user: []interaction.Rule{{Pattern: `title`, Reply: "Call it Dinner"}}, extra: []scripted.Rule{
		decider("Enter the title", 1, `{"thought":"","actions":[{"type":"NeedInteraction","reason":"Which title should the event have?"}],"expect":""}`),
	}}.run(t, dinner)
	if o.res.Outcome != event.OutcomeDone || !dinnerSaved(o) {
		t.Fatalf("outcome %+v (%v)", o.res, o.err)
	}
	asked := eventsOf[event.InteractionAsked](o)
	if len(asked) != 1 || asked[0].Type != 4 || asked[0].Question != "Which title should the event have?" {
		t.Errorf("asked = %+v, want one open question with the decider's reason", asked)
	}
	ins := eventsOf[event.InteractionEnded](o)
	if len(ins) != 1 || !strings.Contains(ins[0].Summary, "Call it Dinner") {
		t.Errorf("interaction ended = %+v", ins)
	}
}

func TestLoopIsBroken(t *testing.T) {
	o := scenario{rules: "calendar.yaml", limits: executor.Limits{MaxSteps: 30}, extra: []scripted.Rule{
		{Name: "save too early", Role: "replanner", Match: scripted.Patterns{`\[\d+\] input "Add title" id=title`},
			Answer: `{"result":"B","reflection":"","progress":"","plan":["Save the event"],"subgoal":"Save the event","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}`},
	}}.run(t, dinner)
	if o.res.Outcome != event.OutcomeFailed || !strings.Contains(o.res.Reason, "loop") {
		t.Fatalf("outcome %+v (%v), want failed in a loop", o.res, o.err)
	}
	var remedies []string
	for _, l := range eventsOf[event.LoopBroken](o) {
		remedies = append(remedies, l.Remedy)
	}
	if strings.Join(remedies, ",") != "back,replan,fail" {
		t.Errorf("remedies = %v, want back, replan, fail", remedies)
	}
	if dinnerSaved(o) {
		t.Error("the event was saved")
	}
}

func TestBudgetsEndTheTask(t *testing.T) {
	tests := []struct {
		name   string
		limits executor.Limits
		reason string
	}{
		{"steps", executor.Limits{MaxSteps: 2}, "step limit reached (2 steps)"},
		{"tokens", executor.Limits{MaxSteps: 20, MaxTokens: 2500}, "token limit reached"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := scenario{rules: "calendar.yaml", limits: tc.limits}.run(t, dinner)
			if o.res.Outcome != event.OutcomeFailed || !strings.Contains(o.res.Reason, tc.reason) {
				t.Errorf("outcome %+v (%v), want failed with %q", o.res, o.err, tc.reason)
			}
			if o.sum.Outcome != event.OutcomeFailed || !strings.Contains(o.sum.Reason, tc.reason) {
				t.Errorf("summary outcome %s reason %q", o.sum.Outcome, o.sum.Reason)
			}
		})
	}
}

func TestFinishCheckCatchesPrematureFinish(t *testing.T) {
	o := scenario{rules: "calendar.yaml", extra: []scripted.Rule{
		decider("Enter the title", 1, `{"thought":"looks done","actions":[{"type":"Finish","text":"Done"}],"expect":""}`),
	}}.run(t, dinner)
	if o.res.Outcome != event.OutcomeDone || !dinnerSaved(o) {
		t.Fatalf("outcome %+v (%v)", o.res, o.err)
	}
	checks := eventsOf[event.FinishChecked](o)
	if len(checks) != 2 || checks[0].Passed || !checks[1].Passed {
		t.Errorf("finish checks = %+v, want a failed one, then a passed one", checks)
	}
}

func TestCalendarScriptRunsClean(t *testing.T) {
	o := scenario{rules: "calendar.yaml"}.run(t, dinner)
	if o.err != nil || o.res.Outcome != event.OutcomeDone || !dinnerSaved(o) {
		t.Fatalf("outcome %+v (%v)", o.res, o.err)
	}
	if o.sum.CriticalCallsPerStep > 2 {
		t.Errorf("%.2f critical calls per step, want ≤ 2", o.sum.CriticalCallsPerStep)
	}
}
