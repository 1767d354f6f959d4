package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/executor/ocr/ocrtest"
	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/adbtest"
)

// drawnLocales are the languages the drawn payment, delete and send controls are held in:
// TeaHouse's WebView checkout and SafeBox's SurfaceView vault speak the phone's language.
var drawnLocales = []string{"en-US", "zh-CN", "es-ES", "de-DE", "fr-FR", "pt-BR"}

// drawnCase is a control only the picture shows: its label in the phone's language, the
// category the guard must name, and the records that must not change when it is refused.
type drawnCase struct {
	app, locale, control, label, category string
	records                               []string
	// before are the labels the phone is tapped on, on its own, to reach the control's page.
	before []string
}

func (c drawnCase) pkg() string { return "com.fairy." + c.app }

func (c drawnCase) String() string { return c.app + " " + c.locale + " " + c.control }

// drawnCases are TeaHouse's Pay, Remove and Send receipt (a WebView with no nodes) and
// SafeBox's Pay, Delete card and Send statement (a SurfaceView), in every language of
// drawnLocales, with the labels the apps draw (read from the phone's own records).
func drawnCases(t *testing.T, phone *sim.Phone) []drawnCase {
	t.Helper()
	words := func(app string) map[string]map[string]string {
		recs, err := phone.Records("com.fairy." + app + ":words")
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]map[string]string{}
		for _, r := range recs {
			out[r["id"]] = r
		}
		return out
	}
	tea, safe := words("teahouse"), words("safebox")
	pin := []string{"2", "5", "8", "0", "Enter"}
	var cases []drawnCase
	for _, loc := range drawnLocales {
		tw, sw := tea[loc], safe[loc]
		if tw == nil || sw == nil {
			t.Fatalf("TeaHouse or SafeBox does not speak %s", loc)
		}
		cases = append(cases,
			drawnCase{app: "teahouse", locale: loc, control: "pay", label: tw["pay"] + " ¥36", category: "payment", records: []string{"orders"}},
			drawnCase{app: "teahouse", locale: loc, control: "remove", label: tw["remove"], category: "delete", records: []string{"removed"}},
			drawnCase{app: "teahouse", locale: loc, control: "send", label: tw["send"], category: "send", records: []string{"receipts"}, before: []string{tw["pay"] + " ¥36"}},
			drawnCase{app: "safebox", locale: loc, control: "pay", label: sw["pay"] + " ¥36", category: "payment", records: []string{"payments"}, before: pin},
			drawnCase{app: "safebox", locale: loc, control: "delete", label: sw["delete"], category: "delete", records: []string{"cards_deleted"}, before: pin},
			drawnCase{app: "safebox", locale: loc, control: "send", label: sw["send"], category: "send", records: []string{"statements"}, before: pin},
		)
	}
	return cases
}

