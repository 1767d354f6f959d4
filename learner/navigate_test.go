package learner

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/knowledge"

	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/replay"
)

const shezhiApp = "com.example.shezhi"

var (
	zhMain = screen{shezhiApp, ".Main", "z-main", `- "设置"
- [1] item "显示" id=display
- [2] item "声音" id=sound`}
	zhDisplay = screen{shezhiApp, ".Display", "z-display", `- "显示"
- [1] switch "深色模式" id=dark
- [2] item "亮度" id=brightness`}
	zhBright = screen{shezhiApp, ".Brightness", "z-bright", `- "亮度"
- [1] slider "亮度级别" id=level`}
)

// zhRun walks the Chinese settings app: main → 显示 → 亮度 → back → back.
func zhRun(t *testing.T, l *Learner) {
	t.Helper()
	s := l.Start("", "")
	r := startRun(t, s, "run-zh", "调高亮度", shezhiApp, "调高亮度")
	r.see(zhMain, "", "打开显示")
	r.do("z-main", tap(1, "显示", shezhiApp+":id/display", "android.widget.LinearLayout"))
	r.see(zhDisplay, "A", "打开亮度")
	r.do("z-display", tap(2, "亮度", shezhiApp+":id/brightness", "android.widget.LinearLayout"))
	r.see(zhBright, "A", "返回")
	r.do("z-bright", act{a: event.Action{Type: event.Back}})
	r.see(zhDisplay, "A", "返回")
	r.do("z-display", act{a: event.Action{Type: event.Back}})
	r.see(zhMain, "A", "Finished")
	r.finish(event.OutcomeDone, "")
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
}

func TestHint(t *testing.T) {
	st, _ := tempStore(t)
	l := newLearner(t, st, nil)
	settingsRun(t, l.Start("", ""), event.OutcomeDone)
	zhRun(t, l)

	tests := []struct {
		name, app, sig, subgoal string
		want                    []string // substrings; nil: no hint
	}{
		{"english", settingsApp, "s-main", "Switch on the dark theme",
			[]string{`to page p2 "Display: Dark theme, Brightness level" in 1 step`, `1. tap id=display "Display"`, `Navigate("p2")`}},
		{"english, on the page already", settingsApp, "s-display", "dark theme", nil},
		{"english, nothing matches", settingsApp, "s-main", "order a pizza", nil},
		{"english, unknown page", settingsApp, "s-nowhere", "dark theme", nil},
		{"chinese, one step", shezhiApp, "z-main", "打开深色模式", []string{`p2 "显示: 深色模式, 亮度"`, "1 step", `Navigate("p2")`}},
		{"chinese, two steps", shezhiApp, "z-main", "把亮度调高", []string{`p3 "亮度: 亮度级别"`, "2 steps", `"显示"`, `"亮度"`}},
		{"chinese, back up", shezhiApp, "z-bright", "声音", []string{`p1 "设置`, "2 steps", "back"}},
		{"unknown app", "com.nothing", "s-main", "dark theme", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, err := l.Start("", "").Hint(t.Context(), tc.app, tc.sig, tc.subgoal)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("hint: %s", h)
			if tc.want == nil {
				if h != "" {
					t.Errorf("hint = %q, want none", h)
				}
				return
			}
			for _, w := range tc.want {
				if !strings.Contains(h, w) {
					t.Errorf("hint %q lacks %q", h, w)
				}
			}
		})
	}
}

