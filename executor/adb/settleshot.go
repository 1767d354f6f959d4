package adb

import (
	"bytes"
	"context"
	"time"
)

// A step that will show its screen to a model needs the screenshot of the idle screen.
// Taken after the idle wait it adds its whole time to the step; taken during the wait it
// costs nothing more, and it is the idle screen's picture when it began after the screen's
// last accessibility event. The idle wait says when that was at the latest: the server's
// wait (UiDevice.waitForIdle) returns after 500 ms without an event, the dumper's
// (DumpCommand: UiAutomation.waitForIdle(1000, …)) after 1000 ms, and the answer reaches
// fairy after that; so a picture begun after (the answer's arrival − the quiet time) shows
// the screen after its last event. One begun earlier is dropped (the step takes a new one).
// A JPEG picture from the server's MJPEG stream (mjpeg.go) is not begun at a set time: the
// stream is held from the start of the wait, and the frame kept is one whose capture began
// after that moment.
const (
	serverQuiet  = 500 * time.Millisecond
	dumperQuiet  = time.Second
	serverShotAt = 400 * time.Millisecond  // after an action's transition (~300 ms)
	dumperShotAt = 1500 * time.Millisecond // the dumper's start and its quiet second, mostly
)

// settledFG is the foreground activity SettleShot read, with the change count it was
// valid for.
type settledFG struct {
	pkg, activity string
	gen           uint64
	at            time.Time
}

// shot is a picture SettleShot took: when its capture began at the earliest.
type shot struct {
	png    []byte
	secure bool
	began  time.Time
	err    error
}

// settleFrame holds the MJPEG stream open until the idle wait says since when the screen
// is idle, then takes a frame captured after that; ok false: the stream failed (said
// once), the caller takes the picture another way.
func (d *Device) settleFrame(ctx context.Context, idle <-chan time.Time) (s shot, ok bool) {
	defer d.begin(ctx, opScreenshot)()
	st, err := d.mjpegOpen(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return shot{err: ctx.Err()}, true
		}
		d.mjpegFailed(err)
		return shot{}, false
	}
	defer st.close()
	var since time.Time
	select {
	case since = <-idle:
	case <-ctx.Done():
		return shot{err: ctx.Err()}, true
	}
	// Frames come every 100 ms once the stream's idle turn (500 ms) is over.
	fctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	jpg, began, err := st.frameSince(fctx, since)
	if err != nil {
		if ctx.Err() != nil {
			return shot{err: ctx.Err()}, true
		}
		d.mjpegFailed(err)
		return shot{}, false
	}
	secure, err := checkJPEG(jpg)
	return shot{png: jpg, secure: secure, began: began, err: err}, true
}

// settledShot is a screenshot SettleShot took, with the change count it was valid for.
type settledShot struct {
	png    []byte
	secure bool
	gen    uint64
	at     time.Time
}

// SettleShot is Settle for a step that will take a screenshot: it takes the picture
// while the idle wait runs, and keeps it for the next Picture (a PNG also for the next
// Screenshot; once, while nothing that may change the screen ran and within
// Config.DumpReuse) when it began after the screen's last accessibility event; the
// foreground activity, read alongside on the same terms, is kept for the next
// Foreground. A screen already known idle takes no picture here.
func (d *Device) SettleShot(ctx context.Context) error {
	if d.cfg.SettleConfirm || d.cfg.DumpReuse < 0 || d.idleSince() {
		return d.Settle(ctx)
	}
	gen := d.changes.Load()
	quiet, at := dumperQuiet, dumperShotAt
	if d.uiSettles(ctx) {
		quiet, at = serverQuiet, serverShotAt
	}
	type fg struct {
		pkg, activity string
		began         time.Time
		err           error
	}
	settled := make(chan struct{})
	idle := make(chan time.Time, 1) // the moment the screen is known idle since
	got := make(chan shot, 1)
	gotFG := make(chan fg, 1)
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// wait waits for the moment the picture and the activity are read at: at, or the
	// idle screen if sooner (a read from then on is the idle one's).
	wait := func() bool {
		t := time.NewTimer(at)
		defer t.Stop()
		select {
		case <-t.C:
		case <-settled:
		case <-sctx.Done():
			return false
		}
		return true
	}
	// The step reads the foreground activity too: alongside the picture, and valid on the
	// same terms (an activity change is an accessibility event, a window's).
	go func() {
		if !wait() {
			gotFG <- fg{err: sctx.Err()}
			return
		}
		began := time.Now()
		pkg, activity, err := d.freshForeground(sctx)
		gotFG <- fg{pkg: pkg, activity: activity, began: began, err: err}
	}()
	go func() {
		if at == serverShotAt && d.mjpegOn() && !d.fullPictures.Load() {
			// The MJPEG stream, held from the start of the wait until a frame captured after
			// the screen's last event is at hand: the stream's idle turn and first frames
			// overlap the wait.
			if s, ok := d.settleFrame(sctx, idle); ok {
				got <- s
				return
			}
		} else if !wait() {
			got <- shot{err: sctx.Err()}
			return
		}
		began := time.Now()
		png, secure, err := d.freshPicture(sctx)
		got <- shot{png: png, secure: secure, began: began, err: err}
	}()
	err := d.Settle(ctx)
	idleBy := time.Now().Add(-quiet)
	idle <- idleBy
	close(settled)
	if err != nil {
		cancel()
		<-got
		<-gotFG
		return err
	}
	s, f := <-got, <-gotFG
	if d.changes.Load() != gen {
		return nil
	}
	now := d.cfg.Now()
	d.settledMu.Lock()
	if s.err == nil && !s.began.Before(idleBy) {
		d.shot = settledShot{png: s.png, secure: s.secure, gen: gen, at: now}
	}
	if f.err == nil && !f.began.Before(idleBy) {
		d.fg = settledFG{pkg: f.pkg, activity: f.activity, gen: gen, at: now}
	}
	d.settledMu.Unlock()
	return nil
}

// takeForeground returns the foreground activity SettleShot read, once, if nothing that
// may change the screen ran since and it is fresh.
func (d *Device) takeForeground() (pkg, activity string, ok bool) {
	d.settledMu.Lock()
	f := d.fg
	d.fg = settledFG{}
	d.settledMu.Unlock()
	if f.pkg == "" || f.gen != d.changes.Load() || d.cfg.Now().Sub(f.at) > d.cfg.DumpReuse {
		return "", "", false
	}
	return f.pkg, f.activity, true
}

// uiSettles reports whether Settle waits on the resident server.
func (d *Device) uiSettles(ctx context.Context) bool {
	client, _, up := d.uiReady(ctx)
	return up && client != nil
}

// takeShot returns the screenshot SettleShot kept, once, if nothing that may change the
// screen ran since and it is fresh; a JPEG (a picture, see Picture) only when jpg is set.
func (d *Device) takeShot(jpg bool) (png []byte, secure, ok bool) {
	d.settledMu.Lock()
	s := d.shot
	if s.png != nil && !jpg && !bytes.HasPrefix(s.png, pngMagic) {
		d.settledMu.Unlock()
		return nil, false, false // kept for Picture
	}
	d.shot = settledShot{}
	d.settledMu.Unlock()
	if s.png == nil || s.gen != d.changes.Load() || d.cfg.Now().Sub(s.at) > d.cfg.DumpReuse {
		return nil, false, false
	}
	return s.png, s.secure, true
}
