package guard

import (
	"fmt"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/perception"
)

func defaultGuard(t testing.TB) *Guard {
	t.Helper()
	g, err := New(DefaultPolicy())
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func button(i int, label string, y int) perception.Element {
	return perception.Element{Index: i, Role: "button", Label: label, Text: label, Class: "android.widget.Button", Clickable: true,
		Bounds: perception.Bounds{X1: 100, Y1: y, X2: 980, Y2: y + 150}, Center: perception.Point{X: 540, Y: y + 75}}
}

// TestGuardReadsDisguisedLabels: look-alike, invisible, spaced and joined spellings of a
// sensitive word are read as the word; a split label counts with its parts.
func TestGuardReadsDisguisedLabels(t *testing.T) {
	g := defaultGuard(t)
	pay := &perception.Screen{Signature: "p", Context: []string{"Payment", "Total ¥18.00"}}
	del := &perception.Screen{Signature: "d", Context: []string{"Delete 3 photos?"}}
	plain := &perception.Screen{Signature: "x"}
	tap := event.Action{Type: event.Tap, Index: 1}
	for _, tc := range []struct {
		label    string
		s        *perception.Screen
		category string
	}{
		{"Ｐａｙ", plain, "payment"}, {"P\u200bay", plain, "payment"}, {"Pa\u00ady", plain, "payment"}, {"Pаy", plain, "payment"},
		{"PayNow", plain, "payment"}, {"BuyNow", plain, "payment"}, {"支 付", plain, "payment"}, {"删 除", plain, "delete"},
		{"Place your order", plain, "order"}, {"Jetzt zahlen", plain, "payment"}, {"Donate", plain, "payment"},
		{"Confirm ¥18.00", pay, "payment"}, {"Continue · ¥18.00", pay, "payment"}, {"Yes, continue", pay, "payment"},
		{"✓", pay, "payment"}, {"→", pay, "payment"}, {"确 定", pay, "payment"}, {"OK", del, "delete"},
		{"OK", &perception.Screen{Signature: "t", Context: []string{"Total", "18.00"}}, "payment"},
		{"Оплатить", plain, "payment"}, // Russian stays Russian
		{"Continue reading", pay, ""}, {"Cancel", pay, ""},
	} {
		el := button(1, tc.label, 1000)
		v, hit := g.Check(tap, &el, tc.s)
		if got := map[bool]string{true: v.Category}[hit]; got != tc.category {
			t.Errorf("tap %q: category %q, want %q", tc.label, got, tc.category)
		}
	}
	split := button(1, "¥18.00", 1000)
	split.Texts = []string{"Pay"}
	if v, hit := g.Check(tap, &split, plain); !hit || v.Category != "payment" {
		t.Errorf("a bar labelled ¥18.00 with a Pay text inside: %+v, %v", v, hit)
	}
}

// TestGuardJudgesWhereTheTapLands: a harmless card whose centre is its own Pay button pays.
func TestGuardJudgesWhereTheTapLands(t *testing.T) {
	g := defaultGuard(t)
	card := perception.Element{Index: 1, Role: "item", Label: "Order #123 details", Clickable: true, LongClickable: true,
		Bounds: perception.Bounds{X1: 0, Y1: 900, X2: 1080, Y2: 1250}, Center: perception.Point{X: 540, Y: 1075}}
	pay := button(2, "Pay", 1000)
	s := &perception.Screen{Signature: "c", Elements: []perception.Element{card, pay}}
	for _, typ := range []event.ActionType{event.Tap, event.LongPress} {
		if v, hit := g.Check(event.Action{Type: typ, Index: 1}, &s.Elements[0], s); !hit || v.Category != "payment" {
			t.Errorf("%s on the card over Pay: %+v, %v", typ, v, hit)
		}
	}
}

// TestConsentNamesTheAmount: the same OK on a ¥18 sheet and on a ¥1,800 sheet are two
// actions; a consent for one does not cover the other.
func TestConsentNamesTheAmount(t *testing.T) {
	g := defaultGuard(t)
	ok := button(1, "OK", 1000)
	a := &perception.Screen{Signature: "sheet", Context: []string{"Total ¥18"}, Elements: []perception.Element{ok}}
	b := &perception.Screen{Signature: "sheet", Context: []string{"Total ¥1,800"}, Elements: []perception.Element{ok}}
	va, _ := g.Check(event.Action{Type: event.Tap, Index: 1}, &a.Elements[0], a)
	vb, _ := g.Check(event.Action{Type: event.Tap, Index: 1}, &b.Elements[0], b)
	if va.Action == "" || va.Action == vb.Action {
		t.Errorf("the consent identities of OK at ¥18 and at ¥1,800: %q, %q", va.Action, vb.Action)
	}
	rowA, rowB := button(1, "Buy", 1000), button(1, "Buy", 1000)
	rowA.Texts, rowB.Texts = []string{"$1.00"}, []string{"$1,800.00"}
	s := &perception.Screen{Signature: "list"}
	v1, _ := g.Check(event.Action{Type: event.Tap, Index: 1}, &rowA, s)
	v2, _ := g.Check(event.Action{Type: event.Tap, Index: 1}, &rowB, s)
	if v1.Action == v2.Action {
		t.Errorf("Buy on a $1 row and on a $1,800 row share the identity %q", v1.Action)
	}
}

// TestGuardEnterInAFieldThatSends: Enter in a chat field whose Send button shows only once
// it holds text counts as sending; in a search field it does not.
func TestGuardEnterInAFieldThatSends(t *testing.T) {
	g := defaultGuard(t)
	chat := perception.Element{Index: 1, Role: "input", Editable: true, Focused: true, Hint: "Message", Class: "android.widget.EditText"}
	search := perception.Element{Index: 1, Role: "input", Editable: true, Focused: true, Hint: "Search", Class: "android.widget.EditText"}
	voice := button(2, "Voice message", 2200)
	for _, tc := range []struct {
		field perception.Element
		a     event.Action
		want  string
	}{
		{chat, event.Action{Type: event.Enter}, "send"},
		{chat, event.Action{Type: event.Input, Index: 1, Text: "I quit.\n"}, "send"},
		{search, event.Action{Type: event.Enter}, ""},
	} {
		s := &perception.Screen{Signature: "c", Keyboard: true, Elements: []perception.Element{tc.field, voice}}
		v, hit := g.Check(tc.a, &s.Elements[0], s)
		if got := map[bool]string{true: v.Category}[hit]; got != tc.want {
			t.Errorf("%s in %q: %q, want %q", tc.a.Type, tc.field.Hint, got, tc.want)
		}
	}
}

// TestGuardShellRewrites: quoting, paths, other input sources, motion events, other Enter
// keys and other ways to delete or call are judged like the plain commands.
func TestGuardShellRewrites(t *testing.T) {
	g := defaultGuard(t)
	pay := button(1, "Pay", 1000)
	s := &perception.Screen{Signature: "p", Elements: []perception.Element{pay}}
	s.Elements[0].Focused = true
	for _, cmd := range []string{`input "tap" 540 1075`, `'input' tap 540 1075`, `cmd input tap 540 1075`, `input stylus tap 540 1075`,
		`input mouse tap 540 1075`, `input tap 540f 1075`, `input motionevent DOWN 540 1075`, `input keyevent 160`,
		`input keyevent KEYCODE_NUMPAD_ENTER`, `/system/bin/rm -rf /sdcard/DCIM`, `"rm" -rf /sdcard/DCIM`, `cmd package uninstall com.bank`,
		`am start -a android.intent.action.CALL_PRIVILEGED -d tel:900123`, `service call isms 5 s16 x`} {
		if _, hit := g.Check(event.Action{Type: event.Shell, Command: cmd}, nil, s); !hit {
			t.Errorf("%q is not guarded", cmd)
		}
	}
	for _, cmd := range []string{`getprop ro.product.model`, `echo 'rm -rf /'`, `settings get system user_rotation`} {
		if v, hit := g.Check(event.Action{Type: event.Shell, Command: cmd}, nil, s); hit {
			t.Errorf("%q is guarded: %+v", cmd, v)
		}
	}
}

// TestGuardSwipeThroughASlider: a swipe across the screen that starts on a "slide to pay"
// slider drags it; one that starts on a list does not.
func TestGuardSwipeThroughASlider(t *testing.T) {
	g := defaultGuard(t)
	slider := perception.Element{Index: 1, Role: "button", Label: "Slide to pay ¥18", Clickable: true,
		Bounds: perception.Bounds{X1: 0, Y1: 1100, X2: 1080, Y2: 1300}, Center: perception.Point{X: 540, Y: 1200}}
	s := &perception.Screen{Signature: "s", Width: 1080, Height: 2400, Elements: []perception.Element{slider}}
	if v, hit := g.Check(event.Action{Type: event.Swipe, Direction: "right"}, nil, s); !hit || v.Category != "payment" {
		t.Errorf("swipe right through the slider: %+v, %v", v, hit)
	}
	list := &perception.Screen{Signature: "l", Width: 1080, Height: 2400, Elements: []perception.Element{
		{Index: 1, Role: "item", Label: "Delete old photos", Clickable: true, Bounds: perception.Bounds{X1: 0, Y1: 1100, X2: 1080, Y2: 1300}}}}
	if v, hit := g.Check(event.Action{Type: event.Swipe, Direction: "up"}, nil, list); hit {
		t.Errorf("scrolling a list over a note named delete is held: %+v", v)
	}
}

// BenchmarkGuardCrowdedPage: judging every element of a crowded page — 1,000 label-less
// buttons over 1,000 texts (a hostile WebView), and a shop list of 1,000 labelled rows in
// several scripts with prices — works out each page once and costs at most 2 ms a screen.
func BenchmarkGuardCrowdedPage(b *testing.B) {
	g := defaultGuard(b)
	bare := &perception.Screen{Signature: "w"}
	for i := range 1000 {
		bare.Context = append(bare.Context, fmt.Sprintf("line %d", i))
		bare.Elements = append(bare.Elements, perception.Element{Index: i + 1, Role: "button", Clickable: true,
			Bounds: perception.Bounds{X1: 0, Y1: i, X2: 10, Y2: i + 1}, Center: perception.Point{X: 5, Y: i}})
	}
	words := []string{"Bubble tea", "珍珠奶茶", "Чай с молоком", "ชาไข่มุก", "चाय", "شاي", "Trà sữa", "Herbata"}
	shop := &perception.Screen{Signature: "shop", Context: []string{"Menu", "Cart (3) · $12.50"}}
	for i := range 1000 {
		l := fmt.Sprintf("%s #%d · $%d.99", words[i%len(words)], i, i%40)
		shop.Elements = append(shop.Elements, perception.Element{Index: i + 1, Role: "item", Label: l, Text: l, Clickable: true,
			Class: "android.widget.LinearLayout", Texts: []string{l, "Add to cart"},
			Bounds: perception.Bounds{X1: 0, Y1: 2 * i, X2: 1080, Y2: 2*i + 2}, Center: perception.Point{X: 540, Y: 2*i + 1}})
	}
	for _, p := range []struct {
		name string
		s    *perception.Screen
	}{{"label-less", bare}, {"labelled", shop}} {
		b.Run(p.name, func(b *testing.B) {
			cpu0 := cpuTime(b)
			for b.Loop() {
				// A new screen every time, as a phone gives: nothing worked out for the
				// last one (the page, its labels) is reused.
				s := *p.s
				g.Offers(&s)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/screen")
			// The CPU time the process spent (the guard and its garbage collection): on a
			// machine shared with other work, wall time also counts the waits for a core.
			b.ReportMetric(float64((cpuTime(b)-cpu0).Nanoseconds())/float64(b.N)/1e6, "cpu-ms/screen")
		})
	}
}
