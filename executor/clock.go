package executor

import (
	"context"
	"strings"
	"time"

	"github.com/fairy-go/fairy/prompts"
)

// phoneNow is the phone's date and time now: its clock is read once a task (one `date`
// round trip, see clockReader) and runs on with the executor's clock from there. The
// zero time when the device cannot say; the prompts then leave the line out.
func (r *run) phoneNow(ctx context.Context) time.Time {
	if !r.clockRead {
		r.clockRead = true
		if cr, ok := r.cfg.Device.(clockReader); ok {
			t, err := cr.Clock(ctx)
			if err != nil {
				r.e.log.Warn("reading the phone's clock failed; the prompts do not say the date", logErr, err)
			} else {
				r.phoneAt, r.phoneRead = t, r.cfg.Clock()
			}
		}
	}
	if r.phoneAt.IsZero() {
		return time.Time{}
	}
	return r.phoneAt.Add(r.cfg.Clock().Sub(r.phoneRead)).Truncate(time.Minute)
}

// answerFormat is the answer format the person asked for: the app task's own words
// first, else the instruction's — unless the app task produces something for later
// tasks (a number to call, an address): its Finish text is not the person's answer.
// "" when none was asked.
func (r *run) answerFormat() string {
	if f := prompts.AnswerFormat(r.a.Task.Task); f != "" {
		return f
	}
	if strings.TrimSpace(r.a.Task.Produces) != "" {
		return ""
	}
	return prompts.AnswerFormat(r.a.Instruction)
}
