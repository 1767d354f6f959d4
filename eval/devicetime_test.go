package eval

import (
	"math"
	"strings"
	"testing"
)

// TestDevicePaths: device time is summed per way of reading the screen — per step over all
// steps, the median and range of the tasks' own figures, each operation per step — and
// tasks without device time or steps are left out; the report shows both paths.
func TestDevicePaths(t *testing.T) {
	dt := func(path string, secs float64, ops map[string]OpTime) *DeviceTime {
		return &DeviceTime{Seconds: secs, Path: path, Ops: ops}
	}
	r := &Report{Tasks: []TaskResult{
		{ID: "a", Steps: 2, DeviceTime: dt(PathUIServer, 2, map[string]OpTime{"source": {Calls: 2, Seconds: 0.5}, "screenshot": {Calls: 2, Seconds: 1}})},
		{ID: "b", Steps: 4, DeviceTime: dt(PathUIServer, 6, map[string]OpTime{"source": {Calls: 4, Seconds: 1.5}})},
		{ID: "c", Steps: 1, DeviceTime: dt(PathUIServer, 3, nil)},
		{ID: "d", Steps: 5, DeviceTime: dt(PathClassic, 20, map[string]OpTime{"dump": {Calls: 10, Seconds: 12}})},
		{ID: "e", Steps: 0, DeviceTime: dt(PathClassic, 9, nil)}, // no step: left out
		{ID: "f", Steps: 3}, // not metered: left out
	}}
	paths := r.DevicePaths()
	if len(paths) != 2 || paths[0].Path != PathUIServer || paths[1].Path != PathClassic {
		t.Fatalf("paths = %+v", paths)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	s := paths[0]
	// 11 s over 7 steps; per task 1, 1.5 and 3 s a step.
	if s.Tasks != 3 || s.Steps != 7 || !near(s.PerStep, 11.0/7) || !near(s.Median, 1.5) || !near(s.Min, 1) || !near(s.Max, 3) {
		t.Errorf("server path = %+v", s)
	}
	if o := s.Ops["source"]; o.Calls != 6 || !near(o.Seconds, 2.0/7) {
		t.Errorf("source per step = %+v", o)
	}
	c := paths[1]
	if c.Tasks != 1 || c.Steps != 5 || !near(c.PerStep, 4) || !near(c.Median, 4) || !near(c.Ops["dump"].Seconds, 2.4) {
		t.Errorf("classic path = %+v", c)
	}
	md := r.Markdown()
	if !strings.Contains(md, "## Device time") || !strings.Contains(md, "ui-server: 1.57 s a step (median 1.50") || !strings.Contains(md, "uiautomator: 4.00 s a step") {
		t.Errorf("report:\n%s", md)
	}
	if (&Report{Tasks: []TaskResult{{ID: "x", Steps: 2}}}).deviceMarkdown() != "" {
		t.Error("a report without device time has a device time section")
	}
}
