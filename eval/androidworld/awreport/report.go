// Package awreport reports a run of the AndroidWorld mirror (androidworld:sim) the way
// the benchmark reports it: its mean success rate over families, success by tag ×
// difficulty and by app, coverage of the benchmark's families, steps beside its optimal
// steps; and what the benchmark cannot show (false successes, collateral changes, injected
// model errors, the questions asked and how the simulated person answered).
//
// It reads the runner's report (package eval) and the tags the mirror's tasks carry
// (package androidworld), so the mirror itself knows only the suite format.
package awreport

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/eval/androidworld"
)

// Summary is an androidworld:sim run reported the way the benchmark reports it: its mean
// success rate as the headline (suite_utils.process_episodes: each family's mean over its
// instances, a composite task by the fraction of its parts, 0 unless the agent said it was
// done; the mean over the families), success by tag × difficulty and by app, coverage of
// the benchmark's 116 families, steps and actions beside the benchmark's optimal steps
// and budget; and what a benchmark reader cannot get from AndroidWorld: false successes,
// collateral changes, injected model errors, and the questions the agent asked with what
// the simulated person answered (AndroidWorld's agents cannot ask, so asking is counted
// and shown). With several seeds it pools them and gives the spread over seeds.
type Summary struct {
	Seed  int64   `json:"seed"`
	Seeds []int64 `json:"seeds,omitempty"` // with --seeds: the seeds pooled
	// MeanSuccessRate is the benchmark's figure, the headline.
	MeanSuccessRate float64 `json:"mean_success_rate"`
	Tasks           int     `json:"tasks"`
	Passed          int     `json:"passed"`
	Families        int     `json:"families"`
	// FailedTrials are the tasks that did not run to an end (setup error, crash, no
	// phone): suite_utils' failed trials, whose is_successful is NaN, left out of every
	// mean; a family with none run to an end is left out of the mean over families.
	FailedTrials int `json:"failed_trials"`
	Apps         int `json:"apps"`
	// PartialScore is the mean check credit over the tasks, whether the agent said done
	// or not.
	PartialScore float64    `json:"partial_score"`
	ByApp        []Group    `json:"by_app"`
	ByDifficulty []Group    `json:"by_difficulty"`
	ByTag        []TagGroup `json:"by_tag_difficulty"`
	Coverage     Coverage   `json:"coverage"`
	Steps        int        `json:"steps"`
	Actions      int        `json:"actions"`
	OptimalSteps int        `json:"optimal_steps"` // the benchmark's optimal_steps, summed over the tasks
	Budget       int        `json:"budget"`
	OverBudget   int        `json:"over_budget"` // tasks that used their whole budget
	// FalseSuccesses are the tasks the agent reported done whose checks failed.
	FalseSuccesses []string `json:"false_successes"`
	// Collateral are the tasks that changed what their scoring checks do not look at (a
	// noise row deleted, a duplicate added), with the evidence.
	Collateral []Change `json:"collateral_changes"`
	// InjectedErrors are the model errors injected on purpose (--model-errors), by kind.
	InjectedErrors map[string]int `json:"injected_errors,omitempty"`
	// ApproveAll: the simulated person approved every consent (--approve-all); otherwise
	// they judged each by the task's intent.
	ApproveAll bool `json:"approve_all"`
	// Refused and Unjudgeable count the consents the person refused and the consent
	// questions that hid what they needed to judge; Judged lists them.
	Refused     int             `json:"consents_refused"`
	Unjudgeable int             `json:"questions_not_judgeable"`
	Judged      []AskedQuestion `json:"judged,omitempty"`
	Questions   int             `json:"questions"`
	AskingTasks int             `json:"asking_tasks"`
	ByFamily    []FamilyLine    `json:"by_family"`
	Asked       []AskedQuestion `json:"asked,omitempty"`
	// Spread is the mean success rate over seeds (with --seeds).
	Spread *Spread                        `json:"spread,omitempty"`
	Mirror string                         `json:"mirror"`
	Source androidworld.Source            `json:"source"`
	Kinds  map[string]int                 `json:"question_kinds,omitempty"`
	meta   map[string]androidworld.Family // the benchmark's families, by name
	scored int                            // the families with a trial run to an end: the mean's
}

