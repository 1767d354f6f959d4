package eval

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// deviceTimer is a TaskRun that meters how long its Run waited on the phone.
type deviceTimer interface {
	DeviceTime() DeviceTime
}

// DeviceTime is one run's device time: Seconds the phone kept the agent waiting
// (concurrent calls counted once), Ops by operation (each call its own time), and Path how
// the screen was read: PathUIServer (the resident UI server) or PathClassic (uiautomator
// dump and screencap).
type DeviceTime struct {
	Seconds float64           `json:"seconds"`
	Ops     map[string]OpTime `json:"ops"`
	Path    string            `json:"path"`
}

// OpTime is the calls of one device operation in a run.
type OpTime struct {
	Calls   int     `json:"calls"`
	Seconds float64 `json:"seconds"`
}

// Screen-reading paths of DeviceTime.Path.
const (
	PathUIServer = "ui-server"
	PathClassic  = "uiautomator"
)

// DevicePath is the device time per step of the tasks that read the screen one way.
type DevicePath struct {
	Path  string `json:"path"`
	Tasks int    `json:"tasks"`
	Steps int    `json:"steps"`
	// PerStep is all their device seconds over all their steps; Median the median of the
	// tasks' own device seconds per step, Min and Max their range.
	PerStep float64 `json:"per_step"`
	Median  float64 `json:"median"`
	Min     float64 `json:"min"`
	Max     float64 `json:"max"`
	// Ops are each operation's seconds (and calls) per step.
	Ops map[string]OpTime `json:"ops"`
}

// DevicePaths sums the report's device time by path (tasks without device time, or with
// no step, are left out), the resident server first.
func (r *Report) DevicePaths() []DevicePath {
	by := map[string]*DevicePath{}
	per := map[string][]float64{}
	for _, x := range r.Tasks {
		if x.DeviceTime == nil || x.Steps == 0 {
			continue
		}
		t := x.DeviceTime
		p := by[t.Path]
		if p == nil {
			p = &DevicePath{Path: t.Path, Ops: map[string]OpTime{}}
			by[t.Path] = p
		}
		p.Tasks++
		p.Steps += x.Steps
		p.PerStep += t.Seconds
		per[t.Path] = append(per[t.Path], t.Seconds/float64(x.Steps))
		for k, v := range t.Ops {
			o := p.Ops[k]
			o.Calls += v.Calls
			o.Seconds += v.Seconds
			p.Ops[k] = o
		}
	}
	var out []DevicePath
	for path, p := range by {
		p.PerStep /= float64(p.Steps)
		for k, v := range p.Ops {
			p.Ops[k] = OpTime{Calls: v.Calls, Seconds: v.Seconds / float64(p.Steps)}
		}
		v := per[path]
		slices.Sort(v)
		p.Min, p.Max = v[0], v[len(v)-1]
		if n := len(v); n%2 == 1 {
			p.Median = v[n/2]
		} else {
			p.Median = (v[n/2-1] + v[n/2]) / 2
		}
		out = append(out, *p)
	}
	rank := func(p string) int {
		if p == PathUIServer {
			return 0
		}
		return 1
	}
	sort.Slice(out, func(i, j int) bool {
		if a, b := rank(out[i].Path), rank(out[j].Path); a != b {
			return a < b
		}
		return out[i].Path < out[j].Path
	})
	return out
}

// DeviceLine is one path's device time per step in a sentence, with its operations.
func (p DevicePath) DeviceLine() string {
	ops := make([]string, 0, len(p.Ops))
	for k := range p.Ops {
		ops = append(ops, k)
	}
	sort.Slice(ops, func(i, j int) bool { return p.Ops[ops[i]].Seconds > p.Ops[ops[j]].Seconds })
	parts := make([]string, 0, len(ops))
	for _, k := range ops {
		o := p.Ops[k]
		parts = append(parts, fmt.Sprintf("%s %.2f s (%.1f calls)", k, o.Seconds, float64(o.Calls)/float64(p.Steps)))
	}
	return fmt.Sprintf("%s: %.2f s a step (median %.2f, range %.2f–%.2f; %d tasks, %d steps); by operation a step: %s",
		p.Path, p.PerStep, p.Median, p.Min, p.Max, p.Tasks, p.Steps, strings.Join(parts, ", "))
}

// deviceMarkdown is the report's device time section ("" without device time).
func (r *Report) deviceMarkdown() string {
	paths := r.DevicePaths()
	if len(paths) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n## Device time\n\nHow long a step waited on the phone (calls in flight at once counted once), by how the screen was read; operations overlap (the dump and the screenshot run together), so they may add up to more.\n\n")
	for _, p := range paths {
		b.WriteString("- " + p.DeviceLine() + "\n")
	}
	return b.String()
}