func TestShortcut(t *testing.T) {
	st, _ := tempStore(t)
	l := newLearner(t, st, nil)
	zhRun(t, l)

	for _, target := range []string{"p3", "z-bright", ".Brightness#z-bright"} {
		steps, ok := l.Shortcut(t.Context(), shezhiApp, "z-main", target)
		if !ok || len(steps) != 2 {
			t.Fatalf("Shortcut to %s = %v, %v", target, steps, ok)
		}
		if steps[0].Signature != "z-main" || steps[0].Activity != ".Main" || steps[1].Signature != "z-display" {
			t.Errorf("expected pages: %+v", steps)
		}
		if steps[0].Action.Target.Text != "显示" || steps[1].Action.Target.Text != "亮度" {
			t.Errorf("actions: %v, %v", steps[0].Action, steps[1].Action)
		}
	}
	if _, ok := l.Shortcut(t.Context(), shezhiApp, "z-main", "z-main"); ok {
		t.Error("shortcut to the page itself")
	}
	if _, ok := l.Shortcut(t.Context(), shezhiApp, "z-main", "p99"); ok {
		t.Error("shortcut to an unknown page")
	}
	steps, _ := l.Shortcut(t.Context(), shezhiApp, "z-main", "p3")

	// Replay: each step checks the screen first.
	el := func(i int, label, id string) perception.Element {
		return perception.Element{Index: i, Role: "item", Label: label, Text: label, ResourceID: shezhiApp + ":id/" + id, Class: "android.widget.LinearLayout"}
	}
	main := &perception.Screen{Package: shezhiApp, Activity: ".Main", Signature: "z-main",
		Elements: []perception.Element{el(1, "声音", "sound"), el(2, "显示", "display")}}
	a, err := steps[0].Resolve(main)
	if err != nil || a != (event.Action{Type: event.Tap, Index: 2}) {
		t.Errorf("Resolve on main = %v, %v; want Tap(2) (the element moved, found by id and label)", a, err)
	}
	if _, err := steps[0].Resolve(&perception.Screen{Signature: "z-bright", Elements: main.Elements}); !errors.Is(err, replay.ErrMismatch) {
		t.Errorf("Resolve on another page = %v, want ErrMismatch", err)
	}
}

// TestLearnedAsLearned: a step the learner hands over reads its action as the App Map
// does, and each action kind the executor can replay resolves to its action.
func TestLearnedAsLearned(t *testing.T) {
	el := knowledge.Element{ResourceID: shezhiApp + ":id/display", Text: "显示", Class: "android.widget.LinearLayout"}
	screen := &perception.Screen{Signature: "z-main", Elements: []perception.Element{
		{Index: 4, Label: "显示", Text: "显示", ResourceID: shezhiApp + ":id/display", Class: "android.widget.LinearLayout"}}}
	for _, tc := range []struct {
		a    knowledge.Action
		want event.Action
	}{
		{knowledge.Action{Kind: knowledge.ActionTap, Target: el}, event.Action{Type: event.Tap, Index: 4}},
		{knowledge.Action{Kind: knowledge.ActionLongPress, Target: el}, event.Action{Type: event.LongPress, Index: 4}},
		{knowledge.Action{Kind: knowledge.ActionSwipe, Args: map[string]string{"direction": "up"}}, event.Action{Type: event.Swipe, Direction: "up"}},
		{knowledge.Action{Kind: knowledge.ActionBack}, event.Action{Type: event.Back}},
		{knowledge.Action{Kind: knowledge.ActionHome}, event.Action{Type: event.Home}},
		{knowledge.Action{Kind: knowledge.ActionEnter}, event.Action{Type: event.Enter}},
		{knowledge.Action{Kind: knowledge.ActionWait}, event.Action{Type: event.Wait, Seconds: 1}},
		{knowledge.Action{Kind: knowledge.ActionOpenApp, Args: map[string]string{"package": shezhiApp}}, event.Action{Type: event.OpenApp, Package: shezhiApp}},
	} {
		if !replayable(tc.a) {
			t.Errorf("%s is not replayable", tc.a)
		}
		st := Step{From: "p1", Action: tc.a, Learned: learned(".Main", "z-main", tc.a, false)}
		if got, err := st.Resolve(screen); err != nil || got != tc.want {
			t.Errorf("%s resolves to %v, %v; want %v", tc.a, got, err, tc.want)
		}
		if want := "on p1: " + tc.a.String(); st.String() != want {
			t.Errorf("String = %q, want %q", st.String(), want)
		}
	}
	// The element a replay did not find is named as the App Map names it.
	gone := knowledge.Element{ResourceID: shezhiApp + ":id/sound", Text: "声音 \"loud\"", Class: "android.widget.LinearLayout"}
	st := learned("", "z-main", knowledge.Action{Kind: knowledge.ActionTap, Target: gone}, true)
	if _, err := st.Resolve(screen); err == nil || !strings.HasSuffix(err.Error(), ": no element "+gone.String()+" on the screen") {
		t.Errorf("Resolve of an element not on the screen = %v, want it named %s", err, gone)
	}
}

