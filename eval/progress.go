package eval

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/fairy-go/fairy/internal/table"
)

// progress writes one line per finished task: runs done / total, the outcome and the
// estimated time left. (A line per started task too doubled the output: the person reads
// what ended, and the report holds the rest.)
type progress struct {
	mu       sync.Mutex
	w        io.Writer
	total    int
	finished int
	passed   int
	workers  int
	now      func() time.Time
	began    time.Time
}

func newProgress(w io.Writer, total int, devices []Device, now func() time.Time) *progress {
	return &progress{w: w, total: total, workers: len(devices), now: now, began: now()}
}

func (p *progress) done(r TaskResult) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.finished++
	mark := "✓"
	if r.Pass {
		p.passed++
	} else {
		mark = "✗"
	}
	name := r.ID
	if r.Phase != "" && r.Phase != phaseCold {
		name += " (" + r.Phase + ")"
	}
	if r.Repeat > 0 {
		name += fmt.Sprintf(" #%d", r.Repeat+1)
	}
	line := fmt.Sprintf("[%d/%d] %s %s on %s — %s, %s, %s, %.1fs", p.finished, p.total, mark, name,
		orDash(r.Device), r.Outcome, table.Count(r.Steps, "step", "steps"), table.Count(r.ModelCalls, "model call", "model calls"), r.WallSeconds)
	if !r.Pass && r.Reason != "" {
		line += ": " + clip(r.Reason, 300)
	}
	if eta := p.eta(); eta > 0 {
		line += " · ETA " + eta.Round(time.Second).String()
	}
	p.printf("%s\n", line)
}

// eta extrapolates the time per finished task to the tasks left.
func (p *progress) eta() time.Duration {
	if p.finished == 0 || p.finished >= p.total {
		return 0
	}
	per := p.now().Sub(p.began) / time.Duration(p.finished)
	return per * time.Duration(p.total-p.finished)
}

func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.printf("%d of %d runs finished, %d passed, in %s\n", p.finished, p.total, p.passed, p.now().Sub(p.began).Round(100*time.Millisecond))
}

func (p *progress) printf(format string, a ...any) {
	if p.w != nil {
		fmt.Fprint(p.w, table.EscapeLines(fmt.Sprintf(format, a...))) // names and reasons come from files and models
	}
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
