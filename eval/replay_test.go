package eval

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/internal/chromiumtest"
	"github.com/fairy-go/fairy/rundir"
	"github.com/fairy-go/fairy/sim"
)

// recordSteps records a run of n steps into dir with the real recorder: each step's
// screenshot from shot (nil: a different colour each step), its reflection in Chinese and Arabic (a right-to-left
// script), a consent question and its answer at step 2.
func recordSteps(t *testing.T, dir string, n int, outcome event.Outcome, shot func(step int) []byte) {
	t.Helper()
	rec, err := rundir.NewRecorder(dir)
	if err != nil {
		t.Fatal(err)
	}
	bus := event.NewBus(func() time.Time { return time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC) })
	bus.Subscribe(rec.Handle)
	bus.Publish(event.RunStarted{RunID: filepath.Base(dir), Instruction: "点一杯珍珠奶茶"})
	bus.Publish(event.AppTaskStarted{Task: event.AppTask{App: "com.fairy.shop", Task: "Order one 珍珠奶茶"}})
	for i := 1; i <= n; i++ {
		img := image.NewRGBA(image.Rect(0, 0, 108, 240))
		c := color.RGBA{uint8(40 * i), uint8(255 - 40*i), uint8(20 * i), 255}
		for y := range 240 {
			for x := range 108 {
				img.Set(x, y, c)
			}
		}
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		if shot != nil {
			buf.Reset()
			buf.Write(shot(i))
		}
		bus.Publish(event.StepStarted{Step: i, App: "com.fairy.shop"})
		bus.Publish(event.ScreenPerceived{Step: i, Signature: "menu", Text: fmt.Sprintf("- [1] button \"第%d步\"\n- \"مرحبا بالعالم %d\"", i, i), Marked: buf.Bytes(), MarkedMIME: "image/png"})
		bus.Publish(event.Reflected{Step: i, Result: "A", Reflection: fmt.Sprintf("step %d: 菜单已打开 — تم فتح القائمة", i)})
		bus.Publish(event.Planned{Step: i, Subgoal: fmt.Sprintf("sub-goal %d", i)})
		if i == 2 {
			bus.Publish(event.InteractionAsked{Step: i, Type: 1, Question: "支付 ¥15？"})
			bus.Publish(event.InteractionAnswered{Step: i, Answer: "yes"})
		}
		bus.Publish(event.ActionsDecided{Step: i, Thought: fmt.Sprintf("thought %d", i)})
		bus.Publish(event.ActionExecuted{Step: i, Action: event.Action{Type: event.Tap, Index: 1}, Element: &event.ElementRef{Label: fmt.Sprintf("第%d步", i)}})
	}
	bus.Publish(event.TaskFinished{App: "com.fairy.shop", Outcome: outcome, Steps: n})
	bus.Publish(event.RunFinished{Outcome: outcome})
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
}

// replayReport writes report.html for four tasks — passed, failed, a false success, and a
// refusal the task expected — each with a recorded trajectory, and returns its path.
func replayReport(t *testing.T, shot func(step int) []byte) (string, *Report) {
	t.Helper()
	out := t.TempDir()
	tasks := []TaskResult{
		{ID: "passed-one", Instruction: "点一杯珍珠奶茶", Pass: true, Outcome: "done", Steps: 5},
		{ID: "failed-one", Instruction: "احجز طاولة لشخصين", Outcome: "failed", Reason: "لم يتم العثور على المطعم", Steps: 3},
		{ID: "false-one", Instruction: "Turn Wi-Fi off", Outcome: "done", FalseSuccess: true, Steps: 2},
		{ID: "refused-one", Instruction: "Pay for the tea", Pass: true, Outcome: "refused", Steps: 2},
	}
	outcomes := []event.Outcome{event.OutcomeDone, event.OutcomeFailed, event.OutcomeDone, event.OutcomeRefused}
	for i := range tasks {
		tasks[i].RunDir = filepath.Join("runs", tasks[i].ID)
		recordSteps(t, filepath.Join(out, tasks[i].RunDir), tasks[i].Steps, outcomes[i], shot)
	}
	rep := &Report{Suite: "replay", Started: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC), Devices: []string{"sim-1"}, Tasks: tasks,
		Totals: Totals{Tasks: 4, Passed: 2, Steps: 12}}
	var b bytes.Buffer
	if err := rep.HTML(&b, out); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(out, ReportHTML)
	if err := os.WriteFile(page, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return page, rep
}

