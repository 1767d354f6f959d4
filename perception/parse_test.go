package perception

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// nodeXML writes one stock-format node; attrs override the defaults.
func nodeXML(attrs map[string]string, children ...string) string {
	def := [][2]string{
		{"index", "0"}, {"text", ""}, {"resource-id", ""}, {"class", "android.widget.FrameLayout"},
		{"package", "com.example.app"}, {"content-desc", ""}, {"checkable", "false"},
		{"checked", "false"}, {"clickable", "false"}, {"enabled", "true"}, {"focusable", "false"},
		{"focused", "false"}, {"scrollable", "false"}, {"long-clickable", "false"},
		{"password", "false"}, {"selected", "false"}, {"bounds", "[0,0][1080,2400]"},
	}
	var b strings.Builder
	b.WriteString("<node")
	seen := map[string]bool{}
	for _, kv := range def {
		v := kv[1]
		if o, ok := attrs[kv[0]]; ok {
			v = o
		}
		seen[kv[0]] = true
		fmt.Fprintf(&b, " %s=\"%s\"", kv[0], v)
	}
	for k, v := range attrs {
		if !seen[k] {
			fmt.Fprintf(&b, " %s=\"%s\"", k, v)
		}
	}
	if len(children) == 0 {
		b.WriteString(" />")
		return b.String()
	}
	b.WriteString(">")
	for _, c := range children {
		b.WriteString(c)
	}
	b.WriteString("</node>")
	return b.String()
}

func hierarchy(windows ...string) string {
	return `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">` +
		strings.Join(windows, "") + `</hierarchy>`
}

func mustParse(t *testing.T, xml string) *Screen {
	t.Helper()
	s, err := Parse([]byte(xml))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return s
}

// a small page: a toolbar title, a clickable row with a label-only child, a
// password field and a switch.
func loginPage(title, user string) string {
	return hierarchy(nodeXML(nil,
		nodeXML(map[string]string{"class": "android.widget.TextView", "text": title, "resource-id": "com.example.app:id/title", "bounds": "[0,0][1080,150]"}),
		nodeXML(map[string]string{"class": "android.widget.LinearLayout", "clickable": "true", "resource-id": "com.example.app:id/row", "bounds": "[0,200][1080,400]"},
			nodeXML(map[string]string{"class": "android.widget.TextView", "text": "Account", "bounds": "[40,220][600,300]"}),
			nodeXML(map[string]string{"class": "android.widget.TextView", "text": user, "bounds": "[40,300][600,380]"}),
		),
		nodeXML(map[string]string{"class": "android.widget.EditText", "text": "hunter2", "password": "true", "focusable": "true", "focused": "true", "clickable": "true", "resource-id": "com.example.app:id/pw", "bounds": "[0,400][1080,500]"}),
		nodeXML(map[string]string{"class": "android.widget.Switch", "checkable": "true", "checked": "true", "clickable": "true", "text": "Remember me", "bounds": "[0,500][1080,600]"}),
	))
}

func TestParseScreen(t *testing.T) {
	s := mustParse(t, loginPage("Sign in", "alice@example.com"))
	want := `- "Sign in"
- [1] item "Account" id=row
  - "alice@example.com"
- [2] input id=pw focused password
- [3] switch "Remember me" checked
`
	if got := s.Text(); got != want {
		t.Errorf("Text() =\n%s\nwant\n%s", got, want)
	}
	if s.Package != "com.example.app" || s.Keyboard || len(s.Elements) != 3 {
		t.Errorf("screen = %+v", s)
	}
	if strings.Contains(s.Text(), "hunter2") || s.Elements[1].Text != "" {
		t.Error("password text leaked")
	}
	e := s.Elements[0]
	if e.Center != (Point{540, 300}) || e.Bounds != (Bounds{0, 200, 1080, 400}) || e.Texts[0] != "alice@example.com" {
		t.Errorf("element 1 = %+v", e)
	}
	re := regexp.MustCompile(`^\s*- \[(\d+)\] (\S+)(?: "((?:[^"\\]|\\.)*)")?`)
	m := re.FindStringSubmatch(strings.Split(s.Text(), "\n")[1])
	if m == nil || m[1] != "1" || m[2] != "item" || m[3] != "Account" {
		t.Errorf("element line does not match the contract regex: %q", m)
	}
}

