package guard

import (
	"fmt"
	"strings"
	"testing"
	"unicode"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/perception"
)

// roleTestdata holds the page-role test data.
const roleTestdata = "testdata/roles"

// rolePage is one generated page and the package its dump names.
type rolePage struct {
	name string
	root *xnode
	pkg  string
}

// rolePages are the pages of each role in w's language, with the primary action of kind.
func rolePages(w roleWords, kind string) []rolePage {
	return []rolePage{
		{"checkout", checkoutPage(w, kind), "com.example.shop"},
		{"dialog", dialogPage(w, kind, false, true), "com.example.gallery"},
		{"dialog without ids", dialogPage(w, kind, false, false), "com.example.gallery"},
		{"dialog of three", dialogPage(w, kind, true, true), "com.example.gallery"},
		{"compose", composePage(w, kind), "com.example.mail"},
		{"chat compose", chatComposePage(w, kind), "com.example.messages"},
		{"share sheet", shareSheet(w, kind), "android"},
		{"permission", permissionDialog(w, kind), "com.google.android.permissioncontroller"},
		{"ride", ridePage(w, kind), "com.example.ride"},
		{"seat", seatPage(w, kind), "com.example.cinema"},
	}
}

// everydayPages are pages with no role.
func everydayPages(w roleWords) []rolePage {
	return []rolePage{
		{"product", productPage(w), "com.example.shop"},
		{"cart", cartPage(w), "com.example.shop"},
		{"settings", settingsPage(w), "com.android.settings"},
		{"article", articlePage(w), "com.example.news"},
		{"rate dialog", rateDialog(w), "com.example.shop"},
		{"search", searchPage(w), "com.example.shop"},
	}
}

// judged is one expectation on a parsed page.
type judged struct {
	node *xnode
	el   *perception.Element
}

// parsePage parses p's dump and finds the element of every node with an expectation.
func parsePage(t *testing.T, p rolePage) (*perception.Screen, []judged) {
	t.Helper()
	s, err := perception.Parse(dump(p.root, p.pkg))
	if err != nil {
		t.Fatalf("%s: %v", p.name, err)
	}
	var out []judged
	var walk func(n *xnode)
	walk = func(n *xnode) {
		if n.want2 {
			var el *perception.Element
			for i := range s.Elements {
				b := s.Elements[i].Bounds
				if [4]int{b.X1, b.Y1, b.X2, b.Y2} == n.b {
					el = &s.Elements[i]
				}
			}
			if el == nil {
				t.Fatalf("%s: no element at %v (%q %q) in the parsed page", p.name, n.b, n.text, n.desc)
			}
			out = append(out, judged{n, el})
		}
		for _, k := range n.kids {
			walk(k)
		}
	}
	walk(p.root)
	return s, out
}

func heldAs(g *Guard, a event.Action, el *perception.Element, s *perception.Screen) string {
	v, hit := g.Check(a, el, s)
	if !hit {
		return ""
	}
	return v.Category
}

// TestGuardPageRoles: on a checkout, a destructive dialog, a compose page, a share sheet,
// a permission dialog and a booking sheet, in fourteen languages and scripts, the primary
// action is held with the page's category whatever labels it — a word no vocabulary
// has, OK, an arrow, an icon without text — and the way out (Navigate up, Help, Edit
// cart, Continue shopping, Details, Cancel) is free.
func TestGuardPageRoles(t *testing.T) {
	g := defaultGuard(t)
	tap := event.Action{Type: event.Tap, Index: 1}
	langs := loadRoleWords(t)
	missed := map[string]map[string]bool{} // role → languages where a primary went free
	for _, w := range langs {
		// The word is one the vocabulary lacks: alone it trips nothing.
		plain := btn(w.Go, [4]int{100, 1000, 980, 1150})
		_ = plain
		if el := button(1, w.Go, 1000); heldAs(g, tap, &el, &perception.Screen{Signature: "plain"}) != "" {
			t.Errorf("%s: the test word %q is in the vocabulary; pick another", w.Lang, w.Go)
		}
		for _, kind := range primaryKinds {
			for _, p := range rolePages(w, kind) {
				s, js := parsePage(t, p)
				for _, j := range js {
					if j.node.want == "?" {
						continue
					}
					if got := heldAs(g, tap, j.el, s); got != j.node.want {
						t.Errorf("%s %s (%s): tap %q: held as %q, want %q", w.Lang, p.name, kind, j.el.Name(), got, j.node.want)
						if j.node.want != "" {
							if missed[p.name] == nil {
								missed[p.name] = map[string]bool{}
							}
							missed[p.name][w.Lang] = true
						}
					}
				}
			}
		}
	}
	for role, ls := range missed {
		t.Logf("%s: primary free in %d of %d languages", role, len(ls), len(langs))
	}
}

