package sim

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// dense300 is an app whose screen shows 300 elements at once.
func dense300(tb testing.TB) *Phone {
	tb.Helper()
	var items strings.Builder
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&items, "          - {id: \"k%d\", label: \"Key %d & <%d>\"}\n", i, i, i)
	}
	app, err := ParseApp([]byte(`package: com.example.dense
label: Dense
screens:
  - id: grid
    elements:
      - type: grid
        id: keys
        columns: 10
        row_height: 20
        row: {id: key, title: "{{.item.label}}", desc: "{{.item.id}}"}
        on_tap: [{toast: "{{.item.label}}"}]
        items:
` + items.String()))
	if err != nil {
		tb.Fatal(err)
	}
	apps, _ := DefaultApps()
	p := newPhone(tb, func(c *Config) { c.Apps = append(apps[:1], app) })
	launch(tb, p, "com.example.dense")
	return p
}

func TestDense300HasAllElements(t *testing.T) {
	p := dense300(t)
	n := 0
	for _, x := range dumpNodes(t, p) {
		if x.RID == "com.example.dense:id/key" {
			n++
		}
	}
	if n != 300 {
		t.Fatalf("%d key elements on screen, want 300", n)
	}
}

// BenchmarkDump300 measures `uiautomator dump` of a 300-element screen: "fresh" lays out and
// serialises every time (the state changed), "cached" is a repeated dump of an unchanged screen.
func BenchmarkDump300(b *testing.B) {
	p := dense300(b)
	var buf bytes.Buffer
	for _, mode := range []string{"fresh", "cached"} {
		b.Run(mode, func(b *testing.B) {
			size := 0
			for b.Loop() {
				if mode == "fresh" {
					p.mu.Lock()
					p.bump()
					p.mu.Unlock()
				}
				buf.Reset()
				if _, err := p.Shell(b.Context(), "uiautomator dump /dev/tty", &buf); err != nil {
					b.Fatal(err)
				}
				size = buf.Len()
			}
			b.ReportMetric(float64(size), "bytes/dump")
		})
	}
}

// BenchmarkScreencap measures `screencap -p` of a changed screen (render + PNG encode).
func BenchmarkScreencap(b *testing.B) {
	p := dense300(b)
	var buf bytes.Buffer
	for b.Loop() {
		p.mu.Lock()
		p.bump()
		p.mu.Unlock()
		buf.Reset()
		if _, err := p.Shell(b.Context(), "screencap -p", &buf); err != nil {
			b.Fatal(err)
		}
	}
}
