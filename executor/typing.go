package executor

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/fairy-go/fairy/perception"
)

// typeAttempts is how often Input tries to make its text land in its field.
const typeAttempts = 2

// focusTaps is how many taps Input spends putting the focus on its field in one attempt
// (real phones drop taps during animations).
const focusTaps = 2

// typeInto types text into field so that it lands there or the action fails: it puts the
// focus on field and confirms from a fresh dump that the focus moved to that element
// (resource id, bounds, class) before it clears anything; after typing it reads the field
// back. A miss is tried once more, then returned as an error (a failed action, which the
// Re-Planner sees), never a success. Errors never quote the text: it may be a password.
func (r *run) typeInto(ctx context.Context, text string, field *perception.Element) error {
	var last error
	for attempt := 0; attempt < typeAttempts; attempt++ {
		err := r.typeOnce(ctx, text, field)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		last = err
		if !errors.Is(err, errTypedElsewhere) {
			return err // the device failed: its own retries are done
		}
		r.e.log.Debug("typed text did not land, trying again", logStep, r.step, logErr, err)
	}
	return last
}

func (r *run) typeOnce(ctx context.Context, text string, field *perception.Element) error {
	dev := r.cfg.Device
	cur, err := r.focus(ctx, field)
	if err != nil {
		return err
	}
	// cur is the field as a fresh dump shows it, focused: deleting as many characters as it
	// shows empties it (an empty EditText shows its hint on Android 8+, and deleting in an
	// empty field does nothing). A password field's text is hidden, and without a checked
	// focus nothing is known: ClearText with n = 0 reads the focused field and deletes
	// exactly what it holds.
	n := 0
	if cur != nil && !cur.Password {
		n = len([]rune(cur.Text))
	}
	at := field.Center
	if cur != nil {
		at = cur.Center // where the field is now (the keyboard may have moved it)
	}
	if n > 0 || cur == nil || cur.Password {
		if err := dev.ClearText(ctx, at.X, at.Y, n); err != nil {
			return err
		}
	}
	if err := dev.TypeText(ctx, text); err != nil {
		return err
	}
	if strings.ContainsAny(text, "\n\r") || field.Password {
		// A line break may have sent the text away (the field is empty again), and a
		// password field shows no text: the focus check is what holds here.
		return nil
	}
	s, err := r.dump(ctx)
	if err != nil {
		return err
	}
	got := findField(s, field)
	switch {
	case got == nil:
		return fmt.Errorf("%w: %s is no longer on the screen after typing", errTypedElsewhere, field.FieldName())
	case !sameText(got.Text, text):
		return fmt.Errorf("%w: %s does not hold the typed text after typing (it shows %d characters)", errTypedElsewhere, field.FieldName(), len([]rune(got.Text)))
	}
	return nil
}

// focus taps field until a fresh dump shows the focus on it, and returns the field as
// that dump shows it (nil: the app reports no focus at all, so it cannot be checked).
func (r *run) focus(ctx context.Context, field *perception.Element) (*perception.Element, error) {
	dev := r.cfg.Device
	if r.fresh && field.Focused {
		r.fresh = false
		return field, nil // the screen was just read and shows the focus there
	}
	r.fresh = false
	var where string
	for tap := 0; tap < focusTaps; tap++ {
		if err := dev.Tap(ctx, field.Center.X, field.Center.Y); err != nil {
			return nil, err
		}
		s, err := r.dump(ctx)
		if err != nil {
			return nil, err
		}
		f := s.Focused()
		got := findField(s, field)
		switch {
		case f == nil && got != nil:
			return nil, nil // nothing reports focus (a WebView): the read-back checks
		case f != nil && got != nil && f.Index == got.Index:
			return got, nil
		case f != nil:
			where = "the focus is on " + f.FieldName()
		default:
			where = "the field is not on the screen"
		}
	}
	return nil, fmt.Errorf("%w: tapping %s did not put the focus on it (%s)", errTypedElsewhere, field.FieldName(), where)
}

// dump reads the screen without a screenshot; the dumper's idle error is retried after
// the screen settles.
func (r *run) dump(ctx context.Context) (*perception.Screen, error) {
	var last error
	for attempt := 0; attempt < 3; attempt++ {
		if attempt > 0 {
			if err := r.cfg.Device.Settle(ctx); err != nil && ctx.Err() != nil {
				return nil, ctx.Err()
			}
		}
		xml, err := r.cfg.Device.Dump(ctx)
		if err == nil {
			var s *perception.Screen
			if s, err = perception.Parse(xml); err == nil {
				return s, nil
			}
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		last = err
	}
	return nil, fmt.Errorf("%w: %w", errPerceive, last)
}

// findField finds want (an element of an earlier screen) on s: the text field with the
// same resource id, else the same bounds and class, else the only text field of its class.
func findField(s *perception.Screen, want *perception.Element) *perception.Element {
	var best *perception.Element
	bestScore, ties, sameClass := 0, 0, 0
	var only *perception.Element
	for i := range s.Elements {
		e := &s.Elements[i]
		if !e.Editable {
			continue
		}
		if e.Class == want.Class {
			sameClass++
			only = e
		}
		score := 0
		if want.ResourceID != "" && e.ResourceID == want.ResourceID {
			score += 4
		}
		if e.Bounds == want.Bounds {
			score += 3
		}
		if e.Class == want.Class {
			score++
		}
		switch {
		case want.Hint != "" && e.Hint == want.Hint:
			score += 2
		case want.Hint != "" && e.Hint != "":
			score -= 6 // rows sharing an id, scrolled by one: another field
		}
		switch {
		case score > bestScore:
			best, bestScore, ties = e, score, 0
		case score == bestScore:
			ties++
		}
	}
	switch {
	case bestScore >= 4 && ties == 0:
		return best
	case bestScore < 4 && sameClass == 1 && want.ResourceID == "" && (want.Hint == "" || only.Hint == "" || only.Hint == want.Hint):
		return only // the keyboard moved it, and it has no id: it is the one field there is
	}
	return nil // not found, or two fields it could be: never guess
}

// sameText reports whether a field showing got holds the typed want: exactly, or the same
// letters and digits (apps format phone numbers and dates as they are typed).
func sameText(got, want string) bool {
	if got == want {
		return true
	}
	norm := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.IsLetter(r) || unicode.IsNumber(r) {
				return unicode.ToLower(r)
			}
			return -1
		}, s)
	}
	return norm(got) != "" && norm(got) == norm(want)
}
