package sim

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image/png"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestLauncherOpensEveryApp(t *testing.T) {
	tests := []struct{ label, pkg, screen string }{
		{"Settings", "com.android.settings", "settings_main"},
		{"Contacts", "com.android.contacts", "people"},
		{"Messages", "com.google.android.apps.messaging", "conversations"},
		{"Calendar", "com.google.android.calendar", "schedule"},
		{"Notes", "com.fairy.notes", "notes_list"},
		{"Maps", "com.fairy.maps", "location_permission"},
		{"FoodShop 外卖", "com.fairy.shop", "menu"},
	}
	for _, tc := range tests {
		t.Run(tc.label, func(t *testing.T) {
			p := newPhone(t)
			tap(t, p, tc.label)
			if pkg, _ := p.Foreground(); pkg != tc.pkg || p.ScreenID() != tc.screen {
				t.Fatalf("after tapping %s: %s %s", tc.label, pkg, p.ScreenID())
			}
			sh(t, p, "input keyevent KEYCODE_HOME")
			if p.ScreenID() != "workspace" {
				t.Fatalf("home: %s", p.ScreenID())
			}
		})
	}
}

func TestSettingsToggles(t *testing.T) {
	tests := []struct{ page, toggle, setting, want string }{
		{"Network & internet", "Wi-Fi", "global/wifi_on", "0"},
		{"Connected devices", "Bluetooth", "global/bluetooth_on", "1"},
		{"Display", "Dark theme", "secure/ui_night_mode", "2"},
		{"Battery", "Battery Saver", "global/low_power", "1"},
	}
	for _, tc := range tests {
		t.Run(tc.toggle, func(t *testing.T) {
			p := newPhone(t)
			launch(t, p, "com.android.settings")
			tap(t, p, tc.page)
			switchOf := func() bool {
				seen := false
				for _, n := range dumpNodes(t, p) {
					if n.Text == tc.toggle {
						seen = true
					}
					if seen && n.RID == "android:id/switch_widget" {
						return n.Checked
					}
				}
				t.Fatalf("no switch for %s", tc.toggle)
				return false
			}
			before := switchOf()
			tap(t, p, tc.toggle)
			if got := p.Setting(tc.setting); got != tc.want {
				t.Fatalf("%s = %s, want %s", tc.setting, got, tc.want)
			}
			if before == switchOf() {
				t.Fatal("switch state did not change in the dump")
			}
			out, _ := sh(t, p, "settings get "+strings.Replace(tc.setting, "/", " ", 1))
			if out != tc.want+"\n" {
				t.Fatalf("settings get: %q", out)
			}
		})
	}
}

