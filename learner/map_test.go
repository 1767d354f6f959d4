package learner

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/knowledge"

	"github.com/google/go-cmp/cmp"
)

const settingsApp = "com.example.settings"

var (
	mainPage = screen{settingsApp, ".Main", "s-main", `- "Settings"
- [1] item "Display" id=display
- [2] item "Sound" id=sound
- [3] input "" id=search`}
	mainTyped = screen{settingsApp, ".Main", "s-main", `- "Settings"
- [1] item "Display" id=display
- [2] item "Sound" id=sound
- [3] input "secret words" id=search focused`}
	displayPage = screen{settingsApp, ".Display", "s-display", `- "Display"
- [1] switch "Dark theme" id=dark
- [2] item "Brightness level" id=brightness`}
	displayDark = screen{settingsApp, ".Display", "s-display", `- "Display"
- [1] switch "Dark theme" id=dark checked
- [2] item "Brightness level" id=brightness`}
	searchPage = screen{settingsApp, ".Search", "s-search", `- "Results"
- [1] item "Display" id=result`}
)

// settingsRun drives one task through the settings app: open Display, switch on the dark
// theme, a swipe that does nothing, back, then a search typed into a field.
func settingsRun(t *testing.T, s *Session, outcome event.Outcome) {
	t.Helper()
	r := startRun(t, s, "run-1", "Turn on the dark theme", settingsApp, "Turn on the dark theme")
	r.see(mainPage, "", "Open Display")
	r.do("s-main", tap(1, "Display", settingsApp+":id/display", "android.widget.LinearLayout"))
	r.see(displayPage, "A", "Turn on Dark theme")
	r.do("s-display", tap(1, "Dark theme", settingsApp+":id/dark", "android.widget.Switch"))
	r.see(displayDark, "A", "Look for more")
	r.do("s-display", act{a: event.Action{Type: event.Swipe, Direction: "up"}})
	r.see(displayDark, "D", "Go back")
	r.do("s-display", act{a: event.Action{Type: event.Back}})
	r.see(mainPage, "A", "Search for display")
	r.do("s-main",
		tap(3, "", settingsApp+":id/search", "android.widget.EditText"),
		act{a: event.Action{Type: event.Input, Index: 3, Text: "secret words"},
			el: &event.ElementRef{Label: "", ResourceID: settingsApp + ":id/search", Class: "android.widget.EditText"}},
		act{a: event.Action{Type: event.Enter}})
	r.see(searchPage, "A", "Finished")
	r.finish(outcome, "")
}

type edge struct {
	from, to string
	kind     knowledge.ActionKind
	target   string
	effect   knowledge.Effect
	s, f     int
}

func edges(m *knowledge.Map) []edge {
	var out []edge
	for _, t := range m.Transitions {
		out = append(out, edge{t.From, t.To, t.Action.Kind, t.Action.Target.ResourceID + "|" + t.Action.Target.Text, t.Effect, t.Successes, t.Failures})
	}
	return out
}

