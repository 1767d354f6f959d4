package mcp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/executor/adb"
	"github.com/fairy-go/fairy/executor/ocr/ocrtest"
	"github.com/fairy-go/fairy/guard"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/wire"
)

// refuser is a person who refuses every consent question, and remembers them.
type refuser struct{ asked []string }

func (r *refuser) consent(_ context.Context, msg string) (bool, string) {
	r.asked = append(r.asked, msg)
	return false, "the person declined"
}

// pixelPhone is the virtual phone reached through its adb host face and the device layer,
// with the Tesseract pixel reader (tesseract missing: skipped, and failed under CI).
func pixelPhone(t *testing.T) (*sim.Phone, *adb.Device, *perception.PixelReader) {
	t.Helper()
	tess := ocrtest.Start(t)
	reader, err := perception.NewPixelReader(tess)
	if err != nil {
		t.Fatal(err)
	}
	phone, err := sim.New(sim.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	hs, err := wire.NewHostServer(wire.HostConfig{Devices: []wire.Device{phone}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ctx) }()
	t.Cleanup(func() { cancel(); hs.Close(); <-served })
	host, port, _ := net.SplitHostPort(hs.Addr().String())
	n, _ := strconv.Atoi(port)
	dev, err := adb.Open(t.Context(), adb.Config{Host: host, Port: n, SettleInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dev.Close(context.Background()) })
	return phone, dev, reader
}

// TestGuardHoldsWhatIsDrawn: TeaHouse's checkout is one childless WebView, in the phone's
// language. In English, Chinese, Spanish, German, French and Portuguese, its drawn Pay,
// Remove and Send-receipt controls — which the tree does not show — are held for consent
// by every way of reaching them: act by the number of the text read there, act by x,y on
// the text and on the button around it, the agent's Tap on the read element and the
// `input tap X Y` its technician shell would run (judged as the agent's step judges
// them). Refused, nothing happens on the phone.
func TestGuardHoldsWhatIsDrawn(t *testing.T) {
	phone, dev, reader := pixelPhone(t)
	g, err := guard.New(guard.DefaultPolicy())
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{cfg: Config{Guard: g, Pixels: reader}, log: slog.New(slog.DiscardHandler)}
	ctx := t.Context()
	shell := func(line string) {
		var b bytes.Buffer
		if _, err := phone.Shell(ctx, line, &b); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	words := map[string]struct{ pay, remove, send string }{}
	recs, err := phone.Records("com.fairy.teahouse:words")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		words[r["id"]] = struct{ pay, remove, send string }{r["pay"], r["remove"], r["send"]}
	}
	for _, loc := range []string{"en-US", "zh-CN", "es-ES", "de-DE", "fr-FR", "pt-BR"} {
		w := words[loc]
		t.Run(loc, func(t *testing.T) {
			shell("settings put system system_locales " + loc)
			shell("am force-stop com.fairy.teahouse")
			shell("am start -n com.fairy.teahouse/.WebActivity")
			before := map[string]int{}
			count := func(c string) int {
				r, err := phone.Records("com.fairy.teahouse:" + c)
				if err != nil {
					t.Fatal(err)
				}
				return len(r)
			}
			for _, c := range []string{"orders", "removed", "receipts"} {
				before[c] = count(c)
			}
			check := func(word, category, page string) {
				t.Helper()
				scr, err := s.readScreen(ctx, dev)
				if err != nil {
					t.Fatal(err)
				}
				var el *perception.Element
				for i := range scr.Elements {
					if e := &scr.Elements[i]; e.FromPicture && strings.HasPrefix(e.Label, word) {
						el = e
					}
				}
				if el == nil {
					t.Fatalf("%s: %q was not read from the picture:\n%s", page, word, scr.Text())
				}
				b := el.Bounds
				ways := []struct {
					name string
					in   actInput
				}{
					{"act by element", actInput{Action: "tap", Element: el.Index}},
					{"act by x,y on the text", actInput{Action: "tap", X: intp(el.Center.X), Y: intp(el.Center.Y)}},
					{"act by x,y beside the text", actInput{Action: "tap", X: intp(b.X1 - 20), Y: intp(b.Y2 + b.Dy()/3)}},
				}
				for _, way := range ways {
					p := &refuser{}
					_, err := s.act(ctx, dev, p, way.in)
					if !errors.Is(err, errRefused) || len(p.asked) != 1 || !strings.Contains(p.asked[0], category) {
						t.Errorf("%s: %s on %q: err %v, asked %q; want held as %s", page, way.name, el.Label, err, p.asked, category)
					}
				}
				// What the agent's step judges when its decider taps the read element.
				if v, held := g.Check(event.Action{Type: event.Tap, Index: el.Index}, el, scr); !held || v.Category != category {
					t.Errorf("%s: the agent's Tap on %q: held %v as %q, want %s", page, el.Label, held, v.Category, category)
				}
				cmd := fmt.Sprintf("input tap %d %d", el.Center.X, el.Center.Y)
				if v, held := g.Check(event.Action{Type: event.Shell, Command: cmd}, nil, scr); !held || v.Category != category {
					t.Errorf("%s: %s on %q: held %v as %q, want %s", page, cmd, el.Label, held, v.Category, category)
				}
			}
			check(w.pay, "payment", "order")
			check(w.remove, "delete", "order")
			for _, c := range []string{"orders", "removed"} {
				if count(c) != before[c] {
					t.Fatalf("refused, yet %s changed", c)
				}
			}
			// Pay on the phone itself, to reach the receipt page.
			for _, d := range phone.DrawnTexts() {
				if strings.HasPrefix(d.Text, w.pay) {
					shell(fmt.Sprintf("input tap %d %d", (d.Bounds.Min.X+d.Bounds.Max.X)/2, (d.Bounds.Min.Y+d.Bounds.Max.Y)/2))
				}
			}
			check(w.send, "send", "receipt")
			if phone.Var("com.fairy.teahouse", "paid") != "true" {
				t.Fatal("paying on the phone itself did not pay: the receipt page was not reached")
			}
			if count("receipts") != before["receipts"] {
				t.Fatal("refused, yet a receipt was sent")
			}
		})
	}
}
