package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/prompts"
)

var updatePrompts = flag.Bool("update", false, "rewrite the golden files")

// demoPromptPicks chooses, per role, the one prompt of the demo kept as a golden file: a
// step with history behind it where there is one.
var demoPromptPicks = []struct {
	role llm.Role
	want []string // the prompt holds all of these
}{
	{llm.RolePlanner, []string{prompts.MarkPhase + prompts.PhasePlan}},
	{llm.RoleReplanner, []string{prompts.MarkExpected, `"提交订单"`}},
	{llm.RoleDecider, []string{prompts.MarkSubgoal + "Submit the order and pay"}},
	{llm.RoleInteractor, []string{prompts.MarkInteractionType + "3"}},
	{llm.RoleExtractor, []string{`"提交订单"`}},
	{"checker", []string{"预计送达时间"}},
	{llm.RoleLearner, []string{"com.fairy.shop"}},
	{llm.RolePlanner, []string{prompts.MarkPhase + prompts.PhaseAdjust, "Bubble tea delivery"}},
}

// clockTime is a time of day other than the shop's delivery times: the status bar's clock.
var clockTime = regexp.MustCompile(`\b([01]\d|2[0-3]):[0-5]\d\b`)
var date = regexp.MustCompile(`\b20\d\d-\d\d-\d\d\b`)

// phoneDate is the date on the prompts' line with the phone's clock (the demo's phone
// keeps the host's time).
var phoneDate = regexp.MustCompile(`(?m)^(` + regexp.QuoteMeta(prompts.MarkClock) + `)\w+, \w+ \d{1,2}, \d{4}`)

func stable(s string) string {
	s = date.ReplaceAllString(s, "YYYY-MM-DD")
	s = phoneDate.ReplaceAllString(s, "${1}Weekday, Month D, YYYY")
	return clockTime.ReplaceAllStringFunc(s, func(t string) string {
		switch t {
		case "12:00", "12:30", "18:00", "18:30", "19:00", "19:30":
			return t
		}
		return "HH:MM"
	})
}

// TestDemoPromptsGolden keeps one prompt of every role the demo calls, as the role sees it
// on the demo's own screens, in testdata/prompts (go test -update rewrites them; read them
// by eye: each holds the instruction, the screen, the history and the rules, and nothing
// the role cannot use).
func TestDemoPromptsGolden(t *testing.T) {
	t.Parallel()
	d, err := sharedDemo()
	if err != nil {
		t.Fatal(err)
	}
	seen := d.seen
	for _, pick := range demoPromptPicks {
		var got *llm.Request
		for i := range seen {
			r := &seen[i]
			if r.Role != pick.role || len(r.Messages) == 0 {
				continue
			}
			ok := true
			for _, w := range pick.want {
				ok = ok && strings.Contains(r.Messages[0].Text, w)
			}
			if ok {
				got = r
				break
			}
		}
		name := string(pick.role)
		if pick.role == llm.RolePlanner {
			name += "_" + strings.TrimPrefix(pick.want[0], prompts.MarkPhase)
		}
		if got == nil {
			t.Errorf("the demo sent no %s prompt holding %q", pick.role, pick.want)
			continue
		}
		text := stable("== system\n" + got.System + "\n== user\n" + got.Messages[0].Text)
		path := filepath.Join("testdata", "prompts", "demo_"+name+".golden")
		if *updatePrompts {
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (go test -run TestDemoPromptsGolden -update writes it)", err)
		}
		if string(want) != text {
			t.Errorf("%s prompt of the demo changed; compare with %s (-update rewrites it):\n%s", pick.role, path, text)
		}
	}
}
