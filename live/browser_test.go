package live

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/fairy-go/fairy/internal/chromiumtest"
)

// TestBrowserRefusesOthers: in headless Chromium, a page on another origin that knows the
// token still cannot stop the run, answer, or read the event stream; and the page's
// address without its token shows no page.
func TestBrowserRefusesOthers(t *testing.T) {
	bin := chromiumtest.Binary(t)
	var stops atomic.Int32
	s := listen(t, Config{Title: "fairy run", Stop: func() { stops.Add(1) }})
	s.Panel("sim")
	u, _ := url.Parse(s.URL())
	base, token := "http://"+u.Host, u.Query().Get("t")

	// The other origin: a page that tries everything with the token.
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!DOCTYPE html><body><script>
var base = %q, t = %q, out = [];
window.results = out;
fetch(base + "/stop?t=" + t, {method: "POST"}).then(r => out.push("stop " + r.status), e => out.push("stop blocked"));
fetch(base + "/stop?t=" + t, {method: "POST", mode: "no-cors"}).then(r => out.push("stop-no-cors sent"), e => out.push("stop-no-cors blocked"));
fetch(base + "/answer?t=" + t, {method: "POST", mode: "no-cors", body: '{"panel":0,"question":1,"answer":"yes"}'}).then(r => out.push("answer sent"), e => out.push("answer blocked"));
var es = new EventSource(base + "/events?t=" + t);
es.onmessage = function (e) { out.push("event read"); };
es.onerror = function () { out.push("events refused"); es.close(); };
</script></body>`, base, token)
	}))
	defer evil.Close()

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin), chromedp.NoSandbox,
		chromedp.Flag("disable-gpu", true), chromedp.UserDataDir(t.TempDir()))
	actx, cancelA := chromedp.NewExecAllocator(t.Context(), opts...)
	defer cancelA()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(evil.URL)); err != nil {
		t.Fatal(err)
	}
	var results string
	deadline := time.Now().Add(20 * time.Second)
	for {
		r, err := chromedp.Run(ctx, chromedp.Evaluate[string](`window.results.slice().sort().join(", ")`))
		if err != nil {
			t.Fatal(err)
		}
		results = r
		if strings.Count(r, ",") >= 3 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)
	if n := stops.Load(); n != 0 {
		t.Errorf("a page on another origin stopped the run %d times (%s)", n, results)
	}
	if strings.Contains(results, "event read") || !strings.Contains(results, "events refused") {
		t.Errorf("a page on another origin read the event stream: %s", results)
	}

	// The address without its token.
	ctx2, cancel2 := context.WithTimeout(ctx, 20*time.Second)
	defer cancel2()
	if err := chromedp.Do(ctx2, chromedp.Navigate(base+"/")); err != nil {
		t.Fatal(err)
	}
	body, err := chromedp.Run(ctx2, chromedp.Evaluate[string](`document.body.innerText`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(body, "no token") || strings.Contains(body, "Instruction") {
		t.Errorf("the address without its token shows: %q", body)
	}
}