func TestMapFromSteps(t *testing.T) {
	st, path := tempStore(t)
	l := newLearner(t, st, nil)
	s := l.Start("", "")
	settingsRun(t, s, event.OutcomeDone)
	if err := s.Err(); err != nil {
		t.Fatalf("map writes: %v", err)
	}
	m, err := st.Map(settingsApp)
	if err != nil {
		t.Fatal(err)
	}
	id := func(x string) string { return settingsApp + ":id/" + x }
	main, disp, search := ".Main#s-main", ".Display#s-display", ".Search#s-search"
	want := []edge{
		{main, disp, knowledge.ActionTap, id("display") + "|Display", knowledge.EffectNewPage, 1, 0},
		{main, main, knowledge.ActionTap, id("search") + "|", knowledge.EffectSamePage, 1, 0},
		{main, main, knowledge.ActionInput, id("search") + "|", knowledge.EffectSamePage, 1, 0},
		{main, search, knowledge.ActionEnter, "|", knowledge.EffectNewPage, 1, 0},
		{disp, disp, knowledge.ActionTap, id("dark") + "|Dark theme", knowledge.EffectSamePage, 1, 0},
		{disp, disp, knowledge.ActionSwipe, "|", knowledge.EffectNoChange, 1, 0},
		{disp, main, knowledge.ActionBack, "|", knowledge.EffectNewPage, 1, 0},
	}
	sortEdges := cmp.Transformer("sort", func(in []edge) []edge {
		out := append([]edge(nil), in...)
		for i := range out {
			for j := i + 1; j < len(out); j++ {
				a, b := out[i], out[j]
				if a.from+string(a.kind)+a.to > b.from+string(b.kind)+b.to {
					out[i], out[j] = b, a
				}
			}
		}
		return out
	})
	if d := cmp.Diff(want, edges(m), cmp.AllowUnexported(edge{}), sortEdges); d != "" {
		t.Errorf("transitions (-want +got):\n%s", d)
	}
	pages := map[string]knowledge.Page{}
	for _, p := range m.Pages {
		pages[p.Key] = p
	}
	if len(pages) != 3 {
		t.Fatalf("pages = %d, want 3: %+v", len(pages), m.Pages)
	}
	tests := []struct {
		key, desc string
		visits    int
	}{
		{main, "Settings: Display, Sound", 2},
		{disp, "Display: Dark theme, Brightness level", 3},
		{search, "Results: Display", 1},
	}
	for _, tc := range tests {
		p := pages[tc.key]
		if p.Description != tc.desc || p.Visits != tc.visits {
			t.Errorf("page %s: description %q visits %d, want %q %d", tc.key, p.Description, p.Visits, tc.desc, tc.visits)
		}
	}
	if len(pages[main].Elements) == 0 || pages[main].Elements[0] != (knowledge.Element{ResourceID: "display", Text: "Display"}) {
		t.Errorf("main page elements = %+v", pages[main].Elements)
	}

	// Typed text never reaches the file.
	var buf bytes.Buffer
	if err := st.Export(&buf); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "secret") {
		t.Errorf("typed text stored in the knowledge file:\n%s", buf.String())
	}
	for _, tr := range m.Transitions {
		if len(tr.Action.Args) > 0 && tr.Action.Kind == knowledge.ActionInput {
			t.Errorf("input transition has args %v", tr.Action.Args)
		}
		if tr.Action.Kind == knowledge.ActionEnter && tr.Action.Args[argAfter] != afterInput {
			t.Errorf("enter after typing not marked: %v", tr.Action.Args)
		}
	}
	if steps, ok := l.Shortcut(t.Context(), settingsApp, "s-main", "s-search"); ok {
		t.Errorf("shortcut needing typed text: %v", steps)
	}

	// The file holds the same graph after reopening.
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	again := openStore(t, path)
	m2, err := again.Map(settingsApp)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(m, m2); d != "" {
		t.Errorf("map after reopening differs (-before +after):\n%s", d)
	}
	g, err := m2.Graph()
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := g.Order(); n != 3 {
		t.Errorf("graph order = %d, want 3", n)
	}
	if _, err := g.Edge(main, disp); err != nil {
		t.Errorf("graph lacks main → display: %v", err)
	}
}

