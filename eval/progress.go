package eval

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"
)

// progress writes one line per started and finished task: tasks done / total, the task
// each device is on, and the estimated time left.
type progress struct {
	mu       sync.Mutex
	w        io.Writer
	total    int
	finished int
	passed   int
	workers  int
	now      func() time.Time
	began    time.Time
	current  map[string]string
}

func newProgress(w io.Writer, total int, devices []Device, now func() time.Time) *progress {
	return &progress{w: w, total: total, workers: len(devices), now: now, began: now(), current: map[string]string{}}
}

func jobName(j *Job) string {
	s := j.Task.ID
	if j.Phase != "" && j.Phase != PhaseCold {
		s += " (" + j.Phase + ")"
	}
	if j.Repeat > 0 {
		s += fmt.Sprintf(" #%d", j.Repeat+1)
	}
	return s
}

func (p *progress) start(serial string, j *Job) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.current[serial] = jobName(j)
	p.printf("[%d/%d] %s ▶ %s\n", p.finished, p.total, serial, jobName(j))
}

func (p *progress) stop(serial string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.current, serial)
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
	if r.Phase != "" && r.Phase != PhaseCold {
		name += " (" + r.Phase + ")"
	}
	var busy []string
	for s, t := range p.current {
		busy = append(busy, s+": "+t)
	}
	sort.Strings(busy)
	line := fmt.Sprintf("[%d/%d] %s %s on %s — %s, %d steps, %d model calls, %.1fs", p.finished, p.total, mark, name,
		orDash(r.Device), r.Outcome, r.Steps, r.ModelCalls, r.WallSeconds)
	if len(busy) > 0 {
		line += " | running " + strings.Join(busy, ", ")
	}
	if eta := p.eta(); eta > 0 {
		line += " | ETA " + eta.Round(time.Second).String()
	}
	p.printf("%s\n", line)
	if !r.Pass && r.Reason != "" {
		p.printf("      %s\n", clip(r.Reason, 300))
	}
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
	p.printf("%d/%d tasks run, %d passed, in %s\n", p.finished, p.total, p.passed, p.now().Sub(p.began).Round(100*time.Millisecond))
}

func (p *progress) printf(format string, a ...any) {
	if p.w != nil {
		fmt.Fprintf(p.w, format, a...)
	}
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
