package adb

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fairy-go/fairy/sim"
)

// dumpsIn counts the uiautomator dumps among command lines.
func dumpsIn(cmds []string) int {
	n := 0
	for _, c := range cmds {
		n += strings.Count(c, "uiautomator dump")
	}
	return n
}

// testClock is a clock the test moves.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// TestSettledDumpReused: the dump that ended a Settle serves the next Dump — once, while
// nothing that may change the screen ran and within Config.DumpReuse — and is what a new
// dump would have shown; an action, the window passing or DumpReuse < 0 make Dump dump.
func TestSettledDumpReused(t *testing.T) {
	for _, f := range faces {
		t.Run(f.name, func(t *testing.T) {
			ctx := t.Context()
			p := newPhone(t, sim.Config{})
			clock := &testClock{now: time.Unix(1_700_000_000, 0)}
			d := f.open(t, p, Config{Now: clock.Now})
			field := openShopSearch(t, d)

			settle := func() {
				t.Helper()
				if err := d.Settle(ctx); err != nil {
					t.Fatalf("Settle: %v", err)
				}
				p.commands()
			}
			dump := func() ([]byte, int) {
				t.Helper()
				xml, err := d.Dump(ctx)
				if err != nil {
					t.Fatalf("Dump: %v", err)
				}
				return xml, dumpsIn(p.commands())
			}

			settle()
			reused, n := dump()
			if n != 0 {
				t.Errorf("Dump right after Settle ran %d dumps, want the settled one reused", n)
			}
			fresh, n := dump()
			if n != 1 {
				t.Errorf("a second Dump ran %d dumps, want 1 (a settled dump serves once)", n)
			}
			if !bytes.Equal(reused, fresh) {
				t.Errorf("the reused dump differs from a new one of the same screen")
			}

			settle()
			if err := d.TypeText(ctx, "tea"); err != nil {
				t.Fatal(err)
			}
			p.commands()
			// TypeText read the field back from a dump after it typed: that dump serves.
			xml, n := dump()
			if n != 0 || !strings.Contains(string(xml), `text="tea"`) {
				t.Errorf("Dump after typing ran %d dumps (want the read-back one reused) and shows the text: %v", n, strings.Contains(string(xml), `text="tea"`))
			}

			settle()
			if err := d.Tap(ctx, field.Center.X, field.Center.Y); err != nil {
				t.Fatal(err)
			}
			p.commands()
			if _, n := dump(); n != 1 {
				t.Errorf("Dump after a tap ran %d dumps, want 1", n)
			}

			settle()
			clock.add(time.Second + time.Millisecond)
			if _, n := dump(); n != 1 {
				t.Errorf("Dump after the reuse window ran %d dumps, want 1", n)
			}

			settle()
			if _, _, err := d.RawShell(ctx, "input keyevent 4"); err != nil {
				t.Fatal(err)
			}
			p.commands()
			if _, n := dump(); n != 1 {
				t.Errorf("Dump after a raw shell command ran %d dumps, want 1", n)
			}

			// Reads in between (screenshot, foreground, keyboard) change nothing.
			settle()
			if _, err := d.Screenshot(ctx); err != nil {
				t.Fatal(err)
			}
			if _, _, err := d.Foreground(ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := d.KeyboardShown(ctx); err != nil {
				t.Fatal(err)
			}
			p.commands()
			if _, n := dump(); n != 0 {
				t.Errorf("Dump after reads only ran %d dumps, want the settled one", n)
			}

			never := f.open(t, p, Config{DumpReuse: -1})
			if err := never.Settle(ctx); err != nil {
				t.Fatal(err)
			}
			p.commands()
			if _, err := never.Dump(ctx); err != nil {
				t.Fatal(err)
			}
			if n := dumpsIn(p.commands()); n != 1 {
				t.Errorf("DumpReuse -1: Dump after Settle ran %d dumps, want 1", n)
			}
		})
	}
}

// serverReads counts the requests that make the resident server wait for the idle screen:
// page sources and idle waits (reset_ax_cache).
func serverReads(p *phone) int {
	r := p.UIServerRequests()
	return r["GET source"] + r["POST appium/reset_ax_cache"]
}

// TestSettleKeepsIdleDump: a dump read after the last action (a focus checked, a typed text
// read back) already waited for the idle screen, so the Settle that follows reads nothing
// and the next Dump is that one; an action since, or the reuse window passing, makes
// Settle read again. On both paths: the resident server's source and uiautomator dump.
func TestSettleKeepsIdleDump(t *testing.T) {
	for _, server := range []bool{false, true} {
		t.Run(map[bool]string{false: "uiautomator", true: "ui-server"}[server], func(t *testing.T) {
			ctx := t.Context()
			p := newPhone(t, sim.Config{UIServer: server})
			clock := &testClock{now: time.Unix(1_700_000_000, 0)}
			d := faces[1].open(t, p, Config{Now: clock.Now, NoUIServer: !server})
			field := openShopSearch(t, d)
			reads := func() int {
				n := 0
				for _, c := range p.commands() {
					n += strings.Count(c, "uiautomator dump")
				}
				return n
			}
			if err := d.Tap(ctx, field.Center.X, field.Center.Y); err != nil {
				t.Fatal(err)
			}
			reads()
			sources := serverReads(p)
			read, err := d.Dump(ctx) // the executor checks the focus after its tap
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Settle(ctx); err != nil {
				t.Fatalf("Settle: %v", err)
			}
			again, err := d.Dump(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if n, s := reads(), serverReads(p)-sources; n+s != 1 {
				t.Errorf("Dump, Settle, Dump with nothing done between read the screen %d times, want 1", n+s)
			}
			if !bytes.Equal(read, again) {
				t.Errorf("the Dump after Settle is not the one read before it")
			}

			if _, err := d.Dump(ctx); err != nil {
				t.Fatal(err)
			}
			if err := d.Key(ctx, "KEYCODE_A"); err != nil {
				t.Fatal(err)
			}
			reads()
			sources = serverReads(p)
			if err := d.Settle(ctx); err != nil {
				t.Fatal(err)
			}
			if n, s := reads(), serverReads(p)-sources; n+s != 1 {
				t.Errorf("Settle after a key press read the screen %d times, want 1", n+s)
			}

			if _, err := d.Dump(ctx); err != nil {
				t.Fatal(err)
			}
			clock.add(time.Second + time.Millisecond)
			sources = serverReads(p)
			if err := d.Settle(ctx); err != nil {
				t.Fatal(err)
			}
			if n, s := reads(), serverReads(p)-sources; n+s != 1 {
				t.Errorf("Settle after the reuse window read the screen %d times, want 1", n+s)
			}
		})
	}
}

// BenchmarkStepDumps is the device side of one agent step — an action, Settle, then
// Observe (dump and screenshot) with the foreground and keyboard asked concurrently, as
// the executor perceives — on a phone with the pixel profile's latencies, through the real
// adb server; with the settled dump reused for the next Observe and without.
func BenchmarkStepDumps(b *testing.B) {
	pixel, err := sim.ParseProfile("pixel")
	if err != nil {
		b.Fatal(err)
	}
	// settle-3s is the default bound, which two dumps after an action often overrun on this
	// profile (the first waits for a quiet second); settle-6s fits them.
	// ui-server reads through the resident UI server (source, screenshot, keyboard, and the
	// key press injected by it).
	for _, mode := range []struct {
		name     string
		reuse    time.Duration
		settle   time.Duration
		uiServer bool
	}{{"reuse/settle-3s", 0, 0, false}, {"no-reuse/settle-3s", -1, 0, false}, {"reuse/settle-6s", 0, 6 * time.Second, false},
		{"no-reuse/settle-6s", -1, 6 * time.Second, false}, {"ui-server/settle-3s", 0, 0, true}} {
		b.Run(mode.name, func(b *testing.B) {
			p := newPhone(b, sim.Config{Profile: pixel, UIServer: mode.uiServer})
			srv, serial := realADB(b, p)
			d := openDevice(b, Config{Port: srv.Port, Serial: serial, DumpReuse: mode.reuse, SettleTimeout: mode.settle, Sleep: sleepCtx})
			ctx := context.Background()
			openShopSearch(b, d)
			p.commands()
			steps, unsettled := 0, 0
			var observing time.Duration
			for b.Loop() {
				// Alternate a letter and a delete in the focused field: every step changes
				// the screen.
				key := "KEYCODE_A"
				if steps%2 == 1 {
					key = "delete"
				}
				if err := d.Key(ctx, key); err != nil {
					b.Fatal(err)
				}
				// As the executor does, a screen that did not settle in time is perceived anyway.
				if err := d.Settle(ctx); err != nil && !errors.Is(err, errNotSettled) {
					b.Fatal(err)
				} else if err != nil {
					unsettled++
				}
				start := time.Now()
				var wg sync.WaitGroup
				wg.Add(2)
				go func() { defer wg.Done(); _, _, _ = d.Foreground(ctx) }()
				go func() { defer wg.Done(); _, _ = d.KeyboardShown(ctx) }()
				if _, err := d.Observe(ctx); err != nil {
					b.Fatal(err)
				}
				wg.Wait()
				observing += time.Since(start)
				steps++
			}
			b.ReportMetric(float64(dumpsIn(p.commands()))/float64(steps), "dumps/step")
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(steps), "ms/step")
			b.ReportMetric(float64(observing.Milliseconds())/float64(steps), "observe-ms/step")
			b.ReportMetric(float64(unsettled)/float64(steps), "unsettled/step")
		})
	}
}

// TestSettleByIdle: on the classic path Settle is one dump — the dumper answers only once
// the screen is idle — and what it returns is the changed screen; SettleConfirm dumps until
// two agree.
func TestSettleByIdle(t *testing.T) {
	ctx := t.Context()
	p := newPhone(t, sim.Config{})
	d := faces[0].open(t, p, Config{NoUIServer: true})
	confirm := faces[0].open(t, p, Config{NoUIServer: true, SettleConfirm: true})
	openShopSearch(t, d)
	for _, c := range []struct {
		d    *Device
		want func(n int) bool
		name string
	}{{d, func(n int) bool { return n == 1 }, "one dump"}, {confirm, func(n int) bool { return n >= 2 }, "two dumps or more"}} {
		if err := c.d.Key(ctx, "KEYCODE_A"); err != nil {
			t.Fatal(err)
		}
		p.commands()
		if err := c.d.Settle(ctx); err != nil {
			t.Fatalf("Settle: %v", err)
		}
		if n := dumpsIn(p.commands()); !c.want(n) {
			t.Errorf("Settle ran %d dumps, want %s", n, c.name)
		}
		xml, err := c.d.Dump(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(xml, p.Dump()) {
			t.Errorf("the settled dump is not the screen as it is now")
		}
	}
}

// TestTouchedReadsAnew (issue 40): a person's hands change the screen without a command of
// the device's (a hand-over); after Touched, Settle and Dump read the screen as it is now,
// not the dump kept from before — without it the kept dump is served, what the hand-over's
// resume read as the sign-in page the person had already left. (The server's source is
// read anew after its idle wait; Touched makes that wait happen.)
func TestTouchedReadsAnew(t *testing.T) {
	for _, server := range []bool{false, true} {
		t.Run(map[bool]string{false: "uiautomator", true: "ui-server"}[server], func(t *testing.T) {
			ctx := t.Context()
			p := newPhone(t, sim.Config{UIServer: server})
			clock := &testClock{now: time.Unix(1_700_000_000, 0)}
			d := faces[1].open(t, p, Config{Now: clock.Now, NoUIServer: !server})
			openShopSearch(t, d)
			read := func() []byte {
				t.Helper()
				if err := d.Settle(ctx); err != nil {
					t.Fatalf("Settle: %v", err)
				}
				xml, err := d.Dump(ctx)
				if err != nil {
					t.Fatal(err)
				}
				return xml
			}
			read()
			if err := p.TypeKeys("zq"); err != nil { // the person's thumbs
				t.Fatal(err)
			}
			if xml := read(); !server && bytes.Contains(xml, []byte("zq")) {
				t.Fatalf("the kept dump was not served: the test shows nothing")
			}
			if err := p.TypeKeys("xw"); err != nil {
				t.Fatal(err)
			}
			d.Touched()
			if xml := read(); !bytes.Contains(xml, []byte("zqxw")) {
				t.Errorf("after Touched the dump is still the one from before the person's hands:\n%s", xml)
			}
		})
	}
}
