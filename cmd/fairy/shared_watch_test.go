package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/fairy-go/fairy/internal/chromiumtest"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/rundir"
)

// lockedBuffer is a command's output read while the command runs.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// watchedRun is `fairy run --sim --watch` running in the background: a person at a
// terminal who never types (the page answers), and the command's outcome when it ends.
type watchedRun struct {
	stdout, stderr *lockedBuffer
	done           chan int
	url            string
	knowledge      string
	data           string
}

// startWatchedRun starts the run and waits for the live page's address.
func startWatchedRun(t *testing.T, instruction string) *watchedRun {
	t.Helper()
	dir := t.TempDir()
	w := &watchedRun{stdout: &lockedBuffer{}, stderr: &lockedBuffer{}, done: make(chan int, 1),
		knowledge: filepath.Join(dir, "k.db"), data: filepath.Join(dir, "data")}
	stdin, stdinW := io.Pipe() // the terminal waits; nobody types
	t.Cleanup(func() { stdinW.Close() })
	root := newRootCmd(stdin, w.stdout, w.stderr, envMap(map[string]string{"HOME": dir, "XDG_DATA_HOME": w.data}))
	root.SetArgs([]string{"run", "--sim", "--watch", "--knowledge", w.knowledge, instruction})
	ctx, cancel := context.WithTimeout(t.Context(), 120*time.Second)
	t.Cleanup(cancel)
	go func() { w.done <- exitStatus(ctx, root.ExecuteContext(ctx), w.stderr) }()
	re := regexp.MustCompile(`live page: (http://\S+)`)
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if m := re.FindStringSubmatch(w.stdout.String()); m != nil {
			w.url = m[1]
			return w
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no live page address:\n%s\n%s", w.stdout, w.stderr)
	return nil
}

// wait returns the command's exit status.
func (w *watchedRun) wait(t *testing.T) int {
	t.Helper()
	select {
	case code := <-w.done:
		return code
	case <-time.After(90 * time.Second):
		t.Fatalf("the run did not end:\n%s\n%s", w.stdout, w.stderr)
		return -1
	}
}

// browser is headless Chromium driven over the DevTools protocol.
func browser(t *testing.T) context.Context {
	t.Helper()
	bin := chromiumtest.Binary(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin), chromedp.NoSandbox,
		chromedp.Flag("disable-gpu", true), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1400, 1000))
	actx, cancel := chromedp.NewExecAllocator(t.Context(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

// js evaluates expr in the page until it returns true, or fails t after d.
func waitJS(t *testing.T, ctx context.Context, d time.Duration, what, expr string) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			html, _ := chromedp.Run(ctx, chromedp.OuterHTML(chromedp.CSS("main")))
			t.Fatalf("the page never showed %s:\n%.3000s", what, html)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func evalString(t *testing.T, ctx context.Context, expr string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return s
}

// picture fetches a picture of the page by its key.
func picture(t *testing.T, pageURL, key string) []byte {
	t.Helper()
	u, _ := url.Parse(pageURL)
	resp, err := http.Get("http://" + u.Host + "/picture?k=" + url.QueryEscape(key) + "&t=" + u.Query().Get("t"))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("picture %s: %d %s", key, resp.StatusCode, b)
	}
	return b
}

// TestWatchPageFollowsARun: headless Chromium loads the live page of a run on the virtual
// phone and sees the screen change after a tap and the steps appear; the consent asked in
// the run is answered on the page, and the answer takes effect: the order is placed and
// the run is done.
func TestWatchPageFollowsARun(t *testing.T) {
	ctx := browser(t)
	w := startWatchedRun(t, "帮我点一杯珍珠奶茶，然后付款")
	if err := chromedp.Do(ctx, chromedp.Navigate(w.url)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, 30*time.Second, "the instruction", `document.querySelector("#panel-0 .instruction")?.textContent === "帮我点一杯珍珠奶茶，然后付款"`)
	waitJS(t, ctx, 30*time.Second, "a screen picture", `!!document.querySelector("#screen-0")?.dataset.key`)
	first := evalString(t, ctx, `document.querySelector("#screen-0").dataset.key`)
	waitJS(t, ctx, 30*time.Second, "a tap done in step 1", `[...document.querySelectorAll('#panel-0 .step[data-step="1"] .line.done')].some(e => e.textContent.includes("Tap"))`)
	waitJS(t, ctx, 30*time.Second, "the screen after the tap", `document.querySelector("#screen-0").dataset.key !== `+jsString(first)+
		` && document.querySelector('#panel-0 .step[data-step="2"]') !== null`)
	second := evalString(t, ctx, `document.querySelector("#screen-0").dataset.key`)
	if bytes.Equal(picture(t, w.url, first), picture(t, w.url, second)) {
		t.Errorf("the screen after the tap (%s) is the picture before it (%s)", second, first)
	}
	waitJS(t, ctx, 10*time.Second, "the screen image loaded", `document.querySelector("#screen-0").complete && document.querySelector("#screen-0").naturalWidth > 0`)

	// Every consent is answered on the page; the terminal never types.
	answered := 0
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); {
		state, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#panel-0").dataset.outcome || (document.querySelector("#panel-0 .question button.yes") ? "question" : "")`))
		if err != nil {
			t.Fatal(err)
		}
		if state == "question" {
			if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#panel-0 .question button.yes"))); err != nil {
				t.Fatal(err)
			}
			answered++
			waitJS(t, ctx, 10*time.Second, "the answered question gone", `document.querySelectorAll("#panel-0 .question").length === 0 || !!document.querySelector("#panel-0").dataset.outcome`)
			continue
		}
		if state != "" {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if answered == 0 {
		t.Fatal("no question appeared on the page")
	}
	waitJS(t, ctx, 30*time.Second, "the outcome done", `document.querySelector("#panel-0")?.dataset.outcome === "done"`)
	if code := w.wait(t); code != 0 {
		t.Fatalf("exit status %d:\n%s\n%s", code, w.stdout, w.stderr)
	}
	if !strings.Contains(w.stdout.String(), "(answered on the live page: yes)") {
		t.Errorf("the terminal does not say the page answered:\n%s", w.stdout)
	}
	steps := evalString(t, ctx, `String(document.querySelectorAll("#panel-0 .step").length)`)
	if steps == "0" || steps == "1" {
		t.Errorf("%s steps on the page", steps)
	}
	waitJS(t, ctx, 10*time.Second, "the run over", `document.body.dataset.ended === "1"`)
}

// TestWatchPageStop: Stop on the page ends a run waiting for the person's consent as
// Ctrl-C does: exit 130, the run directory written, the knowledge file intact.
func TestWatchPageStop(t *testing.T) {
	ctx := browser(t)
	w := startWatchedRun(t, "帮我点一杯珍珠奶茶，然后付款")
	if err := chromedp.Do(ctx, chromedp.Navigate(w.url)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, 60*time.Second, "the consent question", `!!document.querySelector("#panel-0 .question button.yes")`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#stop"))); err != nil {
		t.Fatal(err)
	}
	if code := w.wait(t); code != exitInterrupted {
		t.Fatalf("exit status %d, want %d:\n%s\n%s", code, exitInterrupted, w.stdout, w.stderr)
	}
	if !strings.Contains(w.stderr.String(), msgStopped) {
		t.Errorf("stderr does not say the page stopped the run:\n%s", w.stderr)
	}
	m := regexp.MustCompile(`run directory: (\S+)`).FindStringSubmatch(w.stdout.String())
	if m == nil {
		t.Fatalf("no run directory:\n%s", w.stdout)
	}
	for _, f := range []string{"trace.jsonl", rundir.SummaryFile} {
		if _, err := os.Stat(filepath.Join(m[1], f)); err != nil {
			t.Errorf("run directory: %v", err)
		}
	}
	store, err := knowledge.Open(w.knowledge, knowledge.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("the knowledge file after Stop: %v", err)
	}
	if _, err := store.Apps(); err != nil {
		t.Errorf("the knowledge file after Stop: %v", err)
	}
	store.Close()
	waitJS(t, ctx, 10*time.Second, "the run over", `document.body.dataset.ended === "1"`)
}

// jsString quotes s for a JavaScript expression.
func jsString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// TestWatchEvalPanels: `fairy eval --watch` on two virtual phones shows one panel per
// phone in Chromium, each with the steps of the task it runs.
func TestWatchEvalPanels(t *testing.T) {
	ctx := browser(t)
	dir := t.TempDir()
	stdout, stderr := &lockedBuffer{}, &lockedBuffer{}
	root := newRootCmd(strings.NewReader(""), stdout, stderr, envMap(map[string]string{"HOME": dir, "XDG_DATA_HOME": filepath.Join(dir, "data")}))
	root.SetArgs([]string{"eval", "builtin:sim", "--sim", "2", "--parallel", "2", "--watch", "--out", filepath.Join(dir, "out"),
		"--tasks", "calendar-add-dinner,cross-maps-to-messages,cross-calendar-to-notes,shop-bubble-tea-pay"})
	rctx, cancel := context.WithTimeout(t.Context(), 120*time.Second)
	defer cancel()
	done := make(chan int, 1)
	go func() { done <- exitStatus(rctx, root.ExecuteContext(rctx), stderr) }()
	re := regexp.MustCompile(`live page: (http://\S+)`)
	var pageURL string
	for deadline := time.Now().Add(30 * time.Second); pageURL == ""; time.Sleep(20 * time.Millisecond) {
		if m := re.FindStringSubmatch(stdout.String()); m != nil {
			pageURL = m[1]
		}
		if time.Now().After(deadline) {
			t.Fatalf("no live page address:\n%s\n%s", stdout, stderr)
		}
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(pageURL)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, 60*time.Second, "two panels with steps",
		`document.querySelectorAll("#panel-0 .step").length > 0 && document.querySelectorAll("#panel-1 .step").length > 0`)
	names := evalString(t, ctx, `[...document.querySelectorAll(".panel .name")].map(e => e.textContent).join(" | ")`)
	if n := strings.Count(names, "|"); n != 1 || !strings.Contains(names, " · ") {
		t.Errorf("panels %q: want two, one per phone, each naming its task", names)
	}
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit status %d:\n%s\n%s", code, stdout, stderr)
		}
	case <-time.After(100 * time.Second):
		t.Fatal("the evaluation did not end")
	}
}
