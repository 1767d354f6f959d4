package adb

import (
	"bytes"
	"context"
	"fmt"
	"time"
)

// Settle waits until the screen is idle, or Config.SettleTimeout passes (then it returns
// an error wrapping ErrNotSettled, which a caller may ignore): one dump, because
// `uiautomator dump` answers only once the screen has sent no accessibility event for a
// second (UiAutomation.waitForIdle in DumpCommand) — settling by events, not by polling.
// With Config.SettleConfirm it dumps until two dumps in a row are identical, pausing
// SettleInterval (growing) between them, for screens that change without accessibility
// events. The last dump is kept for the next Dump (see Config.DumpReuse).
//
// With the resident UI server one request settles: the server answers it after the
// screen has sent no accessibility event for 500 ms (UiDevice.waitForIdle), within the
// waitForIdleTimeout the device set to SettleTimeout — an event, not a poll. It is
// appium/reset_ax_cache, which walks no tree, so the next Dump and Screenshot read the
// idle screen together; a server without that route settles on a page source, kept for
// the next Dump.
//
// A dump read since the last command that may change the screen (a typed text read back, a
// focus checked) already waited for that idle: Settle keeps it for the next Dump and reads
// nothing, within Config.DumpReuse of it (not with SettleConfirm, whose screens change
// without telling).
func (d *Device) Settle(ctx context.Context) error {
	if !d.cfg.SettleConfirm && d.idleSince() {
		return nil
	}
	defer d.begin(ctx, opSettle)()
	ctx = context.WithValue(ctx, meterKey{}, true)
	d.dropSettled()
	if client, _, up := d.uiReady(ctx); up && client != nil {
		// The idle wait is bounded by SettleTimeout; the walk and the transfer follow it.
		sctx, cancel := context.WithTimeout(ctx, d.cfg.SettleTimeout+2*time.Second)
		gen := d.changes.Load()
		if ok, err := d.uiIdle(sctx); ok {
			cancel()
			if err == nil {
				d.markIdle(gen)
				return nil
			}
			if ctx.Err() != nil {
				return fmt.Errorf("adb settle: %w", ctx.Err())
			}
			return fmt.Errorf("adb settle: %w within %s: %w", errNotSettled, d.cfg.SettleTimeout, err)
		}
		xml, ok, err := d.uiSource(sctx)
		cancel()
		if ok {
			if err == nil {
				d.keepSettled(xml, gen)
				return nil
			}
			if ctx.Err() != nil {
				return fmt.Errorf("adb settle: %w", ctx.Err())
			}
			return fmt.Errorf("adb settle: %w within %s: %w", errNotSettled, d.cfg.SettleTimeout, err)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, d.cfg.SettleTimeout)
	defer cancel()
	var prev []byte
	pause := d.cfg.SettleInterval
	for n := 0; ; n++ {
		gen := d.changes.Load()
		xml, err := d.dumpFresh(ctx)
		if err != nil {
			// The connection's deadline is the settle deadline; its i/o timeout may come a
			// moment before ctx says so.
			if dl, _ := ctx.Deadline(); ctx.Err() != nil || !time.Now().Before(dl) {
				break
			}
			return fmt.Errorf("adb settle: %w", err)
		}
		if !d.cfg.SettleConfirm || prev != nil && bytes.Equal(prev, xml) {
			d.keepSettled(xml, gen)
			return nil
		}
		prev = xml
		if err := d.cfg.Sleep(ctx, pause); err != nil {
			break
		}
		pause = min(pause*3/2, time.Second)
	}
	if err := context.Cause(ctx); err != nil && ctx.Err() != context.DeadlineExceeded {
		return fmt.Errorf("adb settle: %w", err)
	}
	return fmt.Errorf("adb settle: %w within %s", errNotSettled, d.cfg.SettleTimeout)
}

// settledDump is the dump that ended a Settle: what it holds, the change count when the
// dump started and the time it came back.
type settledDump struct {
	xml []byte
	gen uint64
	at  time.Time
}

// keepIdle notes the last dump read (each waits for the screen to be idle first).
func (d *Device) keepIdle(xml []byte, gen uint64) {
	if d.cfg.DumpReuse < 0 {
		return
	}
	d.settledMu.Lock()
	d.idle = settledDump{xml: xml, gen: gen, at: d.cfg.Now()}
	d.settledMu.Unlock()
}

// markIdle notes that the screen was idle with the change count gen (the server's idle
// wait, which reads no tree).
func (d *Device) markIdle(gen uint64) {
	if d.cfg.DumpReuse < 0 {
		return
	}
	d.settledMu.Lock()
	d.idleMark = settledDump{gen: gen, at: d.cfg.Now()}
	d.settledMu.Unlock()
}

// Touched says the screen may have changed by hands other than the device's own — the
// person's, while the phone is handed over to them: nothing the device kept of the screen
// (the last dump read, the idle wait's mark, picture and activity) is reused, and the next
// Settle waits for the idle screen and reads it anew.
func (d *Device) Touched() { d.changes.Add(1) }

// idleSince reports whether the screen is known idle: the last idle wait, or the last
// dump read, is fresh and nothing that may change the screen ran since it started (the
// dump then becomes the settled one).
func (d *Device) idleSince() bool {
	d.settledMu.Lock()
	defer d.settledMu.Unlock()
	if m := d.idleMark; !m.at.IsZero() && m.gen == d.changes.Load() && d.cfg.Now().Sub(m.at) <= d.cfg.DumpReuse {
		return true
	}
	s := d.idle
	if s.xml == nil || s.gen != d.changes.Load() || d.cfg.Now().Sub(s.at) > d.cfg.DumpReuse {
		return false
	}
	d.settled = s
	return true
}

func (d *Device) keepSettled(xml []byte, gen uint64) {
	if d.cfg.DumpReuse < 0 {
		return
	}
	d.settledMu.Lock()
	d.settled = settledDump{xml: xml, gen: gen, at: d.cfg.Now()}
	d.settledMu.Unlock()
}

func (d *Device) dropSettled() {
	d.settledMu.Lock()
	d.settled = settledDump{}
	d.settledMu.Unlock()
}

// takeSettled returns the settled dump once, if nothing that may change the screen ran
// since it started and it is fresh; nil otherwise.
func (d *Device) takeSettled() []byte {
	d.settledMu.Lock()
	s := d.settled
	d.settled = settledDump{}
	d.settledMu.Unlock()
	if s.xml == nil || s.gen != d.changes.Load() || d.cfg.Now().Sub(s.at) > d.cfg.DumpReuse {
		return nil
	}
	return s.xml
}
