package learner

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"testing"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/knowledge"

	xdraw "golang.org/x/image/draw"
)

// screenshot is a phone-sized set-of-mark picture (576×1280, what the marker sends the
// model) with rows of text-like marks, so that it compresses like a real screen.
func screenshot(t *testing.T, shade uint8) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 576, 1280))
	for y := 0; y < 1280; y++ {
		for x := 0; x < 576; x++ {
			c := color.RGBA{250, 250, shade, 255}
			if y < 120 {
				c = color.RGBA{30, 90, shade, 255}
			} else if (y/80)%2 == 0 && y%80 > 30 && y%80 < 50 && x > 40 && x < 400 && (x/7+y/5)%3 != 0 {
				c = color.RGBA{20, 20, 20, 255}
			}
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestSessionFilesPagePictures: the first time a page is perceived its set-of-mark
// screenshot is filed as a small JPEG thumbnail (≤ 15 KiB, 216 pixels wide or more); a later
// session leaves a fresh picture alone and takes a stale one again; a secure screen or
// an image that does not decode files no picture and still records the page.
func TestSessionFilesPagePictures(t *testing.T) {
	now := epoch
	st, err := knowledge.Open(t.TempDir()+"/k.db", knowledge.Options{Clock: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	l, err := New(Config{Store: st, Clock: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	perceive := func(bus *event.Bus, step int, sc screen, shot []byte, secure bool) {
		bus.Publish(event.StepStarted{Step: step, App: sc.pkg})
		bus.Publish(event.ScreenPerceived{Step: step, Package: sc.pkg, Activity: sc.activity, Signature: sc.sig, Text: sc.text,
			Marked: shot, MarkedMIME: "image/png", Secure: secure})
	}
	session := func() *event.Bus {
		bus := event.NewBus(clock)
		t.Cleanup(l.Start("r", "look around").Attach(bus))
		bus.Publish(event.AppTaskStarted{Instruction: "look around", Task: event.AppTask{App: settingsApp, Task: "look around"}})
		return bus
	}
	secret := screen{settingsApp, ".Pay", "s-pay", `- "Pay"`}
	broken := screen{settingsApp, ".Broken", "s-broken", `- "Broken"`}

	bus := session()
	perceive(bus, 1, mainPage, screenshot(t, 200), false)
	bus.Publish(event.ActionExecuted{Step: 1, Action: event.Action{Type: event.Tap, Index: 1}, Signature: "s-main",
		Element: &event.ElementRef{Label: "Display", ResourceID: settingsApp + ":id/display"}})
	perceive(bus, 2, displayPage, screenshot(t, 100), false)
	perceive(bus, 3, secret, nil, true)
	perceive(bus, 4, broken, []byte("\x89PNG not really"), false)

	thumbs, err := st.Thumbs(settingsApp)
	if err != nil {
		t.Fatal(err)
	}
	m, err := st.Map(settingsApp)
	if err != nil || len(m.Pages) != 4 {
		t.Fatalf("map: %d pages, %v; want all 4 recorded", len(m.Pages), err)
	}
	for _, sc := range []screen{mainPage, displayPage} {
		key := knowledge.PageKey(sc.activity, sc.sig)
		th, ok := thumbs[key]
		if !ok {
			t.Fatalf("%s has no picture", key)
		}
		if len(th.JPEG) > 15<<10 || !th.Taken.Equal(epoch) {
			t.Errorf("%s: %d bytes taken %v; want ≤ 15 KiB taken now", key, len(th.JPEG), th.Taken)
		}
		img, err := jpeg.Decode(bytes.NewReader(th.JPEG))
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		// Wide enough to read on the map view zoomed in twice (it draws them 108 wide).
		if b := img.Bounds(); b.Dx() < 216 || b.Dy() != b.Dx()*2400/1080 {
			t.Errorf("%s: picture %v, want at least 216 wide, as tall as the screen's shape", key, b)
		}
		t.Logf("%s: %d bytes", key, len(th.JPEG))
	}
	if len(thumbs) != 2 {
		t.Errorf("%d pictures, want 2 (none for the secure screen, none for the broken image)", len(thumbs))
	}

	// A day later the pictures are fresh: a new session keeps them.
	now = epoch.Add(24 * time.Hour)
	bus = session()
	perceive(bus, 1, mainPage, screenshot(t, 10), false)
	if th, _, _ := st.Thumb(settingsApp, knowledge.PageKey(mainPage.activity, mainPage.sig)); !th.Taken.Equal(epoch) {
		t.Errorf("a fresh picture was taken again at %v", th.Taken)
	}
	// Past ThumbMaxAge a picture is taken again.
	now = epoch.Add(knowledge.ThumbMaxAge + time.Hour)
	bus = session()
	perceive(bus, 1, mainPage, screenshot(t, 10), false)
	perceive(bus, 2, mainPage, screenshot(t, 10), false)
	if th, _, _ := st.Thumb(settingsApp, knowledge.PageKey(mainPage.activity, mainPage.sig)); !th.Taken.Equal(now) {
		t.Errorf("a stale picture was kept (taken %v)", th.Taken)
	}
}

// BenchmarkPerceivedPicture is the learner's work at a step that perceives a page it has
// not seen: the page's record with its picture made from a 576×1280 set-of-mark JPEG
// (a task's step), from a 1080×2400 PNG (the explorer's whole screenshot), and without a
// picture (a text-only run), in a real knowledge file (the figures include bbolt's
// synced commit).
func BenchmarkPerceivedPicture(b *testing.B) {
	img, err := png.Decode(bytes.NewReader(screenshot(&testing.T{}, 120)))
	if err != nil {
		b.Fatal(err)
	}
	var shot bytes.Buffer
	if err := jpeg.Encode(&shot, img, &jpeg.Options{Quality: 80}); err != nil {
		b.Fatal(err)
	}
	// A whole phone screenshot, as the model-free explorer files it: 1080×2400 PNG.
	big := image.NewRGBA(image.Rect(0, 0, 1080, 2400))
	xdraw.NearestNeighbor.Scale(big, big.Rect, img, img.Bounds(), xdraw.Src, nil)
	var full bytes.Buffer
	if err := png.Encode(&full, big); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		shot []byte
	}{{"picture", shot.Bytes()}, {"picture-png-1080x2400", full.Bytes()}, {"no-picture", nil}} {
		b.Run(c.name, func(b *testing.B) {
			st, err := knowledge.Open(b.TempDir()+"/k.db", knowledge.Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			l, err := New(Config{Store: st})
			if err != nil {
				b.Fatal(err)
			}
			bus := event.NewBus(nil)
			defer l.Start("r", "x").Attach(bus)()
			bus.Publish(event.AppTaskStarted{Instruction: "x", Task: event.AppTask{App: settingsApp, Task: "x"}})
			i := 0
			for b.Loop() {
				i++
				bus.Publish(event.ScreenPerceived{Step: i, Package: settingsApp, Activity: ".Page", Signature: fmt.Sprintf("s%d", i),
					Text: fmt.Sprintf("- \"Page %d\"", i), Marked: c.shot, MarkedMIME: "image/jpeg"})
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/page")
		})
	}
}
