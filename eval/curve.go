package eval

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// curve is the learning curve of a pass whose runs shared one knowledge file over several
// instances of each family (the pass that learns as it goes, a learning pass, or a single
// pass with --knowledge shared or a file): success and model calls by instance number.
type curve struct {
	Phase  string       `json:"phase"` // the pass ("" the only pass)
	Points []curvePoint `json:"points"`
}

// curvePoint is every family's instance number Instance (1 the first run of the family in
// the pass, 2 the second, …) added up.
type curvePoint struct {
	Instance       int     `json:"instance"`
	Runs           int     `json:"runs"` // families with an instance of this number
	Passed         int     `json:"passed"`
	SuccessRate    float64 `json:"success_rate"`
	ModelCalls     int     `json:"model_calls"`
	MeanModelCalls float64 `json:"mean_model_calls"`
}

// familyTag is the tag prefix that names a task's family (androidworld:sim's tasks carry
// it); without it a task's family is its ID without a trailing instance number ("-2").
const familyTag = "family:"

var instanceSuffix = regexp.MustCompile(`-\d+$`)

// family is the family a task is an instance of.
func family(x TaskResult) string {
	for _, t := range x.Tags {
		if f, ok := strings.CutPrefix(t, familyTag); ok && f != "" {
			return f
		}
	}
	return instanceSuffix.ReplaceAllString(x.ID, "")
}

// curves builds a curve for every pass that shared one knowledge file and ran some family
// more than once; the runs count in the order they ran (repeat, then the suite's order).
func (r *Report) curves() []curve {
	shares := func(phase string) bool {
		switch phase {
		case phaseAsItGoes, PhaseLearn:
			return true
		case "":
			return r.Options.Knowledge != KnowledgeFresh && r.Options.Knowledge != ""
		}
		return false
	}
	var phases []string
	runs := map[string][]TaskResult{}
	for _, x := range r.Tasks {
		if !shares(x.Phase) {
			continue
		}
		if runs[x.Phase] == nil {
			phases = append(phases, x.Phase)
		}
		runs[x.Phase] = append(runs[x.Phase], x)
	}
	out := []curve{}
	for _, ph := range phases {
		xs := runs[ph]
		sort.SliceStable(xs, func(i, j int) bool { return xs[i].Repeat < xs[j].Repeat })
		seen := map[string]int{}
		var points []curvePoint
		for _, x := range xs {
			f := family(x)
			seen[f]++
			n := seen[f]
			for len(points) < n {
				points = append(points, curvePoint{Instance: len(points) + 1})
			}
			p := &points[n-1]
			p.Runs++
			p.ModelCalls += x.ModelCalls
			if x.Pass {
				p.Passed++
			}
		}
		if len(points) < 2 {
			continue // one instance a family: no curve
		}
		for i := range points {
			p := &points[i]
			p.SuccessRate = float64(p.Passed) / float64(p.Runs)
			p.MeanModelCalls = float64(p.ModelCalls) / float64(p.Runs)
		}
		out = append(out, curve{Phase: ph, Points: points})
	}
	return out
}

// curvesMarkdown is the learning curve section of report.md.
func curvesMarkdown(cs []curve) string {
	if len(cs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n## Learning curve\n\nRuns that shared one knowledge file, by instance number within their family (1: the family's first run in the pass).\n")
	for _, c := range cs {
		fmt.Fprintf(&b, "\n%s pass:\n\n| instance | runs | passed | success | model calls | mean model calls |\n|---:|---:|---:|---:|---:|---:|\n", cmpOr(c.Phase, "the"))
		for _, p := range c.Points {
			fmt.Fprintf(&b, "| %d | %d | %d | %s | %d | %.1f |\n", p.Instance, p.Runs, p.Passed, pct(p.SuccessRate), p.ModelCalls, p.MeanModelCalls)
		}
	}
	return b.String()
}
