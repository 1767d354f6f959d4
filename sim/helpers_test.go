package sim

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

var fixedNow = time.Date(2025, 6, 11, 9, 41, 0, 0, time.UTC)

// testClock is an adjustable clock for tests.
type testClock struct{ now time.Time }

func (c *testClock) Now() time.Time { return c.now }

func newPhone(t testing.TB, mods ...func(*Config)) *Phone {
	t.Helper()
	clk := &testClock{now: fixedNow}
	cfg := Config{Seed: 1, Clock: clk.Now}
	for _, m := range mods {
		m(&cfg)
	}
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// sh runs a command line and returns its output and status; an error fails the test.
func sh(t testing.TB, p *Phone, line string) (string, int) {
	t.Helper()
	var b bytes.Buffer
	st, err := p.Shell(t.Context(), line, &b)
	if err != nil {
		t.Fatalf("shell %q: %v", line, err)
	}
	return b.String(), st
}

type xnode struct {
	Index, Text, RID, Class, Pkg, Desc, Bounds string
	Clickable, Checked, Focused, Scrollable    bool
	X1, Y1, X2, Y2                             int
	Depth                                      int
	Attrs                                      []string
}

var boundsRe = regexp.MustCompile(`^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$`)

func parseDump(t testing.TB, data []byte) []xnode {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	var out []xnode
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if e.Name.Local != "node" {
				continue
			}
			depth++
			n := xnode{Depth: depth}
			for _, a := range e.Attr {
				n.Attrs = append(n.Attrs, a.Name.Local)
				switch a.Name.Local {
				case "index":
					n.Index = a.Value
				case "text":
					n.Text = a.Value
				case "resource-id":
					n.RID = a.Value
				case "class":
					n.Class = a.Value
				case "package":
					n.Pkg = a.Value
				case "content-desc":
					n.Desc = a.Value
				case "bounds":
					n.Bounds = a.Value
					m := boundsRe.FindStringSubmatch(a.Value)
					if m == nil {
						t.Fatalf("bad bounds %q", a.Value)
					}
					n.X1, _ = strconv.Atoi(m[1])
					n.Y1, _ = strconv.Atoi(m[2])
					n.X2, _ = strconv.Atoi(m[3])
					n.Y2, _ = strconv.Atoi(m[4])
				case "clickable":
					n.Clickable = a.Value == "true"
				case "checked":
					n.Checked = a.Value == "true"
				case "focused":
					n.Focused = a.Value == "true"
				case "scrollable":
					n.Scrollable = a.Value == "true"
				}
			}
			out = append(out, n)
		case xml.EndElement:
			if e.Name.Local == "node" {
				depth--
			}
		}
	}
	return out
}

func dumpNodes(t testing.TB, p *Phone) []xnode {
	t.Helper()
	out, _ := sh(t, p, "uiautomator dump /dev/tty")
	xmlPart, _, ok := strings.Cut(out, "UI hierchary dumped to:")
	if !ok {
		t.Fatalf("no dump: %q", out)
	}
	return parseDump(t, []byte(xmlPart))
}

// allNodes parses the all-windows dump of the uiautomator2 server (status bar, app,
// keyboard, navigation bar).
func allNodes(t testing.TB, p *Phone) []xnode {
	t.Helper()
	return parseDump(t, p.DumpAllWindows())
}

// find returns the node whose text or content-desc is label (the last, deepest match).
func find(t testing.TB, p *Phone, label string) (xnode, bool) {
	t.Helper()
	var found xnode
	ok := false
	for _, n := range dumpNodes(t, p) {
		if n.Text == label || n.Desc == label || n.RID == label {
			found, ok = n, true
		}
	}
	return found, ok
}

func has(t testing.TB, p *Phone, label string) bool {
	t.Helper()
	_, ok := find(t, p, label)
	return ok
}

// tap taps the centre of the element labelled label through the shell.
func tap(t testing.TB, p *Phone, label string) {
	t.Helper()
	n, ok := find(t, p, label)
	if !ok {
		t.Fatalf("tap %q: not on screen %s; screen has: %s", label, p.ScreenID(), labels(t, p))
	}
	if _, st := sh(t, p, fmt.Sprintf("input tap %d %d", (n.X1+n.X2)/2, (n.Y1+n.Y2)/2)); st != 0 {
		t.Fatalf("tap %q: status %d", label, st)
	}
}

func labels(t testing.TB, p *Phone) string {
	var ls []string
	for _, n := range dumpNodes(t, p) {
		if n.Text != "" || n.Desc != "" {
			ls = append(ls, strconv.Quote(n.Text+"|"+n.Desc))
		}
	}
	return strings.Join(ls, " ")
}

// typeInto taps a field and types ASCII text with `input text`.
func typeInto(t testing.TB, p *Phone, field, text string) {
	t.Helper()
	tap(t, p, field)
	if out, st := sh(t, p, "input text "+shellQuote(strings.ReplaceAll(text, " ", "%s"))); st != 0 {
		t.Fatalf("input text %q: %d %s", text, st, out)
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// scrollUntil swipes the screen up until label shows, at most n times.
func scrollUntil(t testing.TB, p *Phone, label string, n int) {
	t.Helper()
	w, h := p.Size()
	for i := 0; i < n; i++ {
		if has(t, p, label) {
			return
		}
		sh(t, p, fmt.Sprintf("input swipe %d %d %d %d 300", w/2, h*3/4, w/2, h/3))
	}
	if !has(t, p, label) {
		t.Fatalf("%q not found after %d swipes", label, n)
	}
}

func launch(t testing.TB, p *Phone, pkg string) {
	t.Helper()
	if out, st := sh(t, p, "monkey -p "+pkg+" -c android.intent.category.LAUNCHER 1"); st != 0 {
		t.Fatalf("launch %s: %d %s", pkg, st, out)
	}
}
