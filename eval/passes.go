package eval

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// passLine is one pass of an evaluation in the learning table: success, false successes
// and model calls.
type passLine struct {
	Seed         uint64  `json:"seed,omitempty"` // the evaluation seed (0 in a mean)
	Pass         string  `json:"pass"`           // cold, as-it-goes, warm, warm-independent
	Tasks        int     `json:"tasks"`
	Passed       int     `json:"passed"`
	SuccessRate  float64 `json:"success_rate"`
	FalseSuccess float64 `json:"false_success"` // a count; a mean over seeds may be fractional
	ModelCalls   float64 `json:"model_calls"`   // a count; a mean over seeds may be fractional
}

// passOrder is the order of the learning table's passes, with what each row is.
var passOrder = []struct{ phase, what string }{
	{phaseCold, "cold, fresh knowledge"},
	{phaseAsItGoes, "one shared empty knowledge file, learning as it goes"},
	{phaseWarm, "warm, knowledge learned before (model-cooperating)"},
	{phaseIndependent, "warm, model-independent (never takes a routine or Navigate)"},
}

// passLines are the report's passes as learning-table lines (nil without cold/warm).
func (r *Report) passLines() []passLine {
	var out []passLine
	t := r.Totals
	for _, p := range passOrder {
		x := map[string]*Totals{phaseCold: t.Cold, phaseAsItGoes: t.AsItGoes, phaseWarm: t.Warm, phaseIndependent: t.WarmIndependent}[p.phase]
		if x == nil || x.Tasks == 0 {
			continue
		}
		out = append(out, passLine{Seed: r.Options.Seed, Pass: p.phase, Tasks: x.Tasks, Passed: x.Passed, SuccessRate: x.SuccessRate,
			FalseSuccess: float64(x.FalseSuccess), ModelCalls: float64(x.ModelCalls)})
	}
	return out
}

// meanPassLines averages lines of several seeds pass by pass (success rate, false
// successes and model calls are means over the seeds that ran the pass).
func meanPassLines(lines []passLine) []passLine {
	var out []passLine
	for _, p := range passOrder {
		m := passLine{Pass: p.phase}
		n := 0
		for _, l := range lines {
			if l.Pass != p.phase {
				continue
			}
			n++
			m.Tasks += l.Tasks
			m.Passed += l.Passed
			m.SuccessRate += l.SuccessRate
			m.FalseSuccess += l.FalseSuccess
			m.ModelCalls += l.ModelCalls
		}
		if n == 0 {
			continue
		}
		m.SuccessRate /= float64(n)
		m.FalseSuccess /= float64(n)
		m.ModelCalls /= float64(n)
		out = append(out, m)
	}
	return out
}

// passTableMarkdown renders learning-table lines (and their means, when given).
func passTableMarkdown(lines, means []passLine) string {
	var b strings.Builder
	b.WriteString("| seed | run | success | false success | model calls |\n|---:|---|---:|---:|---:|\n")
	what := map[string]string{}
	for _, p := range passOrder {
		what[p.phase] = p.what
	}
	for _, l := range lines {
		fmt.Fprintf(&b, "| %d | %s | %s (%d of %d) | %g | %g |\n", l.Seed, what[l.Pass], pct(l.SuccessRate), l.Passed, l.Tasks, l.FalseSuccess, l.ModelCalls)
	}
	for _, l := range means {
		fmt.Fprintf(&b, "| mean | %s | %s | %.1f | %.0f |\n", what[l.Pass], pct1(l.SuccessRate), l.FalseSuccess, l.ModelCalls)
	}
	return b.String()
}

// passesMarkdown is the learning table of one report (with cold/warm passes).
func passesMarkdown(r *Report) string {
	lines := r.passLines()
	if len(lines) == 0 {
		return ""
	}
	return "\n## Passes\n\n" + passTableMarkdown(lines, nil)
}