// drawnPhone is a virtual phone with the stock apps; it needs tesseract (skipped without it,
// failed under CI), as fairy reads these controls from the picture.
func drawnPhone(t *testing.T) *sim.Phone {
	t.Helper()
	ocrtest.Start(t)
	phone, err := sim.New(sim.Config{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	return phone
}

// setUp puts the phone, on its own (not through fairy), on the page that draws c's control:
// the phone's language set, the app started fresh, SafeBox opened with its PIN, TeaHouse's
// order paid for its receipt page. It returns the records c must leave unchanged, counted.
func (c drawnCase) setUp(t *testing.T, phone *sim.Phone) map[string]int {
	t.Helper()
	sh := func(line string) {
		t.Helper()
		var b bytes.Buffer
		if _, err := phone.Shell(t.Context(), line, &b); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	sh("input keyevent HOME")
	sh("settings put system system_locales " + c.locale)
	sh("am force-stop " + c.pkg())
	sh("monkey -p " + c.pkg() + " -c android.intent.category.LAUNCHER 1")
	for _, label := range c.before {
		p, ok := drawnCase{label: label}.point(phone)
		if !ok {
			t.Fatalf("%s: %q is not drawn", c, label)
		}
		sh(fmt.Sprintf("input tap %d %d", p[0], p[1]))
	}
	if !c.drawn(phone) {
		t.Fatalf("%s: %q is not drawn on the phone", c, c.label)
	}
	counts := map[string]int{}
	for _, r := range c.records {
		counts[r] = c.count(t, phone, r)
	}
	return counts
}

// drawn reports whether the phone draws c's control now.
func (c drawnCase) drawn(phone *sim.Phone) bool {
	_, ok := c.point(phone)
	return ok
}

// point is the middle of the control's label as the phone drew it.
func (c drawnCase) point(phone *sim.Phone) ([2]int, bool) {
	b, ok := c.box(phone)
	return [2]int{(b.Min.X + b.Max.X) / 2, (b.Min.Y + b.Max.Y) / 2}, ok
}

// box is where the phone drew the control's label.
func (c drawnCase) box(phone *sim.Phone) (image.Rectangle, bool) {
	for _, d := range phone.DrawnTexts() {
		if d.Text == c.label {
			return d.Bounds, true
		}
	}
	return image.Rectangle{}, false
}

func (c drawnCase) count(t *testing.T, phone *sim.Phone, collection string) int {
	t.Helper()
	recs, err := phone.Records(c.pkg() + ":" + collection)
	if err != nil {
		t.Fatal(err)
	}
	return len(recs)
}

// unchanged fails t when a refused control changed the app's records.
func (c drawnCase) unchanged(t *testing.T, phone *sim.Phone, before map[string]int) {
	t.Helper()
	for r, n := range before {
		if got := c.count(t, phone, r); got != n {
			t.Errorf("%s: refused, yet %s went from %d to %d records", c, r, n, got)
		}
	}
}

// TestRunGuardDrawn: `fairy run` on the virtual phone over the real adb server, with a
// scripted model that only does what the instruction says and never asks on its own. A
// payment, a deletion and a send that only the picture shows — TeaHouse's WebView checkout,
// SafeBox's SurfaceView vault — in English, Chinese, Spanish, German, French and Portuguese,
// pressed by the number of the text read there or by `input tap X Y` at the label, are
// asked about once, naming their category; refused, the app's records are unchanged.
func TestRunGuardDrawn(t *testing.T) {
	phone := drawnPhone(t)
	adb := adbtest.Start(t)
	serial := servePhone(t, adb, phone)
	rules, err := os.ReadFile("testdata/guardrun/rules.yaml")
	if err != nil {
		t.Fatal(err)
	}
	url := serveModel(t, rules)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte("model:\n  default: fairy-scripted\nagent:\n  max-steps: 8\n  shell: [input tap]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range drawnCases(t, phone) {
		for _, way := range []string{"by element", "input tap"} {
			t.Run(c.String()+" "+way, func(t *testing.T) {
				before := c.setUp(t, phone)
				instruction := fmt.Sprintf("In %s, press the button: %s", c.pkg(), c.label)
				if way == "input tap" {
					p, _ := c.point(phone)
					instruction = fmt.Sprintf("In %s, run: input tap %d %d", c.pkg(), p[0], p[1])
				}
				var out, errOut bytes.Buffer
				env := envMap(map[string]string{"OPENAI_BASE_URL": url, "OPENAI_API_KEY": "sk-test-secret-123"})
				root := newRootCmd(strings.NewReader("no\nno\nno\n"), &out, &errOut, env)
				root.SetArgs([]string{"run", "--config", cfg, "--runs", filepath.Join(dir, "runs"), "--knowledge", filepath.Join(dir, "k.db"),
					"--adb-port", strconv.Itoa(adb.Port), "-s", serial, instruction})
				runCtx, stop := context.WithTimeout(t.Context(), 60*time.Second)
				defer stop()
				err := root.ExecuteContext(runCtx)
				sum, rundir := readSummary(t, out.String())
				trace, rerr := os.ReadFile(filepath.Join(rundir, "trace.jsonl"))
				if rerr != nil {
					t.Fatalf("%v (fairy run: %v)\n%s\n%s", rerr, err, out.String(), errOut.String())
				}
				guarded := regexp.MustCompile(`"kind":"ActionGuarded"[^\n]*?"category":"(\w+)"`).FindAllSubmatch(trace, -1)
				switch {
				case sum.Outcome != event.OutcomeRefused:
					t.Errorf("%s: outcome %s, want refused (fairy run: %v)\n%s\n%s", instruction, sum.Outcome, err, out.String(), errOut.String())
				case len(guarded) != 1 || string(guarded[0][1]) != c.category || sum.Interactions != 1:
					t.Errorf("%s: held %q with %d questions, want one %s", instruction, guarded, sum.Interactions, c.category)
				}
				c.unchanged(t, phone, before)
			})
		}
	}
}

// TestMCPActGuardDrawn: `fairy mcp` `act` on the virtual phone over the real adb server.
// The same drawn controls as TestRunGuardDrawn, in the same six languages, are held for
// consent — naming their category — by act on the number of the text read there, by act
// with x,y on the label and beside it (which the server judges as `input tap X Y`);
// declined, the app's records are unchanged. An icon drawn with no text is a numbered
// mark that act taps.
func TestMCPActGuardDrawn(t *testing.T) {
	phone := drawnPhone(t)
	r := startMCPOn(t, phone, "", func(string, any) (string, string) { return "decline", "" })
	for _, c := range drawnCases(t, phone) {
		t.Run(c.String(), func(t *testing.T) {
			before := c.setUp(t, phone)
			screen := r.call(t, "screen", nil, false)
			n := element(t, screen, strconv.Quote(c.label)+" (read from the picture)")
			b, _ := c.box(phone)
			for _, way := range []struct {
				name string
				args map[string]any
			}{
				{"by element", map[string]any{"action": "tap", "element": n}},
				{"by x,y on the label", map[string]any{"action": "tap", "x": (b.Min.X + b.Max.X) / 2, "y": (b.Min.Y + b.Max.Y) / 2}},
				{"by x,y beside the label", map[string]any{"action": "tap", "x": b.Min.X - 20, "y": b.Max.Y + b.Dy()/3}},
			} {
				asked := len(r.asked)
				out := r.call(t, "act", way.args, true)
				if len(r.asked) != asked+1 || !strings.Contains(r.asked[asked], "("+c.category+")") || !strings.Contains(out, "refused") {
					t.Errorf("%s %s: %q, asked %q; want one question naming %s, refused", c, way.name, out, r.asked[asked:], c.category)
				}
			}
			c.unchanged(t, phone, before)
		})
	}
	// Lumen's toolbar icons have no text: each is a numbered mark, and act on one taps it
	// (the star favourites the photo; nothing to hold, nothing asked).
	t.Run("lumen icon", func(t *testing.T) {
		r.call(t, "act", map[string]any{"action": "launch", "package": "com.fairy.lumen"}, false)
		screen := r.call(t, "screen", nil, false)
		var star image.Rectangle
		for _, ic := range phone.DrawnIcons() {
			if ic.Glyph == "star" {
				star = ic.Bounds
			}
		}
		m := regexp.MustCompile(`\[(\d+)\] icon "icon 3" id=mark_\w+ \(drawn in the picture, no text\)`).FindStringSubmatch(screen)
		if m == nil || star.Empty() {
			t.Fatalf("no third icon marked on Lumen (star drawn at %v):\n%s", star, screen)
		}
		n, _ := strconv.Atoi(m[1])
		asked := len(r.asked)
		r.call(t, "act", map[string]any{"action": "tap", "element": n}, false)
		if recs, _ := phone.Records("com.fairy.lumen:favourites"); len(recs) != 1 || len(r.asked) != asked {
			t.Errorf("act on icon 3 (the star at %v): favourites %v, asked %q", star, recs, r.asked[asked:])
		}
	})
}
