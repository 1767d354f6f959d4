package live

import (
	"context"

	"github.com/fairy-go/fairy/interaction"
)

// First is a Dialoger that puts each question to every one of its dialogers at once (the
// terminal and the live page) and returns the first answer; the others are withdrawn (their
// context ends: the terminal keeps the line it was reading for the next question, the page
// takes the question down). A dialoger that fails (a terminal whose input has ended) leaves
// the question to the others; when all fail, the first failure is returned.
type First []interaction.Dialoger

// Ask implements interaction.Dialoger.
func (f First) Ask(ctx context.Context, q interaction.Question) (string, error) {
	switch len(f) {
	case 0:
		return "", interaction.ErrNoAnswer
	case 1:
		return f[0].Ask(ctx, q)
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
			a, err := d.Ask(ctx, q)
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