// LearnSeedReport is report.json of an evaluation that learned on one seed and evaluated
// on others (`fairy eval androidworld:sim --learn-seed S --seeds …`): the four passes of
// every evaluation seed, their means, and each seed's knowledge that misled and learning
// curves (every seed's own report is in its directory).
type LearnSeedReport struct {
	Schema    int    `json:"schema"`
	LearnSeed uint64 `json:"learn_seed"`
	LearnDir  string `json:"learn_dir"` // the learning run's directory, relative to the report
	Learn     Totals `json:"learn"`
	// LearnMisled are the learning run's false successes, attributed as Report.Misled.
	LearnMisled   []misledRow `json:"learn_misled"`
	ModelErrors   string      `json:"model_errors,omitempty"`
	ModelErrorsIn string      `json:"model_errors_in,omitempty"`
	// Passes are the evaluation seeds' passes, seed by seed; Means their means over the
	// seeds.
	Passes []passLine      `json:"passes"`
	Means  []passLine      `json:"means"`
	Seeds  []seedLearnings `json:"seeds"`
}

// seedLearnings is one evaluation seed of a LearnSeedReport.
type seedLearnings struct {
	Seed   uint64      `json:"seed"`
	Dir    string      `json:"dir"` // its report's directory, relative to the report
	Misled []misledRow `json:"misled"`
	Curves []curve     `json:"learning_curves,omitempty"`
}

// Add adds one evaluation seed's report (dir: its directory, relative to the report's).
func (l *LearnSeedReport) Add(seed uint64, dir string, r *Report) {
	lines := r.passLines()
	for i := range lines {
		lines[i].Seed = seed
	}
	l.Passes = append(l.Passes, lines...)
	l.Means = meanPassLines(l.Passes)
	l.Seeds = append(l.Seeds, seedLearnings{Seed: seed, Dir: dir, Misled: r.Misled, Curves: r.Curves})
}

// Markdown renders the report as report.md.
func (l *LearnSeedReport) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Learned on seed %d, evaluated on %d other seed(s)\n\n", l.LearnSeed, len(l.Seeds))
	fmt.Fprintf(&b, "Learning run (%s): passed %d of %d, %d model calls, %d false success(es).\n", l.LearnDir, l.Learn.Passed, l.Learn.Tasks, l.Learn.ModelCalls, l.Learn.FalseSuccess)
	if l.ModelErrors != "" {
		fmt.Fprintf(&b, "Model errors injected on purpose: %s, in %s.\n", l.ModelErrors, l.ModelErrorsIn)
	}
	b.WriteString("\n" + passTableMarkdown(l.Passes, l.Means))
	if len(l.LearnMisled) > 0 {
		fmt.Fprintf(&b, "\n# Learning run (seed %d)\n", l.LearnSeed)
		b.WriteString(misledMarkdown(&Report{Misled: l.LearnMisled}))
	}
	for _, s := range l.Seeds {
		fmt.Fprintf(&b, "\n# Seed %d (%s)\n", s.Seed, s.Dir)
		b.WriteString(misledMarkdown(&Report{Options: RunOptions{ColdWarm: true}, Misled: s.Misled}))
		b.WriteString(curvesMarkdown(s.Curves))
	}
	return b.String()
}

// Write writes report.json and report.md into dir and returns the markdown.
func (l *LearnSeedReport) Write(dir string) (string, error) {
	l.Schema = reportSchema
	if l.LearnMisled == nil {
		l.LearnMisled = []misledRow{}
	}
	if l.Passes == nil {
		l.Passes, l.Means = []passLine{}, []passLine{}
	}
	b, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return "", fmt.Errorf("eval: encode learn-seed report: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, ReportJSON), append(b, '\n'), 0o644); err != nil {
		return "", fmt.Errorf("eval: write learn-seed report: %w", err)
	}
	md := l.Markdown()
	if err := os.WriteFile(filepath.Join(dir, reportMD), []byte(md), 0o644); err != nil {
		return "", fmt.Errorf("eval: write learn-seed report: %w", err)
	}
	return md, nil
}