func TestParseQuirks(t *testing.T) {
	btn := nodeXML(map[string]string{"class": "android.widget.Button", "clickable": "true", "text": "OK", "bounds": "[100,100][300,200]"})
	page := hierarchy(nodeXML(nil, btn))
	tests := []struct {
		name  string
		in    string
		text  string // want in the text form
		elems int
	}{
		{"plain", page, `- [1] button "OK"`, 1},
		{"bom", "\xef\xbb\xbf" + page, `"OK"`, 1},
		{"noise around", "UI hierchary dumped to: /dev/tty\r\n" + page + "\nUI hierchary dumped to: /dev/tty\n", `"OK"`, 1},
		{"dumped-to after xml", page + "UI hierchary dumped to: /dev/tty", `"OK"`, 1},
		{"crlf pretty", strings.ReplaceAll(hierarchy(nodeXML(nil, "\r\n  "+btn+"\r\n")), "><", ">\r\n<"), `"OK"`, 1},
		{"no hierarchy root", btn, `"OK"`, 1},
		{"empty hierarchy", `<?xml version="1.0"?><hierarchy rotation="0"/>`, "", 0},
		{"empty hierarchy pair", `<hierarchy rotation="0"></hierarchy>`, "", 0},
		{"single node game", hierarchy(nodeXML(map[string]string{"class": "android.view.SurfaceView"})), "", 0},
		{"entities", hierarchy(nodeXML(map[string]string{"text": "Fish &amp; Chips &lt;3 &#128536; &#x1F600; &#55357;&#56832; line&#10;two", "bounds": "[0,0][10,10]"})), `"Fish & Chips <3 😘 😀 😀 line two"`, 0},
		{"bad entity kept", hierarchy(nodeXML(map[string]string{"text": "AT&T &bogus; &#;", "bounds": "[0,0][10,10]"})), `"AT&T &bogus; &#;"`, 0},
		{"invalid chars", hierarchy(nodeXML(map[string]string{"text": "a\x00b\x01c\xff\xfed", "bounds": "[0,0][10,10]"})), "\"abc\uFFFD\uFFFDd\"", 0},
		{"lone surrogate ref", hierarchy(nodeXML(map[string]string{"text": "x&#55357;y", "bounds": "[0,0][10,10]"})), "\"x\uFFFDy\"", 0},
		{"single quotes and odd spacing", `<hierarchy rotation='1'><node text = 'Hi "you"' class='android.widget.Button' clickable='true' bounds='[0,0][50,50]' /></hierarchy>`, `- [1] button "Hi \"you\""`, 1},
		{"inverted bounds hidden", hierarchy(nodeXML(nil, nodeXML(map[string]string{"class": "android.widget.Button", "clickable": "true", "text": "Ghost", "bounds": "[49,326][431,263]"}), btn)), `- [1] button "OK"`, 1},
		{"off-screen clipped", hierarchy(nodeXML(nil, nodeXML(map[string]string{"class": "android.widget.Button", "clickable": "true", "text": "Edge", "bounds": "[-100,2300][200,2600]"}))), `- [1] button "Edge"`, 1},
		{"fully off-screen dropped", hierarchy(nodeXML(nil, nodeXML(map[string]string{"class": "android.widget.Button", "clickable": "true", "text": "Away", "bounds": "[2000,3000][2100,3100]"}))), "", 0},
		{"invisible to user", hierarchy(nodeXML(nil, nodeXML(map[string]string{"class": "android.widget.Button", "clickable": "true", "text": "Hidden", "visible-to-user": "false", "bounds": "[0,0][10,10]"}), btn)), `- [1] button "OK"`, 1},
		{"appium", `<?xml version="1.0" encoding="UTF-8"?><hierarchy index="0" class="hierarchy" rotation="0" width="1080" height="2254"><android.widget.FrameLayout index="0" package="com.x" bounds="[0,0][1080,2400]"><android.widget.Button index="0" package="com.x" text="Buy" clickable="true" enabled="true" displayed="true" bounds="[0,0][200,100]"/><android.widget.Button text="Gone" clickable="true" displayed="false" bounds="[0,100][200,200]"/></android.widget.FrameLayout></hierarchy>`, `- [1] button "Buy"`, 1},
		{"stray close tags", hierarchy(nodeXML(nil, "</node></foo>"+btn)), `"OK"`, 1},
		{"comments cdata doctype", `<!DOCTYPE x><!-- <node text="no"/> --><hierarchy><![CDATA[<node text="no"/>]]>` + btn + `</hierarchy>`, `- [1] button "OK"`, 1},
		{"multiline attrs", strings.ReplaceAll(page, `" `, "\"\n        "), `"OK"`, 1},
		{"unicode", hierarchy(nodeXML(map[string]string{"text": "ยืนยัน 确认 확인 Подтвердить \u200b", "bounds": "[0,0][10,10]"})), `"ยืนยัน 确认 확인 Подтвердить \u200b"`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustParse(t, tt.in)
			got := s.Text()
			if !strings.Contains(got, tt.text) {
				t.Errorf("Text() =\n%s\nwant it to contain %s", got, tt.text)
			}
			if len(s.Elements) != tt.elems {
				t.Errorf("%d elements, want %d:\n%s", len(s.Elements), tt.elems, got)
			}
			for _, e := range s.Elements {
				if !e.Bounds.Contains(e.Center) {
					t.Errorf("[%d] center %v outside %v", e.Index, e.Center, e.Bounds)
				}
			}
			if !utf8.ValidString(got) {
				t.Error("text form is not valid UTF-8")
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		dumper bool
		want   error
	}{
		{"idle state", "ERROR: could not get idle state.\n", true, errDumper},
		{"null root", "ERROR: null root node returned by UiTestAutomationBridge.\r\n", true, errDumper},
		{"dumped to file", "UI hierchary dumped to: /sdcard/window_dump.xml\n", true, errDumper},
		{"empty", "", false, errEmpty},
		{"blank", " \r\n\t", false, errEmpty},
		{"bom only", "\xef\xbb\xbf\n", false, errEmpty},
		{"markup without hierarchy", "<html><body>hi</body></html>", false, errNoHierarchy},
		{"plain text file", "Dear Bob,\nthe meeting is at noon.\n", false, errNotXML},
		{"json file", `{"screen": "home"}`, false, errNotXML},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse([]byte(tt.in))
			if s != nil || !errors.Is(err, tt.want) {
				t.Fatalf("Parse = %v, %v; want error %v", s, err, tt.want)
			}
			var de *DumperError
			if errors.As(err, &de) != tt.dumper {
				t.Fatalf("DumperError = %v, want %v", errors.As(err, &de), tt.dumper)
			}
			if tt.dumper && !strings.Contains(tt.in, de.Message) {
				t.Errorf("Message %q not from the input", de.Message)
			}
		})
	}
}

