package androidworld

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fairy-go/fairy/eval"
)

// Summary is an androidworld:sim run reported the way the benchmark reports: success by
// app and by difficulty, steps against the step budget, and the questions the agent
// asked (AndroidWorld's agents cannot ask, so asking is counted and shown).
type Summary struct {
	Seed         int64           `json:"seed"`
	Tasks        int             `json:"tasks"`
	Passed       int             `json:"passed"`
	Families     int             `json:"families"`
	Apps         int             `json:"apps"`
	PartialScore float64         `json:"partial_score"` // mean partial credit over the tasks
	ByApp        []Group         `json:"by_app"`
	ByDifficulty []Group         `json:"by_difficulty"`
	Steps        int             `json:"steps"`
	Budget       int             `json:"budget"`
	OverBudget   int             `json:"over_budget"` // tasks that used their whole budget
	Questions    int             `json:"questions"`
	AskingTasks  int             `json:"asking_tasks"`
	ByFamily     []FamilyLine    `json:"by_family"`
	Asked        []AskedQuestion `json:"asked,omitempty"`
	Mirror       string          `json:"mirror"`
	Source       Source          `json:"source"`
	Kinds        map[string]int  `json:"question_kinds,omitempty"`
}

// Group is a success rate over a set of tasks.
type Group struct {
	Name   string  `json:"name"`
	Tasks  int     `json:"tasks"`
	Passed int     `json:"passed"`
	Rate   float64 `json:"rate"`
}

// FamilyLine is one family's instances.
type FamilyLine struct {
	Family     string `json:"family"`
	App        string `json:"app"`
	Difficulty string `json:"difficulty"`
	Instances  int    `json:"instances"`
	Passed     int    `json:"passed"`
	Steps      int    `json:"steps"`
	Budget     int    `json:"budget"`
	Questions  int    `json:"questions"`
}

// AskedQuestion is a question the agent asked during a task.
type AskedQuestion struct {
	Task string `json:"task"`
	Type int    `json:"type"`
	Text string `json:"text"`
}

const mirrorNote = "A mirror of AndroidWorld's task families on fairy's virtual phone (sim apps, not the benchmark's apps or emulator): not AndroidWorld itself, and its figures are not AndroidWorld scores."

func tagValue(tags []string, prefix string) string {
	for _, t := range tags {
		if v, ok := strings.CutPrefix(t, prefix); ok {
			return v
		}
	}
	return ""
}

// Summarize reads an eval report of androidworld:sim.
func Summarize(rep *eval.Report, seed int64) Summary {
	s := Summary{Seed: seed, Mirror: mirrorNote, Kinds: map[string]int{}}
	if d, err := loadData(); err == nil {
		s.Source = d.Source
	}
	apps, diffs := map[string]*Group{}, map[string]*Group{}
	fams := map[string]*FamilyLine{}
	credit := 0.0
	for _, r := range rep.Tasks {
		if !slices.Contains(r.Tags, tagSuite) {
			continue
		}
		s.Tasks++
		app, diff, fam := tagValue(r.Tags, tagApp), tagValue(r.Tags, tagDifficulty), tagValue(r.Tags, tagFamily)
		budget, _ := strconv.Atoi(tagValue(r.Tags, tagBudget))
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
			f = &FamilyLine{Family: fam, App: app, Difficulty: diff}
			fams[fam] = f
		}
		f.Instances++
		f.Steps += r.Steps
		f.Budget += budget
		f.Questions += len(r.Questions)
		s.Steps += r.Steps
		s.Budget += budget
		if budget > 0 && (r.Steps >= budget || r.Actions >= budget) { // the budget counts actions
			s.OverBudget++
		}
		if r.Pass {
			s.Passed++
			f.Passed++
		}
		c := 1.0
		for _, ch := range r.Checks {
			if !ch.Collateral { // a collateral change is no part of the benchmark's score
				c = min(c, partialCredit(ch))
			}
		}
		if len(r.Checks) == 0 {
			c = 0
		}
		credit += c
		if len(r.Questions) > 0 {
			s.AskingTasks++
		}
		for _, q := range r.Questions {
			s.Questions++
			s.Kinds[string(q.Kind)]++
			s.Asked = append(s.Asked, AskedQuestion{Task: r.ID, Type: q.Type, Text: q.Text})
		}
	}
	if s.Tasks > 0 {
		s.PartialScore = credit / float64(s.Tasks)
	}
	s.ByApp, s.ByDifficulty = groups(apps, nil), groups(diffs, []string{"easy", "medium", "hard"})
	s.Apps = len(apps)
	for _, f := range fams {
		s.ByFamily = append(s.ByFamily, *f)
	}
	slices.SortFunc(s.ByFamily, func(a, b FamilyLine) int { return strings.Compare(a.Family, b.Family) })
	s.Families = len(fams)
	return s
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

// Markdown is the summary as a Markdown page.
func (s Summary) Markdown() string {
	var b strings.Builder
	pct := func(p, n int) string { return fmt.Sprintf("%d/%d (%.0f%%)", p, n, 100*float64(p)/float64(max(n, 1))) }
	fmt.Fprintf(&b, "\n## androidworld:sim — seed %d\n\n%s\nSource: %s @ %s (%s).\n\n", s.Seed, s.Mirror, s.Source.Repository, s.Source.Commit, s.Source.License)
	fmt.Fprintf(&b, "Success: %s over %d families from %d apps; mean partial credit %.2f.\n", pct(s.Passed, s.Tasks), s.Families, s.Apps, s.PartialScore)
	fmt.Fprintf(&b, "Steps: %d against a budget of %d (10 × complexity a task); %d tasks used their whole budget.\n", s.Steps, s.Budget, s.OverBudget)
	fmt.Fprintf(&b, "Questions asked: %d, in %d of %d tasks (AndroidWorld's agents cannot ask: these are counted, not hidden).\n\n", s.Questions, s.AskingTasks, s.Tasks)
	b.WriteString("| difficulty | success |\n|---|---|\n")
	for _, g := range s.ByDifficulty {
		fmt.Fprintf(&b, "| %s | %s |\n", g.Name, pct(g.Passed, g.Tasks))
	}
	b.WriteString("\n| app | success |\n|---|---|\n")
	for _, g := range s.ByApp {
		fmt.Fprintf(&b, "| %s | %s |\n", g.Name, pct(g.Passed, g.Tasks))
	}
	b.WriteString("\n| family | app | difficulty | passed | steps / budget | questions |\n|---|---|---|---|---|---|\n")
	for _, f := range s.ByFamily {
		fmt.Fprintf(&b, "| %s | %s | %s | %d/%d | %d / %d | %d |\n", f.Family, f.App, f.Difficulty, f.Passed, f.Instances, f.Steps, f.Budget, f.Questions)
	}
	if len(s.Asked) > 0 {
		b.WriteString("\nQuestions:\n")
		for _, a := range s.Asked {
			fmt.Fprintf(&b, "- %s (type %d): %s\n", a.Task, a.Type, strings.ReplaceAll(a.Text, "\n", " "))
		}
	}
	return b.String()
}
