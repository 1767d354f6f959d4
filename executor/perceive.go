package executor

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"strings"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/perception"
	"golang.org/x/sync/errgroup"
)

// perceive starts a step: limits, then the screen (dump, screenshot and foreground
// activity concurrently), then the key-context collection of the new screen in the
// background.
func (r *run) perceive(ctx context.Context) (State, error) {
	if why := r.cfg.Limits.exceeded(r.step, r.e.spent(), r.cfg.Clock().Sub(r.start), r.cfg.Meter); why != "" {
		return r.fail(why)
	}
	r.step++
	r.publish(event.StepStarted{Step: r.step, App: r.a.Task.App})
	if r.reuse && r.screen != nil {
		r.reuse = false
		r.change = "no action since the last step"
		r.publishScreen(nil)
		return stateReflect, nil
	}
	s, png, err := r.observe(ctx)
	if err != nil {
		return stateError, err
	}
	r.secretAt = secretFields(s)
	png = paintOver(r.readPixels(ctx, s, png), s, r.secretAt)
	r.showGuard(s, png)
	if w, ok := r.cfg.Device.(pixelsWanter); ok {
		// A screen with text to read from its pixels is likely followed by another (a
		// canvas, a web page): the device's next pictures are then full-size.
		w.WantPixels(r.cfg.Pixels != nil && len(s.Uncovered) > 0)
	}
	if r.cfg.TextOnly {
		png = nil // in text-only mode a screenshot taken to read it is never sent
	}
	prev := r.screen
	r.screen = s
	r.reconcile(s, r.openedConfirmation(s))
	r.seeSaved(s)
	r.seeRows(s)
	if items := itemLines(s); len(items) > 0 {
		r.items = items // what an order holds, for a payment page that shows only the amount
	}
	unchanged := false
	if prev == nil {
		r.change = "first screen of the task"
	} else {
		d := perception.Diff(prev, s)
		unchanged = d.Unchanged()
		r.change = strings.TrimSpace(d.String())
	}
	if r.replaying {
		r.shotLater = png == nil && !r.cfg.TextOnly
		r.publishScreen(r.setPicture(png))
		return stateReflect, nil
	}
	// A verified step took no picture: the finish check takes one if it comes to that.
	r.shotLater = png == nil && !r.cfg.TextOnly && !r.wantPicture(s)
	r.setPicture(nil)
	r.unshown = &unshownScreen{png: png, unchanged: unchanged}
	return stateReflect, nil
}

// wantPicture reports whether the step's screen s needs its screenshot: to read the
// regions its tree leaves undescribed (OCR), or for a model to see — every step but a
// page replayed on a known path (checked on its dump) and a step the App Map is about to
// verify (its decider works from the text form; a routine's end goes to the finish check,
// which looks).
func (r *run) wantPicture(s *perception.Screen) bool {
	if r.cfg.Pixels != nil && len(s.Uncovered) > 0 {
		return true
	}
	if r.cfg.TextOnly || r.replaying {
		return false
	}
	return r.routineEnd != "" || !r.verifiableOn(s)
}

// unshownScreen is a screen perceived and not yet published, with its picture if the
// step took one.
type unshownScreen struct {
	png       []byte
	unchanged bool // the same screen as the step before: nothing new to collect
}

// showScreen finishes the perception of the step's screen at the start of reflect, once
// the secure flag of its picture is known: it publishes the screen with its picture and
// starts collecting its key context.
func (r *run) showScreen(ctx context.Context) {
	u := r.unshown
	if u == nil {
		return
	}
	r.unshown = nil
	r.publishScreen(r.setPicture(u.png))
	if !u.unchanged {
		r.collect(ctx, r.step, r.screen)
	}
}

// setPicture makes png the screen's screenshot: the secure flag, and the image the models
// see (set-of-mark when configured), which it returns when marked.
func (r *run) setPicture(png []byte) (marked []byte) {
	r.rawPNG = png
	r.secure = png != nil && isBlack(png)
	r.image, r.imageMIME = nil, ""
	if png != nil && !r.secure {
		r.image, r.imageMIME = png, pictureMIME(png)
		if r.cfg.Mark != nil {
			if m, mime, err := r.cfg.Mark(png, r.screen); err == nil {
				r.image, r.imageMIME, marked = m, mime, m
			} else {
				r.e.log.Warn("set-of-mark failed", logErr, err)
			}
		}
	}
	r.fitPicture(r.screen)
	if marked != nil {
		marked = r.image
	}
	return marked
}

// pictureTaker is a Device whose pictures for a model may be smaller than the screen, or
// JPEG (the resident UI server's MJPEG frames); its Screenshot stays a full-size PNG, for
// reading pixels at the screen's coordinates.
type pictureTaker interface {
	Picture(ctx context.Context) ([]byte, error)
}

// pixelsWanter is a Device told whether the next pictures are to be read at the screen's
// coordinates (full size) or only shown to a model (see adb.Device.WantPixels).
type pixelsWanter interface {
	WantPixels(full bool)
}

// picture takes the step's picture: the device's picture for a model when it has one,
// else its screenshot.
func (r *run) picture(ctx context.Context) ([]byte, error) {
	if p, ok := r.cfg.Device.(pictureTaker); ok {
		return p.Picture(ctx)
	}
	return r.cfg.Device.Screenshot(ctx)
}