// TestParseRejectsBrokenDumps: a dump cut short or with a broken tag is an error that says
// what is wrong and at which byte, not an empty or partial screen.
func TestParseRejectsBrokenDumps(t *testing.T) {
	btn := nodeXML(map[string]string{"class": "android.widget.Button", "clickable": "true", "text": "OK", "bounds": "[100,100][300,200]"})
	page := hierarchy(nodeXML(nil, btn))
	noise := "UI hierchary dumped to: /dev/tty\r\n"
	at := func(sub string) int { return strings.Index(page, sub) }
	tests := []struct {
		name      string
		in        string
		truncated bool
		offset    int      // want SyntaxError.Offset
		says      []string // in the message
	}{
		{"cut after the last node", page[:len(page)-len("</hierarchy>")], true, len(page) - len("</hierarchy>"),
			[]string{"<hierarchy>", fmt.Sprintf("byte %d", at("<hierarchy"))}},
		{"cut inside a window", page[:len(page)-len("</node></hierarchy>")], true, len(page) - len("</node></hierarchy>"),
			[]string{"<node>", "2 elements still open", fmt.Sprintf("byte %d", at("<node"))}},
		{"cut before the hierarchy closes", page[:len(page)-3], true, len(page) - 3, []string{"end tag </hierar"}},
		{"cut inside a start tag", page[:at(`text="OK"`)], true, at(`text="OK"`), []string{"start tag <node"}},
		{"cut inside a value", page[:at(`text="OK"`)+7], true, at(`text="OK"`) + 7, []string{"value of text in <node"}},
		{"cut after a lone <", page[:at("<node")+1], true, at("<node") + 1, []string{"a tag"}},
		{"cut inside a comment", `<hierarchy rotation="0"><!-- x`, true, 30, []string{"a comment begun at byte 24"}},
		{"cut with noise before", noise + page[:len(page)-20], true, len(noise) + len(page) - 20, nil},
		{"hierarchy only opened", `<?xml version="1.0"?><hierarchy rotation="0">`, true, 45, []string{"<hierarchy>"}},
		{"NUL in a tag name", strings.Replace(page, "<node", "<no\x00de", 1), false, at("<node") + 3,
			[]string{`invalid character 0x00 in the tag name "no\x00de"`}},
		{"NUL in an attribute name", strings.Replace(page, "clickable=", "click\x00able=", 1), false, at("clickable=") + 5,
			[]string{"attribute name"}},
		{"quote in a tag name", strings.Replace(page, "<node", `<no"de`, 1), false, at("<node") + 3, []string{`'"'`}},
		{"NUL after <", strings.Replace(page, "<node", "<\x00node", 1), false, at("<node") + 1,
			[]string{"'<' followed by 0x00 starts no tag"}},
		{"tag without >", strings.Replace(page, `bounds="[100,100][300,200]" />`, `bounds="[100,100][300,200]" `, 1), false, -1,
			[]string{"has no '>'"}},
		{"end tag NUL", strings.Replace(page, "</hierarchy>", "</hier\x00archy>", 1), false, at("</hierarchy>") + 6,
			[]string{"end tag name"}},
		{"bom counts in offsets", "\xef\xbb\xbf" + page[:len(page)-1], true, 3 + len(page) - 1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse([]byte(tt.in))
			var se *SyntaxError
			if s != nil || !errors.As(err, &se) {
				t.Fatalf("Parse = %v, %v; want a *SyntaxError", s, err)
			}
			want := errMalformed
			if tt.truncated {
				want = errTruncated
			}
			if !errors.Is(err, want) || se.Truncated != tt.truncated {
				t.Errorf("err = %v, want %v", err, want)
			}
			if tt.offset >= 0 && se.Offset != tt.offset {
				t.Errorf("Offset = %d, want %d (%v)", se.Offset, tt.offset, err)
			}
			if se.Offset < 0 || se.Offset > len(tt.in) {
				t.Errorf("Offset %d outside the input of %d bytes", se.Offset, len(tt.in))
			}
			for _, w := range append(tt.says, fmt.Sprintf("byte %d", se.Offset)) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if strings.ContainsRune(err.Error(), 0) {
				t.Errorf("error holds a NUL byte: %q", err)
			}
		})
	}
}

