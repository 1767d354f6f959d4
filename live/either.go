package live

import (
	"context"

	"github.com/fairy-go/fairy/interaction"
)

// First is a Dialoger that puts each question to every one of its dialogers at once (the terminal
// and the live page) and returns the first answer; the others are withdrawn (their context ends:
// the terminal keeps the line it was reading for the next question, the page takes the question
// down); a hand-over is raced the same way (HandOver). A dialoger that fails (a terminal whose
// input has ended) leaves the question to the others; when all fail, the first failure is returned.
type First []interaction.Dialoger

// Ask implements interaction.Dialoger.
func (f First) Ask(ctx context.Context, q interaction.Question) (string, error) {
	return f.race(ctx, func(ctx context.Context, d interaction.Dialoger) (string, error) { return d.Ask(ctx, q) })
}

// HandOver implements interaction.Hander: the phone is handed over on every dialoger at
// once (the terminal's prompt, the page's "your turn"); the first to give it back ends the
// hand-over everywhere. A dialoger that is no Hander is asked as interaction.HandOverTo asks.
func (f First) HandOver(ctx context.Context, h interaction.HandOver) error {
	_, err := f.race(ctx, func(ctx context.Context, d interaction.Dialoger) (string, error) {
		return "", interaction.HandOverTo(ctx, d, h)
	})
	return err
}

// race calls do on every dialoger at once and returns the first success; the others' context
// ends. When all fail, the first failure is returned.
func (f First) race(
	ctx context.Context, do func(context.Context, interaction.Dialoger) (string, error),
) (string, error) {
	switch len(f) {
	case 0:
		return "", interaction.ErrNoAnswer
	case 1:
		return do(ctx, f[0])
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		answer string
		err    error
	}
	results := make(chan result, len(f))
	for _, d := range f {
		go func() {
			a, err := do(ctx, d)
			results <- result{a, err}
		}()
	}
	var first error
	var won *result
	for range f {
		r := <-results
		if won != nil {
			continue // a withdrawn dialoger returning
		}
		if r.err == nil {
			won = &r
			cancel()
			continue
		}
		if first == nil {
			first = r.err
		}
	}
	if won != nil {
		return won.answer, nil
	}
	return "", first
}