// Group is a success rate over a set of tasks.
type Group struct {
	Name   string  `json:"name"`
	Tasks  int     `json:"tasks"`
	Passed int     `json:"passed"`
	Rate   float64 `json:"rate"`
}

// TagGroup is the benchmark's mean success rate of the families with one tag and one
// difficulty (suite_utils._print_results_by_tag): the mean of their mean success rates.
type TagGroup struct {
	Tag        string  `json:"tag"`
	Difficulty string  `json:"difficulty"`
	Families   int     `json:"families"`
	Rate       float64 `json:"mean_success_rate"`
}

// Coverage counts AndroidWorld's families by difficulty: all of them, those the mirror
// builds, and those this run ran.
type Coverage struct {
	Total        int            `json:"total"`
	Built        int            `json:"built"`
	Ran          int            `json:"ran"`
	ByDifficulty []CoverageLine `json:"by_difficulty"`
}

// CoverageLine is Coverage for one difficulty.
type CoverageLine struct {
	Difficulty string `json:"difficulty"`
	Total      int    `json:"total"`
	Built      int    `json:"built"`
	Ran        int    `json:"ran"`
}

// FamilyLine is one family's instances.
type FamilyLine struct {
	Family       string   `json:"family"`
	App          string   `json:"app"`
	Difficulty   string   `json:"difficulty"`
	Tags         []string `json:"tags,omitempty"`
	Instances    int      `json:"instances"`
	Passed       int      `json:"passed"`
	Rate         float64  `json:"mean_success_rate"`
	Steps        int      `json:"steps"`
	Actions      int      `json:"actions"`
	OptimalSteps int      `json:"optimal_steps"`
	Budget       int      `json:"budget"`
	Questions    int      `json:"questions"`
	FailedTrials int      `json:"failed_trials,omitempty"` // left out of Rate, as suite_utils does
	credit       float64
}

// Change is a task's collateral change.
type Change struct {
	Task     string `json:"task"`
	Evidence string `json:"evidence"`
}

// AskedQuestion is a question the agent asked during a task, with the person's answer.
type AskedQuestion struct {
	Task        string `json:"task"`
	Type        int    `json:"type"`
	Text        string `json:"text"`
	Answer      string `json:"answer,omitempty"`
	Refused     bool   `json:"refused,omitempty"`
	Unjudgeable bool   `json:"unjudgeable,omitempty"`
}

// Spread is the benchmark's mean success rate over seeds.
type Spread struct {
	Seeds []SeedLine `json:"seeds"`
	Mean  float64    `json:"mean"`
	Min   float64    `json:"min"`
	Max   float64    `json:"max"`
}

// SeedLine is one seed's run.
type SeedLine struct {
	Seed            int64   `json:"seed"`
	Tasks           int     `json:"tasks"`
	Passed          int     `json:"passed"`
	MeanSuccessRate float64 `json:"mean_success_rate"`
	FalseSuccesses  int     `json:"false_successes"`
	Collateral      int     `json:"collateral_changes"`
	Refused         int     `json:"consents_refused"`
}

// Run is one seed's evaluation report.
type Run struct {
	Seed   int64
	Report *eval.Report
}

const mirrorNote = "A mirror of AndroidWorld's task families on fairy's virtual phone (sim apps, not the benchmark's apps or emulator): not AndroidWorld itself, and its figures are not AndroidWorld scores."

var difficulties = []string{"easy", "medium", "hard"}

// Summarize reads an eval report of androidworld:sim.
func Summarize(rep *eval.Report, seed int64) Summary {
	return SummarizeRuns([]Run{{Seed: seed, Report: rep}})
}