var (
	stageRE = regexp.MustCompile(`(?s)<div class="replay" data-task="([^"]+)".*?<div class="stage" data-step="(\d+)"><img class="shot"[^>]*?src="([^"]+)"`)
	stepRE  = regexp.MustCompile(`(?s)<div class="step[^"]*" data-i="(\d+)">.*?<img alt="[^"]*" src="([^"]+)"`)
)

// sectionOf is the rendered task section with anchor id.
func sectionOf(dom, id string) string {
	i := strings.Index(dom, `<details class="task" id="`+id+`"`)
	if i < 0 {
		return ""
	}
	j := strings.Index(dom[i:], "</details>\n")
	if j < 0 {
		return dom[i:]
	}
	return dom[i : i+j]
}

// TestReportReplayInChromium (issue 40): report.html's replay controls in the real
// browser. Seeking to step N of a task shows step N's picture on the stage beside what
// the model was told and answered, and marks step N; playing at 4× runs to the last step
// and stops; the outcome filter keeps only the tasks of one outcome, in the task table and
// among the trajectories.
func TestReportReplayInChromium(t *testing.T) {
	bin := chromium(t)
	page, rep := replayReport(t, nil)
	raw, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if regexp.MustCompile(`(?i)(src|href)="(https?:|//)`).Match(raw) || bytes.Contains(raw, []byte("<script src")) {
		t.Error("report.html refers to an external resource")
	}
	anchor := "t0-passed-one"
	for _, n := range []int{3, 5, 1} {
		t.Run(fmt.Sprintf("seek %d", n), func(t *testing.T) {
			dom := string(headless(t, bin, "--dump-dom", "file://"+page+fmt.Sprintf("#seek=%s@%d", anchor, n)))
			sec := sectionOf(dom, anchor)
			m := stageRE.FindStringSubmatch(sec)
			if m == nil {
				t.Fatalf("no stage with a picture in the task section:\n%s", clip(sec, 3000))
			}
			pics := map[string]string{}
			for _, s := range stepRE.FindAllStringSubmatch(sec, -1) {
				pics[s[1]] = s[2]
			}
			if len(pics) != 5 {
				t.Fatalf("%d step pictures in the section, want 5", len(pics))
			}
			if m[2] != fmt.Sprint(n) {
				t.Errorf("the stage shows step %s, want %d", m[2], n)
			}
			if m[3] != pics[fmt.Sprint(n)] {
				t.Errorf("the stage's picture is not step %d's", n)
			}
			for k, p := range pics {
				if k != fmt.Sprint(n) && p == m[3] {
					t.Errorf("the stage's picture is step %s's, want step %d's", k, n)
				}
			}
			stage := sec[strings.Index(sec, `<div class="stage"`):]
			stage = stage[:strings.Index(stage, `<div class="steps`)]
			for _, want := range []string{fmt.Sprintf("step %d: 菜单已打开 — تم فتح القائمة", n), fmt.Sprintf("Sub-goal: sub-goal %d", n),
				fmt.Sprintf("thought %d", n), fmt.Sprintf("مرحبا بالعالم %d", n), fmt.Sprintf(`on "第%d步"`, n)} {
				if !strings.Contains(stage, want) {
					t.Errorf("the stage lacks %q (what the model was told and answered at step %d):\n%s", want, n, clip(stage, 2000))
				}
			}
			if n == 2 && !strings.Contains(stage, "支付 ¥15？") {
				t.Error("the stage of step 2 lacks its consent question")
			}
			if !strings.Contains(sec, fmt.Sprintf(`<div class="step current" data-i="%d">`, n)) {
				t.Errorf("step %d is not marked current", n)
			}
			if !strings.Contains(sec, fmt.Sprintf(`<span class="pos">%d / 5</span>`, n)) {
				t.Errorf("the position does not say %d / 5", n)
			}
		})
	}
	t.Run("play", func(t *testing.T) {
		dom := string(headless(t, bin, "--virtual-time-budget=20000", "--dump-dom", "file://"+page+"#play="+anchor+"&speed=4"))
		sec := sectionOf(dom, anchor)
		m := stageRE.FindStringSubmatch(sec)
		if m == nil || m[2] != "5" {
			t.Fatalf("after playing, the stage is at %v, want the last step, 5", m)
		}
		if !strings.Contains(sec, `data-playing="0"`) {
			t.Error("playing did not stop at the last step")
		}
	})
	for _, f := range []struct {
		value string
		keep  []string
	}{
		{"passed", []string{"passed-one", "refused-one"}},
		{"failed", []string{"failed-one", "false-one"}},
		{"false-success", []string{"false-one"}},
		{"refused", []string{"refused-one"}},
	} {
		t.Run("filter "+f.value, func(t *testing.T) {
			dom := string(headless(t, bin, "--dump-dom", "file://"+page+"#filter="+f.value))
			table := regexp.MustCompile(`(?s)<table id="tasks">.*?</table>`).FindString(dom)
			for i, x := range rep.Tasks {
				kept := strings.Contains(strings.Join(f.keep, " "), x.ID)
				row := regexp.MustCompile(`<tr data-outcome="[^"]*"( hidden(="")?)?><td><a href="#t\d+-` + x.ID + `"`).FindStringSubmatch(table)
				if row == nil {
					t.Fatalf("no row for %s", x.ID)
				}
				if hidden := row[1] != ""; hidden == kept {
					t.Errorf("filter %s: row %s hidden=%t", f.value, x.ID, hidden)
				}
				sec := regexp.MustCompile(`<details class="task" id="t` + fmt.Sprint(i) + `-` + x.ID + `"[^>]*>`).FindString(dom)
				if hidden := strings.Contains(sec, " hidden"); hidden == kept {
					t.Errorf("filter %s: trajectory of %s hidden=%t: %s", f.value, x.ID, hidden, sec)
				}
			}
		})
	}
}