// TestSettingsDeepPages walks Settings as deep as Android 14's: an app's notification
// switch and cache, the screen timeout, bold text — and the main list's subtitles are
// rendered text, never template source.
func TestSettingsDeepPages(t *testing.T) {
	tests := []struct {
		name  string
		taps  []string
		check func(t *testing.T, p *Phone)
	}{
		{"maps notifications off", []string{"Apps", "See all apps", "Maps", "Notifications", "All Maps notifications"}, func(t *testing.T, p *Phone) {
			if got := p.Setting("secure/notif_off_com.fairy.maps"); got != "1" || !has(t, p, "Off: notifications from this app are blocked") {
				t.Errorf("notif_off = %q; screen: %s", got, labels(t, p))
			}
		}},
		{"messages cache cleared", []string{"Apps", "See all apps", "Messages", "Storage & cache", "Clear cache"}, func(t *testing.T, p *Phone) {
			recs, err := p.Records("com.android.settings:cleared_cache")
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != 1 || recs[0]["package"] != "com.google.android.apps.messaging" || !has(t, p, "Cache 0 B") {
				t.Errorf("cleared caches %v; screen: %s", recs, labels(t, p))
			}
		}},
		{"screen timeout", []string{"Display", "Screen timeout", "5 minutes"}, func(t *testing.T, p *Phone) {
			if got := p.Setting("system/screen_off_timeout"); got != "300000" {
				t.Errorf("screen_off_timeout = %q", got)
			}
			sh(t, p, "input keyevent KEYCODE_BACK")
			if !has(t, p, "After 5 minutes of inactivity") {
				t.Errorf("display page: %s", labels(t, p))
			}
		}},
		{"bold text", []string{"Display", "Display size and text", "Bold text"}, func(t *testing.T, p *Phone) {
			if got := p.Setting("secure/font_weight_adjustment"); got != "300" {
				t.Errorf("font_weight_adjustment = %q", got)
			}
			tap(t, p, "Bold text")
			if got := p.Setting("secure/font_weight_adjustment"); got != "0" {
				t.Errorf("font_weight_adjustment after a second tap = %q", got)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := newPhone(t)
			launch(t, p, "com.android.settings")
			if l := labels(t, p); strings.Contains(l, "{{") || !strings.Contains(l, "Wi-Fi is on") || !strings.Contains(l, "On - 3 apps have access to location") {
				t.Fatalf("main list: %s", l)
			}
			for _, l := range tc.taps {
				tap(t, p, l)
			}
			tc.check(t, p)
		})
	}
}

func TestScrollingLongList(t *testing.T) {
	p := newPhone(t)
	launch(t, p, "com.android.contacts")
	if has(t, p, "韩梅梅") {
		t.Fatal("last contact visible without scrolling: the list is not longer than the screen")
	}
	list, _ := find(t, p, "com.android.contacts:id/contact_list")
	if !list.Scrollable {
		t.Fatal("contact list not scrollable")
	}
	scrollUntil(t, p, "韩梅梅", 5)
	if has(t, p, "Alice Chen") {
		t.Fatal("first contact still visible after scrolling to the end")
	}
	// swipe back down
	for i := 0; i < 5; i++ {
		sh(t, p, "input swipe 540 700 540 2000 300")
	}
	if !has(t, p, "Alice Chen") {
		t.Fatal("scrolling back did not show the first contact")
	}
}

func TestKeyboardAndBack(t *testing.T) {
	p := newPhone(t)
	launch(t, p, "com.android.contacts")
	tap(t, p, "Search contacts")
	for _, n := range dumpNodes(t, p) {
		if n.Pkg == gboardPkg {
			t.Fatal("the classic dump holds the keyboard window: it dumps the active window only")
		}
	}
	nodes := allNodes(t, p)
	kb := false
	for _, n := range nodes {
		if n.Pkg == gboardPkg && n.Depth == 1 {
			kb = true
		}
		if n.RID == "com.android.contacts:id/search_view" && !n.Focused {
			t.Error("search field not focused")
		}
	}
	if !kb {
		t.Fatal("keyboard window missing from the dump")
	}
	// The line as real phones print it (Android 8–14; captures quoted in public tests of
	// other agents: Pixel API 33 emulator, Motorola Android 9).
	if out, _ := sh(t, p, "dumpsys input_method | grep mInputShown"); out != "  mShowRequested=true mShowExplicitlyRequested=false mShowForced=false mInputShown=true\n" {
		t.Fatalf("input_method: %q", out)
	}
	sh(t, p, "input text bob")
	if !has(t, p, "Bob Smith") || has(t, p, "Alice Chen") {
		t.Fatal("search did not filter")
	}
	sh(t, p, "input keyevent 67 67 67")
	if !has(t, p, "Alice Chen") {
		t.Fatal("DEL did not clear the query")
	}
	sh(t, p, "input keyevent KEYCODE_BACK") // hides the keyboard first
	if p.ScreenID() != "people" || p.State().Keyboard {
		t.Fatalf("first Back: screen %s keyboard %v", p.ScreenID(), p.State().Keyboard)
	}
	if out, _ := sh(t, p, "dumpsys input_method | grep mInputShown"); out != "  mShowRequested=false mShowExplicitlyRequested=false mShowForced=false mInputShown=false\n" {
		t.Fatalf("input_method after Back: %q", out)
	}
	sh(t, p, "input keyevent 4")
	if p.ScreenID() != "workspace" {
		t.Fatalf("second Back: %s", p.ScreenID())
	}
	// the task stays in recents: launching again resumes it
	launch(t, p, "com.android.contacts")
	if p.ScreenID() != "people" {
		t.Fatal("relaunch")
	}
}

func TestKeyboardTyping(t *testing.T) {
	p := newPhone(t)
	launch(t, p, "com.android.contacts")
	tap(t, p, "Search contacts")
	f := func() *frame { p.mu.Lock(); defer p.mu.Unlock(); return p.frameLocked() }()
	for _, k := range f.keys {
		if k.value == "b" {
			sh(t, p, "input tap "+itoa((k.r.Min.X+k.r.Max.X)/2)+" "+itoa((k.r.Min.Y+k.r.Max.Y)/2))
		}
	}
	if p.Var("com.android.contacts", "q") != "b" {
		t.Fatalf("tapping the b key typed %q", p.Var("com.android.contacts", "q"))
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func fmtInt(i int) string { return strconv.Itoa(i) }

func TestNonASCIIText(t *testing.T) {
	p := newPhone(t)
	launch(t, p, "com.fairy.shop")
	tap(t, p, "搜索商品")
	out, st := sh(t, p, "input text '奶茶'")
	if st != 255 || !strings.Contains(out, "java.lang.NullPointerException") {
		t.Fatalf("non-ASCII input text: %d %q", st, out)
	}
	if p.Var("com.fairy.shop", "q") != "" {
		t.Fatal("non-ASCII text was typed")
	}
	// ADB Keyboard only types once it is the current IME
	msg := base64.StdEncoding.EncodeToString([]byte("奶茶"))
	out, _ = sh(t, p, "am broadcast -a ADB_INPUT_B64 --es msg "+msg)
	want := "Broadcasting: Intent { act=ADB_INPUT_B64 flg=0x400000 (has extras) }\nBroadcast completed: result=0\n"
	if out != want {
		t.Fatalf("broadcast output %q, want %q", out, want)
	}
	if p.Var("com.fairy.shop", "q") != "" {
		t.Fatal("broadcast typed while ADB Keyboard is not the IME")
	}
	if out, st := sh(t, p, "ime set "+imeADB); st != 255 {
		t.Fatalf("ime set before enable: %d %q", st, out)
	}
	if out, _ := sh(t, p, "ime enable "+imeADB); out != "Input method com.android.adbkeyboard/.AdbIME: now enabled for user #0\n" {
		t.Fatalf("ime enable: %q", out)
	}
	if out, _ := sh(t, p, "ime set "+imeADB); out != "Input method com.android.adbkeyboard/.AdbIME selected for user #0\n" {
		t.Fatalf("ime set: %q", out)
	}
	sh(t, p, "am broadcast -a ADB_INPUT_B64 --es msg "+msg)
	if got := p.Var("com.fairy.shop", "q"); got != "奶茶" {
		t.Fatalf("ADB_INPUT_B64 typed %q", got)
	}
	if !has(t, p, "珍珠奶茶") || has(t, p, "薯条") {
		t.Fatal("shop search did not filter")
	}
	sh(t, p, "am broadcast -a ADB_CLEAR_TEXT")
	sh(t, p, "am broadcast -a ADB_INPUT_TEXT --es msg 'fries'")
	if got := p.Var("com.fairy.shop", "q"); got != "fries" {
		t.Fatalf("ADB_INPUT_TEXT typed %q", got)
	}
	if slices.IndexFunc(allNodes(t, p), func(n xnode) bool { return n.Text == "ADB Keyboard {ON}" }) < 0 {
		t.Fatal("ADB Keyboard window missing")
	}
	if out, _ := sh(t, p, "settings get secure default_input_method"); out != imeADB+"\n" {
		t.Fatalf("default_input_method %q", out)
	}
}

func TestSecurePaymentScreen(t *testing.T) {
	p := newPhone(t)
	submitBubbleTea(t, p)
	if p.ScreenID() != "pay" {
		t.Fatalf("screen %s", p.ScreenID())
	}
	img, err := p.Screenshot()
	if err != nil {
		t.Fatal(err)
	}
	if !isBlackPNG(img) {
		t.Fatal("payment screenshot is not black")
	}
	if !has(t, p, "支付") || !has(t, p, "Pay") {
		t.Fatal("payment tree not dumpable")
	}
	out, _ := sh(t, p, "dumpsys window | grep SECURE")
	if !strings.Contains(out, "SECURE") {
		t.Fatal("window flags lack SECURE")
	}
	// the screenshot through the shell is the same black PNG
	cap, _ := sh(t, p, "screencap -p")
	if !isBlackPNG([]byte(cap)) {
		t.Fatal("screencap -p not black")
	}
}

func TestScreenshotMatchesScreen(t *testing.T) {
	p := newPhone(t)
	b, err := p.Screenshot()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() != 1080 || img.Bounds().Dy() != 2400 {
		t.Fatalf("size %v", img.Bounds())
	}
	if isBlackPNG(b) {
		t.Fatal("home screen is black")
	}
	// where the Settings icon is, the picture is not background
	n, _ := find(t, p, "Settings")
	r, g, bl, _ := img.At((n.X1+n.X2)/2, n.Y1+40).RGBA()
	if r>>8 == 255 && g>>8 == 255 && bl>>8 == 255 {
		t.Fatal("icon not drawn where the tree says it is")
	}
	sh(t, p, "screencap -p /sdcard/s.png")
	data, err := p.ReadFile("/sdcard/s.png")
	if err != nil || !bytes.Equal(data, b) {
		t.Fatalf("screencap to file: %v", err)
	}
}

func TestNotesCreateAndDelete(t *testing.T) {
	p := newPhone(t)
	launch(t, p, "com.fairy.notes")
	tap(t, p, "New note")
	typeInto(t, p, "Title", "Packing")
	typeInto(t, p, "Note", "passport, charger")
	tap(t, p, "Save")
	notes := p.Notes()
	if len(notes) != 4 || notes[3].Title != "Packing" || notes[3].Body != "passport, charger" {
		t.Fatalf("notes %+v", notes)
	}
	// long press opens the delete confirmation
	n, _ := find(t, p, "Shopping list")
	sh(t, p, "input swipe "+fmtInt((n.X1+n.X2)/2)+" "+fmtInt((n.Y1+n.Y2)/2)+" "+fmtInt((n.X1+n.X2)/2)+" "+fmtInt((n.Y1+n.Y2)/2)+" 800")
	if p.ScreenID() != "confirm_delete" {
		t.Fatalf("long press: %s", p.ScreenID())
	}
	tap(t, p, "Delete")
	if len(p.Notes()) != 3 || has(t, p, "Shopping list") {
		t.Fatal("note not deleted")
	}
}

// TestNotesMultilineBody: a note's text takes line breaks as Markor's editor does: Enter
// in the text starts a new line (a header, a blank line, then the text), in a new note and
// in an edited one; Enter in the one-line title does not.
func TestNotesMultilineBody(t *testing.T) {
	p := newPhone(t)
	launch(t, p, "com.fairy.notes")
	tap(t, p, "New note")
	typeInto(t, p, "Title", "Packing")
	sh(t, p, "input keyevent KEYCODE_ENTER")
	typeInto(t, p, "Note", "Header")
	sh(t, p, "input keyevent KEYCODE_ENTER")
	sh(t, p, "input keyevent 66")
	sh(t, p, "input text passport")
	sh(t, p, "input keyevent ENTER")
	tap(t, p, "Save")
	notes := p.Notes()
	if len(notes) != 4 || notes[3].Title != "Packing" || notes[3].Body != "Header\n\npassport\n" {
		t.Fatalf("notes %+v", notes)
	}
	tap(t, p, "Shopping list")
	tap(t, p, "Edit note")
	tap(t, p, "Milk, eggs, bread, coffee beans")
	sh(t, p, "input keyevent ENTER")
	sh(t, p, "input text butter")
	tap(t, p, "Save")
	recs, _ := p.Records("com.fairy.notes:notes")
	if i := slices.IndexFunc(recs, func(r Record) bool { return r["id"] == "n1" }); i < 0 || recs[i]["body"] != "Milk, eggs, bread, coffee beans\nbutter" {
		t.Fatalf("edited note: %v", recs)
	}
}

func TestCalendarCreateEvent(t *testing.T) {
	p := newPhone(t)
	launch(t, p, "com.google.android.calendar")
	tap(t, p, "Create new event")
	typeInto(t, p, "Add title", "Lunch with Bob")
	setTime(t, p, "start_time", "12", "30")
	tap(t, p, "Save")
	ev := p.Events()
	last := ev[len(ev)-1]
	if last.Title != "Lunch with Bob" || last.Time != "12:30" || last.Date != "2025-06-11" {
		t.Fatalf("event %+v", last)
	}
	if p.ScreenID() != "schedule" || !has(t, p, "Lunch with Bob") {
		t.Fatal("event not listed")
	}
}

func TestMapsPermissionSearchDetails(t *testing.T) {
	p := newPhone(t)
	launch(t, p, "com.fairy.maps")
	if !has(t, p, "Allow Maps to access this device’s location?") {
		t.Fatal("no permission dialog")
	}
	n, _ := find(t, p, "While using the app")
	if n.Pkg != "com.google.android.permissioncontroller" {
		t.Fatalf("dialog package %s", n.Pkg)
	}
	tap(t, p, "While using the app")
	typeInto(t, p, "Search here", "coffee shops")
	sh(t, p, "input keyevent KEYCODE_ENTER")
	if p.ScreenID() != "results" {
		t.Fatalf("screen %s", p.ScreenID())
	}
	if has(t, p, "Andytown Coffee Roasters") {
		t.Fatal("results fit on one screen")
	}
	scrollUntil(t, p, "Andytown Coffee Roasters", 6)
	sh(t, p, "input keyevent 4")
	sh(t, p, "input keyevent 4")
	sh(t, p, "am force-stop com.fairy.maps")
	launch(t, p, "com.fairy.maps")
	if p.ScreenID() != "explore" {
		t.Fatalf("permission asked again after it was granted: %s", p.ScreenID())
	}
}

// The cross-app flow "send Alice the address of the nearest coffee shop", through the shell.
func TestFlowAddressToAlice(t *testing.T) {
	p := newPhone(t)
	launch(t, p, "com.fairy.maps")
	tap(t, p, "While using the app")
	tap(t, p, "Coffee")
	nodes := dumpNodes(t, p)
	first := ""
	for _, n := range nodes {
		if n.RID == "android:id/title" {
			first = n.Text
			break
		}
	}
	if first != "Blue Bottle Coffee" {
		t.Fatalf("nearest coffee shop is %q", first)
	}
	tap(t, p, "Blue Bottle Coffee")
	addr, _ := find(t, p, "com.fairy.maps:id/address")
	if addr.Text != "66 Mint St, San Francisco, CA 94103" {
		t.Fatalf("address %q", addr.Text)
	}
	sh(t, p, "input keyevent KEYCODE_HOME")
	tap(t, p, "Messages")
	tap(t, p, "Start chat")
	typeInto(t, p, "Type a name, phone number, or email", "Alice")
	if !has(t, p, "Alice Chen") || !has(t, p, "Alice Wong") || has(t, p, "Bob Smith") {
		t.Fatal("two Alices expected")
	}
	tap(t, p, "Alice Wong")
	typeInto(t, p, "Text message", addr.Text)
	tap(t, p, "Send SMS")
	msgs := p.Messages()
	last := msgs[len(msgs)-1]
	if last.To != "Alice Wong" || last.Text != addr.Text || !last.Outgoing || last.Phone != "+1 650-555-0178" {
		t.Fatalf("last message %+v", last)
	}
	if !has(t, p, addr.Text) || p.Var("com.google.android.apps.messaging", "draft") != "" {
		t.Fatal("sent message not shown or draft not cleared")
	}
	out, _ := sh(t, p, "fairy-sim state messages")
	if !strings.Contains(out, `"to": "Alice Wong"`) {
		t.Fatalf("fairy-sim state: %s", out)
	}
}

// "order two bubble teas and put the delivery time in my calendar"
func TestFlowOrderAndCalendar(t *testing.T) {
	p := newPhone(t)
	launch(t, p, "com.fairy.shop")
	tap(t, p, "珍珠奶茶")
	tap(t, p, "增加")
	if q, _ := find(t, p, "com.fairy.shop:id/quantity"); q.Text != "2" {
		t.Fatalf("quantity %q", q.Text)
	}
	tap(t, p, "加入购物车")
	if !has(t, p, "购物车 (2) · ¥30") {
		t.Fatalf("cart button: %s", labels(t, p))
	}
	tap(t, p, "购物车 (2) · ¥30")
	tap(t, p, "去结算")
	tap(t, p, "19:00")
	tap(t, p, "提交订单")
	orders := p.Orders()
	if len(orders) != 1 || orders[0].Paid || orders[0].DeliveryTime != "19:00" || orders[0].Total != 30 {
		t.Fatalf("orders %+v", orders)
	}
	tap(t, p, "支付")
	if p.ScreenID() != "paid" {
		t.Fatalf("screen %s", p.ScreenID())
	}
	o := p.Orders()[0]
	if !o.Paid || len(o.Items) != 1 || o.Items[0].Name != "珍珠奶茶" || o.Items[0].Quantity != 2 {
		t.Fatalf("order %+v", o)
	}
	dt, _ := find(t, p, "com.fairy.shop:id/delivery_time")
	tm := strings.TrimPrefix(dt.Text, "预计送达时间 ")
	if tm != "19:00" {
		t.Fatalf("delivery %q", dt.Text)
	}
	sh(t, p, "input keyevent 3")
	tap(t, p, "Calendar")
	tap(t, p, "Create new event")
	typeInto(t, p, "Add title", "Bubble tea delivery")
	hh, mm, _ := strings.Cut(tm, ":")
	setTime(t, p, "start_time", hh, mm)
	tap(t, p, "Save")
	found := false
	for _, e := range p.Events() {
		found = found || (e.Title == "Bubble tea delivery" && e.Time == "19:00")
	}
	if !found {
		t.Fatalf("events %+v", p.Events())
	}
	// back in the shop the cart is empty and the order is listed
	launch(t, p, "com.fairy.shop")
	tap(t, p, "完成")
	if !has(t, p, "购物车 (0) · ¥0") {
		t.Fatal("cart not emptied after payment")
	}
}

// submitBubbleTea orders one bubble tea up to its payment page: the order is submitted, not
// paid.
func submitBubbleTea(t *testing.T, p *Phone) {
	t.Helper()
	launch(t, p, "com.fairy.shop")
	tap(t, p, "珍珠奶茶")
	tap(t, p, "加入购物车")
	tap(t, p, "com.fairy.shop:id/cart_button")
	tap(t, p, "去结算")
	tap(t, p, "提交订单")
}

// An order submitted and its payment page left by Navigate up waits in 我的订单 as 待支付,
// and is paid from there; a paid order's row opens nothing.
func TestShopPaysAPendingOrderFromOrders(t *testing.T) {
	p := newPhone(t)
	submitBubbleTea(t, p)
	tap(t, p, "Navigate up")
	tap(t, p, "Navigate up")
	tap(t, p, "Navigate up")
	tap(t, p, "我的订单")
	tap(t, p, "订单 1001 · 待支付")
	if p.ScreenID() != "pay" || !has(t, p, "应付金额 ¥15") {
		t.Fatalf("the pending order's row opened %s: %s", p.ScreenID(), labels(t, p))
	}
	tap(t, p, "支付")
	if o := p.Orders(); len(o) != 1 || !o[0].Paid {
		t.Fatalf("orders %+v, want the one order paid", o)
	}
	tap(t, p, "完成")
	tap(t, p, "我的订单")
	tap(t, p, "订单 1001 · 已支付")
	if p.ScreenID() != "orders" {
		t.Fatalf("a paid order's row opened %s", p.ScreenID())
	}
}

func TestContactsToMessages(t *testing.T) {
	p := newPhone(t)
	launch(t, p, "com.android.contacts")
	tap(t, p, "Alice Chen")
	if !has(t, p, "+1 415-555-0132") {
		t.Fatal("no phone on details")
	}
	tap(t, p, "Text")
	if pkg, _ := p.Foreground(); pkg != "com.google.android.apps.messaging" || p.ScreenID() != "thread" {
		t.Fatalf("Text opened %s %s", pkg, p.ScreenID())
	}
	if !has(t, p, "See you at the meetup on Friday") {
		t.Fatal("thread history missing")
	}
	sh(t, p, "input keyevent 4")
	if p.ScreenID() != "conversations" {
		t.Fatalf("back from thread: %s", p.ScreenID())
	}
}

func TestStateReset(t *testing.T) {
	p := newPhone(t)
	launch(t, p, "com.fairy.notes")
	tap(t, p, "New note")
	typeInto(t, p, "Title", "x")
	tap(t, p, "Save")
	sh(t, p, "settings put global wifi_on 0")
	if len(p.Notes()) != 4 {
		t.Fatal("setup")
	}
	out, st := sh(t, p, "fairy-sim reset")
	if st != 0 || out != "reset\n" {
		t.Fatalf("%d %q", st, out)
	}
	if len(p.Notes()) != 3 || p.Setting("global/wifi_on") != "1" || p.ScreenID() != "workspace" {
		t.Fatal("reset did not restore the factory state")
	}
	if _, err := p.Records("nope"); err == nil {
		t.Fatal("unknown collection accepted")
	}
	if recs, err := p.Records("com.fairy.shop:orders"); err != nil || len(recs) != 0 {
		t.Fatalf("empty declared collection: %v %v", recs, err)
	}
}

// TestNotesSelectAll: Notes' selection mode deletes every note at once, after a
// confirmation that names how many.
func TestNotesSelectAll(t *testing.T) {
	p := newPhone(t)
	launch(t, p, "com.fairy.notes")
	tap(t, p, "Select notes")
	if has(t, p, "Delete selected") {
		t.Fatal("Delete selected shows before anything is selected")
	}
	tap(t, p, "Select all")
	tap(t, p, "Delete selected")
	if !has(t, p, "Delete 3 notes?") {
		t.Fatalf("no confirmation naming the count: %s", labels(t, p))
	}
	tap(t, p, "Delete")
	if recs, _ := p.Records("com.fairy.notes:notes"); len(recs) != 0 {
		t.Fatalf("notes left: %v", recs)
	}
	if !has(t, p, "No notes. Tap + to write one.") {
		t.Fatalf("not back on the empty list: %s", labels(t, p))
	}
}

// TestMessagesTextANumber: a typed number (no letters) can be texted as it is; a typed
// name offers no such row.
func TestMessagesTextANumber(t *testing.T) {
	p := newPhone(t)
	launch(t, p, "com.google.android.apps.messaging")
	tap(t, p, "Start chat")
	typeInto(t, p, "Type a name, phone number, or email", "Bob")
	if has(t, p, "Send to Bob") {
		t.Fatal("a name offers to text it as a number")
	}
	sh(t, p, "input keyevent KEYCODE_MOVE_END")
	for range 3 {
		sh(t, p, "input keyevent 67")
	}
	typeInto(t, p, "Type a name, phone number, or email", "+15550100")
	tap(t, p, "Send to +15550100")
	typeInto(t, p, "Text message", "hello there")
	tap(t, p, "Send SMS")
	var found bool
	for _, m := range p.Messages() {
		found = found || (m.Outgoing && m.Phone == "+15550100" && m.Text == "hello there")
	}
	if !found {
		t.Fatalf("no text to the number: %+v", p.Messages())
	}
}

// TestBrightnessSlider: Settings' brightness is a level slider — a swipe across it to
// the right end sets the brightest level, to the left end the dimmest; a short swipe
// changes nothing.
func TestBrightnessSlider(t *testing.T) {
	p := newPhone(t)
	launch(t, p, "com.android.settings")
	tap(t, p, "Display")
	tap(t, p, "Brightness level")
	n, ok := find(t, p, "Brightness 102 of 255")
	if !ok {
		t.Fatalf("no brightness slider: %s", labels(t, p))
	}
	y := (n.Y1 + n.Y2) / 2
	for _, tc := range []struct {
		x1, x2 int
		want   string
	}{
		{n.X1 + 5, n.X2 - 2, "255"},
		{n.X2 - 5, n.X1 + 2, "1"},
		{n.X1 + (n.X2-n.X1)/3, n.X1 + (n.X2-n.X1)/2, "1"},
	} {
		sh(t, p, fmt.Sprintf("input swipe %d %d %d %d 300", tc.x1, y, tc.x2, y))
		if got := p.Setting("system/screen_brightness"); got != tc.want {
			t.Errorf("swipe %d→%d: brightness %s, want %s", tc.x1, tc.x2, got, tc.want)
		}
	}
}