// TestParseRejectsBinary: a screenshot, an archive or any NUL-heavy file is named for
// what it looks like, and the error never carries its bytes.
func TestParseRejectsBinary(t *testing.T) {
	png, err := os.ReadFile("testdata/sim/com.fairy.shop.png")
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	dump, err := os.ReadFile("testdata/sim/com.fairy.shop.xml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write(dump); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	utf16 := make([]byte, 0, 2*len(dump))
	for _, c := range dump[:200] {
		utf16 = append(utf16, c, 0)
	}
	nulHeavy := []byte(strings.Repeat("<node\x00\x00\x00\x00 text=\"x\"/>", 50))
	tests := []struct {
		name  string
		in    []byte
		looks string
	}{
		{"png screenshot", png, "a PNG image"},
		{"gzipped dump", gz.Bytes(), "gzip data"},
		{"jpeg", []byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00<hierarchy>"), "a JPEG image"},
		{"zip", []byte("PK\x03\x04\x14\x00<hierarchy>"), "a zip archive"},
		{"utf-16 with bom", append([]byte("\xff\xfe"), utf16...), "UTF-16 text"},
		{"utf-16 without bom", utf16, "UTF-16 text"},
		{"nul heavy", nulHeavy, "binary data"},
		{"random bytes", randomBytes(4096), "binary data"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse(tt.in)
			var ne *NotXMLError
			if s != nil || !errors.As(err, &ne) || !errors.Is(err, errNotXML) {
				t.Fatalf("Parse = %v, %.200v; want a *NotXMLError", s, err)
			}
			if !strings.HasPrefix(ne.Looks, tt.looks) || !strings.Contains(err.Error(), "not XML (looks like "+tt.looks) {
				t.Errorf("err = %q, want it to say it looks like %s", err, tt.looks)
			}
			for _, c := range []byte(err.Error()) {
				if c < 0x20 || c == 0x7f {
					t.Fatalf("error carries a control byte 0x%02X: %q", c, err)
				}
			}
			if !utf8.ValidString(err.Error()) || len(err.Error()) > 200 {
				t.Errorf("error is not short valid text: %q", err)
			}
		})
	}
	// The odd control byte in a real dump's text is no reason to call it binary.
	mustParse(t, hierarchy(nodeXML(map[string]string{"text": "a\x00b\x01c\x02", "bounds": "[0,0][10,10]"})))
}

// randomBytes returns n bytes from a fixed generator.
func randomBytes(n int) []byte {
	b := make([]byte, n)
	x := uint32(2463534242)
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x)
	}
	return b
}