// SummarizeRuns reads the reports of androidworld:sim over one or several seeds: the
// tasks of every seed pooled (each instance a trial of its family, as the benchmark
// pools its trials), and with several seeds the spread of the mean success rate.
func SummarizeRuns(runs []Run) Summary {
	s := summarize(runs)
	if len(runs) > 1 {
		sp := &Spread{}
		for _, r := range runs {
			one := summarize([]Run{r})
			sp.Seeds = append(sp.Seeds, SeedLine{Seed: r.Seed, Tasks: one.Tasks, Passed: one.Passed, MeanSuccessRate: one.MeanSuccessRate,
				FalseSuccesses: len(one.FalseSuccesses), Collateral: len(one.Collateral), Refused: one.Refused})
			s.Seeds = append(s.Seeds, r.Seed)
		}
		sp.Min, sp.Max = sp.Seeds[0].MeanSuccessRate, sp.Seeds[0].MeanSuccessRate
		for _, l := range sp.Seeds {
			sp.Mean += l.MeanSuccessRate / float64(len(sp.Seeds))
			sp.Min, sp.Max = min(sp.Min, l.MeanSuccessRate), max(sp.Max, l.MeanSuccessRate)
		}
		s.Spread = sp
	}
	return s
}

// taskCredit is a task's success as the benchmark counts it: the least credit of its
// scoring checks (a composite's fraction of parts held, 1 or 0 for the others; a
// collateral check does not score), and 0 unless the agent said it was done
// (suite_utils: task_successful if interaction_results.done else 0.0). checked is the
// credit whether or not the agent said done.
func taskCredit(r eval.TaskResult) (credit, checked float64) {
	checked, scoring := 1.0, 0
	for _, c := range r.Checks {
		if c.Collateral {
			continue
		}
		scoring++
		v := 0.0
		switch {
		case c.Credit != nil:
			v = *c.Credit
		case c.Pass:
			v = 1
		}
		checked = min(checked, v)
	}
	if scoring == 0 || r.Outcome == "crashed" || r.Outcome == "error" || r.Outcome == "skipped" {
		checked = 0
	}
	if r.Outcome != "done" {
		return 0, checked
	}
	return checked, checked
}

// failedTrial reports whether a task did not run to an end: its setup failed, the agent
// crashed or could not start, or no phone could run it. suite_utils catches such an
// episode's exception and records is_successful as NaN, which pandas' means skip.
func failedTrial(r eval.TaskResult) bool {
	return r.Outcome == "crashed" || r.Outcome == "error" || r.Outcome == "skipped"
}

