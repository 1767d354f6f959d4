package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fairy-go/fairy/internal/testenv"
	"github.com/fairy-go/fairy/llm"
)

// demoPromptsAt runs the demo with the calls of the roles in slow delayed by d and
// returns every prompt it sent, by role, in order, with the clock made stable, and its
// transcript without the paths (they differ from run to run).
func demoPromptsAt(t *testing.T, d time.Duration, slow ...llm.Role) (map[llm.Role][]string, string) {
	t.Helper()
	var mu sync.Mutex
	prompts := map[llm.Role][]string{}
	var out strings.Builder
	res, err := runDemo(t.Context(), demoOptions{RunsDir: t.TempDir(), Out: &out, Stdin: strings.NewReader(""),
		Knowledge: filepath.Join(t.TempDir(), "k.db"), Sees: func(r llm.Request) {
			if len(r.Messages) > 0 {
				mu.Lock()
				prompts[r.Role] = append(prompts[r.Role], stable(r.System+"\n"+r.Messages[0].Text))
				mu.Unlock()
			}
			for _, s := range slow {
				if r.Role == s {
					time.Sleep(d)
				}
			}
		}})
	if err != nil || res.Summary.Outcome != "done" {
		t.Fatalf("demo: %v (%s)", err, res.Summary.Outcome)
	}
	return prompts, regexp.MustCompile(`/\S+`).ReplaceAllString(out.String(), "PATH")
}

// TestDemoPromptsSameAtAnySpeed: the Key Context Collector runs beside the step, so on a
// busy machine its answer may come before or after the next prompts are written. The demo
// sends every role the same prompts, in the same order, and prints the same transcript
// (the facts it noted at the same places), with a collector slower than the rest and with
// the rest slower than the collector.
func TestDemoPromptsSameAtAnySpeed(t *testing.T) {
	testenv.MustHaveFullTier(t, "runs the demo twice with some roles slowed (about 20 s); "+
		"TestDemoPromptsGolden checks the demo's prompts at one speed in the fast tier")
	t.Parallel()
	slowCollector, slowCollectorOut := demoPromptsAt(t, 150*time.Millisecond, llm.RoleExtractor)
	slowRest, slowRestOut := demoPromptsAt(t, 60*time.Millisecond, llm.RolePlanner, llm.RoleReplanner, llm.RoleDecider, llm.RoleInteractor, "checker")
	if slowCollectorOut != slowRestOut {
		t.Errorf("the transcript differs with the collector slow:\n%s\n--- and with the rest slow:\n%s", slowCollectorOut, slowRestOut)
	}
	for role, want := range slowCollector {
		got := slowRest[role]
		if len(got) != len(want) {
			t.Errorf("%s: %d prompts with a slow collector, %d with the rest slow", role, len(want), len(got))
			continue
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s prompt %d differs with the collector slow and with the rest slow:\n%s\n--- vs ---\n%s", role, i+1, want[i], got[i])
				break
			}
		}
	}
}
