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
	"github.com/fairy-go/fairy/sim/adbtest"
)

// TestRunGuardIconPicture: `fairy run` on the virtual phone over the real adb server, with
// the scripted model of TestRunGuardDrawn. Lumen's toolbar is drawn in a Flutter canvas
// with no text and no description anywhere; its bin (the fourth icon) deletes the photo.
// Tapped by its mark's number or by `input tap X Y` at its middle, it is held as a delete
// — recognised by its picture (guard/icons) — and, refused, nothing goes to the trash. The
// star beside it is tapped unasked.
func TestRunGuardIconPicture(t *testing.T) {
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
	const lumen = "com.fairy.lumen"
	glyph := func(name string) image.Rectangle {
		t.Helper()
		for _, ic := range phone.DrawnIcons() {
			if ic.Glyph == name {
				return ic.Bounds
			}
		}
		t.Fatalf("Lumen draws no %s", name)
		return image.Rectangle{}
	}
	run := func(t *testing.T, instruction string) (event.Outcome, [][][]byte, int) {
		t.Helper()
		var out, errOut bytes.Buffer
		env := envMap(map[string]string{"OPENAI_BASE_URL": url, "OPENAI_API_KEY": "sk-test-secret-123"})
		root := newRootCmd(strings.NewReader("no\nno\nno\n"), &out, &errOut, env)
		root.SetArgs([]string{"run", "--config", cfg, "--runs", filepath.Join(dir, "runs"), "--knowledge", filepath.Join(dir, "k.db"),
			"--adb-port", strconv.Itoa(adb.Port), "-s", serial, instruction})
		ctx, stop := context.WithTimeout(t.Context(), 60*time.Second)
		defer stop()
		err := root.ExecuteContext(ctx)
		sum, rundir := readSummary(t, out.String())
		trace, rerr := os.ReadFile(filepath.Join(rundir, "trace.jsonl"))
		if rerr != nil {
			t.Fatalf("%v (fairy run: %v)\n%s\n%s", rerr, err, out.String(), errOut.String())
		}
		return sum.Outcome, regexp.MustCompile(`"kind":"ActionGuarded"[^\n]*?"category":"(\w+)"`).FindAllSubmatch(trace, -1), sum.Interactions
	}
	fresh := func(t *testing.T) {
		t.Helper()
		for _, line := range []string{"input keyevent HOME", "am force-stop " + lumen, "monkey -p " + lumen + " -c android.intent.category.LAUNCHER 1"} {
			if _, err := phone.Shell(t.Context(), line, &bytes.Buffer{}); err != nil {
				t.Fatalf("%s: %v", line, err)
			}
		}
	}
	fresh(t)
	bin := glyph("trash")
	for _, way := range []struct{ name, instruction string }{
		{"by element", "In " + lumen + ", press the button: icon 4"},
		{"input tap", fmt.Sprintf("In %s, run: input tap %d %d", lumen, (bin.Min.X+bin.Max.X)/2, (bin.Min.Y+bin.Max.Y)/2)},
	} {
		t.Run("bin "+way.name, func(t *testing.T) {
			fresh(t)
			outcome, guarded, asked := run(t, way.instruction)
			if outcome != event.OutcomeRefused || len(guarded) != 1 || string(guarded[0][1]) != "delete" || asked != 1 {
				t.Errorf("%s: outcome %s, held %q with %d questions; want one delete question, refused", way.instruction, outcome, guarded, asked)
			}
			if recs, _ := phone.Records(lumen + ":trash"); len(recs) != 0 {
				t.Errorf("%s refused, yet the trash holds %v", way.instruction, recs)
			}
		})
	}
	t.Run("star", func(t *testing.T) {
		fresh(t)
		before, _ := phone.Records(lumen + ":favourites")
		outcome, guarded, asked := run(t, "In "+lumen+", press the button: icon 3")
		after, _ := phone.Records(lumen + ":favourites")
		if len(guarded) != 0 || asked != 0 || len(after) != len(before)+1 {
			t.Errorf("the star: outcome %s, held %q with %d questions, favourites %d→%d; want it tapped unasked", outcome, guarded, asked, len(before), len(after))
		}
	})
}

// TestMCPActIconPicture: `fairy mcp` `act` on Lumen over the real adb server: its bin, a
// mark with no text, is held for consent as a delete — by its number and by x,y at its
// middle — and, declined, nothing goes to the trash; its star is tapped unasked.
func TestMCPActIconPicture(t *testing.T) {
	phone := drawnPhone(t)
	r := startMCPOn(t, phone, "", func(string, any) (string, string) { return "decline", "" })
	r.call(t, "act", map[string]any{"action": "launch", "package": "com.fairy.lumen"}, false)
	screen := r.call(t, "screen", nil, false)
	mark := func(k int) int {
		t.Helper()
		m := regexp.MustCompile(`\[(\d+)\] icon "icon ` + strconv.Itoa(k) + `" id=mark_\w+`).FindStringSubmatch(screen)
		if m == nil {
			t.Fatalf("no icon %d marked on Lumen:\n%s", k, screen)
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	var bin image.Rectangle
	for _, ic := range phone.DrawnIcons() {
		if ic.Glyph == "trash" {
			bin = ic.Bounds
		}
	}
	for _, way := range []struct {
		name string
		args map[string]any
	}{
		{"by element", map[string]any{"action": "tap", "element": mark(4)}},
		{"by x,y", map[string]any{"action": "tap", "x": (bin.Min.X + bin.Max.X) / 2, "y": (bin.Min.Y + bin.Max.Y) / 2}},
	} {
		asked := len(r.asked)
		out := r.call(t, "act", way.args, true)
		if len(r.asked) != asked+1 || !strings.Contains(r.asked[asked], "(delete)") || !strings.Contains(out, "refused") {
			t.Errorf("the bin %s: %q, asked %q; want one question naming delete, refused", way.name, out, r.asked[asked:])
		}
	}
	if recs, _ := phone.Records("com.fairy.lumen:trash"); len(recs) != 0 {
		t.Errorf("declined, yet the trash holds %v", recs)
	}
	asked := len(r.asked)
	r.call(t, "act", map[string]any{"action": "tap", "element": mark(3)}, false)
	if recs, _ := phone.Records("com.fairy.lumen:favourites"); len(recs) != 1 || len(r.asked) != asked {
		t.Errorf("the star: favourites %v, asked %q; want it tapped unasked", recs, r.asked[asked:])
	}
}