// docsShot rewrites docs/report-replay.png, docs/run-directory.md's picture of report.html.
var docsShot = flag.Bool("docs", false, "rewrite docs/report-replay.png (go test ./eval -run TestReportReplayScreenshot -docs)")

// TestReportReplayScreenshot takes report.html's picture in Chromium — the outcome filter
// on "passed", the first task's replay at step 3, the virtual phone's screens as the
// steps' pictures — and checks the stage is drawn; with -docs it becomes
// docs/report-replay.png.
func TestReportReplayScreenshot(t *testing.T) {
	bin := chromium(t)
	// The virtual phone's screens, one app a step, as a run would show them.
	ph, err := sim.New(sim.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	apps := []string{"com.fairy.shop", "com.android.settings", "com.fairy.notes", "com.google.android.apps.messaging", "com.google.android.calendar"}
	screens := map[int][]byte{}
	for i, pkg := range apps {
		if _, err := ph.Shell(t.Context(), "monkey -p "+pkg+" -c android.intent.category.LAUNCHER 1", io.Discard); err != nil {
			t.Fatal(err)
		}
		if screens[i+1], err = ph.Screenshot(); err != nil {
			t.Fatal(err)
		}
	}
	page, _ := replayReport(t, func(step int) []byte { return screens[step] })
	shot := filepath.Join(t.TempDir(), "report.png")
	chromiumtest.Run(t, bin, nil, "--window-size=1280,1500", "--virtual-time-budget=3000", "--hide-scrollbars",
		"--screenshot="+shot, "file://"+page+"#filter=passed&seek=t0-passed-one@3")
	b, err := os.ReadFile(shot)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	// The stage (left, below the controls) shows a phone screen: ink there, not a blank.
	dark := 0
	for y := 620; y < 1200; y += 3 {
		for x := 40; x < 340; x += 3 {
			r, g, b, _ := img.At(x, y).RGBA()
			if r+g+b < 3*0xC000 {
				dark++
			}
		}
	}
	if *docsShot {
		if err := os.WriteFile(filepath.Join("..", "docs", "report-replay.png"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if dark < 200 {
		t.Errorf("the stage looks blank (%d dark samples)", dark)
	}
}
