package interaction

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// TestTerminalHandOver: the terminal says what the screen needs and that fairy types no
// secret, waits for Enter, and gives the phone back; the end of input is no one there;
// a stopped run stops the wait.
func TestTerminalHandOver(t *testing.T) {
	h := HandOver{Step: 2, App: "com.fairy.bank", Reason: "a password and a one-time code"}
	var out strings.Builder
	if err := NewTerminal(strings.NewReader("\n"), &out).HandOver(t.Context(), h); err != nil {
		t.Fatalf("Enter: %v", err)
	}
	for _, want := range []string{"Your turn: the screen needs a password and a one-time code.", "does not type secrets", "Press Enter when you give the phone back"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the terminal shows %q, want it to say %q", out.String(), want)
		}
	}
	if err := NewTerminal(strings.NewReader(""), &out).HandOver(t.Context(), h); !errors.Is(err, ErrNoAnswer) {
		t.Errorf("end of input: %v, want ErrNoAnswer", err)
	}
	pr, pw := ioPipe()
	defer pw.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if err := NewTerminal(pr, &out).HandOver(ctx, h); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("stopped run: %v, want the context's error", err)
	}
}

// TestHandOverThroughAPlainDialoger: a Dialoger that cannot take the phone is asked in
// words; a "no" means no one takes it, any other answer gives the phone back, and the
// answer goes nowhere.
func TestHandOverThroughAPlainDialoger(t *testing.T) {
	for _, tc := range []struct {
		reply string
		taken bool
	}{{"done", true}, {"ok, signed in", true}, {"no", false}, {"不要", false}} {
		t.Run(tc.reply, func(t *testing.T) {
			person, err := NewCanned([]Rule{{Pattern: "your turn", Reply: tc.reply}}, "")
			if err != nil {
				t.Fatal(err)
			}
			it, _ := newInteractor(t, &fakeModel{}, person)
			err = it.HandOver(t.Context(), HandOver{Step: 1, Reason: "a fingerprint"})
			if tc.taken && err != nil || !tc.taken && !errors.Is(err, ErrNoAnswer) {
				t.Errorf("reply %q: %v, taken %t", tc.reply, err, tc.taken)
			}
			if a := person.Asked(); len(a) != 1 || !strings.Contains(a[0].Question.Text, "a fingerprint") {
				t.Errorf("asked %+v", a)
			}
		})
	}
}

// ioPipe is a reader that never gives a line until its writer closes.
func ioPipe() (*io.PipeReader, *io.PipeWriter) { return io.Pipe() }