func summarize(runs []Run) Summary {
	s := Summary{Mirror: mirrorNote, Kinds: map[string]int{}, InjectedErrors: map[string]int{}, meta: map[string]androidworld.Family{},
		FalseSuccesses: []string{}, Collateral: []Change{}} // [] in JSON, not null, when there are none
	if len(runs) > 0 {
		s.Seed = runs[0].Seed
	}
	if fams, src, err := androidworld.Families(); err == nil {
		s.Source = src
		for _, m := range fams {
			s.meta[m.Family] = m
		}
	}
	apps, diffs := map[string]*Group{}, map[string]*Group{}
	fams := map[string]*FamilyLine{}
	checked := 0.0
	for _, run := range runs {
		if run.Report == nil {
			continue
		}
		for _, r := range run.Report.Tasks {
			if !slices.Contains(r.Tags, androidworld.TagSuite) {
				continue
			}
			id := r.ID
			if len(runs) > 1 {
				id = fmt.Sprintf("%s (seed %d)", r.ID, run.Seed)
			}
			s.Tasks++
			app, diff, fam := androidworld.TagValue(r.Tags, androidworld.TagApp), androidworld.TagValue(r.Tags, androidworld.TagDifficulty), androidworld.TagValue(r.Tags, androidworld.TagFamily)
			budget, _ := strconv.Atoi(androidworld.TagValue(r.Tags, androidworld.TagBudget))
			for _, mk := range []struct {
				m map[string]*Group
				k string
			}{{apps, app}, {diffs, diff}} {
				m, k := mk.m, mk.k
				if m[k] == nil {
					m[k] = &Group{Name: k}
				}
				m[k].Tasks++
				if r.Pass {
					m[k].Passed++
				}
			}
			f := fams[fam]
			if f == nil {
				f = &FamilyLine{Family: fam, App: app, Difficulty: diff, Tags: s.meta[fam].Tags}
				fams[fam] = f
			}
			credit, c := taskCredit(r)
			checked += c
			if failedTrial(r) {
				f.FailedTrials++
				s.FailedTrials++
			} else {
				f.credit += credit
			}
			f.Instances++
			f.Steps += r.Steps
			f.Actions += r.Actions
			f.OptimalSteps += s.meta[fam].OptimalSteps
			f.Budget += budget
			f.Questions += len(r.Questions)
			s.Steps += r.Steps
			s.Actions += r.Actions
			s.OptimalSteps += s.meta[fam].OptimalSteps
			s.Budget += budget
			if budget > 0 && (r.Steps >= budget || r.Actions >= budget) { // the budget counts actions
				s.OverBudget++
			}
			if r.Pass {
				s.Passed++
				f.Passed++
			}
			if r.FalseSuccess {
				s.FalseSuccesses = append(s.FalseSuccesses, id)
			}
			if len(r.Collateral) > 0 {
				s.Collateral = append(s.Collateral, Change{Task: id, Evidence: strings.Join(r.Collateral, "; ")})
			}
			for k, n := range r.InjectedErrors {
				s.InjectedErrors[k] += n
			}
			s.Refused += r.ConsentsRefused
			s.Unjudgeable += r.Unjudgeable
			if len(r.Questions) > 0 {
				s.AskingTasks++
			}
			for _, q := range r.Questions {
				s.Questions++
				s.Kinds[string(q.Kind)]++
				a := AskedQuestion{Task: id, Type: q.Type, Text: q.Text, Answer: q.Answer, Refused: q.Refused, Unjudgeable: q.Unjudgeable}
				s.Asked = append(s.Asked, a)
				if q.Refused || q.Unjudgeable {
					s.Judged = append(s.Judged, a)
				}
			}
		}
	}
	if s.Tasks > 0 {
		s.PartialScore = checked / float64(s.Tasks)
	}
	s.ByApp, s.ByDifficulty = groups(apps, nil), groups(diffs, difficulties)
	s.Apps = len(apps)
	scored := 0
	for _, f := range fams {
		f.Rate = f.credit / float64(max(f.Instances-f.FailedTrials, 1))
		s.ByFamily = append(s.ByFamily, *f)
		if f.Instances > f.FailedTrials {
			s.MeanSuccessRate += f.Rate
			scored++
		}
	}
	slices.SortFunc(s.ByFamily, func(a, b FamilyLine) int { return strings.Compare(a.Family, b.Family) })
	s.Families, s.scored = len(fams), scored
	if scored > 0 {
		s.MeanSuccessRate /= float64(scored)
	}
	s.ByTag = byTag(s.ByFamily)
	s.Coverage = coverage(s.meta, fams)
	return s
}

// byTag is the benchmark's table of mean success rate by tag and difficulty: each
// family counts under each of its tags ("untagged" when it has none).
func byTag(fams []FamilyLine) []TagGroup {
	type key struct{ tag, diff string }
	sum, n := map[key]float64{}, map[key]int{}
	for _, f := range fams {
		if f.Instances == f.FailedTrials {
			continue // NaN: no trial ran to an end
		}
		// The benchmark's metadata gives some families the empty tag ("").
		tags := slices.DeleteFunc(slices.Clone(f.Tags), func(t string) bool { return strings.TrimSpace(t) == "" })
		if len(tags) == 0 {
			tags = []string{"untagged"}
		}
		for _, t := range tags {
			k := key{t, f.Difficulty}
			sum[k] += f.Rate
			n[k]++
		}
	}
	var out []TagGroup
	for k, c := range n {
		out = append(out, TagGroup{Tag: k.tag, Difficulty: k.diff, Families: c, Rate: sum[k] / float64(c)})
	}
	slices.SortFunc(out, func(a, b TagGroup) int {
		if c := strings.Compare(a.Tag, b.Tag); c != 0 {
			return c
		}
		return slices.Index(difficulties, a.Difficulty) - slices.Index(difficulties, b.Difficulty)
	})
	return out
}

// coverage counts the benchmark's families, those built and those ran, by difficulty.
func coverage(all map[string]androidworld.Family, ran map[string]*FamilyLine) Coverage {
	built := androidworld.BuiltFamilies()
	var c Coverage
	for _, diff := range difficulties {
		l := CoverageLine{Difficulty: diff}
		for name, m := range all {
			if m.Difficulty != diff {
				continue
			}
			l.Total++
			if slices.Contains(built, name) {
				l.Built++
			}
			if ran[name] != nil {
				l.Ran++
			}
		}
		c.Total, c.Built, c.Ran = c.Total+l.Total, c.Built+l.Built, c.Ran+l.Ran
		c.ByDifficulty = append(c.ByDifficulty, l)
	}
	return c
}

