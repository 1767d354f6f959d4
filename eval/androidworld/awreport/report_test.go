package awreport

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/eval/androidworld"
	"github.com/fairy-go/fairy/eval/suite"
)

func result(id, outcome string, pass bool, checks ...suite.CheckResult) eval.TaskResult {
	fam, _, _ := strings.Cut(id, "-")
	fams, _, _ := androidworld.Families()
	var m androidworld.Family
	if i := slices.IndexFunc(fams, func(f androidworld.Family) bool { return f.Family == fam }); i >= 0 {
		m = fams[i]
	}
	return eval.TaskResult{ID: id, Outcome: outcome, Pass: pass, Checks: checks,
		Tags: []string{androidworld.TagSuite, androidworld.TagFamily + fam, androidworld.TagApp + "App" + fam[:4], androidworld.TagDifficulty + m.Difficulty, androidworld.TagBudget + strconv.Itoa(m.StepBudget())}}
}

func credit(v float64) *float64 { return &v }

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// syntheticRuns are two seeds' reports with every figure the summary gives.
func syntheticRuns() []Run {
	sms0 := result("SimpleSmsSend-0", "done", true, suite.CheckResult{Pass: true})
	sms0.Steps, sms0.Actions, sms0.ConsentsRefused = 5, 6, 1
	sms0.Questions = []eval.Question{{Type: 2, Kind: "yesno", Text: `tap "Send SMS" (send) — to: +1555`, Answer: "No — that would go to +1555, and I meant +1666.", Refused: true}}
	sms1 := result("SimpleSmsSend-1", "done", false, suite.CheckResult{Pass: false})
	sms1.FalseSuccess, sms1.InjectedErrors, sms1.Steps, sms1.Actions = true, map[string]int{"grounding": 2}, 4, 4
	markor := result("MarkorCreateNoteAndSms-0", "done", false, suite.CheckResult{Pass: false, Credit: credit(0.5)})
	markor.InjectedErrors = map[string]int{"grounding": 1, "reflect": 1}
	expense := result("ExpenseDeleteMultiple-0", "done", true, suite.CheckResult{Pass: true}, suite.CheckResult{Pass: false, Collateral: true})
	expense.Collateral = []string{"row n3 (name=\"Rent\") was removed"}
	cal := result("SimpleCalendarNextEvent-0", "failed", false, suite.CheckResult{Pass: true})
	cal.Unjudgeable = 1
	cal.Questions = []eval.Question{{Type: 2, Kind: "yesno", Text: "May I delete it?", Answer: "Yes, go ahead.", Unjudgeable: true}}
	other := eval.TaskResult{ID: "builtin-task", Outcome: "done", Pass: true}
	seed2 := result("SimpleSmsSend-0", "done", true, suite.CheckResult{Pass: true})
	return []Run{
		{Seed: 1, Report: &eval.Report{Tasks: []eval.TaskResult{sms0, sms1, markor, expense, cal, other}}},
		{Seed: 2, Report: &eval.Report{Tasks: []eval.TaskResult{seed2}}},
	}
}