// TestGuardPageRolesWaysToAct: the primary action of a page with a role is held however
// it is reached: a tap, a long press, Enter in the page's field (the keyboard's action),
// and `input tap X Y` in a shell.
func TestGuardPageRolesWaysToAct(t *testing.T) {
	g := defaultGuard(t)
	for _, w := range loadRoleWords(t) {
		for _, p := range []rolePage{{"chat compose", chatComposePage(w, "word"), "com.example.messages"}, {"checkout", checkoutPage(w, "→"), "com.example.shop"}} {
			s, js := parsePage(t, p)
			for _, j := range js {
				if j.node.want == "" || j.node.want == "?" {
					continue
				}
				for _, a := range []event.Action{
					{Type: event.LongPress, Index: j.el.Index},
					{Type: event.Shell, Command: fmt.Sprintf("input tap %d %d", j.el.Center.X, j.el.Center.Y)},
				} {
					if got := heldAs(g, a, j.el, s); got != j.node.want {
						t.Errorf("%s %s: %s on %q: held as %q, want %q", w.Lang, p.name, a.Type, j.el.Name(), got, j.node.want)
					}
				}
			}
			if p.name != "chat compose" {
				continue
			}
			var body *perception.Element
			for i := range s.Elements {
				if s.Elements[i].Editable && s.Elements[i].Bounds.Y1 > 2000 {
					body = &s.Elements[i]
				}
			}
			s.Keyboard = true
			if got := heldAs(g, event.Action{Type: event.Enter}, body, s); got != "send" {
				t.Errorf("%s %s: Enter in the body: held as %q, want send", w.Lang, p.name, got)
			}
		}
	}
}

// TestGuardEverydayPagesFree: the actions of everyday pages in fourteen languages (a
// product, a cart, settings, an article, a rating dialog, search) and the ways out of the
// pages with a role are held at most once in a hundred.
func TestGuardEverydayPagesFree(t *testing.T) {
	g := defaultGuard(t)
	tap := event.Action{Type: event.Tap, Index: 1}
	actions, falseHolds := 0, 0
	for _, w := range loadRoleWords(t) {
		pages := everydayPages(w)
		for _, kind := range primaryKinds {
			pages = append(pages, rolePages(w, kind)...)
		}
		for _, p := range pages {
			s, js := parsePage(t, p)
			for _, j := range js {
				if j.node.want != "" {
					continue
				}
				actions++
				if got := heldAs(g, tap, j.el, s); got != "" {
					falseHolds++
					t.Logf("%s %s: tap %q held as %s", w.Lang, p.name, j.el.Name(), got)
				}
			}
		}
	}
	rate := float64(falseHolds) / float64(actions)
	t.Logf("false holds: %d of %d harmless actions (%.2f%%)", falseHolds, actions, 100*rate)
	if rate > 0.01 {
		t.Errorf("false holds %.2f%% > 1%%", 100*rate)
	}
}

// TestGuardPageRoleNamesThePage: a primary action held by its page's role is asked about
// with the role and what the page shows of it (the amounts, the masked card).
func TestGuardPageRoleNamesThePage(t *testing.T) {
	g := defaultGuard(t)
	for _, w := range loadRoleWords(t) {
		s, js := parsePage(t, rolePage{"checkout", checkoutPage(w, "→"), "com.example.shop"})
		for _, j := range js {
			if j.node.want != "payment" {
				continue
			}
			v, hit := g.Check(event.Action{Type: event.Tap, Index: j.el.Index}, j.el, s)
			// The total's number at least (the money reader reads ر.س as ر today).
			number := strings.TrimFunc(g.normLabel(w.Total), func(r rune) bool { return !unicode.IsDigit(r) })
			if !hit || v.Role != "payment page" || !strings.Contains(v.Subject, "•••• 4242") || !strings.Contains(v.Subject, number) {
				t.Errorf("%s: %+v, want the payment page named with %s and •••• 4242", w.Lang, v, w.Total)
			}
		}
	}
}

// TestGuardPageRoleFullPageIsNoDialog: two buttons side by side on a full page (Settings'
// Clear storage and Clear cache, as builtin:sim draws them) are no dialog's bar: Clear
// cache, which the words free, stays free.
func TestGuardPageRoleFullPageIsNoDialog(t *testing.T) {
	g := defaultGuard(t)
	w := loadRoleWords(t)[0]
	root := frame([4]int{0, 0, 1080, 2400},
		toolbar(w, "Storage & cache"),
		text("Maps", [4]int{42, 240, 1038, 320}).withID("com.android.settings:id/entity_header_title"),
		text("App size 23.1 MB", [4]int{42, 340, 1038, 400}), text("User data 1.5 MB", [4]int{42, 420, 1038, 480}),
		text("Cache 3.2 MB", [4]int{42, 500, 1038, 560}),
		linear([4]int{0, 600, 1080, 760},
			btn("Clear storage", [4]int{42, 620, 520, 740}).withID("com.android.settings:id/clear_storage").is("?"),
			btn("Clear cache", [4]int{560, 620, 1038, 740}).withID("com.android.settings:id/clear_cache").is("")))
	s, js := parsePage(t, rolePage{"storage", root, "com.android.settings"})
	for _, j := range js {
		if j.node.want == "?" {
			continue
		}
		if got := heldAs(g, event.Action{Type: event.Tap, Index: j.el.Index}, j.el, s); got != j.node.want {
			t.Errorf("tap %q: held as %q, want %q", j.el.Name(), got, j.node.want)
		}
	}
}

// TestGuardPageRoleNamesTheRecipient: a compose page's send held by its role names whom it
// goes to.
func TestGuardPageRoleNamesTheRecipient(t *testing.T) {
	g := defaultGuard(t)
	for _, w := range loadRoleWords(t) {
		s, js := parsePage(t, rolePage{"compose", composePage(w, "icon"), "com.example.mail"})
		for _, j := range js {
			if j.node.want != "send" {
				continue
			}
			v, hit := g.Check(event.Action{Type: event.Tap, Index: j.el.Index}, j.el, s)
			if !hit || v.Role != "compose page" || !strings.Contains(v.Subject, "to alex.kim@example.com") {
				t.Errorf("%s: %+v, want the compose page named with its recipient", w.Lang, v)
			}
		}
	}
}
