package learner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/knowledge"
)

// A run's events build the App Map; the next run asks it for a hint and a shortcut.
func ExampleSession() {
	dir, _ := os.MkdirTemp("", "learner")
	defer os.RemoveAll(dir)
	store, err := knowledge.Open(filepath.Join(dir, "knowledge.db"), knowledge.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer store.Close()
	l, _ := New(Config{Store: store})

	bus := event.NewBus(nil)
	s := l.Start("run-1", "Turn on the dark theme")
	defer s.Attach(bus)()
	const app = "com.example.settings"
	bus.Publish(event.AppTaskStarted{Task: event.AppTask{App: app, Task: "Turn on the dark theme"}})
	bus.Publish(event.ScreenPerceived{Step: 1, Package: app, Activity: ".Main", Signature: "main",
		Text: "- \"Settings\"\n- [1] item \"Display\" id=display"})
	bus.Publish(event.ActionExecuted{Step: 1, Action: event.Action{Type: event.Tap, Index: 1}, Signature: "main",
		Element: &event.ElementRef{Label: "Display", ResourceID: app + ":id/display"}})
	bus.Publish(event.ScreenPerceived{Step: 2, Package: app, Activity: ".Display", Signature: "display",
		Text: "- \"Display\"\n- [1] switch \"Dark theme\" id=dark"})
	bus.Publish(event.TaskFinished{App: app, Outcome: event.OutcomeDone, Steps: 2})

	ctx := context.Background()
	hint, _ := l.Hint(ctx, app, "main", "switch on the dark theme")
	fmt.Println(hint)
	steps, ok := l.Shortcut(ctx, app, "main", "p2")
	fmt.Println(ok, steps[0].Signature, steps[0].Action)
	// Output:
	// The App Map knows a path from this page (p1 "Settings: Display") to page p2 "Display: Dark theme" in 1 step: 1. tap id=display "Display". It is reliable: the Action Decider's Navigate("p2") replays it without deciding each step.
	// true main tap id=display "Display"
}
