package executor

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/llm"
)

// counterPhone shows one "Next N" button; a tap moves to N+1. Its dump is a realistic size.
type counterPhone struct {
	fakePhone
	mu sync.Mutex
	n  int
}

func (p *counterPhone) Dump(ctx context.Context) ([]byte, error) {
	p.mu.Lock()
	n := p.n
	p.mu.Unlock()
	nodes := []fakeNode{{kind: "button", text: fmt.Sprintf("Next %d", n)}}
	for i := range 14 {
		nodes = append(nodes, fakeNode{kind: "button", text: fmt.Sprintf("Item %d", i), id: fmt.Sprintf("com.fairy.x:id/item_%d", i)})
	}
	p.fakePhone.mu.Lock()
	p.screens = map[string][]fakeNode{"s": nodes}
	p.cur = "s"
	p.fakePhone.mu.Unlock()
	return p.fakePhone.Dump(ctx)
}

func (p *counterPhone) Tap(ctx context.Context, x, y int) error {
	p.mu.Lock()
	p.n++
	p.mu.Unlock()
	return nil
}

// BenchmarkStep measures one full step (perceive, reflect, decide, guard, act) against a
// fake phone with an instant model: the framework's own overhead. It reports the model
// calls on the critical path per step.
func BenchmarkStep(b *testing.B) {
	phone := &counterPhone{fakePhone: fakePhone{pkg: "com.fairy.x"}}
	m := &fakeModel{fn: map[llm.Role]func(int, string) string{
		llm.RoleReplanner: func(n int, u string) string { return plan("B", "Go on", 0, "") },
		llm.RoleDecider: func(_ int, u string) string {
			u = u[strings.Index(u, "<<<SCREEN"):]
			i := strings.Index(u, `"Next `)
			return fmt.Sprintf(`{"thought":"","actions":[{"type":"Tap","index":%d}],"expect":""}`, index(u, u[i+1:i+1+strings.Index(u[i+1:], `"`)]))
		},
	}}
	h := newHarness(b, &phone.fakePhone, m, nil, func(c *Config) {
		c.Device = phone
		c.Limits.MaxSteps = b.N
	})
	var critical, steps int
	var mu sync.Mutex
	h.bus.Subscribe(func(r event.Record) {
		mu.Lock()
		defer mu.Unlock()
		switch e := r.Event.(type) {
		case event.ModelCalled:
			if e.Critical {
				critical++
			}
		case event.StepStarted:
			steps++
		}
	})
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	res, err := h.exec.Run(context.Background(), Assignment{Instruction: "go", Task: event.AppTask{App: "com.fairy.x", Task: "go"}})
	elapsed := time.Since(start)
	b.StopTimer()
	if err != nil || !strings.Contains(res.Reason, "step limit") {
		b.Fatalf("run: %v %+v", err, res)
	}
	if steps != b.N {
		b.Fatalf("ran %d steps, want %d", steps, b.N)
	}
	perStep := float64(critical) / float64(steps)
	b.ReportMetric(perStep, "critical-calls/step")
	b.ReportMetric(float64(elapsed.Microseconds())/1000/float64(steps), "ms/step")
	if perStep > 2 {
		b.Errorf("%.2f model calls per step on the critical path, want ≤ 2", perStep)
	}
}