// TestSummaryFigures: on synthetic reports, every figure of androidworld.md/json: the
// benchmark's mean success rate (each family's mean over its instances, a composite by
// its credit, 0 unless done, then the mean over families), success by tag × difficulty,
// false successes, collateral changes (a collateral check does not score), injected
// errors, the person's refusals and unjudgeable questions, coverage of the 116 families,
// optimal steps beside steps and actions, and the spread over seeds.
func TestSummaryFigures(t *testing.T) {
	runs := syntheticRuns()
	s := Summarize(runs[0].Report, 1)
	// Families: SimpleSmsSend (1+0)/2, MarkorCreateNoteAndSms 0.5 (composite credit),
	// ExpenseDeleteMultiple 1 (its collateral check does not score), SimpleCalendarNextEvent
	// 0 (its check held but the agent did not say done).
	if s.Tasks != 5 || s.Families != 4 || !near(s.MeanSuccessRate, (0.5+0.5+1+0)/4) {
		t.Errorf("tasks %d families %d mean success rate %v, want 5, 4, 0.5", s.Tasks, s.Families, s.MeanSuccessRate)
	}
	if !near(s.PartialScore, (1+0+0.5+1+1)/5.0) {
		t.Errorf("mean check credit %v, want 0.7", s.PartialScore)
	}
	tag := func(name, diff string) TagGroup {
		i := slices.IndexFunc(s.ByTag, func(g TagGroup) bool { return g.Tag == name && g.Difficulty == diff })
		if i < 0 {
			return TagGroup{}
		}
		return s.ByTag[i]
	}
	for _, want := range []TagGroup{
		{"parameterized", "easy", 2, 0.5}, {"parameterized", "medium", 1, 0.5}, {"parameterized", "hard", 1, 0.5},
		{"data_edit", "easy", 1, 1}, {"multi_app", "hard", 1, 0.5}, {"information_retrieval", "easy", 1, 0},
	} {
		if got := tag(want.Tag, want.Difficulty); got.Families != want.Families || !near(got.Rate, want.Rate) {
			t.Errorf("tag %s × %s: %+v, want %+v", want.Tag, want.Difficulty, got, want)
		}
	}
	if len(s.FalseSuccesses) != 1 || s.FalseSuccesses[0] != "SimpleSmsSend-1" {
		t.Errorf("false successes %v", s.FalseSuccesses)
	}
	if len(s.Collateral) != 1 || s.Collateral[0].Task != "ExpenseDeleteMultiple-0" || !strings.Contains(s.Collateral[0].Evidence, "Rent") {
		t.Errorf("collateral %+v", s.Collateral)
	}
	if s.InjectedErrors["grounding"] != 3 || s.InjectedErrors["reflect"] != 1 {
		t.Errorf("injected errors %v", s.InjectedErrors)
	}
	if s.Refused != 1 || s.Unjudgeable != 1 || len(s.Judged) != 2 || !strings.Contains(s.Judged[0].Answer, "I meant +1666") {
		t.Errorf("refused %d, not judgeable %d, judged %+v", s.Refused, s.Unjudgeable, s.Judged)
	}
	if s.Steps != 9 || s.Actions != 10 || s.OptimalSteps != 6+6+9+10+4 {
		t.Errorf("steps %d actions %d optimal %d, want 9, 10, 35", s.Steps, s.Actions, s.OptimalSteps)
	}
	// Coverage, computed from the benchmark's metadata and the families built.
	fams, _, err := androidworld.Families()
	if err != nil {
		t.Fatal(err)
	}
	c := s.Coverage
	if c.Total != 116 || c.Built != len(androidworld.BuiltFamilies()) || c.Ran != 4 || len(c.ByDifficulty) != 3 {
		t.Fatalf("coverage %+v, want 116 families, %d built, 4 ran", c, len(androidworld.BuiltFamilies()))
	}
	for _, l := range c.ByDifficulty {
		total, built := 0, 0
		for _, m := range fams {
			if m.Difficulty == l.Difficulty {
				total++
				if slices.Contains(androidworld.BuiltFamilies(), m.Family) {
					built++
				}
			}
		}
		if l.Total != total || l.Built != built {
			t.Errorf("coverage %s: %+v, want %d/%d", l.Difficulty, l, built, total)
		}
	}
	if h := c.ByDifficulty[2]; h.Difficulty != "hard" || h.Ran != 1 {
		t.Errorf("hard coverage %+v, want MarkorCreateNoteAndSms ran", h)
	}
	md := s.Markdown()
	for _, want := range []string{"**Mean success rate: 0.500**", "False successes (the agent said done, the checks failed): 1.",
		"Collateral changes (beyond what the benchmark's checks look at: a noise row deleted, a duplicate added): 1 tasks.",
		"Model errors injected on purpose: 4 (grounding 3, reflect 1).", "1 refused, 1 questions they could not judge",
		"Steps: 9 steps, 10 actions, against the benchmark's 35 optimal steps", "| parameterized | 0.50 (2) | 0.50 (1) | 0.50 (1) |",
		"| data_edit | 1.00 (1) | - | - |", "- ExpenseDeleteMultiple-0: row n3", "- SimpleSmsSend-0 (refused): ", "- SimpleCalendarNextEvent-0 (could not judge): May I delete it?",
		"| SimpleSmsSend | AppSimp | medium | 1/2 | 0.50 | 9 / 10 / 12 / 24 | 1 |"} {
		if !strings.Contains(md, want) {
			t.Errorf("androidworld.md lacks %q:\n%s", want, md)
		}
	}
	s.ApproveAll = true
	if md := s.Markdown(); !strings.Contains(md, "approved every consent (--approve-all") || strings.Contains(md, "could not judge (the question") {
		t.Errorf("with --approve-all the page should say the person approved all:\n%s", md)
	}

	// Two seeds pooled: SimpleSmsSend has three instances (1, 0, 1); the spread is the
	// mean success rate of each seed.
	all := SummarizeRuns(runs)
	if all.Tasks != 6 || !near(all.MeanSuccessRate, (2.0/3+0.5+1+0)/4) || !slices.Equal(all.Seeds, []int64{1, 2}) {
		t.Errorf("pooled: %d tasks, rate %v, seeds %v", all.Tasks, all.MeanSuccessRate, all.Seeds)
	}
	sp := all.Spread
	if sp == nil || len(sp.Seeds) != 2 || !near(sp.Min, 0.5) || !near(sp.Max, 1) || !near(sp.Mean, 0.75) || sp.Seeds[0].FalseSuccesses != 1 || sp.Seeds[0].Refused != 1 {
		t.Fatalf("spread %+v", sp)
	}
	md = all.Markdown()
	for _, want := range []string{"## androidworld:sim — seeds 1, 2", "Over 2 seeds: mean 0.750, min 0.500, max 1.000.", "| 2 | 1.000 | 1/1 (100%) | 0 | 0 | 0 |",
		"SimpleSmsSend-1 (seed 1)"} {
		if !strings.Contains(md, want) {
			t.Errorf("androidworld.md over seeds lacks %q:\n%s", want, md)
		}
	}
	b, err := all.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var j map[string]any
	if err := json.Unmarshal(b, &j); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"mean_success_rate", "by_tag_difficulty", "coverage", "false_successes", "collateral_changes", "injected_errors",
		"consents_refused", "questions_not_judgeable", "optimal_steps", "actions", "spread"} {
		if _, ok := j[k]; !ok {
			t.Errorf("androidworld.json lacks %q", k)
		}
	}
}