func TestLongTextCut(t *testing.T) {
	long := strings.Repeat("abcdefghij", 30)
	s := mustParse(t, hierarchy(nodeXML(map[string]string{"text": long, "bounds": "[0,0][10,10]"})))
	want := `- "` + long[:DefaultMaxText] + cutMarker + "\"\n"
	if got := s.Text(); got != want {
		t.Errorf("Text() = %q, want %q", got, want)
	}
	if got := s.TextWith(TextOptions{MaxText: -1}); !strings.Contains(got, long) {
		t.Errorf("uncut text form lacks the text: %q", got)
	}
	if got := s.TextWith(TextOptions{MaxText: 5}); got != "- \"abcde"+cutMarker+"\"\n" {
		t.Errorf("MaxText 5: %q", got)
	}
}

func TestKeyboard(t *testing.T) {
	app := nodeXML(map[string]string{"package": "com.example.app", "bounds": "[0,0][1080,2400]"},
		nodeXML(map[string]string{"class": "android.widget.EditText", "focused": "true", "bounds": "[0,100][1080,200]"}))
	status := nodeXML(map[string]string{"package": "com.android.systemui", "bounds": "[0,0][1080,80]"},
		nodeXML(map[string]string{"package": "com.android.systemui", "text": "12:30", "bounds": "[0,0][100,80]"}))
	for _, ime := range []string{"com.google.android.inputmethod.latin", "com.android.adbkeyboard", "com.sohu.inputmethod.sogou", "com.samsung.android.honeyboard", "com.touchtype.swiftkey"} {
		kb := nodeXML(map[string]string{"package": ime, "bounds": "[0,1500][1080,2400]"},
			nodeXML(map[string]string{"package": ime, "clickable": "true", "text": "q", "bounds": "[0,1500][100,1600]"}))
		s := mustParse(t, hierarchy(status, kb, app))
		if !s.Keyboard || s.Package != "com.example.app" {
			t.Errorf("%s: Keyboard=%t Package=%q", ime, s.Keyboard, s.Package)
		}
		if len(s.Elements) != 1 || s.Elements[0].Role != "input" {
			t.Errorf("%s: keyboard keys listed as elements: %s", ime, s.Text())
		}
		if !strings.HasPrefix(s.Text(), "- [1] input") {
			t.Errorf("%s: the app window should come first:\n%s", ime, s.Text())
		}
	}
	s := mustParse(t, hierarchy(status, app))
	if s.Keyboard {
		t.Error("keyboard reported without an input method window")
	}
}

