package guard

import (
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// roleWords are one language's words for the page-role dumps (testdata/roles/languages.yaml).
type roleWords struct {
	Lang             string   `yaml:"lang"`
	RTL              bool     `yaml:"rtl"`
	Go               string   `yaml:"go"`
	NavUp            string   `yaml:"navup"`
	Help             string   `yaml:"help"`
	EditCart         string   `yaml:"edit_cart"`
	ContinueShopping string   `yaml:"continue_shopping"`
	Details          string   `yaml:"details"`
	Cancel           string   `yaml:"cancel"`
	Checkout         string   `yaml:"checkout"`
	Items            []string `yaml:"items"`
	Prices           []string `yaml:"prices"`
	TotalWord        string   `yaml:"total_word"`
	Total            string   `yaml:"total"`
	Deliver          string   `yaml:"deliver"`
	Address          []string `yaml:"address"`
	DialogTitle      string   `yaml:"dialog_title"`
	DialogMessage    string   `yaml:"dialog_message"`
	Compose          string   `yaml:"compose"`
	To               string   `yaml:"to"`
	Subject          string   `yaml:"subject"`
	Body             string   `yaml:"body"`
	Attach           string   `yaml:"attach"`
	Share            string   `yaml:"share"`
	Apps             []string `yaml:"apps"`
	Permission       string   `yaml:"permission"`
	Pickup           []string `yaml:"pickup"`
	Ride             string   `yaml:"ride"`
	When             string   `yaml:"when"`
	Seat             string   `yaml:"seat"`
	Product          string   `yaml:"product"`
	AddToCart        string   `yaml:"add_to_cart"`
	Settings         []string `yaml:"settings"`
	Article          string   `yaml:"article"`
	RateTitle        string   `yaml:"rate_title"`
	RateLater        string   `yaml:"rate_later"`
	RateGo           string   `yaml:"rate_go"`
	Search           string   `yaml:"search"`
	Menu             string   `yaml:"menu"`
}

func loadRoleWords(t testing.TB) []roleWords {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(roleTestdata, "languages.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Languages []roleWords }
	if err := yaml.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Languages) < 14 {
		t.Fatalf("languages.yaml holds %d languages, want 14", len(f.Languages))
	}
	return f.Languages
}

// xnode is a node of a UI Automator dump in the classic attribute set (what `adb shell
// uiautomator dump` prints since API 18; see ../shared/android-corpus/SOURCES.md).
type xnode struct {
	class, text, desc, id, pkg string
	b                          [4]int
	click, scroll, edit        bool
	check, checked, password   bool
	kids                       []*xnode
	// want is what tapping the node must give: a category, "" (free) or "?" (either: not
	// counted).
	want  string
	want2 bool // want is set
	name  string
}

func (n *xnode) write(sb *strings.Builder, idx int, pkg string) {
	if n.pkg != "" {
		pkg = n.pkg
	}
	cls := n.class
	if n.edit && cls == "" {
		cls = "android.widget.EditText"
	}
	fmt.Fprintf(sb, `<node index="%d" text="%s" resource-id="%s" class="%s" package="%s" content-desc="%s" checkable="%t" checked="%t" clickable="%t" enabled="true" focusable="%t" focused="false" scrollable="%t" long-clickable="false" password="%t" selected="false" bounds="[%d,%d][%d,%d]"`,
		idx, html.EscapeString(n.text), n.id, cls, pkg, html.EscapeString(n.desc), n.check, n.checked, n.click || n.edit, n.click || n.edit, n.scroll, n.password,
		n.b[0], n.b[1], n.b[2], n.b[3])
	if len(n.kids) == 0 {
		sb.WriteString(" />")
		return
	}
	sb.WriteString(">")
	for i, k := range n.kids {
		k.write(sb, i, pkg)
	}
	sb.WriteString("</node>")
}

// dump is the tree as `uiautomator dump` writes it.
func dump(root *xnode, pkg string) []byte {
	var sb strings.Builder
	sb.WriteString(`<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">`)
	root.write(&sb, 0, pkg)
	sb.WriteString("</hierarchy>")
	return []byte(sb.String())
}

func frame(b [4]int, kids ...*xnode) *xnode {
	return &xnode{class: "android.widget.FrameLayout", b: b, kids: kids}
}
func linear(b [4]int, kids ...*xnode) *xnode {
	return &xnode{class: "android.widget.LinearLayout", b: b, kids: kids}
}
func text(s string, b [4]int) *xnode { return &xnode{class: "android.widget.TextView", text: s, b: b} }
func (n *xnode) is(want string) *xnode {
	n.want, n.want2 = want, true
	return n
}
func (n *xnode) withID(id string) *xnode { n.id = id; return n }

// btn is a Button with a text.
func btn(label string, b [4]int) *xnode {
	return &xnode{class: "android.widget.Button", text: label, b: b, click: true}
}

// link is a clickable TextView: a text button.
func link(label string, b [4]int) *xnode {
	return &xnode{class: "android.widget.TextView", text: label, b: b, click: true}
}

// icon is an ImageButton described by desc ("" for none).
func icon(desc string, b [4]int) *xnode {
	return &xnode{class: "android.widget.ImageButton", desc: desc, b: b, click: true}
}

// primaryKinds are the labels a page's primary action is given: a word the vocabulary
// lacks, OK, three arrows, and an icon with neither text nor description.
var primaryKinds = []string{"word", "OK", "→", "›", "➔", "icon"}

// primaryButton is the page's primary action of kind at b, full-width or, as an icon, a
// round button at its right end.
func primaryButton(kind string, w roleWords, b [4]int) *xnode {
	switch kind {
	case "word":
		return btn(w.Go, b)
	case "icon":
		return icon("", [4]int{b[2] - (b[3] - b[1]), b[1], b[2], b[3]})
	}
	return btn(kind, b)
}

// toolbar is an app bar with its Navigate up arrow, its title and its actions (right to
// left from the end; mirrored for a right-to-left language).
func toolbar(w roleWords, title string, actions ...*xnode) *xnode {
	bar := &xnode{class: "android.view.ViewGroup", id: "com.example.app:id/toolbar", b: [4]int{0, 63, 1080, 210}}
	up := icon(w.NavUp, [4]int{0, 63, 147, 210}).is("")
	t := text(title, [4]int{189, 98, 700, 175})
	if w.RTL {
		up.b = [4]int{933, 63, 1080, 210}
		t.b = [4]int{380, 98, 891, 175}
	}
	bar.kids = append(bar.kids, up, t)
	for i, a := range actions {
		x := 933 - 147*i
		if w.RTL {
			x = 147 * i
		}
		a.b = [4]int{x, 63, x + 147, 210}
		bar.kids = append(bar.kids, a)
	}
	return bar
}

// mirror flips x for a right-to-left page.
func mirror(w roleWords, b [4]int) [4]int {
	if !w.RTL {
		return b
	}
	return [4]int{1080 - b[2], b[1], 1080 - b[0], b[3]}
}

// checkoutPage is a shop's last page: the items with their prices, where it goes, the
// masked card it charges, the total, and the button that places the order.
func checkoutPage(w roleWords, kind string) *xnode {
	rows := &xnode{class: "android.widget.ScrollView", scroll: true, b: [4]int{0, 210, 1080, 2180}}
	y := 230
	for i, it := range w.Items {
		rows.kids = append(rows.kids, linear([4]int{0, y, 1080, y + 150},
			text(it, mirror(w, [4]int{42, y + 20, 700, y + 80})), text("1 ×", mirror(w, [4]int{42, y + 85, 200, y + 130})),
			text(w.Prices[i], mirror(w, [4]int{760, y + 20, 1038, y + 80}))))
		y += 150
	}
	rows.kids = append(rows.kids, link(w.EditCart, mirror(w, [4]int{42, y + 10, 500, y + 90})).is(""))
	y += 120
	rows.kids = append(rows.kids, text(w.Deliver, mirror(w, [4]int{42, y, 1038, y + 60})))
	y += 70
	for _, l := range w.Address {
		rows.kids = append(rows.kids, text(l, mirror(w, [4]int{42, y, 1038, y + 55})))
		y += 60
	}
	y += 30
	rows.kids = append(rows.kids, linear([4]int{0, y, 1080, y + 120},
		&xnode{class: "android.widget.ImageView", b: mirror(w, [4]int{42, y + 20, 162, y + 100})},
		text("•••• 4242", mirror(w, [4]int{190, y + 30, 700, y + 90}))))
	y += 140
	rows.kids = append(rows.kids, linear([4]int{0, y, 1080, y + 80},
		text(w.TotalWord, mirror(w, [4]int{42, y, 500, y + 70})), text(w.Total, mirror(w, [4]int{700, y, 1038, y + 70}))))
	y += 100
	rows.kids = append(rows.kids, link(w.Details, mirror(w, [4]int{42, y, 420, y + 80})).is(""))
	y += 100
	rows.kids = append(rows.kids, btn(w.ContinueShopping, [4]int{42, y, 1038, y + 126}).withID("com.example.shop:id/continue_shopping").is(""))
	bottom := primaryButton(kind, w, [4]int{42, 2220, 1038, 2346}).is("payment")
	return frame([4]int{0, 0, 1080, 2400},
		toolbar(w, w.Checkout, icon(w.Help, [4]int{}).is("")),
		rows,
		frame([4]int{0, 2190, 1080, 2400}, bottom))
}

// dialogPage is a gallery's confirmation: a warning icon, a title and a message, and two
// or three buttons (the positive last, as Android's button bar puts it).
func dialogPage(w roleWords, kind string, three, ids bool) *xnode {
	positive := primaryButton(kind, w, [4]int{0, 0, 0, 0}).is("delete")
	negative := btn(w.Cancel, [4]int{}).is("")
	bar := linear([4]int{90, 1420, 990, 1530})
	row := []*xnode{negative, positive}
	if three {
		neutral := btn(w.Details, [4]int{}).is("")
		row = append([]*xnode{neutral}, row...)
		if ids {
			neutral.id = "android:id/button3"
		}
	}
	if ids {
		negative.id, positive.id = "android:id/button2", "android:id/button1"
	}
	// Buttons sit at the end of the bar: right-aligned, left to right (mirrored in RTL).
	x := 980
	for i := len(row) - 1; i >= 0; i-- {
		wd := 210
		if row[i].class == "android.widget.ImageButton" {
			wd = 110
		}
		row[i].b = mirror(w, [4]int{x - wd, 1430, x, 1520})
		x -= wd + 20
		bar.kids = append([]*xnode{row[i]}, bar.kids...)
	}
	warn := &xnode{class: "android.widget.ImageView", id: "com.example.gallery:id/warning_icon", b: mirror(w, [4]int{120, 920, 200, 1000})}
	return frame([4]int{60, 880, 1020, 1560},
		warn,
		// The warning no language owns: a dump keeps no icon without a description, so
		// the sign is the title's ⚠ (the words of the title count too, where the
		// vocabulary knows them).
		text("⚠ "+w.DialogTitle, mirror(w, [4]int{220, 920, 980, 1060})).withID("android:id/alertTitle"),
		text(w.DialogMessage, mirror(w, [4]int{120, 1080, 980, 1380})).withID("android:id/message"),
		bar)
}

// composePage is a mail app's new message: a recipient chip in the To field, a subject, a
// tall body, and Send at the end of the app bar beside Attach.
func composePage(w roleWords, kind string) *xnode {
	var send *xnode
	switch kind {
	case "word":
		send = icon(w.Go, [4]int{})
	case "icon":
		send = icon("", [4]int{})
	default:
		send = icon(kind, [4]int{})
	}
	send.is("send")
	attach := icon(w.Attach, [4]int{}).is("")
	to := &xnode{class: "android.widget.MultiAutoCompleteTextView", edit: true, text: "alex.kim@example.com", b: mirror(w, [4]int{180, 231, 1038, 357})}
	return frame([4]int{0, 0, 1080, 2400},
		toolbar(w, w.Compose, send, attach),
		&xnode{class: "android.widget.ScrollView", scroll: true, b: [4]int{0, 210, 1080, 2300}, kids: []*xnode{
			text(w.To, mirror(w, [4]int{42, 250, 170, 340})), to,
			&xnode{class: "android.widget.EditText", edit: true, text: w.Subject, b: mirror(w, [4]int{42, 380, 1038, 500})},
			&xnode{class: "android.widget.EditText", edit: true, text: w.Body, b: mirror(w, [4]int{42, 520, 1038, 1600})},
		}})
}

// chatComposePage is a messaging app's new conversation: the recipient's number, the
// body at the bottom and the send button at its end.
func chatComposePage(w roleWords, kind string) *xnode {
	send := primaryButton(kind, w, mirror(w, [4]int{900, 2210, 1038, 2340})).is("send")
	if kind != "icon" {
		send.b = mirror(w, [4]int{860, 2210, 1038, 2340})
	}
	return frame([4]int{0, 0, 1080, 2400},
		toolbar(w, w.Compose),
		text(w.To, mirror(w, [4]int{42, 250, 170, 340})),
		&xnode{class: "android.widget.MultiAutoCompleteTextView", edit: true, text: "+33 6 12 34 56 78", b: mirror(w, [4]int{180, 231, 1038, 357})},
		&xnode{class: "androidx.recyclerview.widget.RecyclerView", b: [4]int{0, 380, 1080, 2180}},
		&xnode{class: "android.widget.EditText", edit: true, text: w.Body, b: mirror(w, [4]int{42, 2200, 840, 2350})},
		send)
}

// shareSheet is the system's chooser: a title, Copy, and the grid of app targets.
func shareSheet(w roleWords, kind string) *xnode {
	grid := &xnode{class: "androidx.recyclerview.widget.RecyclerView", id: "com.android.intentresolver:id/resolver_list", scroll: true, b: [4]int{0, 1500, 1080, 2300}}
	apps := append([]string{}, w.Apps...)
	switch kind {
	case "word":
		apps = append(apps, w.Go)
	case "icon":
		apps = append(apps, "")
	default:
		apps = append(apps, kind)
	}
	for i, a := range apps {
		x, y := 270*(i%4), 1520+260*(i/4)
		b := mirror(w, [4]int{x, y, x + 270, y + 250})
		item := linear(b, &xnode{class: "android.widget.ImageView", id: "android:id/icon", b: [4]int{b[0] + 75, y + 20, b[0] + 195, y + 140}},
			text(a, [4]int{b[0] + 10, y + 160, b[2] - 10, y + 230}).withID("android:id/text1"))
		item.click = true
		item.is("send")
		grid.kids = append(grid.kids, item)
	}
	return &xnode{class: "android.widget.FrameLayout", pkg: "com.android.intentresolver", b: [4]int{0, 1200, 1080, 2400}, kids: []*xnode{
		text(w.Share, [4]int{42, 1240, 1038, 1320}).withID("android:id/title"),
		text("https://example.com/p/42", [4]int{42, 1330, 1038, 1390}),
		grid,
	}}
}

// permissionDialog is the system's permission request.
func permissionDialog(w roleWords, kind string) *xnode {
	const pc = "com.android.permissioncontroller:id/"
	allow := primaryButton(kind, w, [4]int{90, 1600, 990, 1720}).withID(pc + "permission_allow_foreground_only_button").is("permission")
	if kind == "icon" {
		allow.b = [4]int{90, 1600, 990, 1720}
	}
	deny := btn(w.Cancel, [4]int{90, 1880, 990, 2000}).withID(pc + "permission_deny_button").is("")
	return &xnode{class: "android.widget.FrameLayout", pkg: "com.google.android.permissioncontroller", b: [4]int{60, 1100, 1020, 2060}, kids: []*xnode{
		{class: "android.widget.ImageView", id: pc + "permission_icon", b: [4]int{480, 1140, 600, 1260}},
		text(w.Permission, [4]int{100, 1280, 980, 1560}).withID(pc + "permission_message"),
		allow, deny,
	}}
}

// ridePage is a ride app's booking sheet: the map with the pickup and the drop-off, the
// ride chosen with its price and pickup time, and the button that books it.
func ridePage(w roleWords, kind string) *xnode {
	bottom := primaryButton(kind, w, [4]int{42, 2220, 1038, 2346}).is("order")
	option := linear([4]int{0, 1700, 1080, 1900},
		&xnode{class: "android.widget.ImageView", b: mirror(w, [4]int{42, 1720, 202, 1880})},
		text(w.Ride, mirror(w, [4]int{230, 1730, 700, 1790})), text(w.When, mirror(w, [4]int{230, 1800, 700, 1860})),
		text(w.Prices[1], mirror(w, [4]int{760, 1730, 1038, 1790})))
	option.click, option.checked, option.check = true, true, false
	option.is("")
	return frame([4]int{0, 0, 1080, 2400},
		&xnode{class: "android.view.View", id: "com.example.ride:id/map", desc: "Google Map", b: [4]int{0, 0, 1080, 1300}},
		icon(w.NavUp, mirror(w, [4]int{30, 80, 170, 220})).is(""),
		icon(w.Help, mirror(w, [4]int{910, 80, 1050, 220})).is(""),
		text(w.Pickup[0], mirror(w, [4]int{42, 1340, 1038, 1420})),
		text(w.Pickup[1], mirror(w, [4]int{42, 1440, 1038, 1520})),
		option,
		link(w.Details, mirror(w, [4]int{42, 1940, 420, 2020})).is(""),
		bottom)
}

// seatPage is a cinema's seat sheet: the seat taken, the show's date and time, the price.
func seatPage(w roleWords, kind string) *xnode {
	bottom := primaryButton(kind, w, [4]int{42, 2220, 1038, 2346}).is("order")
	grid := &xnode{class: "android.widget.GridView", b: [4]int{0, 400, 1080, 1600}}
	for i := range 8 {
		x, y := 60+120*(i%8), 500+150*(i/8)
		seat := &xnode{class: "android.widget.CheckBox", check: true, checked: i == 3, desc: fmt.Sprintf("12%c", 'A'+i), b: [4]int{x, y, x + 100, y + 100}}
		seat.click = true
		seat.is("?") // choosing a seat takes nothing
		grid.kids = append(grid.kids, seat)
	}
	return frame([4]int{0, 0, 1080, 2400},
		toolbar(w, w.Product, icon(w.Help, [4]int{}).is("")),
		text("29.11.2026 19:30", mirror(w, [4]int{42, 230, 1038, 300})),
		grid,
		text(w.Seat, mirror(w, [4]int{42, 1700, 600, 1780})),
		text(w.Total, mirror(w, [4]int{700, 1700, 1038, 1780})),
		link(w.Details, mirror(w, [4]int{42, 1900, 420, 1980})).is(""),
		bottom)
}

// Everyday pages: no role; every action on them is free (a cart's checkout is either).

func productPage(w roleWords) *xnode {
	return frame([4]int{0, 0, 1080, 2400},
		toolbar(w, w.Product, icon(w.Menu, [4]int{}).is(""), icon(w.Help, [4]int{}).is("")),
		&xnode{class: "android.widget.ScrollView", scroll: true, b: [4]int{0, 210, 1080, 2180}, kids: []*xnode{
			{class: "android.widget.ImageView", desc: w.Product, b: [4]int{0, 210, 1080, 1200}},
			text(w.Product, mirror(w, [4]int{42, 1230, 1038, 1300})),
			text(w.Prices[0], mirror(w, [4]int{42, 1320, 600, 1390})),
			link(w.Details, mirror(w, [4]int{42, 1420, 420, 1500})).is(""),
		}},
		btn(w.AddToCart, [4]int{42, 2220, 1038, 2346}).is(""))
}

func cartPage(w roleWords) *xnode {
	rows := &xnode{class: "androidx.recyclerview.widget.RecyclerView", scroll: true, b: [4]int{0, 210, 1080, 1800}}
	for i, it := range w.Items {
		y := 230 + 200*i
		row := linear([4]int{0, y, 1080, y + 180}, text(it, mirror(w, [4]int{42, y + 20, 700, y + 80})), text(w.Prices[i], mirror(w, [4]int{760, y + 20, 1038, y + 80})))
		row.click = true
		row.is("")
		rows.kids = append(rows.kids, row)
	}
	return frame([4]int{0, 0, 1080, 2400},
		toolbar(w, w.EditCart, icon(w.Help, [4]int{}).is("")),
		rows,
		text(w.TotalWord, mirror(w, [4]int{42, 1850, 500, 1920})), text(w.Total, mirror(w, [4]int{700, 1850, 1038, 1920})),
		link(w.ContinueShopping, [4]int{42, 1980, 1038, 2100}).is(""),
		btn(w.Go, [4]int{42, 2220, 1038, 2346}).is("?"))
}

func settingsPage(w roleWords) *xnode {
	list := &xnode{class: "androidx.recyclerview.widget.RecyclerView", scroll: true, b: [4]int{0, 210, 1080, 2300}}
	for i, s := range w.Settings {
		y := 230 + 180*i
		row := linear([4]int{0, y, 1080, y + 170}, text(s, mirror(w, [4]int{160, y + 50, 1038, y + 120})))
		row.click = true
		row.is("")
		list.kids = append(list.kids, row)
	}
	return frame([4]int{0, 0, 1080, 2400}, toolbar(w, w.Settings[0], icon(w.Search, [4]int{}).is("")), list)
}

func articlePage(w roleWords) *xnode {
	return frame([4]int{0, 0, 1080, 2400},
		toolbar(w, w.Article, icon(w.Menu, [4]int{}).is("")),
		&xnode{class: "android.widget.ScrollView", scroll: true, b: [4]int{0, 210, 1080, 2300}, kids: []*xnode{
			text(w.Article, mirror(w, [4]int{42, 230, 1038, 400})),
			text("29.11.2026 08:15", mirror(w, [4]int{42, 420, 600, 480})),
			text(strings.Repeat(w.DialogMessage+" ", 6), mirror(w, [4]int{42, 500, 1038, 1500})),
		}},
		&xnode{class: "android.widget.ImageButton", desc: "", id: "com.example.news:id/fab", click: true, b: mirror(w, [4]int{880, 2140, 1038, 2298})}) // the FAB comments: no role, today's behaviour
}

func rateDialog(w roleWords) *xnode {
	later := btn(w.RateLater, [4]int{}).withID("android:id/button2").is("")
	rate := btn(w.RateGo, [4]int{}).withID("android:id/button1").is("")
	later.b, rate.b = mirror(w, [4]int{520, 1430, 740, 1520}), mirror(w, [4]int{760, 1430, 980, 1520})
	return frame([4]int{60, 1000, 1020, 1560},
		text(w.RateTitle, mirror(w, [4]int{120, 1040, 980, 1140})).withID("android:id/alertTitle"),
		text("★★★★★", mirror(w, [4]int{120, 1180, 980, 1300})).withID("android:id/message"),
		linear([4]int{90, 1420, 990, 1530}, later, rate))
}

func searchPage(w roleWords) *xnode {
	list := &xnode{class: "androidx.recyclerview.widget.RecyclerView", scroll: true, b: [4]int{0, 400, 1080, 2300}}
	for i, it := range append([]string{w.Product}, w.Items...) {
		y := 420 + 220*i
		row := linear([4]int{0, y, 1080, y + 200}, text(it, mirror(w, [4]int{160, y + 30, 760, y + 100})), text(w.Prices[i%2], mirror(w, [4]int{780, y + 30, 1038, y + 100})))
		row.click = true
		row.is("")
		list.kids = append(list.kids, row)
	}
	field := &xnode{class: "android.widget.EditText", edit: true, text: w.Search, id: "com.example.shop:id/search_src_text", b: [4]int{160, 240, 1038, 360}}
	return frame([4]int{0, 0, 1080, 2400}, icon(w.NavUp, mirror(w, [4]int{0, 230, 147, 370})).is(""), field, list)
}
