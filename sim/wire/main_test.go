package wire

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestMain fails the run if any goroutine of package wire outlives the servers' Close.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		if leaked := wireGoroutines(3 * time.Second); leaked != "" {
			fmt.Fprintf(os.Stderr, "goroutines of package wire left running:\n%s\n", leaked)
			code = 1
		}
	}
	os.Exit(code)
}

func wireGoroutines(wait time.Duration) string {
	deadline := time.Now().Add(wait)
	for {
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		var leaked []string
		for _, g := range strings.Split(string(buf), "\n\n") {
			if strings.Contains(g, "fairy/sim/wire.") && !strings.Contains(g, "sim/wire.TestMain(") {
				leaked = append(leaked, g)
			}
		}
		if len(leaked) == 0 || time.Now().After(deadline) {
			return strings.Join(leaked, "\n\n")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