func TestSignature(t *testing.T) {
	list := func(items ...string) string {
		var kids []string
		for k, it := range items {
			y := 300 + 200*k
			kids = append(kids, nodeXML(map[string]string{"class": "android.widget.LinearLayout", "clickable": "true", "resource-id": "com.example.app:id/item", "bounds": fmt.Sprintf("[0,%d][1080,%d]", y, y+200)},
				nodeXML(map[string]string{"class": "android.widget.TextView", "resource-id": "com.example.app:id/name", "text": it, "bounds": fmt.Sprintf("[0,%d][1080,%d]", y, y+100)})))
		}
		return hierarchy(nodeXML(nil,
			nodeXML(map[string]string{"class": "android.widget.TextView", "resource-id": "com.example.app:id/title", "text": "Inbox", "bounds": "[0,0][1080,200]"}),
			nodeXML(map[string]string{"class": "androidx.recyclerview.widget.RecyclerView", "scrollable": "true", "resource-id": "com.example.app:id/list", "bounds": "[0,300][1080,2400]"}, kids...)))
	}
	base := mustParse(t, list("a", "b", "c"))
	same := []string{list("x"), list("d", "e", "f", "g", "h", "i"), strings.Replace(list("a", "b"), "Inbox", "Outbox", 1)}
	for _, x := range same {
		if s := mustParse(t, x); s.Signature != base.Signature {
			t.Errorf("signature changed with list/text content:\n%s", s.Text())
		}
	}
	login := mustParse(t, loginPage("Sign in", "bob"))
	if login.Signature == base.Signature {
		t.Error("different pages share a signature")
	}
	if l2 := mustParse(t, loginPage("Anmelden", "carol")); l2.Signature != login.Signature {
		t.Error("signature changed with text only")
	}
	// On the corpus: every page has its own signature.
	seen := map[string]string{}
	for _, f := range dumps(t, "corpus") {
		data, _ := os.ReadFile(f)
		s, err := Parse(data)
		if err != nil {
			continue
		}
		if o, dup := seen[s.Signature]; dup {
			t.Errorf("%s and %s share signature %s", f, o, s.Signature)
		}
		seen[s.Signature] = f
	}
}

func TestDiff(t *testing.T) {
	a := mustParse(t, loginPage("Sign in", "alice"))
	b := mustParse(t, strings.Replace(strings.Replace(loginPage("Sign in", "bob"), `checked="true"`, `checked="false"`, 1), "Remember me", "Remember me", 1))
	d := Diff(a, b)
	if !d.SamePage || d.PackageChanged || d.Unchanged() {
		t.Fatalf("diff = %+v", d)
	}
	if len(d.Appeared) != 1 || d.Appeared[0] != `"bob"` || len(d.Disappeared) != 1 || d.Disappeared[0] != `"alice"` {
		t.Errorf("appeared %q disappeared %q", d.Appeared, d.Disappeared)
	}
	if len(d.Changed) != 1 || d.Changed[0] != `switch "Remember me": checked -> unchecked` {
		t.Errorf("changed %q", d.Changed)
	}
	if !Diff(a, a).Unchanged() || Diff(a, a).String() != "nothing changed\n" {
		t.Errorf("diff of a screen with itself: %+v", Diff(a, a))
	}
	if d := Diff(nil, a); d.SamePage || len(d.Appeared) != 5 {
		t.Errorf("diff from nothing: %+v", d)
	}
	if !strings.Contains(d.String(), "changed: switch") {
		t.Errorf("String() = %q", d.String())
	}
}