func TestTricksRetrievalEnglishAndChinese(t *testing.T) {
	st, _ := tempStore(t)
	for _, tr := range []knowledge.Trick{
		{App: shezhiApp, Kind: knowledge.KindAction, Text: "深色模式的开关在显示页面里。"},
		{App: shezhiApp, Kind: knowledge.KindAction, Text: "The volume slider is on the Sound page."},
		{App: knowledge.Common, Kind: knowledge.KindRecovery, Text: "当弹出权限对话框时，点击允许后再继续。"},
	} {
		if _, err := st.AddTrick(tr); err != nil {
			t.Fatal(err)
		}
	}
	l := newLearner(t, st, nil)
	s := l.Start("", "")
	tests := []struct {
		kind, query, want string
	}{
		{"action", "打开深色模式", "深色模式的开关"},
		{"action", "raise the volume on the sound page", "volume slider"},
		{"error-recovery", "出现权限对话框", "权限对话框"},
		{"recovery", "权限", "权限对话框"},
	}
	for _, tc := range tests {
		got, err := s.Tricks(t.Context(), shezhiApp, tc.kind, tc.query, 1)
		if err != nil || len(got) != 1 || !strings.Contains(got[0], tc.want) {
			t.Errorf("Tricks(%s, %q) = %q, %v; want %q", tc.kind, tc.query, got, err, tc.want)
		}
	}
	if _, err := s.Tricks(t.Context(), shezhiApp, "cooking", "x", 1); err == nil {
		t.Error("unknown kind accepted")
	}
}

