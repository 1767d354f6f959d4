package llm

import (
	"sync"
	"time"
)

// Meter adds up calls, tokens, cost and latency per role over a run. Its zero value is ready
// and it is safe for concurrent use.
type Meter struct {
	mu     sync.Mutex
	byRole map[Role]Tally
}

// Tally is the sum of several calls.
type Tally struct {
	Calls   int
	Usage   Usage
	Cost    float64
	Latency time.Duration
}

// Add counts one response for role.
func (m *Meter) Add(role Role, r Response) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.byRole == nil {
		m.byRole = map[Role]Tally{}
	}
	t := m.byRole[role]
	t.Calls++
	t.Usage = t.Usage.Add(r.Usage)
	t.Cost += r.Cost
	t.Latency += r.Latency
	m.byRole[role] = t
}

// ByRole returns a copy of the per-role tallies.
func (m *Meter) ByRole() map[Role]Tally {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[Role]Tally, len(m.byRole))
	for k, v := range m.byRole {
		out[k] = v
	}
	return out
}

// Total is the sum over all roles.
func (m *Meter) Total() Tally {
	var t Tally
	for _, v := range m.ByRole() {
		t.Calls += v.Calls
		t.Usage = t.Usage.Add(v.Usage)
		t.Cost += v.Cost
		t.Latency += v.Latency
	}
	return t
}
