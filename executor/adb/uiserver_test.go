package adb

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/sim"
)

// logLines is a slog handler that keeps every record's message and level.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) Enabled(context.Context, slog.Level) bool { return true }
func (l *logLines) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	l.lines = append(l.lines, r.Level.String()+" "+r.Message)
	l.mu.Unlock()
	return nil
}
func (l *logLines) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *logLines) WithGroup(string) slog.Handler      { return l }

func (l *logLines) count(prefix string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, s := range l.lines {
		if strings.HasPrefix(s, prefix) {
			n++
		}
	}
	return n
}

// TestUIServer: on a phone with the Appium UiAutomator2 server installed, the device starts
// it once and reads dumps, screenshots and the keyboard through it (no uiautomator dump,
// no screencap, no dumpsys input_method); what it reads is the screen the classic dump
// shows. A server killed mid-run is started again and the read succeeds; one that keeps
// dying is given up for the classic path, with one warning.
func TestUIServer(t *testing.T) {
	for _, f := range faces {
		t.Run(f.name, func(t *testing.T) {
			ctx := t.Context()
			p := newPhone(t, sim.Config{UIServer: true})
			logs := &logLines{}
			d := f.open(t, p, Config{Logger: slog.New(logs)})
			classic := f.open(t, p, Config{NoUIServer: true})

			xml, err := d.Dump(ctx)
			if err != nil {
				t.Fatalf("Dump: %v", err)
			}
			if starts, running := p.UIServerStarts(); starts != 1 || !running {
				t.Fatalf("server starts = %d running %v, want 1 true", starts, running)
			}
			if !d.UIServerActive() {
				t.Fatal("UIServerActive = false after a dump through the server")
			}
			if !bytes.Contains(xml, []byte(`class="hierarchy"`)) {
				t.Fatalf("dump is not the server's page source: %.200s", xml)
			}
			want, err := classic.Dump(ctx)
			if err != nil {
				t.Fatal(err)
			}
			sameScreen(t, xml, want)
			png, err := d.Screenshot(ctx)
			if err != nil || !bytes.HasPrefix(png, pngMagic) {
				t.Fatalf("Screenshot = %d bytes, %v", len(png), err)
			}
			field := openShopSearch(t, d)
			_ = field
			if up, err := d.KeyboardShown(ctx); err != nil || !up {
				t.Fatalf("KeyboardShown = %v, %v; want true with the search field focused", up, err)
			}
			if err := d.Settle(ctx); err != nil {
				t.Fatalf("Settle: %v", err)
			}
			p.commands()
			if _, err := d.Dump(ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := d.Screenshot(ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := d.KeyboardShown(ctx); err != nil {
				t.Fatal(err)
			}
			for _, c := range p.commands() {
				if strings.Contains(c, "uiautomator") || strings.Contains(c, "screencap") || strings.Contains(c, "input_method") {
					t.Errorf("a read through the server ran %q on the phone", c)
				}
			}

			// Taps and key presses are injected by the server: no `input` process.
			if err := d.Key(ctx, "home"); err != nil {
				t.Fatal(err)
			}
			home, err := d.Dump(ctx)
			if err != nil {
				t.Fatal(err)
			}
			s, err := perception.Parse(home)
			if err != nil {
				t.Fatal(err)
			}
			var icon *perception.Element
			for i := range s.Elements {
				if s.Elements[i].Text == "Settings" {
					icon = &s.Elements[i]
				}
			}
			if icon == nil {
				t.Fatalf("no Settings icon on the home screen:\n%s", s.Text())
			}
			if err := d.Tap(ctx, icon.Center.X, icon.Center.Y); err != nil {
				t.Fatal(err)
			}
			if pkg, _ := p.Foreground(); pkg != "com.android.settings" {
				t.Errorf("after home and a tap on Settings: %s in front", pkg)
			}
			for _, c := range p.commands() {
				if strings.Contains(c, "input ") {
					t.Errorf("a tap or key through the server ran %q on the phone", c)
				}
			}

			// The server dies mid-run: the next read starts it again and succeeds.
			p.StopUIServer()
			xml, err = d.Dump(ctx)
			if err != nil {
				t.Fatalf("Dump after the server died: %v", err)
			}
			if starts, running := p.UIServerStarts(); starts != 2 || !running {
				t.Fatalf("after a death: starts = %d running %v, want 2 true", starts, running)
			}
			if _, err := perception.Parse(xml); err != nil {
				t.Fatal(err)
			}

			// It keeps dying (and cannot be restarted): the classic path, said once.
			p.StopUIServer()
			if _, _, err := d.RawShell(ctx, "pm uninstall "+UIServerTestPackage); err != nil {
				t.Fatal(err)
			}
			for range 3 {
				if _, err := d.Dump(ctx); err != nil {
					t.Fatalf("Dump on the classic path: %v", err)
				}
				if _, err := d.Screenshot(ctx); err != nil {
					t.Fatalf("Screenshot on the classic path: %v", err)
				}
			}
			if d.UIServerActive() {
				t.Error("UIServerActive after the server was given up")
			}
			if n := logs.count("WARN"); n != 1 {
				t.Errorf("%d warnings, want 1: %q", n, logs.lines)
			}
			if n := dumpsIn(p.commands()); n < 3 {
				t.Errorf("classic path ran %d uiautomator dumps, want 3", n)
			}
		})
	}
}

// TestUIServerAbsent: without the server installed the device says so once (an INFO line:
// a phone without it is a normal phone, not a warning) and reads the screen the classic way.
func TestUIServerAbsent(t *testing.T) {
	ctx := t.Context()
	p := newPhone(t, sim.Config{})
	logs := &logLines{}
	d := faces[1].open(t, p, Config{Logger: slog.New(logs)})
	for range 2 {
		if _, err := d.Dump(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if n := dumpsIn(p.commands()); n != 2 {
		t.Errorf("%d uiautomator dumps, want 2", n)
	}
	if n, i := logs.count("WARN"), logs.count("INFO"); n != 0 || i != 1 {
		t.Errorf("%d warnings and %d info lines, want 0 and 1: %q", n, i, logs.lines)
	}
	if starts, _ := p.UIServerStarts(); starts != 0 {
		t.Errorf("server started %d times on a phone without it", starts)
	}
}

// sameScreen checks that two dumps parse to the same elements.
func sameScreen(t *testing.T, a, b []byte) {
	t.Helper()
	sa, err := perception.Parse(a)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := perception.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if sa.Text() != sb.Text() {
		t.Errorf("server source and uiautomator dump differ:\n%s\n---\n%s", sa.Text(), sb.Text())
	}
}

// TestUIServerSettlesWithoutWalk: with the resident server, Settle after an action is one
// idle wait that walks no tree (appium/reset_ax_cache), so the dump and the screenshot that
// follow read the idle screen together; a second Settle with nothing done between asks
// nothing, and what the dump then shows is the changed screen.
func TestUIServerSettlesWithoutWalk(t *testing.T) {
	ctx := t.Context()
	p := newPhone(t, sim.Config{UIServer: true})
	d := faces[1].open(t, p, Config{})
	field := openShopSearch(t, d)
	if err := d.Tap(ctx, field.Center.X, field.Center.Y); err != nil {
		t.Fatal(err)
	}
	if err := d.Key(ctx, "KEYCODE_A"); err != nil {
		t.Fatal(err)
	}
	before := p.UIServerRequests()
	if err := d.Settle(ctx); err != nil {
		t.Fatalf("Settle: %v", err)
	}
	if err := d.Settle(ctx); err != nil {
		t.Fatalf("second Settle: %v", err)
	}
	settled := p.UIServerRequests()
	if n := settled["POST appium/reset_ax_cache"] - before["POST appium/reset_ax_cache"]; n != 1 {
		t.Errorf("two Settles sent %d idle waits, want 1", n)
	}
	if n := settled["GET source"] - before["GET source"]; n != 0 {
		t.Errorf("Settle read %d page sources, want none (the idle wait walks no tree)", n)
	}
	o, err := d.Observe(ctx)
	if err != nil {
		t.Fatalf("Observe: %v", err)
	}
	after := p.UIServerRequests()
	if n := after["GET source"] - settled["GET source"]; n != 1 {
		t.Errorf("Observe read %d page sources, want 1", n)
	}
	if n := after["GET screenshot"] - settled["GET screenshot"]; n != 1 {
		t.Errorf("Observe took %d screenshots through the server, want 1", n)
	}
	if !strings.Contains(string(o.XML), `text="a"`) {
		t.Errorf("the dump after Settle does not show the typed letter")
	}
}

// TestSettleShot: SettleShot takes the step's screenshot during the idle wait and the next
// Screenshot returns it without asking the phone again, on both paths — the resident
// server and uiautomator dump with screencap. When the screen changes by itself after the
// picture began (here a key pressed on the phone behind the device's back during the wait,
// on the pixel profile), the wait ends later than the picture could show,
// so the picture is dropped and the next Screenshot takes the changed screen.
func TestSettleShot(t *testing.T) {
	served := 0 // the server's screenshots and MJPEG streams counted so far
	shots := func(p *phone) int {
		streams, _ := p.MJPEGStreams()
		all := p.UIServerRequests()["GET screenshot"] + streams
		n := all - served
		served = all
		for _, c := range p.commands() {
			if strings.Contains(c, "screencap") {
				n++
			}
		}
		return n
	}
	for _, server := range []bool{true, false} {
		name := map[bool]string{true: "ui-server", false: "uiautomator"}[server]
		t.Run(name, func(t *testing.T) {
			served = 0
			ctx := t.Context()
			p := newPhone(t, sim.Config{UIServer: server})
			// The kept picture and activity stay good for Config.DumpReuse (1 s) on the
			// device's clock; the test's own checks between SettleShot and Foreground (the
			// picture compared with the phone's framebuffer: over a second under -race)
			// are not a step's time, so the clock is the test's and stands still.
			clock := &testClock{now: time.Unix(1_700_000_000, 0)}
			d := faces[1].open(t, p, Config{Now: clock.Now, NoUIServer: !server})
			field := openShopSearch(t, d)
			if err := d.Tap(ctx, field.Center.X, field.Center.Y); err != nil {
				t.Fatal(err)
			}
			shots(p)
			if err := d.SettleShot(ctx); err != nil {
				t.Fatalf("SettleShot: %v", err)
			}
			if n := shots(p); n != 1 {
				t.Errorf("SettleShot took %d screenshots, want 1", n)
			}
			b, err := d.Picture(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if n := shots(p); n != 0 {
				t.Errorf("Picture after SettleShot took %d more, want the one taken", n)
			}
			if !samePicture(t, b, p) {
				t.Errorf("the kept picture is not the screen the phone shows")
			}
			// The foreground activity was read during the wait too.
			pkg, act, err := d.Foreground(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if want, wantAct := p.Foreground(); pkg != want || act != fullActivity(want, wantAct) {
				t.Errorf("Foreground after SettleShot = %s/%s, want %s/%s", pkg, act, want, wantAct)
			}
			if n := dumpsysIn(p.commands()); n != 0 {
				t.Errorf("Foreground after SettleShot ran %d dumpsys, want the answer read during the wait", n)
			}
			if _, _, err := d.Foreground(ctx); err != nil {
				t.Fatal(err)
			}
			if n := dumpsysIn(p.commands()); n != 1 {
				t.Errorf("a second Foreground ran %d dumpsys, want 1 (the kept answer serves once)", n)
			}
		})
		t.Run(name+"/changed-by-itself", func(t *testing.T) {
			served = 0
			ctx := t.Context()
			pixel, err := sim.ParseProfile("pixel")
			if err != nil {
				t.Fatal(err)
			}
			// Key presses land at once, so the one behind the device's back lands when timed.
			pixel.Input = sim.Latency{}
			p := newPhone(t, sim.Config{UIServer: server, Profile: pixel})
			d := faces[1].open(t, p, Config{NoUIServer: !server, Sleep: sleepCtx})
			field := openShopSearch(t, d)
			if err := d.Tap(ctx, field.Center.X, field.Center.Y); err != nil {
				t.Fatal(err)
			}
			// Pressed after the picture began (the server's at 400 ms), during the idle wait
			// (800 ms on the server, 1.3 s for the dumper, from the tap).
			after := map[bool]time.Duration{true: 500 * time.Millisecond, false: 1000 * time.Millisecond}[server]
			done := make(chan error, 1)
			time.AfterFunc(after, func() {
				_, err := p.Phone.Shell(context.Background(), "input keyevent KEYCODE_B", io.Discard)
				done <- err
			})
			shots(p)
			// The wait may outlast its bound, a screen that changed that late is not settled.
			settleErr := d.SettleShot(ctx)
			if settleErr != nil && !errors.Is(settleErr, errNotSettled) {
				t.Fatalf("SettleShot: %v", settleErr)
			}
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			shots(p)
			b, err := d.Picture(ctx)
			if err != nil {
				t.Fatal(err)
			}
			// The dumper's picture began at a fixed time, before the change: taken again. The
			// server's stream was held through the wait, and its frame is one captured after
			// the screen's last change: kept.
			// A wait that did not settle keeps no picture at all.
			want := map[bool]int{true: 0, false: 1}[server]
			if settleErr != nil {
				want = 1
			}
			if n := shots(p); n != want {
				t.Errorf("Picture after a screen that changed during the wait took %d screenshots, want %d (SettleShot: %v)", n, want, settleErr)
			}
			if !samePicture(t, b, p) {
				t.Errorf("the screenshot is not the changed screen")
			}
			p.commands()
			if _, _, err := d.Foreground(ctx); err != nil {
				t.Fatal(err)
			}
			if n := dumpsysIn(p.commands()); n != 1 {
				t.Errorf("Foreground after a screen that changed during the wait ran %d dumpsys, want a new one", n)
			}
		})
	}
}

// dumpsysIn counts the foreground reads (dumpsys activity) in cmds.
func dumpsysIn(cmds []string) int {
	n := 0
	for _, c := range cmds {
		if strings.Contains(c, "dumpsys activity") {
			n++
		}
	}
	return n
}

// samePicture reports whether the PNG b shows what the phone's framebuffer holds (a JPEG
// picture: see jpegShows).
func samePicture(t *testing.T, b []byte, p *phone) bool {
	t.Helper()
	want, err := p.Framebuffer()
	if err != nil {
		t.Fatal(err)
	}
	if bytes.HasPrefix(b, []byte{0xff, 0xd8}) {
		return jpegShows(t, b, want)
	}
	got, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if got.Bounds() != want.Bounds() {
		return false
	}
	for y := 0; y < want.Rect.Dy(); y += 5 {
		for x := 0; x < want.Rect.Dx(); x += 5 {
			r1, g1, b1, _ := got.At(x, y).RGBA()
			r2, g2, b2, _ := want.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 {
				return false
			}
		}
	}
	return true
}
