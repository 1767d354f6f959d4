package learner

import (
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/knowledge"
)

// effectStep is one step of a side-effect run: the screen, then what was done on it (no
// actions on the last).
type effectStep struct {
	sc   screen
	acts []act
}

// way is a transition the test checks: the action on page from (activity, signature) led
// to page to; nav says whether it must be a way there for Path, Shortcut and Predict.
type way struct {
	fromAct, fromSig, toAct, toSig string
	act                            act
	nav                            bool
}

// TestMapSideEffects: a transition that changed the app's state — a switch or checkbox
// toggled, a message sent, an action the guard held, a counter moved on the page — is
// recorded with knowledge.ArgSideEffect saying why, and no Path, Shortcut or Predict uses
// it; a row that opens a page, a tab, and search results after typing are not marked.
func TestMapSideEffects(t *testing.T) {
	const set, chat, shop = "com.example.settings", "com.example.chat", "com.fairy.shop"
	el := func(app, id string) string { return app + ":id/" + id }

	settings := screen{set, ".Main", "s-main", `- "Settings"
- [1] item "Sound" id=sound
- [2] switch "Wi-Fi" id=wifi unchecked
- [3] item "Sync" id=sync unchecked
- [4] switch "Hotspot" id=hotspot unchecked`}
	settingsWifi := screen{set, ".Main", "s-main", `- "Settings"
- [1] item "Sound" id=sound
- [2] switch "Wi-Fi" id=wifi checked
- [3] item "Sync" id=sync unchecked
- [4] switch "Hotspot" id=hotspot unchecked`}
	settingsSync := screen{set, ".Main", "s-main", `- "Settings"
- [1] item "Sound" id=sound
- [2] switch "Wi-Fi" id=wifi checked
- [3] item "Sync" id=sync checked
- [4] switch "Hotspot" id=hotspot unchecked`}
	sound := screen{set, ".Sound", "s-sound", `- "Sound"` + "\n" + `- [1] button "Back" id=back`}
	hotspot := screen{set, ".HotspotDialog", "s-hotspot", `- "Turn on hotspot?"` + "\n" + `- [1] button "OK" id=ok`}

	list := screen{chat, ".Main", "s-list", `- "Chats"
- [1] item "Alice" id=row
- [2] tab "Orders" id=tab_orders`}
	compose := screen{chat, ".Compose", "s-compose", `- "To Alice"
- [1] input "hello" id=message
- [2] button "发送" id=send`}
	thread := screen{chat, ".Thread", "s-thread", `- "Alice"` + "\n" + `- "hello"`}
	orders := screen{chat, ".Orders", "s-orders", `- "Orders"` + "\n" + `- [1] button "Pay ¥18" id=confirm`}
	paid := screen{chat, ".Paid", "s-paid", `- "Paid"`}

	menu := screen{shop, ".Main", "s-menu", `- "Menu"
- [1] item "珍珠奶茶 Bubble tea" id=menu_item
- [2] button "加入" id=add
- [3] button "购物车 (0)" id=cart_button
- [4] input "" id=search
- [5] button "Search" id=search_go
- "0 results"`}
	menuAdded := screen{shop, ".Main", "s-menu", `- "Menu"
- [1] item "珍珠奶茶 Bubble tea" id=menu_item
- [2] button "加入" id=add
- [3] button "购物车 (1)" id=cart_button
- [4] input "" id=search
- [5] button "Search" id=search_go
- "0 results"`}
	menuQty := screen{shop, ".Main", "s-menu", `- "Menu"
- [1] item "珍珠奶茶 Bubble tea" id=menu_item
- "×1"
- [2] button "加入" id=add
- [3] button "购物车 (1)" id=cart_button
- [4] input "" id=search
- [5] button "Search" id=search_go
- "0 results"`}
	menuFound := screen{shop, ".Main", "s-menu", `- "Menu"
- [1] item "珍珠奶茶 Bubble tea" id=menu_item
- [2] button "加入" id=add
- [3] button "购物车 (1)" id=cart_button
- [4] input "tea" id=search
- [5] button "Search" id=search_go
- "2 results"
- [6] item "Milk tea ¥16" id=row
- [7] item "Green tea ¥12" id=row`}
	cart := screen{shop, ".Cart", "s-cart", `- "Cart"`}
	// An item's page and the menu it returns to, for the runs that start inside the shop.
	item := screen{shop, ".Item", "s-item", `- [1] button "Navigate up"
- "珍珠奶茶"
- [2] button "加入购物车" id=add_to_cart`}
	shopMenu := screen{shop, ".Main", "s-menu", `- "Menu"
- [1] item "珍珠奶茶 Bubble tea" id=menu_item
- [2] button "购物车 (1)" id=cart_button`}

	wifi := tap(2, "Wi-Fi", el(set, "wifi"), "android.widget.Switch")
	sync := tap(3, "Sync", el(set, "sync"), "android.widget.LinearLayout")
	hot := tap(4, "Hotspot", el(set, "hotspot"), "android.widget.Switch")
	soundRow := tap(1, "Sound", el(set, "sound"), "android.widget.LinearLayout")
	alice := tap(1, "Alice", el(chat, "row"), "android.widget.LinearLayout")
	send := tap(2, "发送", el(chat, "send"), "android.widget.Button")
	ordersTab := tap(2, "Orders", el(chat, "tab_orders"), "android.widget.TextView")
	pay := tap(1, "Confirm", el(chat, "confirm"), "android.widget.Button")
	pay.consent = "payment"
	add := tap(2, "加入", el(shop, "add"), "android.widget.Button")
	typeTea := act{a: event.Action{Type: event.Input, Index: 4, Text: "tea"}, el: &event.ElementRef{ResourceID: el(shop, "search"), Class: "android.widget.EditText"}}
	search := tap(5, "Search", el(shop, "search_go"), "android.widget.Button")
	cartBtn := tap(3, "购物车 (1)", el(shop, "cart_button"), "android.widget.Button")
	addToCart := tap(2, "加入购物车", el(shop, "add_to_cart"), "android.widget.Button")
	teaRow := tap(1, "珍珠奶茶 Bubble tea", el(shop, "menu_item"), "android.widget.LinearLayout")
	back := act{a: event.Action{Type: event.Back}}

	tests := []struct {
		name  string
		app   string
		steps []effectStep
		marks map[string]string // target label → side-effect mark ("" none)
		ways  []way
	}{
		{"settings", set, []effectStep{
			{settings, []act{wifi}},
			{settingsWifi, []act{sync}},
			{settingsSync, []act{hot}},
			{hotspot, []act{{a: event.Action{Type: event.Back}}}},
			{settingsSync, []act{soundRow}},
			{sound, nil},
		}, map[string]string{"Wi-Fi": "toggles", "Sync": "toggles", "Hotspot": "toggles", "Sound": ""},
			[]way{
				{".Main", "s-main", ".HotspotDialog", "s-hotspot", hot, false},
				{".Main", "s-main", ".Sound", "s-sound", soundRow, true},
			}},
		{"chat", chat, []effectStep{
			{list, []act{alice}},
			{compose, []act{send}},
			{thread, []act{{a: event.Action{Type: event.Back}}}},
			{list, []act{ordersTab}},
			{orders, []act{pay}},
			{paid, nil},
		}, map[string]string{"Alice": "", "发送": "sensitive", "Orders": "", "Confirm": "sensitive"},
			[]way{
				{".Compose", "s-compose", ".Thread", "s-thread", send, false},
				{".Orders", "s-orders", ".Paid", "s-paid", pay, false},
				{".Main", "s-list", ".Compose", "s-compose", alice, true},
				{".Main", "s-list", ".Orders", "s-orders", ordersTab, true},
			}},
		{"shop", shop, []effectStep{
			{menu, []act{add}},
			{menuAdded, []act{add}},
			{menuQty, []act{typeTea, search}},
			{menuFound, []act{cartBtn}},
			{cart, nil},
		}, map[string]string{"加入": "changes", "Search": "", "购物车 (1)": ""},
			[]way{{".Main", "s-menu", ".Cart", "s-cart", cartBtn, true}}},
		// The run starts on an item someone opened: the way into the item's page is
		// unknown, so 加入购物车, which led to the menu, may have been a return with an
		// effect: no way there. The menu was opened from the item: its cart button is.
		{"started inside the app", shop, []effectStep{
			{item, []act{addToCart}},
			{shopMenu, []act{cartBtn}},
			{cart, nil},
		}, map[string]string{"加入购物车": "unknown", "购物车 (1)": ""},
			[]way{
				{".Item", "s-item", ".Main", "s-menu", addToCart, false},
				{".Main", "s-menu", ".Cart", "s-cart", cartBtn, true},
			}},
		// The run starts on an item and goes Back to the menu, an entry page (no Up): its
		// row is a way to the item.
		{"back to an entry page", shop, []effectStep{
			{item, []act{back}},
			{shopMenu, []act{teaRow}},
			{item, nil},
		}, map[string]string{"珍珠奶茶 Bubble tea": ""},
			[]way{{".Main", "s-menu", ".Item", "s-item", teaRow, true}}},
		// The run starts on the menu, an entry page (no Up): the row opens the item, going
		// forward; after Back the menu is still known as the item's way in, so 加入购物车
		// returns there, an effect (Back is the way from the item to the menu).
		{"started on an entry page", shop, []effectStep{
			{shopMenu, []act{teaRow}},
			{item, []act{back}},
			{shopMenu, []act{teaRow}},
			{item, []act{addToCart}},
			{shopMenu, nil},
		}, map[string]string{"珍珠奶茶 Bubble tea": "", "加入购物车": "returns"},
			[]way{
				{".Main", "s-menu", ".Item", "s-item", teaRow, true},
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st, _ := tempStore(t)
			l := newLearner(t, st, nil)
			s := l.Start("", "")
			r := startRun(t, s, "r1", tc.name, tc.app, tc.name)
			for i, stp := range tc.steps {
				r.see(stp.sc, map[bool]string{true: "A"}[i > 0], "go on")
				if len(stp.acts) > 0 {
					r.do(stp.sc.sig, stp.acts...)
				}
			}
			r.finish(event.OutcomeDone, "")
			if err := s.Err(); err != nil {
				t.Fatal(err)
			}
			m, err := st.Map(tc.app)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, tr := range m.Transitions {
				if tr.Successes > 0 && tr.Action.Target.Text != "" {
					if old, ok := got[tr.Action.Target.Text]; !ok || old == "" {
						got[tr.Action.Target.Text] = tr.Action.Args[knowledge.ArgSideEffect]
					}
				}
			}
			for label, want := range tc.marks {
				if g, ok := got[label]; !ok || g != want {
					t.Errorf("%s: side effect %q (recorded %v), want %q; map %+v", label, g, ok, want, edges(m))
				}
			}
			for _, w := range tc.ways {
				from, to := knowledge.PageKey(w.fromAct, w.fromSig), knowledge.PageKey(w.toAct, w.toSig)
				_, perr := st.Path(tc.app, from, to)
				_, short := l.Shortcut(t.Context(), tc.app, w.fromSig, w.toSig)
				pred, pok := l.Predict(t.Context(), tc.app, w.fromSig, w.act.a, w.act.el, "Open "+w.act.el.Label)
				if (perr == nil) != w.nav || short != w.nav || pok != w.nav || (w.nav && pred != w.toSig) {
					t.Errorf("%s → %s by %q: path err %v, shortcut %v, predict %q %v; want a way: %v",
						w.fromSig, w.toSig, w.act.el.Label, perr, short, pred, pok, w.nav)
				}
			}
		})
	}
}
