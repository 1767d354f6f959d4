package main

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/sim"
)

// The secrets of eval/testdata/handover's Harbor Bank.
const (
	harborPassword = "Quay-Lantern-7£"
	harborCode     = "731905"
)

// simElement is the element with resource id id on p's screen now (screen pixels).
func simElement(t *testing.T, p *sim.Phone, id string) perception.Element {
	t.Helper()
	s, err := perception.Parse(p.Dump())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range s.Elements {
		if strings.HasSuffix(e.ResourceID, ":id/"+id) || e.ResourceID == id {
			return e
		}
	}
	t.Fatalf("no element %s on the screen:\n%s", id, s.Text())
	return perception.Element{}
}

// postTurn posts a hand-over request of the page (the page's own token and origin).
func postTurn(t *testing.T, pageURL, path, body string) int {
	t.Helper()
	u, _ := url.Parse(pageURL)
	req, _ := http.NewRequestWithContext(t.Context(), "POST", "http://"+u.Host+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+u.Query().Get("t"))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// getStream asks for panel 0's live stream and returns the status.
func getStream(t *testing.T, pageURL string) int {
	t.Helper()
	u, _ := url.Parse(pageURL)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+u.Host+"/stream?panel=0&t="+u.Query().Get("t"), nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestWatchPageHandOver (issue 40): a run on the virtual phone reaches Harbor Bank's sign-in and
// hands the phone over; headless Chromium shows "your turn" with the phone's screen as it is now;
// the person types the password on the phone itself, then taps "Sign in" on the live picture — the
// tap reaches the phone, which shows the code page — types the code on the phone, and gives the
// phone back with the page's button: the run resumes and reads the balance. The phone has the
// resident UI server's live stream, which the page does not show (nor serve) while the phone is
// handed over. The terminal's prompt was raced and withdrawn; a tap once the phone is the agent's
// again is refused; no secret is in the run directory.
func TestWatchPageHandOver(t *testing.T) {
	bctx := browser(t)
	dir := t.TempDir()
	out, errb := &lockedBuffer{}, &lockedBuffer{}
	wt, ctx, err := startWatch(t.Context(), watchFlags{on: true}, "fairy run: Harbor Bank", "", out, errb, nil)
	if err != nil {
		t.Fatal(err)
	}
	pageURL := wt.srv.URL()
	phones := make(chan *sim.Phone, 1)
	stdin, stdinW := io.Pipe() // the terminal's person never types
	defer stdinW.Close()
	type result struct {
		res simTryResult
		err error
	}
	done := make(chan result, 1)
	runs := filepath.Join(dir, "runs")
	go func() {
		res, err := runSimTry(ctx, simTryOptions{Config: runConfig{RunsDir: runs, Knowledge: filepath.Join(dir, "k.db")},
			Instruction: "What is the balance of my Harbor Bank everyday checking account?", Stdin: stdin, Out: out, Err: errb,
			Watch: wt, Suite: filepath.Join("..", "..", "eval", "testdata", "handover", "suite.yaml"), UIServer: true,
			Started: func(p *sim.Phone) { phones <- p }})
		done <- result{res, err}
	}()
	defer func() { wt.close(ctx, nil) }()
	var p *sim.Phone
	select {
	case p = <-phones:
	case r := <-done:
		t.Fatalf("the run ended before its phone was up: %v\n%s", r.err, out)
	case <-time.After(60 * time.Second):
		t.Fatal("no virtual phone")
	}
	if err := chromedp.Do(bctx, chromedp.Navigate(pageURL)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, bctx, 60*time.Second, "your turn", `!!document.querySelector("#panel-0")?.dataset.turn && document.querySelector("#panel-0 .turn")?.textContent.includes("Your turn: the screen needs a password")`)
	waitJS(t, bctx, 30*time.Second, "the live screen of the handed-over phone", `(document.querySelector("#screen-0").dataset.key || "").includes("-look-") && document.querySelector("#screen-0").complete && document.querySelector("#screen-0").naturalWidth > 0`)
	look := evalString(t, bctx, `document.querySelector("#screen-0").dataset.key`)
	// The phone has a live stream, but not while it is handed over: its frames are not masked.
	if st := evalString(t, bctx, `document.querySelector("#screen-0").dataset.stream`); st != "" {
		t.Errorf("the page shows the live stream of a handed-over phone")
	}
	if code := getStream(t, pageURL); code != http.StatusConflict {
		t.Errorf("the live stream during a hand-over: status %d, want 409", code)
	}

	// The person types the password on the phone itself…
	if !p.TouchID("password") {
		t.Fatal("no password field on the phone")
	}
	if err := p.TypeKeys(harborPassword); err != nil {
		t.Fatal(err)
	}
	// …and taps Sign in on the live picture.
	signIn := simElement(t, p, "sign_in")
	w, h := p.Size()
	fx, fy := float64(signIn.Center.X)/float64(w), float64(signIn.Center.Y)/float64(h)
	type box struct{ X, Y, W, H float64 }
	rect, err := chromedp.Run(bctx, chromedp.Evaluate[box](`(() => { const r = document.querySelector("#screen-0").getBoundingClientRect(); return {X: r.left, Y: r.top, W: r.width, H: r.height}; })()`))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(bctx, chromedp.MouseClickXY(rect.X+fx*rect.W, rect.Y+fy*rect.H)); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(15 * time.Second); !p.Shows("otp_code"); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			_, act := p.Foreground()
			t.Fatalf("the tap on the live picture did not reach the phone's Sign in (the phone shows %s; page said %s)", act,
				evalString(t, bctx, `document.querySelector("#panel-0 .turn").textContent`))
		}
	}
	waitJS(t, bctx, 15*time.Second, "the live screen after the tap", `document.querySelector("#screen-0").dataset.key !== `+jsString(look))

	// The code, on the phone itself; then the phone is given back on the page.
	if !p.TouchID("otp_code") {
		t.Fatal("no code field")
	}
	if err := p.TypeKeys(harborCode); err != nil {
		t.Fatal(err)
	}
	if !p.TouchID("verify") {
		t.Fatal("no Verify button")
	}
	if err := chromedp.Do(bctx, chromedp.Click(chromedp.CSS("#panel-0 .turn button.giveback"))); err != nil {
		t.Fatal(err)
	}
	waitJS(t, bctx, 60*time.Second, "the outcome done", `document.querySelector("#panel-0")?.dataset.outcome === "done"`)
	var r result
	select {
	case r = <-done:
	case <-time.After(60 * time.Second):
		t.Fatalf("the run did not end:\n%s", out)
	}
	if r.err != nil || r.res.Summary.Outcome != "done" || !strings.Contains(r.res.Summary.Answer, "1,284.50") {
		t.Fatalf("run: %v, outcome %q, answer %q\n%s", r.err, r.res.Summary.Outcome, r.res.Summary.Answer, out)
	}
	if !strings.Contains(out.String(), "(given back on the live page)") {
		t.Errorf("the terminal does not say the phone was given back on the page:\n%s", out)
	}
	if evalString(t, bctx, `document.querySelector("#panel-0").dataset.turn || ""`) != "" {
		t.Errorf("the page still says it is the person's turn")
	}
	if code := postTurn(t, pageURL, "/tap", `{"panel":0,"turn":1,"x":0.5,"y":0.5}`); code != http.StatusConflict {
		t.Errorf("a tap once the phone is the agent's again: status %d, want 409", code)
	}
	err = filepath.WalkDir(runs, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, s := range []string{harborPassword, harborCode} {
			if bytes.Contains(b, []byte(s)) {
				t.Errorf("%s holds the secret %q", path, s)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestWatchPageStream (issue 40): on a virtual phone with the resident UI server the live
// page shows the phone's screen from the server's MJPEG stream while the run waits for a
// consent (a screen with no secret): headless Chromium's picture is the stream, frames
// flow to it; a step screenshot is still kept for each step.
func TestWatchPageStream(t *testing.T) {
	bctx := browser(t)
	dir := t.TempDir()
	out, errb := &lockedBuffer{}, &lockedBuffer{}
	wt, ctx, err := startWatch(t.Context(), watchFlags{on: true}, "fairy run", "", out, errb, nil)
	if err != nil {
		t.Fatal(err)
	}
	pageURL := wt.srv.URL()
	phones := make(chan *sim.Phone, 1)
	stdin, stdinW := io.Pipe()
	defer stdinW.Close()
	done := make(chan error, 1)
	go func() {
		_, err := runSimTry(ctx, simTryOptions{Config: runConfig{RunsDir: filepath.Join(dir, "runs"), Knowledge: filepath.Join(dir, "k.db")},
			Instruction: "帮我点一杯珍珠奶茶，然后付款", Stdin: stdin, Out: out, Err: errb, Watch: wt, UIServer: true,
			Started: func(p *sim.Phone) { phones <- p }})
		done <- err
	}()
	defer func() { wt.close(ctx, nil) }()
	var p *sim.Phone
	select {
	case p = <-phones:
	case err := <-done:
		t.Fatalf("the run ended before its phone was up: %v\n%s", err, out)
	}
	if err := chromedp.Do(bctx, chromedp.Navigate(pageURL)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, bctx, 60*time.Second, "the consent question", `!!document.querySelector("#panel-0 .question button.yes")`)
	waitJS(t, bctx, 20*time.Second, "the live stream shown", `document.querySelector("#screen-0")?.dataset.stream === "1" && document.querySelector("#screen-0").naturalWidth > 0`)
	_, before := p.MJPEGStreams()
	time.Sleep(1500 * time.Millisecond)
	clients, after := p.MJPEGStreams()
	if after-before < 3 {
		t.Errorf("%d frames in 1.5 s while the page shows the stream (%d clients so far), want a flow", after-before, clients)
	}
	if !strings.HasPrefix(evalString(t, bctx, `document.querySelector("#screen-0").src`), strings.SplitN(pageURL, "/?", 2)[0]+"/stream?") {
		t.Errorf("the picture's source is not the stream")
	}
	if err := chromedp.Do(bctx, chromedp.Click(chromedp.CSS("#panel-0 .question button.yes"))); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(90 * time.Second)
	for {
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("run: %v\n%s", err, out)
			}
			return
		case <-time.After(500 * time.Millisecond):
			// Further consents, answered as the first.
			if ok, _ := chromedp.Run(bctx, chromedp.Evaluate[bool](`!!document.querySelector("#panel-0 .question button.yes")`)); ok {
				chromedp.Do(bctx, chromedp.Click(chromedp.CSS("#panel-0 .question button.yes")))
			}
		case <-deadline:
			t.Fatalf("the run did not end:\n%s", out)
		}
	}
}
