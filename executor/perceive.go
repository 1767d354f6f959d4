package executor

import (
	"context"
	"fmt"
	"strings"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/perception"
	"golang.org/x/sync/errgroup"
)

// perceive starts a step: limits, then the screen (dump, screenshot and foreground
// activity concurrently), then the key-context collection of the new screen in the
// background.
func (r *run) perceive(ctx context.Context) (State, error) {
	if why := r.cfg.Limits.exceeded(r.step, r.cfg.Clock().Sub(r.start), r.cfg.Meter); why != "" {
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
	if shot := r.readPixels(ctx, s, png); !r.cfg.TextOnly {
		png = shot // in text-only mode a screenshot taken to read it is never sent
	}
	prev := r.screen
	r.screen = s
	if items := itemLines(s); len(items) > 0 {
		r.items = items // what an order holds, for a payment page that shows only the amount
	}
	r.shotLater = r.replaying && !r.cfg.TextOnly
	marked := r.setPicture(png)
	unchanged := false
	if prev == nil {
		r.change = "first screen of the task"
	} else {
		d := perception.Diff(prev, s)
		unchanged = d.Unchanged()
		r.change = strings.TrimSpace(d.String())
	}
	r.publishScreen(marked)
	if !unchanged && !r.replaying {
		r.collect(ctx, r.step, s)
	}
	return stateReflect, nil
}

// setPicture makes png the screen's screenshot: the secure flag, and the image the models
// see (set-of-mark when configured), which it returns when marked.
func (r *run) setPicture(png []byte) (marked []byte) {
	r.rawPNG = png
	r.secure = png != nil && isBlack(png)
	r.image, r.imageMIME = nil, ""
	if png != nil && !r.secure {
		r.image, r.imageMIME = png, "image/png"
		if r.cfg.Mark != nil {
			if m, mime, err := r.cfg.Mark(png, r.screen); err == nil {
				r.image, r.imageMIME, marked = m, mime, m
			} else {
				r.e.log.Warn("set-of-mark failed", logErr, err)
			}
		}
	}
	return marked
}

// pictureNow takes the screenshot a replayed page went without, now that a model is to
// see it (or the secure flag decide something); a failure leaves the page without one.
func (r *run) pictureNow(ctx context.Context) {
	if !r.shotLater {
		return
	}
	r.shotLater = false
	png, err := r.cfg.Device.Screenshot(ctx)
	if err != nil {
		r.e.log.Warn("screenshot failed", logErr, err)
		return
	}
	r.setPicture(png)
}

func (r *run) publishScreen(marked []byte) {
	s := r.screen
	r.publish(event.ScreenPerceived{Step: r.step, Package: s.Package, Activity: s.Activity, Signature: s.Signature,
		Elements: len(s.Elements), Keyboard: s.Keyboard, Secure: r.secure, Text: s.Text(), Marked: marked, MarkedMIME: r.markedMIME(marked),
		Read: readBoxes(s)})
}

func (r *run) markedMIME(marked []byte) string {
	if marked == nil {
		return ""
	}
	return r.imageMIME
}

// observe reads the screen; a dumper error ("could not get idle state") is retried after
// the screen settles.
func (r *run) observe(ctx context.Context) (*perception.Screen, []byte, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		if attempt > 0 {
			if err := r.cfg.Device.Settle(ctx); err != nil && ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
		}
		var xml, png []byte
		var activity string
		g, gctx := errgroup.WithContext(ctx)
		g.Go(func() (err error) { xml, err = r.cfg.Device.Dump(gctx); return err })
		if !r.cfg.TextOnly && !r.replaying { // a replayed page is checked on its dump alone
			g.Go(func() (err error) { png, err = r.cfg.Device.Screenshot(gctx); return err })
		}
		g.Go(func() error {
			// The activity only enriches the screen; a failure here is not fatal.
			if _, act, err := r.cfg.Device.Foreground(gctx); err == nil {
				activity = act
			}
			return nil
		})
		keyboard := false
		if k, ok := r.cfg.Device.(keyboardReporter); ok {
			g.Go(func() error {
				// Like the activity: a device that cannot tell leaves the dump's answer.
				if up, err := k.KeyboardShown(gctx); err == nil {
					keyboard = up
				}
				return nil
			})
		}
		if err := g.Wait(); err != nil {
			if ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			lastErr = err
			continue
		}
		s, err := perception.Parse(xml)
		if err != nil {
			lastErr = err
			continue
		}
		s.Activity = activity
		s.Keyboard = s.Keyboard || keyboard // an IME window in the dump, or the input method's word
		return s, png, nil
	}
	return nil, nil, fmt.Errorf("%w: %w", errPerceive, lastErr)
}