func TestMapCountsBrokenExpectations(t *testing.T) {
	st, _ := tempStore(t)
	l := newLearner(t, st, nil)
	settingsRun(t, l.Start("", ""), event.OutcomeDone)

	// Second run: Display now opens an error page, and a tap fails on the device.
	errPage := screen{settingsApp, ".Error", "s-error", `- "Something went wrong"`}
	s := l.Start("", "")
	r := startRun(t, s, "run-2", "Turn on the dark theme", settingsApp, "Turn on the dark theme")
	r.see(mainPage, "", "Open Display")
	r.do("s-main", tap(1, "Display", settingsApp+":id/display", "android.widget.LinearLayout"))
	r.see(errPage, "C", "Go back")
	r.do("s-error", act{a: event.Action{Type: event.Back}})
	r.see(mainPage, "A", "Open Display")
	r.do("s-main", act{a: event.Action{Type: event.Tap, Index: 1},
		el: &event.ElementRef{Label: "Display", ResourceID: settingsApp + ":id/display", Class: "android.widget.LinearLayout"}, err: "device gone"})
	r.see(mainPage, "D", "Open Display")
	r.finish(event.OutcomeFailed, "display does not open")
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	m, err := st.Map(settingsApp)
	if err != nil {
		t.Fatal(err)
	}
	var toDisplay, toError *knowledge.Transition
	for i, tr := range m.Transitions {
		if tr.From == ".Main#s-main" && tr.Action.Kind == knowledge.ActionTap && tr.Action.Target.Text == "Display" {
			switch tr.To {
			case ".Display#s-display":
				toDisplay = &m.Transitions[i]
			case ".Error#s-error":
				toError = &m.Transitions[i]
			}
		}
	}
	if toDisplay == nil || toError == nil {
		t.Fatalf("transitions = %+v", m.Transitions)
	}
	// One success in run 1; failures: led elsewhere, then the device refused the tap.
	if toDisplay.Successes != 1 || toDisplay.Failures != 2 {
		t.Errorf("main → display: %d successes %d failures, want 1 2", toDisplay.Successes, toDisplay.Failures)
	}
	// The failed device tap also counts against the new expectation.
	if toError.Successes != 1 || toError.Failures != 1 {
		t.Errorf("main → error: %d successes %d failures, want 1 1", toError.Successes, toError.Failures)
	}
	// No longer reliable: no shortcut.
	if steps, ok := l.Shortcut(t.Context(), settingsApp, "s-main", "s-display"); ok {
		t.Errorf("shortcut over an unreliable transition: %v", steps)
	}
}

func TestMapWriteFailureIsReported(t *testing.T) {
	st, _ := tempStore(t)
	l := newLearner(t, st, nil)
	s := l.Start("", "")
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	r := startRun(t, s, "run-1", "x", settingsApp, "x")
	r.see(mainPage, "", "Open Display") // must not panic
	if err := s.Err(); !errors.Is(err, errStore) || !errors.Is(err, knowledge.ErrClosed) {
		t.Errorf("Err() = %v, want ErrStore wrapping knowledge.ErrClosed", err)
	}
}

