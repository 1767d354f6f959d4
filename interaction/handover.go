package interaction

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/fairy-go/fairy/internal/table"
)

// HandOver is what the agent tells the person when it gives them the phone: the screen
// needs something only they may enter or do (a password, a one-time code, a fingerprint,
// a CAPTCHA, a payment app's own PIN). The agent types no secret and guesses none.
type HandOver struct {
	Step   int
	App    string
	Reason string // what the screen needs, in words ("a password field")
	Screen string // the screen's text form, as the agent read it before handing over
}

// Hander is a Dialoger that can give the phone to the person: HandOver returns once the
// person gives it back, having done what the screen needs on the phone itself (or
// ErrNoAnswer when no one is there, ctx's error when the run is stopped). A Dialoger
// that is no Hander is asked an open question instead, whose answer is dropped (a "no"
// says no one takes the phone).
type Hander interface {
	HandOver(ctx context.Context, h HandOver) error
}

// handOverText is the sentence a person reads when the phone is theirs.
func handOverText(h HandOver) string {
	return fmt.Sprintf("Your turn: the screen needs %s. Do it on the phone yourself — fairy does not type secrets or guess them — then give the phone back.", h.Reason)
}

// HandOver gives the phone to the person through the Dialoger and waits until they give
// it back. What they did is not returned: it never reaches the agent, its trace or its
// knowledge.
func (it *Interactor) HandOver(ctx context.Context, h HandOver) error {
	return HandOverTo(ctx, it.cfg.Dialoger, h)
}

// HandOverTo gives the phone to the person through d: its own HandOver when d is a Hander,
// else an open question whose answer is dropped (a "no" says no one takes the phone).
func HandOverTo(ctx context.Context, d Dialoger, h HandOver) error {
	if hd, ok := d.(Hander); ok {
		return hd.HandOver(ctx, h)
	}
	ans, err := d.Ask(ctx, Question{Type: 4, Kind: open, Reason: h.Reason,
		Text: handOverText(h) + " Answer when you are done, or no if you will not."})
	if err != nil {
		return err
	}
	if yes, clear := ReadYesNo(ans); clear && !yes {
		return fmt.Errorf("%w: the person would not take the phone", ErrNoAnswer)
	}
	return nil
}

// HandOver implements Hander: it prints what the screen needs and waits for Enter.
func (t *Terminal) HandOver(ctx context.Context, h HandOver) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	msg := "\n✋ " + handOverText(h) + "\n  Press Enter when you give the phone back > "
	if _, err := io.WriteString(t.out, table.EscapeLines(msg)); err != nil {
		return fmt.Errorf("interaction: write hand-over: %w", err)
	}
	if t.pending == nil {
		ch := make(chan lineResult, 1)
		t.pending = ch
		go func() {
			line, err := t.in.ReadString('\n')
			ch <- lineResult{line, err}
		}()
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case r := <-t.pending:
		t.pending = nil
		if strings.TrimSpace(r.line) == "" && r.err != nil {
			if r.err == io.EOF {
				return ErrNoAnswer
			}
			return fmt.Errorf("interaction: read hand-over: %w", r.err)
		}
	}
	return nil
}