func TestDescribeApps(t *testing.T) {
	st, _ := tempStore(t)
	l := newLearner(t, st, nil)
	if err := l.LearnApps([]AppInfo{{Package: settingsApp, Activity: ".Main", Label: "Settings"}, {Package: ""}}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.PutApp(knowledge.App{Package: settingsApp, Description: "System settings."}); err != nil {
		t.Fatal(err)
	}
	// A device scan later keeps the learned description.
	if err := l.LearnApps([]AppInfo{{Package: settingsApp, Activity: ".Main", Label: "Settings"}}); err != nil {
		t.Fatal(err)
	}
	got, err := l.DescribeApps(t.Context(), []string{settingsApp, "com.unknown"})
	if err != nil {
		t.Fatal(err)
	}
	want := "- com.example.settings (Settings): System settings.\n- com.unknown\n"
	if got != want {
		t.Errorf("DescribeApps = %q, want %q", got, want)
	}
	all, err := l.DescribeApps(t.Context(), nil)
	if err != nil || all != "- com.example.settings (Settings): System settings.\n" {
		t.Errorf("DescribeApps(all) = %q, %v", all, err)
	}
	a, _ := st.GetApp(settingsApp)
	if a.LauncherActivity != ".Main" {
		t.Errorf("launcher = %q", a.LauncherActivity)
	}
}

const rowsApp = "com.example.rows"

var (
	rowsHome = screen{rowsApp, ".Home", "r-home", `- "Settings"
- [1] item "Apps" id=apps
- [2] item "Display" id=display`}
	rowsList = screen{rowsApp, ".AllApps", "r-list", `- "All apps"
- [1] item "Calendar" id=app_row
- [2] item "Maps" id=app_row
- [3] item "Messages" id=app_row
- [4] item "珍珠奶茶 Bubble tea" id=app_row`}
	rowsInfo = screen{rowsApp, ".AppInfo", "r-info", `- "App info"
- [1] item "Notifications" id=notifications
- [2] item "Storage & cache" id=storage`}
	rowsNotif = screen{rowsApp, ".AppNotifications", "r-notif", `- "Notifications"
- [1] switch "All notifications" id=switch_bar checked`}
)

// rowsRun walks home → Apps → the list → each row in turn → App info → Notifications and
// back, so the map knows several rows of the list leading to the same page.
func rowsRun(t *testing.T, l *Learner, rows ...string) {
	t.Helper()
	s := l.Start("", "")
	r := startRun(t, s, "run-rows", "notifications", rowsApp, "notifications")
	r.see(rowsHome, "", "Open Apps")
	r.do("r-home", tap(1, "Apps", rowsApp+":id/apps", "android.widget.LinearLayout"))
	for _, row := range rows {
		r.see(rowsList, "A", "Open "+row)
		r.do("r-list", tap(2, row, rowsApp+":id/app_row", "android.widget.LinearLayout"))
		r.see(rowsInfo, "A", "Open Notifications")
		r.do("r-info", tap(1, "Notifications", rowsApp+":id/notifications", "android.widget.LinearLayout"))
		r.see(rowsNotif, "A", "Go back")
		r.do("r-notif", act{a: event.Action{Type: event.Back}})
		r.see(rowsInfo, "A", "Go back")
		r.do("r-info", act{a: event.Action{Type: event.Back}})
	}
	r.see(rowsList, "A", "Finished")
	r.finish(event.OutcomeDone, "")
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
}

// TestRouteRespectsSubgoal: where taps on different rows of a list lead to the same page,
// the hint and the shortcut take the row the sub-goal names, and stop before a row it does
// not name; a row learned once is still a row when its page shows others like it.
func TestRouteRespectsSubgoal(t *testing.T) {
	tests := []struct {
		name    string
		learned []string
		subgoal string
		want    []string // the replayed steps' target labels; nil: no Navigate offered
		hint    []string // substrings of the hint
	}{
		{"two rows learned, the second named", []string{"Maps", "Messages"}, "Turn off the notifications of Messages",
			[]string{"Apps", "Messages", "Notifications"}, []string{`Navigate("p4") replays it`}},
		{"two rows learned, the first named", []string{"Maps", "Messages"}, "Turn off the notifications of Maps",
			[]string{"Apps", "Maps", "Notifications"}, []string{`Navigate("p4") replays it`}},
		{"a row not learned", []string{"Maps", "Messages"}, "Turn off the notifications of Calendar",
			[]string{"Apps"}, []string{`(one row of a list`, `Its first 1 step are reliable: the Action Decider's Navigate("p2")`, `up to page p2 "All apps`}},
		{"one row learned, another named", []string{"Maps"}, "Turn off the notifications of Messages",
			[]string{"Apps"}, []string{`Navigate("p2") replays them`}},
		{"one row learned and named", []string{"Maps"}, "Turn off the notifications of Maps",
			[]string{"Apps", "Maps", "Notifications"}, []string{`Navigate("p4") replays it`}},
		{"chinese row", []string{"Maps", "珍珠奶茶 Bubble tea"}, "关掉珍珠奶茶的通知 notifications",
			[]string{"Apps", "珍珠奶茶 Bubble tea", "Notifications"}, []string{`Navigate("p4") replays it`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st, _ := tempStore(t)
			l := newLearner(t, st, nil)
			rowsRun(t, l, tc.learned...)
			s := l.Start("", "")
			h, err := s.Hint(t.Context(), rowsApp, "r-home", tc.subgoal)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("hint: %s", h)
			for _, w := range tc.hint {
				if !strings.Contains(h, w) {
					t.Errorf("hint lacks %q", w)
				}
			}
			target := h[strings.Index(h, `Navigate("`)+len(`Navigate("`):]
			target = target[:strings.IndexByte(target, '"')]
			hinted, ok := s.Shortcut(t.Context(), rowsApp, "r-home", target)
			var got []string
			for _, st := range hinted {
				got = append(got, st.(Step).Action.Target.Text)
			}
			if !ok || strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("Shortcut after the hint = %q, %v; want %q", got, ok, tc.want)
			}
			// Without the hint, the learner never guesses a row: it stops before the list.
			steps, ok := l.Shortcut(t.Context(), rowsApp, "r-home", "r-notif")
			if !ok || len(steps) != 1 || steps[0].Action.Target.Text != "Apps" {
				t.Errorf("Shortcut with no sub-goal = %v, %v; want the tap on Apps only", steps, ok)
			}
			// With the sub-goal given, ShortcutFor picks the same row.
			steps, ok = l.ShortcutFor(t.Context(), rowsApp, "r-home", "r-notif", tc.subgoal)
			row := ""
			for _, r := range tc.learned {
				if w, _, _ := strings.Cut(r, " "); strings.Contains(tc.subgoal, w) {
					row = r
				}
			}
			switch {
			case row != "" && (!ok || len(steps) != 3 || steps[1].Action.Target.Text != row):
				t.Errorf("ShortcutFor = %v, %v; want the row %q", steps, ok, row)
			case row == "" && (!ok || len(steps) != 1):
				t.Errorf("ShortcutFor = %v, %v; want the tap on Apps only", steps, ok)
			}
		})
	}
}

