package main

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/internal/testenv"
	"github.com/fairy-go/fairy/rundir"
)

// TestDemoMessagesReadForAPerson: the demo's output says each step's result in words (not
// a letter), names what each action touched by its label (not an element number), shows no
// plan block when re-planning left the plan as it was, and counts in the singular where
// there is one ("learned from 1 app task (1 trick)"). Run again on what the first run
// learned, it lists the steps a routine replayed.
func TestDemoMessagesReadForAPerson(t *testing.T) {
	testenv.MustHaveFullTier(t, "runs the demo twice to read its messages (TestDemo runs it in the fast tier)")
	t.Parallel()
	dir := t.TempDir()
	demo := func() string {
		var out, errOut bytes.Buffer
		root := newRootCmd(strings.NewReader(""), &out, &errOut, envMap(nil))
		root.SetArgs([]string{"demo", "--runs", filepath.Join(dir, "runs"), "--knowledge", filepath.Join(dir, "k.db")})
		if err := root.ExecuteContext(t.Context()); err != nil {
			t.Fatalf("fairy demo: %v\n%s\n%s", err, out.String(), errOut.String())
		}
		return out.String()
	}
	text := demo()
	for _, want := range []string{"  step 2 · last step: done · the bubble tea page is open\n", "◆ plan:\n", "✓ task 2 done after 9 steps",
		"  step 1 · Tap \"珍珠奶茶 Bubble tea ¥15\"\n", "  step 7 · held back Tap \"提交订单\": order needs your consent\n",
		"  step 2 · Type \"Bubble tea delivery\" into \"Add title\"\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	for _, never := range []string{"last result", "(A)", "Tap(", "Input(", "plan adjusted:", " 1 steps", " 1 tricks", " 1 app tasks", " 1 questions"} {
		if strings.Contains(text, never) {
			t.Errorf("output says %q:\n%s", never, text)
		}
	}
	warm := demo()
	for _, want := range []string{"  step 1 · replayed Tap \"珍珠奶茶 Bubble tea ¥15\"\n  step 2 · replayed Tap \"加入购物车\"\n",
		"  routine \"Order one bubble tea (珍珠奶茶) for delivery and pay for it\": 4 of 4 steps replayed\n"} {
		if !strings.Contains(warm, want) {
			t.Errorf("the second run's output lacks %q:\n%s", want, warm)
		}
	}
}

func TestKnowledgeReportCounts(t *testing.T) {
	for _, tc := range []struct {
		u    rundir.KnowledgeUse
		want string
	}{
		{rundir.KnowledgeUse{Used: true, Tricks: 1, Hints: 1, ShortcutSteps: 1, LearnedTasks: 1, LearnedTricks: 1, LearnErrors: 1},
			"knowledge: used 1 trick, 1 navigation hint, 1 step replayed by shortcut; learned from 1 app task (1 trick), 1 learning pass failed (see the trace); file k.db\n"},
		{rundir.KnowledgeUse{LearnedTasks: 2, LearnedTricks: 3},
			"knowledge: nothing used yet; learned from 2 app tasks (3 tricks); file k.db\n"},
		{rundir.KnowledgeUse{Used: true, Tricks: 10, VerifiedSteps: 1, Routines: 3, RoutineSteps: 6, KnownReads: 7, SkippedLearns: 2},
			"knowledge: used 10 tricks, 1 step confirmed by the App Map, 3 routines (6 steps replayed), 7 pages whose facts were known; learned from 0 app tasks (0 tricks), 2 app tasks followed a known routine (nothing new to learn); file k.db\n"},
	} {
		var b strings.Builder
		reportKnowledge(&b, runKnowledge{Path: "k.db"}, rundir.Summary{Knowledge: tc.u}, nil, false)
		if b.String() != tc.want {
			t.Errorf("reportKnowledge = %q, want %q", b.String(), tc.want)
		}
	}
	if got := knowledgeCounts(1, 1, 0, 1, 1); got != "1 app, 1 page, 0 transitions, 1 trick, 1 run" {
		t.Errorf("knowledgeCounts = %q", got)
	}
}

// TestModelCheckOnDemoRules: `fairy model check` against the scripted model serving the
// demo's own rules passes every role: the rules answer the agent's prompts, and the
// check's tiny request gets the check's answer.
func TestModelCheckOnDemoRules(t *testing.T) {
	url := serveModel(t, demoRules)
	env := map[string]string{"HOME": t.TempDir(), "OPENAI_BASE_URL": url, "FAIRY_MODEL_DEFAULT": "fairy-scripted"}
	code, stdout, stderr := execRoot(t, env, "", "model", "check")
	if code != 0 || strings.Contains(stdout, "FAIL") {
		t.Fatalf("model check on the demo rules: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, role := range []string{"planner", "replanner", "decider", "interactor", "extractor", "learner", "user", "judge", "checker"} {
		if !strings.Contains(stdout, role+" ") {
			t.Errorf("no line for %s:\n%s", role, stdout)
		}
	}
	if n := strings.Count(stdout, " ok "); n != 9 {
		t.Errorf("%d roles ok, want 9:\n%s", n, stdout)
	}
}

// TestDemoKnowledgeFoundAfterwards: the demo learns into a file of its own (what the
// virtual phone teaches never mixes with a real phone's knowledge), so it ends by saying
// where and how to see it; each command it suggests finds the demo's apps and routines,
// and the same commands without --knowledge say where the demo's knowledge is.
func TestDemoKnowledgeFoundAfterwards(t *testing.T) {
	home := map[string]string{"HOME": t.TempDir()}
	code, out, stderr := execRoot(t, home, "", "demo", "--text-only")
	if code != 0 {
		t.Fatalf("fairy demo: exit %d\n%s\n%s", code, out, stderr)
	}
	demoDB := filepath.Join(home["HOME"], ".local", "share", "fairy", "demo-knowledge.db")
	if !strings.Contains(out, "What the demo learned is kept apart from a real phone's, in "+demoDB+". See it with:\n") {
		t.Fatalf("the demo does not say where its knowledge is:\n%s", out)
	}
	cmds := regexp.MustCompile(`(?m)^  fairy (.+)$`).FindAllStringSubmatch(out, -1)
	if len(cmds) != 3 {
		t.Fatalf("the demo suggests %d commands, want map list, routines list, map view:\n%s", len(cmds), out)
	}
	for _, c := range cmds {
		args := strings.Fields(c[1])
		if args[0]+" "+args[1] == "map view" {
			args = append(args, "--out", filepath.Join(t.TempDir(), "map.html"))
		}
		code, got, stderr := execRoot(t, home, "", args...)
		if code != 0 || (!strings.Contains(got, "com.fairy.shop") && args[1] != "view") {
			t.Errorf("fairy %s: exit %d, the demo's shop is not there:\n%s%s", c[1], code, got, stderr)
		}
	}
	note := "fairy demo keeps what it learned apart, in " + demoDB + ": add --knowledge " + demoDB
	for _, args := range [][]string{{"map", "list"}, {"routines", "list"}, {"map", "show", "com.fairy.shop"}} {
		_, got, stderr := execRoot(t, home, "", args...)
		if !strings.Contains(got+stderr, note) {
			t.Errorf("fairy %s (default knowledge, none yet) does not point to the demo's:\n%s%s", strings.Join(args, " "), got, stderr)
		}
	}
}