// pictureMIME is the type of a picture: JPEG by its SOI marker, else PNG.
func pictureMIME(b []byte) string {
	if len(b) >= 2 && b[0] == 0xff && b[1] == 0xd8 {
		return "image/jpeg"
	}
	return "image/png"
}

// pictureNow takes the screenshot a replayed page went without, now that a model is to
// see it (or the secure flag decide something); a failure leaves the page without one.
func (r *run) pictureNow(ctx context.Context) {
	if !r.shotLater {
		return
	}
	r.shotLater = false
	png, err := r.picture(ctx)
	if err != nil {
		r.e.log.Warn("screenshot failed", logErr, err)
		return
	}
	r.setPicture(paintOver(png, r.screen, r.secretAt))
}

func (r *run) publishScreen(marked []byte) {
	s := r.screen
	var pic []byte
	if !r.secure {
		pic = r.rawPNG
	}
	r.publish(event.ScreenPerceived{Step: r.step, Package: s.Package, Activity: s.Activity, Signature: s.Signature,
		Elements: len(s.Elements), Keyboard: s.Keyboard, Secure: r.secure, Secret: holdsSecret(s, r.secretAt), Text: s.Text(), Marked: marked, MarkedMIME: r.markedMIME(marked),
		Picture: pic, PictureMIME: pictureMIME(pic), Read: readBoxes(s)})
}

func (r *run) markedMIME(marked []byte) string {
	if marked == nil {
		return ""
	}
	return r.imageMIME
}

// observe reads the screen: its tree, with the foreground activity alongside; once the
// tree is parsed, the screenshot when the step needs one (wantPicture) and, on a screen
// with a text field the dump shows no keyboard over, the input method's word on the
// keyboard (a screen with no field to type in has no keyboard that matters), both while
// the activity is still being read. A dumper error ("could not get idle state") is
// retried after the screen settles; a failed screenshot only leaves the step without a
// picture.
//
// When the step is sure to need its picture (no App Map prediction to verify, no replay,
// not text-only) the screen is settled first — a no-op when the last action's Settle
// already saw it idle — and the screenshot is taken alongside the dump: both read the idle
// screen, and the tree's walk no longer comes before the picture.
func (r *run) observe(ctx context.Context) (*perception.Screen, []byte, error) {
	early := !r.cfg.TextOnly && !r.replaying && r.predicted == ""
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		if attempt > 0 || early {
			settle := r.cfg.Device.Settle
			if s, ok := r.cfg.Device.(shotSettler); ok && early && attempt == 0 {
				// The task's first screen, or one no action settled with its picture: the
				// device takes it while it waits, and Screenshot below returns it.
				settle = s.SettleShot
			}
			if err := settle(ctx); err != nil && ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
		}
		var s *perception.Screen
		var png []byte
		var activity string
		keyboard := false
		g, gctx := errgroup.WithContext(ctx)
		shoot := func(ctx context.Context) {
			shot, err := r.picture(ctx)
			if err != nil && gctx.Err() == nil {
				r.e.log.Warn("screenshot failed", logErr, err)
			}
			png = shot
		}
		if early {
			g.Go(func() error { shoot(gctx); return nil })
		}
		g.Go(func() error {
			xml, err := r.cfg.Device.Dump(gctx)
			if err != nil {
				return err
			}
			if s, err = perception.Parse(xml); err != nil {
				return err
			}
			k, ok := r.cfg.Device.(keyboardReporter)
			ask := ok && !s.Keyboard && hasTextField(s)
			sg, sctx := errgroup.WithContext(gctx)
			if !early && r.wantPicture(s) {
				sg.Go(func() error { shoot(sctx); return nil })
			}
			if ask {
				sg.Go(func() error {
					// Like the activity: a device that cannot tell leaves the dump's answer.
					if up, err := k.KeyboardShown(sctx); err == nil {
						keyboard = up
					}
					return nil
				})
			}
			return sg.Wait()
		})
		g.Go(func() error {
			// The activity only enriches the screen; a failure here is not fatal.
			if _, act, err := r.cfg.Device.Foreground(gctx); err == nil {
				activity = act
			}
			return nil
		})
		if err := g.Wait(); err != nil {
			if ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			lastErr = err
			continue
		}
		s.Activity = activity
		s.Keyboard = s.Keyboard || keyboard // an IME window in the dump, or the input method's word
		return s, png, nil
	}
	return nil, nil, fmt.Errorf("%w: %w", errPerceive, lastErr)
}

// hasTextField reports whether s shows a field to type in.
func hasTextField(s *perception.Screen) bool {
	for i := range s.Elements {
		if s.Elements[i].Editable {
			return true
		}
	}
	return false
}

// showGuard shows the guard the screenshot the step took of s, if any (in text-only mode
// too, where no model sees it), decoded only if the guard judges an element of s with no
// words by its picture.
func (r *run) showGuard(s *perception.Screen, png []byte) {
	if png == nil || isBlack(png) {
		return
	}
	r.cfg.Guard.SeePicture(s, func() image.Image {
		img, _, err := image.Decode(bytes.NewReader(png))
		if err != nil {
			r.e.log.Warn("decode the screenshot for the guard", logErr, err)
			return nil
		}
		return img
	})
}