// TestShortcutButtonWithChangingText: a button whose text changes (a cart with its count)
// is one element, not rows of a list: the shortcut takes it whatever it shows now.
func TestShortcutButtonWithChangingText(t *testing.T) {
	st, _ := tempStore(t)
	l := newLearner(t, st, nil)
	menu := func(n int) screen {
		return screen{rowsApp, ".Menu", "m-menu", fmt.Sprintf("- \"Menu\"\n- [1] item \"Tea\" id=menu_item\n- [2] item \"Coffee\" id=menu_item\n- [3] button \"Cart (%d)\" id=cart_button", n)}
	}
	cart := screen{rowsApp, ".Cart", "m-cart", "- \"Cart\"\n- [1] button \"Check out\" id=checkout"}
	checkout := screen{rowsApp, ".Checkout", "m-checkout", "- \"Confirm order\"\n- [1] button \"Submit\" id=submit"}
	s := l.Start("", "")
	r := startRun(t, s, "run-cart", "order", rowsApp, "order")
	for n := 1; n <= 2; n++ {
		r.see(menu(n), "A", "Open the cart")
		r.do("m-menu", tap(3, fmt.Sprintf("Cart (%d)", n), rowsApp+":id/cart_button", "android.widget.Button"))
		r.see(cart, "A", "Check out")
		r.do("m-cart", tap(1, "Check out", rowsApp+":id/checkout", "android.widget.Button"))
		r.see(checkout, "A", "Go back")
		r.do("m-checkout", act{a: event.Action{Type: event.Back}})
		r.see(cart, "A", "Go back")
		r.do("m-cart", act{a: event.Action{Type: event.Back}})
	}
	r.see(menu(2), "A", "Finished")
	r.finish(event.OutcomeDone, "")

	steps, ok := l.Shortcut(t.Context(), rowsApp, "m-menu", "m-checkout")
	if !ok || len(steps) != 2 || steps[0].Row {
		t.Fatalf("Shortcut = %+v, %v; want two steps, the cart button not a row", steps, ok)
	}
	now := &perception.Screen{Package: rowsApp, Activity: ".Menu", Signature: "m-menu", Elements: []perception.Element{
		{Index: 1, Role: "item", Label: "Tea", ResourceID: rowsApp + ":id/menu_item", Class: "android.widget.LinearLayout"},
		{Index: 2, Role: "item", Label: "Coffee", ResourceID: rowsApp + ":id/menu_item", Class: "android.widget.LinearLayout"},
		{Index: 3, Role: "button", Label: "Cart (5)", Text: "Cart (5)", ResourceID: rowsApp + ":id/cart_button", Class: "android.widget.Button"},
	}}
	if a, err := steps[0].Resolve(now); err != nil || a.Index != 3 {
		t.Errorf("Resolve on a cart of 5 = %v, %v; want Tap(3)", a, err)
	}
}