func TestSessionConcurrentUse(t *testing.T) {
	st, _ := tempStore(t)
	if _, err := st.AddTrick(knowledge.Trick{App: settingsApp, Kind: knowledge.KindAction, Text: "Display holds the dark theme."}); err != nil {
		t.Fatal(err)
	}
	l := newLearner(t, st, nil)
	s := l.Start("", "")
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 20 {
			if _, err := s.Tricks(t.Context(), settingsApp, "action", "dark theme", 2); err != nil {
				t.Error(err)
				return
			}
			if _, err := s.Hint(t.Context(), settingsApp, "s-main", "dark theme"); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	settingsRun(t, s, event.OutcomeDone)
	<-done
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Learn(t.Context()); err != nil {
		t.Fatal(err)
	}
}

// soundPage is where the Sound row leads once it works.
var soundPage = screen{settingsApp, ".Sound", "s-sound", `- "Sound"
- [1] switch "Do not disturb" id=dnd`}

func tapSound() act {
	return tap(2, "Sound", settingsApp+":id/sound", "android.widget.LinearLayout")
}

// deadTapRun: the Sound row first does nothing (a dead tap: the page stays as it was),
// then works in a batch after a tap on the search field, then fails on the device.
func deadTapRun(t *testing.T, s *Session) {
	t.Helper()
	r := startRun(t, s, "run-1", "Turn on do not disturb", settingsApp, "Turn on do not disturb")
	r.see(mainPage, "", "Open Sound")
	r.do("s-main", tapSound())
	r.see(mainPage, "C", "Open Sound")
	r.do("s-main", tap(3, "", settingsApp+":id/search", "android.widget.EditText"), tapSound())
	r.see(soundPage, "A", "Go back and try again")
	r.do("s-sound", act{a: event.Action{Type: event.Back}})
	r.see(mainPage, "A", "Open Sound")
	failed := tapSound()
	failed.err = "device refused the tap"
	r.do("s-main", failed)
	r.see(mainPage, "D", "Open Sound")
	r.finish(event.OutcomeDone, "")
}

// TestMapDeadTapKeepsTheStep: the known dead tap (a same-page transition with no effect)
// broken later — by the tap working, then by the device refusing it — counts as a failure
// of that transition; the steps still record their pages and other transitions.
func TestMapDeadTapKeepsTheStep(t *testing.T) {
	st, _ := tempStore(t)
	l := newLearner(t, st, nil)
	s := l.Start("", "")
	deadTapRun(t, s)
	if err := s.Err(); err != nil {
		t.Fatalf("map writes: %v", err)
	}
	m, err := st.Map(settingsApp)
	if err != nil {
		t.Fatal(err)
	}
	id := func(x string) string { return settingsApp + ":id/" + x }
	main, sound := ".Main#s-main", ".Sound#s-sound"
	want := []edge{
		// the dead tap: seen once, then broken twice
		{main, main, knowledge.ActionTap, id("sound") + "|Sound", knowledge.EffectNoChange, 1, 2},
		// the step that broke it first still holds its other transitions
		{main, main, knowledge.ActionTap, id("search") + "|", knowledge.EffectSamePage, 1, 0},
		{main, sound, knowledge.ActionTap, id("sound") + "|Sound", knowledge.EffectNewPage, 1, 1},
		{sound, main, knowledge.ActionBack, "|", knowledge.EffectNewPage, 1, 0},
	}
	byKey := func(in []edge) []edge {
		out := append([]edge(nil), in...)
		slices.SortFunc(out, func(a, b edge) int {
			return strings.Compare(a.from+a.to+string(a.kind)+a.target, b.from+b.to+string(b.kind)+b.target)
		})
		return out
	}
	if d := cmp.Diff(byKey(want), byKey(edges(m)), cmp.AllowUnexported(edge{})); d != "" {
		t.Errorf("transitions (-want +got):\n%s", d)
	}
	visits := map[string]int{}
	for _, p := range m.Pages {
		visits[p.Key] = p.Visits
	}
	if d := cmp.Diff(map[string]int{main: 4, sound: 1}, visits); d != "" {
		t.Errorf("page visits (-want +got):\n%s", d)
	}
	for _, tr := range m.Transitions {
		if tr.From == main && tr.To == main && tr.Action.Target.Text == "Sound" && tr.Reliability() >= defaultMinReliability {
			t.Errorf("dead tap reliability %.2f, want below %.2f", tr.Reliability(), defaultMinReliability)
		}
	}
}

// refusingStore serves an App Map holding a transition without a destination (a damaged
// or hand-edited knowledge file), so that the learner's expected failure of it is refused.
type refusingStore struct{ *knowledge.Store }

func (r refusingStore) Map(app string) (*knowledge.Map, error) {
	m, err := r.Store.Map(app)
	if err != nil {
		return nil, err
	}
	out := *m
	out.Transitions = append(slices.Clone(m.Transitions), knowledge.Transition{From: ".Main#s-main", To: "",
		Action: knowledge.Action{Kind: knowledge.ActionTap, Target: knowledge.Element{ResourceID: settingsApp + ":id/sound", Text: "Sound", Class: "android.widget.LinearLayout"}}})
	return &out, nil
}

// TestMapRefusedTransitionCostsOnlyItself: when the knowledge file refuses one transition
// of a step, the step's page and other transitions are still recorded, and Err names it.
func TestMapRefusedTransitionCostsOnlyItself(t *testing.T) {
	st, _ := tempStore(t)
	l := newLearner(t, refusingStore{st}, nil)
	s := l.Start("", "")
	deadTapRun(t, s)
	err := s.Err()
	if !errors.Is(err, errStore) || !errors.Is(err, knowledge.ErrInvalid) || !strings.Contains(err.Error(), "transition left out") {
		t.Fatalf("Err() = %v, want the refused transition reported", err)
	}
	m, err := st.Map(settingsApp)
	if err != nil {
		t.Fatal(err)
	}
	pages := map[string]int{}
	for _, p := range m.Pages {
		pages[p.Key] = p.Visits
	}
	if pages[".Sound#s-sound"] != 1 || pages[".Main#s-main"] != 4 {
		t.Errorf("page visits = %v, want every step's page recorded", pages)
	}
	var toSound, search bool
	for _, tr := range m.Transitions {
		toSound = toSound || tr.To == ".Sound#s-sound" && tr.Successes == 1
		search = search || tr.Action.Target.ResourceID == settingsApp+":id/search" && tr.Successes == 1
	}
	if !toSound || !search {
		t.Errorf("transitions of the step with the refused one are missing: %+v", m.Transitions)
	}
}

// TestMapSideEffectIsNoWay: 加入购物车 adds to the cart and returns to the menu the item was
// opened from. The map records it as a side effect: no path from the item page to the menu
// goes through it, and no shortcut replays it. Back stays a way.
func TestMapSideEffectIsNoWay(t *testing.T) {
	st, _ := tempStore(t)
	l := newLearner(t, st, nil)
	s := l.Start("", "")
	const app = "com.fairy.shop"
	menu := screen{app, ".MainActivity", "s-menu", `- [1] item "珍珠奶茶 Bubble tea" id=menu_item` + "\n" + `- [2] button "购物车 (0)" id=cart_button`}
	menuFull := screen{app, ".MainActivity", "s-menu", `- [1] item "珍珠奶茶 Bubble tea" id=menu_item` + "\n" + `- [2] button "购物车 (1)" id=cart_button`}
	item := screen{app, ".ItemActivity", "s-item", `- "珍珠奶茶"` + "\n" + `- [1] button "加入购物车" id=add_to_cart`}
	cart := screen{app, ".CartActivity", "s-cart", `- [1] button "去结算" id=checkout_button`}
	r := startRun(t, s, "r1", "order a tea", app, "order a tea")
	r.see(menu, "", "Open the tea")
	r.do("s-menu", tap(1, "珍珠奶茶 Bubble tea", app+":id/menu_item", "android.widget.LinearLayout"))
	r.see(item, "A", "Add it to the cart")
	r.do("s-item", tap(1, "加入购物车", app+":id/add_to_cart", "android.widget.Button"))
	r.see(menuFull, "A", "Open the cart")
	r.do("s-menu", tap(2, "购物车 (1)", app+":id/cart_button", "android.widget.Button"))
	r.see(cart, "A", "Finished")
	r.finish(event.OutcomeDone, "")
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	m, err := st.Map(app)
	if err != nil {
		t.Fatal(err)
	}
	var itemKey, menuKey string
	for _, tr := range m.Transitions {
		if tr.Action.Target.Text == "加入购物车" {
			itemKey, menuKey = tr.From, tr.To
			if tr.Action.Args[knowledge.ArgSideEffect] == "" {
				t.Errorf("加入购物车 is recorded as a way to the menu: %+v", tr.Action)
			}
		}
		if tr.Action.Target.Text == "珍珠奶茶 Bubble tea" && tr.Action.Args[knowledge.ArgSideEffect] != "" {
			t.Errorf("opening the item is marked a side effect: %+v", tr.Action)
		}
	}
	if itemKey == "" {
		t.Fatalf("no 加入购物车 transition in %+v", edges(m))
	}
	if p, err := st.Path(app, itemKey, menuKey); err == nil {
		t.Errorf("a path from the item to the menu goes through a side effect: %+v", p)
	}
	if steps, ok := l.Shortcut(t.Context(), app, itemKey, "s-cart"); ok {
		t.Errorf("a shortcut from the item to the cart replays %+v", steps)
	}
}
