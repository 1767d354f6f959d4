package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/rundir"
)

// TestDemoLearnsAcrossRuns runs the demo twice against one knowledge file: the first run
// teaches the App Maps, tricks and app descriptions; the second is given them, and both
// summary.json files say so.
func TestDemoLearnsAcrossRuns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "knowledge.db")
	var sums []rundir.Summary
	for i := range 2 {
		var out bytes.Buffer
		_, err := runDemo(t.Context(), demoOptions{RunsDir: t.TempDir(), TextOnly: true, Out: &out, Knowledge: path})
		if err != nil {
			t.Fatalf("demo run %d: %v\n%s", i+1, err, out.String())
		}
		if !strings.Contains(out.String(), "knowledge: ") || !strings.Contains(out.String(), path) {
			t.Errorf("run %d did not report its knowledge:\n%s", i+1, out.String())
		}
		// The summary on disk, not only the one in memory.
		m := regexp.MustCompile(`summary: (\S+summary\.json)`).FindStringSubmatch(out.String())
		if m == nil {
			t.Fatalf("no summary path in:\n%s", out.String())
		}
		b, err := os.ReadFile(m[1])
		if err != nil {
			t.Fatal(err)
		}
		var sum rundir.Summary
		if err := json.Unmarshal(b, &sum); err != nil {
			t.Fatal(err)
		}
		if sum.Outcome != event.OutcomeDone {
			t.Fatalf("run %d: %s (%s)", i+1, sum.Outcome, sum.Reason)
		}
		sums = append(sums, sum)
	}
	k1, k2 := sums[0].Knowledge, sums[1].Knowledge
	if k1.Used || k1.LearnedTasks != 2 || k1.LearnedTricks != 3 || k1.LearnErrors != 0 {
		t.Errorf("first run knowledge = %+v, want nothing used, 2 tasks and 3 tricks learned", k1)
	}
	if !k2.Used || k2.Tricks == 0 || k2.DescribedApps < 2 || k2.LearnErrors != 0 {
		t.Errorf("second run knowledge = %+v, want tricks and both app descriptions used", k2)
	}
	// The second run follows the routines the first one learned: no distillation (it met
	// no surprise), every consent asked again, and at most 0.6× the first run's calls.
	if sums[1].ModelCallsByRole["learner"] != 0 || k2.SkippedLearns != 2 || k2.Routines == 0 || k2.RoutineSteps == 0 {
		t.Errorf("second run: calls %v, knowledge %+v; want no learning call, both tasks skipped as known routines, routines replayed", sums[1].ModelCallsByRole, k2)
	}
	if len(sums[1].Questions) != len(sums[0].Questions) {
		t.Errorf("second run asked %q, first %q: every question and consent must be asked again", sums[1].Questions, sums[0].Questions)
	}
	if r := float64(sums[1].ModelCalls) / float64(sums[0].ModelCalls); r > 0.6 {
		t.Errorf("second run used %d model calls, first %d (%.2f×), want ≤ 0.6×", sums[1].ModelCalls, sums[0].ModelCalls, r)
	}

	st, err := knowledge.Open(path, knowledge.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	apps, err := st.Apps()
	if err != nil {
		t.Fatal(err)
	}
	mapped := map[string]bool{}
	for _, a := range apps {
		mapped[a.Package] = a.Pages > 1 && a.Transitions > 0
	}
	if !mapped["com.fairy.shop"] || !mapped["com.google.android.calendar"] {
		t.Errorf("App Maps = %+v, want the shop and the calendar mapped", apps)
	}
}

// TestRunKnowledgeInUse: a knowledge file another fairy keeps locked (a transaction longer
// than the wait) is a clear error, not a hang.
func TestRunKnowledgeInUse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "knowledge.db")
	held, err := knowledge.Open(path, knowledge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	release := holdKnowledge(t, held)
	defer release()
	var out bytes.Buffer
	start := time.Now()
	_, err = runDemo(t.Context(), demoOptions{RunsDir: t.TempDir(), TextOnly: true, Out: &out, Knowledge: path})
	if !errors.Is(err, knowledge.ErrInUse) || !strings.Contains(err.Error(), "in use by another fairy") {
		t.Fatalf("err = %v, want a clear in-use error", err)
	}
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 2 {
		t.Errorf("err = %#v, want exit status 2", err)
	}
	if d := time.Since(start); d > runLockWait+5*time.Second {
		t.Errorf("gave up after %v", d)
	}
}