// TestFailedTrialsLeftOut: a task that did not run to an end (its setup failed, the agent
// crashed) is what suite_utils calls a failed trial: its is_successful is NaN, which the
// per-family mean and the mean over families skip. It is counted apart, not scored 0.
func TestFailedTrialsLeftOut(t *testing.T) {
	sms := result("SimpleSmsSend-0", "done", true, suite.CheckResult{Pass: true})
	smsErr := result("SimpleSmsSend-1", "error", false)
	cal := result("SimpleCalendarNextEvent-0", "crashed", false)
	s := Summarize(&eval.Report{Tasks: []eval.TaskResult{sms, smsErr, cal}}, 1)
	if !near(s.MeanSuccessRate, 1) || s.FailedTrials != 2 || s.Families != 2 {
		t.Errorf("mean success rate %v, failed trials %d, families %d; want 1 (SimpleSmsSend 1/1, SimpleCalendarNextEvent NaN), 2, 2",
			s.MeanSuccessRate, s.FailedTrials, s.Families)
	}
	for _, g := range s.ByTag {
		if g.Difficulty == "easy" && g.Tag == "information_retrieval" {
			t.Errorf("a family with no trial run to an end is in the tag table: %+v", g)
		}
	}
	if md := s.Markdown(); !strings.Contains(md, "Failed trials (setup error, crash, no phone): 2") || !strings.Contains(md, "averaged over the 1 families run") {
		t.Errorf("androidworld.md does not count the failed trials apart:\n%s", md)
	}
}

// TestByTagEmptyTag: the benchmark's metadata gives some families the tag "" (the
// Settings switches among them); the table names them untagged, not with a blank row.
func TestByTagEmptyTag(t *testing.T) {
	got := byTag([]FamilyLine{
		{Family: "SystemBrightnessMax", Difficulty: "easy", Tags: []string{""}, Instances: 1, Rate: 1},
		{Family: "SimpleSmsSend", Difficulty: "easy", Tags: []string{"data_entry"}, Instances: 1, Rate: 0},
	})
	for _, g := range got {
		if strings.TrimSpace(g.Tag) == "" {
			t.Errorf("a blank tag row: %+v", g)
		}
	}
	if !slices.ContainsFunc(got, func(g TagGroup) bool { return g.Tag == "untagged" && g.Families == 1 && g.Rate == 1 }) {
		t.Errorf("no untagged row for the family tagged \"\": %+v", got)
	}
}

// TestSummaryScoresWithoutCollateral: the mean credit counts a composite's fraction and
// leaves collateral checks out (a pass with a noise row deleted is a whole credit); a
// run that spent its budget in actions, in fewer steps, is over budget.
func TestSummaryScoresWithoutCollateral(t *testing.T) {
	half := 0.5
	tags := func(fam string) []string {
		return []string{androidworld.TagSuite, androidworld.TagFamily + fam, androidworld.TagApp + "Notes", androidworld.TagDifficulty + "easy", androidworld.TagBudget + "10"}
	}
	rep := &eval.Report{Tasks: []eval.TaskResult{
		{ID: "MarkorDeleteNote-0", Tags: tags("MarkorDeleteNote"), Pass: true, Steps: 4, Actions: 10, Checks: []suite.CheckResult{
			{Pass: true}, {Pass: false, Collateral: true, Evidence: "row n1 was removed"}, {Pass: true, Kind: "outcome"}}},
		{ID: "MarkorCreateNoteAndSms-0", Tags: tags("MarkorCreateNoteAndSms"), Steps: 5, Actions: 6, Checks: []suite.CheckResult{
			{Pass: false, Credit: &half}, {Pass: true, Kind: "outcome"}}},
	}}
	s := Summarize(rep, 1)
	if s.PartialScore != 0.75 || s.OverBudget != 1 || s.Passed != 1 {
		t.Errorf("partial score %.2f, over budget %d, passed %d; want 0.75 (1 and ½), 1, 1", s.PartialScore, s.OverBudget, s.Passed)
	}
}