func TestJSON(t *testing.T) {
	s := mustParse(t, loginPage("Sign in", "alice"))
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Package   string `json:"package"`
		Keyboard  *bool  `json:"keyboard"`
		Signature string `json:"signature"`
		Text      string `json:"text"`
		Elements  []struct {
			Index      int     `json:"index"`
			Text       string  `json:"text"`
			Desc       *string `json:"desc"`
			ResourceID string  `json:"resource_id"`
			Class      string  `json:"class"`
			Bounds     []int   `json:"bounds"`
			Center     []int   `json:"center"`
		} `json:"elements"`
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if got.Package != "com.example.app" || got.Keyboard == nil || got.Signature != s.Signature || got.Text != s.Text() || len(got.Elements) != 3 {
		t.Fatalf("JSON = %s", data)
	}
	e := got.Elements[0]
	if e.Index != 1 || e.ResourceID != "com.example.app:id/row" || e.Class != "android.widget.LinearLayout" || e.Desc == nil ||
		fmt.Sprint(e.Bounds) != "[0 200 1080 400]" || fmt.Sprint(e.Center) != "[540 300]" {
		t.Errorf("element JSON = %+v", e)
	}
	if strings.Contains(string(data), "hunter2") {
		t.Error("password in JSON")
	}
	var back Element
	if err := json.Unmarshal(mustJSON(t, s.Elements[2]), &back); err != nil || back.Bounds != s.Elements[2].Bounds || back.Center != s.Elements[2].Center {
		t.Errorf("element round trip: %+v, %v", back, err)
	}
	empty, _ := json.Marshal(mustParse(t, `<hierarchy/>`))
	if !strings.Contains(string(empty), `"elements":[]`) {
		t.Errorf("empty screen JSON = %s", empty)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestHugeTree(t *testing.T) {
	xml := synthDump(10000)
	s := mustParse(t, string(xml))
	if len(s.Elements) == 0 {
		t.Fatal("no elements in a 10k-node dump")
	}
	// Deep nesting must not blow up the text form.
	deep := strings.Repeat(`<node class="x" text="t" bounds="[0,0][10,10]">`, 5000)
	s = mustParse(t, hierarchy(deep))
	if lines := strings.Count(s.Text(), "\n"); lines == 0 || len(s.Text()) > lines*(2*maxIndent+10) {
		t.Errorf("deep text form: %d lines, %d bytes", lines, len(s.Text()))
	}
}

// TestHostileInput feeds shapes that would make a naive parser quadratic;
// if it regresses, the test runs into the package timeout. Each shape is tried
// well terminated (it parses) and cut short (ErrTruncated, as fast).
func TestHostileInput(t *testing.T) {
	const n = 200000
	for name, in := range map[string][2]string{
		"unmatched closes": {"<hierarchy>" + strings.Repeat("<a>", n) + strings.Repeat("</b>", n), "</hierarchy>"},
		"nested roots":     {strings.Repeat("<hierarchy>", n) + strings.Repeat(`<node bounds="[0,0][1,1]"/>`, n), strings.Repeat("</hierarchy>", n)},
		"deep nodes":       {strings.Repeat(`<node text="x" clickable="true" bounds="[0,0][9,9]">`, n), strings.Repeat("</node>", n)},
		"long attribute":   {`<hierarchy><node text="` + strings.Repeat("&amp;&#128512;x", n), `" bounds="[0,0][9,9]"/></hierarchy>`},
	} {
		t.Run(name, func(t *testing.T) {
			s, err := Parse([]byte(in[0] + in[1]))
			if err != nil {
				t.Fatal(err)
			}
			_ = s.Text()
			if _, err := Parse([]byte(in[0])); !errors.Is(err, errTruncated) {
				t.Fatalf("cut short: err = %.300v, want ErrTruncated", err)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	for _, file := range dumps(f, "*") {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, seed := range []string{
		"", "ERROR: could not get idle state.", "<", "<hierarchy", "<node bounds=\"[1,2][3", "&#", "<a b='&#xFFFFFFFF;'/>",
		// cut short, broken names, binary
		`<?xml version="1.0"?><hierarchy rotation="0"><node bounds="[0,0][9,9]" text="a">`,
		`<hierarchy><node bounds="[0,0][9,9]"/></hierar`, "<hierarchy><!-- ", `<hierarchy><node text="x`,
		"<hierarchy><no\x00de bounds=\"[0,0][9,9]\"/></hierarchy>", "<hierarchy><node b\x00ounds=\"[0,0][9,9]\"/></hierarchy>",
		"<hierarchy><\x00node/></hierarchy>", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "\x1f\x8b\x08\x00<hierarchy>",
		"\xff\xfe<\x00h\x00", "\x00\x00\x00\x00<node bounds='[0,0][1,1]'/>", "just some text",
		"<hierarchy><node text=\"&#55357;&#56832;&#56832;\" bounds=\"[0,0][9,9]\"/></hierarchy>",
		"<?xml?><!-- x --><hierarchy width='-5' height='99999999999'><node clickable='true' bounds='[-9,-9][-1,-1]'/></hierarchy>",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data)
		if err != nil {
			if s != nil {
				t.Fatal("screen and error both returned")
			}
			var se *SyntaxError
			if errors.As(err, &se) && (se.Offset < 0 || se.Offset > len(data)) {
				t.Fatalf("offset %d outside the %d-byte input: %v", se.Offset, len(data), err)
			}
			// The message is safe to print: quoted, never raw input bytes.
			msg := err.Error()
			if !utf8.ValidString(msg) || strings.ContainsFunc(msg, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
				t.Fatalf("error message holds raw bytes: %q", msg)
			}
			return
		}
		text := s.Text()
		if !utf8.ValidString(text) {
			t.Fatalf("invalid UTF-8 in text form %q", text)
		}
		for i, e := range s.Elements {
			if e.Index != i+1 || !e.Bounds.Contains(e.Center) {
				t.Fatalf("bad element %+v", e)
			}
		}
		if _, err := json.Marshal(s); err != nil {
			t.Fatal(err)
		}
		_ = Diff(s, s)
	})
}