func groups(m map[string]*Group, order []string) []Group {
	var out []Group
	for _, g := range m {
		g.Rate = float64(g.Passed) / float64(max(g.Tasks, 1))
		out = append(out, *g)
	}
	rank := func(n string) int {
		if i := slices.Index(order, n); i >= 0 {
			return i
		}
		return len(order)
	}
	slices.SortFunc(out, func(a, b Group) int {
		if c := rank(a.Name) - rank(b.Name); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}

// JSON is the summary as indented JSON.
func (s Summary) JSON() ([]byte, error) { return json.MarshalIndent(s, "", "  ") }

// oneLine keeps a text from a phone or a model on one table line.
func oneLine(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\n", " "), "|", "\\|")
}

// Markdown is the summary as a Markdown page.
func (s Summary) Markdown() string {
	var b strings.Builder
	pct := func(p, n int) string { return fmt.Sprintf("%d/%d (%.0f%%)", p, n, 100*float64(p)/float64(max(n, 1))) }
	seeds := fmt.Sprintf("seed %d", s.Seed)
	if len(s.Seeds) > 1 {
		var l []string
		for _, x := range s.Seeds {
			l = append(l, strconv.FormatInt(x, 10))
		}
		seeds = "seeds " + strings.Join(l, ", ")
	}
	fmt.Fprintf(&b, "\n## androidworld:sim — %s\n\n%s\nSource: %s @ %s (%s).\n\n", seeds, s.Mirror, s.Source.Repository, s.Source.Commit, s.Source.License)
	fmt.Fprintf(&b, "**Mean success rate: %.3f** — AndroidWorld's figure: each family's mean over its instances (a composite task counts the fraction of its parts that held; a task the agent did not say was done counts 0), averaged over the %d families run.\n", s.MeanSuccessRate, s.scored)
	if s.FailedTrials > 0 {
		fmt.Fprintf(&b, "Failed trials (setup error, crash, no phone): %d, left out of the means as suite_utils leaves them out (its is_successful is NaN for them).\n", s.FailedTrials)
	}
	if sp := s.Spread; sp != nil {
		fmt.Fprintf(&b, "Over %d seeds: mean %.3f, min %.3f, max %.3f.\n", len(sp.Seeds), sp.Mean, sp.Min, sp.Max)
	}
	fmt.Fprintf(&b, "Success: %s over %d families from %d apps; mean check credit %.2f.\n", pct(s.Passed, s.Tasks), s.Families, s.Apps, s.PartialScore)
	c := s.Coverage
	var cov []string
	for _, l := range c.ByDifficulty {
		cov = append(cov, fmt.Sprintf("%s %d/%d", l.Difficulty, l.Built, l.Total))
	}
	fmt.Fprintf(&b, "Coverage: the mirror builds %d of AndroidWorld's %d families (%s); this run ran %d.\n", c.Built, c.Total, strings.Join(cov, ", "), c.Ran)
	fmt.Fprintf(&b, "Steps: %d steps, %d actions, against the benchmark's %d optimal steps and a budget of %d (10 × complexity a task, counted in steps and in actions); %d tasks used their whole budget.\n",
		s.Steps, s.Actions, s.OptimalSteps, s.Budget, s.OverBudget)
	fmt.Fprintf(&b, "False successes (the agent said done, the checks failed): %d.\n", len(s.FalseSuccesses))
	fmt.Fprintf(&b, "Collateral changes (beyond what the benchmark's checks look at: a noise row deleted, a duplicate added): %d tasks.\n", len(s.Collateral))
	if len(s.InjectedErrors) > 0 {
		var l []string
		total := 0
		for _, k := range slices.Sorted(maps.Keys(s.InjectedErrors)) {
			l = append(l, fmt.Sprintf("%s %d", k, s.InjectedErrors[k]))
			total += s.InjectedErrors[k]
		}
		fmt.Fprintf(&b, "Model errors injected on purpose: %d (%s).\n", total, strings.Join(l, ", "))
	} else {
		b.WriteString("Model errors injected on purpose: none.\n")
	}
	if s.ApproveAll {
		b.WriteString("The simulated person approved every consent (--approve-all: AndroidWorld's agents are never asked).\n")
	} else {
		fmt.Fprintf(&b, "The simulated person judged each consent by what the task asks for: %d refused, %d questions they could not judge (the question hid the recipient, the text or what is deleted).\n", s.Refused, s.Unjudgeable)
	}
	fmt.Fprintf(&b, "Questions asked: %d, in %d of %d tasks (AndroidWorld's agents cannot ask: these are counted, not hidden).\n\n", s.Questions, s.AskingTasks, s.Tasks)
	if sp := s.Spread; sp != nil {
		b.WriteString("| seed | mean success rate | success | false successes | collateral | refused |\n|---|---|---|---|---|---|\n")
		for _, l := range sp.Seeds {
			fmt.Fprintf(&b, "| %d | %.3f | %s | %d | %d | %d |\n", l.Seed, l.MeanSuccessRate, pct(l.Passed, l.Tasks), l.FalseSuccesses, l.Collateral, l.Refused)
		}
		b.WriteString("\n")
	}
	b.WriteString("| difficulty | success | families built |\n|---|---|---|\n")
	for _, g := range s.ByDifficulty {
		built := ""
		for _, l := range c.ByDifficulty {
			if l.Difficulty == g.Name {
				built = fmt.Sprintf("%d/%d", l.Built, l.Total)
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", g.Name, pct(g.Passed, g.Tasks), built)
	}
	b.WriteString("\nMean success rate by tag and difficulty (families run):\n\n| tag | easy | medium | hard |\n|---|---|---|---|\n")
	var tags []string
	for _, g := range s.ByTag {
		if !slices.Contains(tags, g.Tag) {
			tags = append(tags, g.Tag)
		}
	}
	for _, t := range tags {
		cells := []string{"-", "-", "-"}
		for _, g := range s.ByTag {
			if i := slices.Index(difficulties, g.Difficulty); g.Tag == t && i >= 0 {
				cells[i] = fmt.Sprintf("%.2f (%d)", g.Rate, g.Families)
			}
		}
		fmt.Fprintf(&b, "| %s | %s |\n", t, strings.Join(cells, " | "))
	}
	b.WriteString("\n| app | success |\n|---|---|\n")
	for _, g := range s.ByApp {
		fmt.Fprintf(&b, "| %s | %s |\n", g.Name, pct(g.Passed, g.Tasks))
	}
	b.WriteString("\n| family | app | difficulty | passed | success rate | steps / actions / optimal / budget | questions |\n|---|---|---|---|---|---|---|\n")
	for _, f := range s.ByFamily {
		fmt.Fprintf(&b, "| %s | %s | %s | %d/%d | %.2f | %d / %d / %d / %d | %d |\n", f.Family, f.App, f.Difficulty, f.Passed, f.Instances, f.Rate, f.Steps, f.Actions, f.OptimalSteps, f.Budget, f.Questions)
	}
	if len(s.FalseSuccesses) > 0 {
		fmt.Fprintf(&b, "\nFalse successes: %s.\n", strings.Join(s.FalseSuccesses, ", "))
	}
	if len(s.Collateral) > 0 {
		b.WriteString("\nCollateral changes:\n")
		for _, ch := range s.Collateral {
			fmt.Fprintf(&b, "- %s: %s\n", ch.Task, oneLine(ch.Evidence))
		}
	}
	if len(s.Judged) > 0 {
		b.WriteString("\nConsents the person refused or could not judge:\n")
		for _, a := range s.Judged {
			what := "refused"
			if !a.Refused {
				what = "could not judge"
			}
			fmt.Fprintf(&b, "- %s (%s): %s → %s\n", a.Task, what, oneLine(a.Text), oneLine(a.Answer))
		}
	}
	if len(s.Asked) > 0 {
		b.WriteString("\nQuestions:\n")
		for _, a := range s.Asked {
			fmt.Fprintf(&b, "- %s (type %d): %s\n", a.Task, a.Type, oneLine(a.Text))
		}
	}
	return b.String()
}
