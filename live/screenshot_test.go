package live

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/internal/chromiumtest"
	"github.com/fairy-go/fairy/sim"
)

var docs = flag.Bool("docs", false, "write docs/live-page.png, docs/watch.md's picture of the live page")

// phoneScreen is the virtual phone's screen after the shell commands cmds.
func phoneScreen(t *testing.T, cmds ...string) []byte {
	t.Helper()
	p, err := sim.New(sim.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cmds {
		var b strings.Builder
		if st, err := p.Shell(t.Context(), c, &b); err != nil || st != 0 {
			t.Fatalf("%s: %v %d %s", c, err, st, b.String())
		}
	}
	png, err := p.Screenshot()
	if err != nil {
		t.Fatal(err)
	}
	return png
}

// TestPageScreenshot writes docs/watch.md's picture of the live page (go test ./live -run
// TestPageScreenshot -docs): two phones' panels in headless Chromium, their screens the
// virtual phone's — the shop in Chinese waiting for a consent, TeaHouse in Arabic with the
// instruction and the question in Arabic and Hebrew — so the picture shows the page with
// CJK and right-to-left text. Without -docs it still renders the page and checks that the
// right-to-left lines are laid out right to left.
func TestPageScreenshot(t *testing.T) {
	bin := chromiumtest.Binary(t)
	s := listen(t, Config{Title: "fairy eval builtin:sim", Stop: func() {}})

	shop := s.Panel("emulator-5554 · shop-bubble-tea-pay")
	rec := func(p *Panel, seq int64, e event.Event) {
		p.Handle(event.Record{Seq: seq, Time: time.Date(2026, 11, 29, 9, 30, 0, 0, time.UTC), Event: e})
	}
	rec(shop, 1, event.RunStarted{Instruction: "帮我点一杯珍珠奶茶，然后付款"})
	rec(shop, 2, event.GlobalPlanned{Tasks: []event.AppTask{{App: "com.fairy.shop", Task: "帮我点一杯珍珠奶茶，然后付款"}}})
	shots := [][]byte{
		phoneScreen(t, "monkey -p com.fairy.shop -c android.intent.category.LAUNCHER 1"),
	}
	plan := []string{"打开珍珠奶茶", "加入购物车", "去结算", "提交订单", "支付"}
	steps := []struct {
		sub, tap, label string
	}{{"打开珍珠奶茶", "Tap", "珍珠奶茶 Bubble tea ¥15"}, {"加入购物车", "Tap", "加入购物车"}, {"去结算", "Tap", "去结算"}}
	seq := int64(3)
	for i, st := range steps {
		rec(shop, seq, event.StepStarted{Step: i + 1, App: "com.fairy.shop"})
		rec(shop, seq+1, event.ScreenPerceived{Step: i + 1, Package: "com.fairy.shop", Activity: "com.fairy.shop.MainActivity", Signature: "1ad943daa2466770", Elements: 13, Picture: shots[0], PictureMIME: "image/png"})
		rec(shop, seq+2, event.Planned{Step: i + 1, Plan: plan, Subgoal: st.sub})
		rec(shop, seq+3, event.ModelCalled{Role: "decider", Step: i + 1, PromptTokens: 1010, CompletionTokens: 33, Cost: 0.0012})
		rec(shop, seq+4, event.ActionsDecided{Step: i + 1, Thought: st.sub, Actions: []event.Action{{Type: event.Tap, Index: 4}}})
		rec(shop, seq+5, event.ActionExecuted{Step: i + 1, Action: event.Action{Type: event.Tap, Index: 4}, Element: &event.ElementRef{Label: st.label}})
		seq += 6
	}
	rec(shop, seq, event.ActionGuarded{Step: 4, Action: event.Action{Type: event.Tap, Index: 9}, Category: "order", Target: "提交订单", Specifics: event.Specifics{Items: []string{"珍珠奶茶 ×1"}, Amount: "¥15", Payee: "com.fairy.shop"}})

	tea := s.Panel("emulator-5556 · webview-pay (ar-SA)")
	teaShot := phoneScreen(t, "settings put system system_locales ar-SA", "monkey -p com.fairy.teahouse -c android.intent.category.LAUNCHER 1")
	rec(tea, 1, event.RunStarted{Instruction: "ادفع ثمن طلبي في TeaHouse"})
	rec(tea, 2, event.StepStarted{Step: 1, App: "com.fairy.teahouse"})
	rec(tea, 3, event.ScreenPerceived{Step: 1, Package: "com.fairy.teahouse", Activity: "com.fairy.teahouse.WebActivity", Signature: "7c1f0e22a9b3d410", Elements: 6, Picture: teaShot, PictureMIME: "image/png"})
	rec(tea, 4, event.Planned{Step: 1, Plan: []string{"ادفع ٣٦ ¥"}, Subgoal: "ادفع ٣٦ ¥"})
	rec(tea, 5, event.ModelCalled{Role: "decider", Step: 1, PromptTokens: 1220, CompletionTokens: 41, Cost: 0.0015})
	rec(tea, 6, event.ActionGuarded{Step: 1, Action: event.Action{Type: event.Tap, Index: 5}, Category: "payment", Target: "ادفع ¥36", Specifics: event.Specifics{Amount: "¥36", Payee: "TeaPay"}})

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go shop.Ask(ctx, interaction.Question{Type: 2, Kind: interaction.YesNo, Text: `tap "提交订单" (order) — items: 珍珠奶茶 ×1; amount: ¥15; payee: com.fairy.shop`,
		Covers: `tap "提交订单" (order)`})
	go tea.Ask(ctx, interaction.Question{Type: 1, Kind: interaction.YesNo, Text: "هل أدفع ¥36 إلى TeaPay؟ (לשלם ¥36 ל-TeaPay?)"})

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin), chromedp.NoSandbox,
		chromedp.Flag("disable-gpu", true), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1560, 1000))
	actx, cancelA := chromedp.NewExecAllocator(t.Context(), opts...)
	defer cancelA()
	bctx, cancelB := chromedp.NewContext(actx)
	defer cancelB()
	if err := chromedp.Do(bctx, chromedp.Navigate(s.URL())); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		ok, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`document.querySelectorAll(".question").length === 2 &&
			[...document.querySelectorAll(".screen img")].every(i => i.complete && i.naturalWidth > 0)`))
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the page never showed both panels with their questions")
		}
		time.Sleep(50 * time.Millisecond)
	}
	// Right-to-left text runs right to left: its line starts at the right edge.
	rtl, err := chromedp.Run(bctx, chromedp.Evaluate[string](`getComputedStyle(document.querySelector("#panel-1 .instruction")).direction + " " +
		getComputedStyle(document.querySelector("#panel-1 .question p")).direction + " " + getComputedStyle(document.querySelector("#panel-0 .instruction")).direction`))
	if err != nil {
		t.Fatal(err)
	}
	if rtl != "rtl rtl ltr" {
		t.Errorf("directions of the Arabic instruction, the Arabic question and the Chinese instruction: %q, want rtl rtl ltr", rtl)
	}
	if !*docs {
		return
	}
	png, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join("..", "docs", "live-page.png")
	if strings.HasPrefix(string(png), "\xff\xd8") {
		t.Fatal("FullScreenshot gave a JPEG; want PNG")
	}
	if err := os.WriteFile(out, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s (%d bytes)", out, len(png))
}
