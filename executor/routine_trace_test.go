package executor

import (
	"context"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/replay"
)

// sourcedRoutine is oneRoutine whose offer says which run it was learned from.
type sourcedRoutine struct{ oneRoutine }

func (o *sourcedRoutine) Offer(ctx context.Context, app, sig, task string, answers, labels []string) []replay.Offer {
	offers := o.oneRoutine.Offer(ctx, app, sig, task, answers, labels)
	for i := range offers {
		offers[i].LearnedFrom = "learn-run-7"
	}
	return offers
}

// TestRoutineTrace: the trace names the knowledge in play when a routine acts — the
// replay's routine, the run it was learned from, its parameters and the arguments bound —
// and a routine the Re-Planner chose that could not run is a RoutineDeclined with why.
func TestRoutineTrace(t *testing.T) {
	for _, tt := range []struct {
		name, routine string
		args          []string
		declined      string
	}{
		{name: "runs", routine: "Turn off notifications for {1}", args: []string{"Maps"}},
		{name: "unknown name", routine: "Turn off everything", args: []string{"Maps"}, declined: "not offered on this screen"},
		{name: "wrong arguments", routine: "Turn off notifications for {1}", args: []string{"Maps", "now"}, declined: "2 argument(s) for 1 parameter(s)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			phone := deepPhone()
			var asked []string
			rt := &sourcedRoutine{oneRoutine{phone: phone}}
			h := newHarness(t, phone, routineModel(tt.routine, tt.args, &asked), nil, func(c *Config) { c.Routines = rt })
			h.run(t, "Turn off Maps notifications")
			ran, declined := find[event.RoutineRan](h), find[event.RoutineDeclined](h)
			if tt.declined == "" {
				if len(ran) == 0 || ran[0].LearnedFrom != "learn-run-7" || len(ran[0].Args) != 1 || ran[0].Args[0] != "Maps" ||
					len(ran[0].Params) != 1 || ran[0].Params[0] != "an app row" {
					t.Errorf("RoutineRan = %+v, want the source run, parameters and bindings", ran)
				}
				return
			}
			if len(declined) == 0 || declined[0].Reason != tt.declined || declined[0].Name != tt.routine {
				t.Errorf("RoutineDeclined = %+v, want %q", declined, tt.declined)
			}
		})
	}
}
