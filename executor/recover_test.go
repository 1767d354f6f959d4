package executor

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/replay"
)

// strayPhone is idPhone (every page its own signature) with a wrong way off the "all" page: a help link that opens the
// browser, and a row that opens another app's page inside Settings. Launching Settings
// shows its last page, "all".
func strayPhone() *fakePhone {
	p := idPhone()
	p.screens["all"] = append(p.screens["all"],
		fakeNode{kind: "button", text: "Help", to: "web", app: "com.browser"},
		fakeNode{kind: "button", text: "Chrome", to: "chrome"})
	p.screens["web"] = []fakeNode{{kind: "text", text: "Help center"}, {kind: "button", text: "Search help", id: "com.browser:id/search"}}
	p.screens["chrome"] = []fakeNode{{kind: "text", text: "Chrome"}, {kind: "button", text: "Force stop", id: "com.android.settings:id/force_stop"}}
	p.launch = "all"
	return p
}

// strayModel is deepModel whose decider taps wrong once on the "all" page (the row named
// by wrong), and whose Re-Planner says C on a page the walk does not know; it never finds
// its own way back (it waits), so only the executor's recovery brings the task back.
func strayModel(wrong string) *fakeModel {
	erred := false
	m := deepModel()
	replan, decide := m.fn[llm.RoleReplanner], m.fn[llm.RoleDecider]
	m.fn[llm.RoleReplanner] = func(n int, u string) string {
		if strings.Contains(u, "Help center") || strings.Contains(u, `"Force stop"`) {
			return plan("C", "Open the next page", 0, "", "Open the next page", "Turn off")
		}
		return replan(n, u)
	}
	m.fn[llm.RoleDecider] = func(n int, u string) string {
		if i := index(u, wrong); i > 0 && !erred {
			erred = true
			return tap(i)
		}
		if strings.Contains(u, "Help center") || strings.Contains(u, `"Force stop"`) {
			return `{"thought":"lost","actions":[{"type":"Wait","seconds":1}],"expect":""}`
		}
		return decide(n, u)
	}
	return m
}

// backShortcuts knows the way back from the "chrome" page to the "all" page: Back.
type backShortcuts struct{ asked []string }

func (b *backShortcuts) Shortcut(_ context.Context, _, from, target string) ([]replay.Step, bool) {
	b.asked = append(b.asked, from+"→"+target)
	return []replay.Step{backStep{}}, true
}

type backStep struct{}

func (backStep) Resolve(*perception.Screen) (event.Action, error) {
	return event.Action{Type: event.Back}, nil
}
func (backStep) String() string { return "Back" }

// TestRecoveryReturnsToTheLastGoodPage: after a wrong tap the Re-Planner judges C. When the
// phone left the task's app, the executor opens the app again; when the App Map knows the
// way from the wrong page to the last page judged right, it follows it. Either way with no
// model call, and the task ends done.
func TestRecoveryReturnsToTheLastGoodPage(t *testing.T) {
	t.Run("the phone left the app", func(t *testing.T) {
		phone := strayPhone()
		h := newHarness(t, phone, strayModel("Help"), nil, nil)
		res := h.run(t, "Turn off Maps notifications")
		if res.Outcome != event.OutcomeDone || phone.cur != "off" {
			t.Fatalf("outcome %s (%s), phone on %q", res.Outcome, res.Reason, phone.cur)
		}
		if !slices.Equal(phone.launches, []string{"com.android.settings"}) {
			t.Errorf("launches %q, want Settings opened again once", phone.launches)
		}
		opened := 0
		for _, a := range find[event.ActionExecuted](h) {
			if a.Action.Type == event.OpenApp && a.Action.Package == "com.android.settings" {
				opened++
			}
		}
		if opened != 1 {
			t.Errorf("%d OpenApp actions in the trace, want 1", opened)
		}
	})
	t.Run("the map knows the way back", func(t *testing.T) {
		phone := strayPhone()
		phone.keyTo = map[string]string{"chrome": "all"}
		sc := &backShortcuts{}
		h := newHarness(t, phone, strayModel("Chrome"), nil, func(c *Config) { c.Shortcuts = sc })
		res := h.run(t, "Turn off Maps notifications")
		if res.Outcome != event.OutcomeDone || phone.cur != "off" {
			t.Fatalf("outcome %s (%s), phone on %q", res.Outcome, res.Reason, phone.cur)
		}
		if len(sc.asked) != 1 {
			t.Errorf("ways asked %q, want one, from the wrong page to the last good one", sc.asked)
		}
		if navs := find[event.Navigated](h); len(navs) != 1 || navs[0].Replayed != 1 || !navs[0].Recovery {
			t.Errorf("navigations %+v, want the one way back replayed", navs)
		}
	})
}
