package eval

import (
	"encoding/json"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// safetyRows are the report's "model errors and safety" table: per pass, the success
// rate, the false successes (done, and the checks failed), the sensitive actions and
// those done without a consent that named their specifics, the consents refused, the
// questions the user could not judge, and the injected model errors by kind. The first row
// is the header.
func safetyRows(t Totals) [][]string {
	rows := [][]string{{"pass", "success", "false success", "sensitive actions", "without a named consent", "consents refused", "questions not judgeable", "injected errors"}}
	add := func(name string, x *Totals) {
		if x == nil || x.Tasks == 0 {
			return
		}
		rows = append(rows, []string{name, fmt.Sprintf("%d/%d (%s)", x.Passed, x.Tasks, pct(x.SuccessRate)), fmt.Sprint(x.FalseSuccess),
			fmt.Sprint(x.Sensitive), fmt.Sprint(x.Unnamed), fmt.Sprint(x.ConsentsRefused), fmt.Sprint(x.Unjudgeable), injectedText(x.InjectedErrors)})
	}
	if t.Cold == nil {
		add("all", &t)
	}
	add("cold", t.Cold)
	add("warm", t.Warm)
	add("warm-independent", t.WarmIndependent)
	add("learn", t.Learn)
	return rows
}

// injectedText writes injected error counts as "grounding 12, reflect 3", kinds sorted.
func injectedText(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	parts := make([]string, len(ks))
	for i, k := range ks {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

// PassFigures are one pass of a robustness row, over its seeds.
type PassFigures struct {
	Runs         int     `json:"runs"`          // evaluations (seeds) averaged
	SuccessRate  float64 `json:"success_rate"`  // mean over the seeds
	MinSuccess   float64 `json:"min_success"`   // the worst seed
	FalseSuccess int     `json:"false_success"` // summed over the seeds
	Unnamed      int     `json:"sensitive_without_named_consent"`
	Refused      int     `json:"consents_refused"`
	ModelCalls   float64 `json:"model_calls"` // mean over the seeds
	Injected     int     `json:"injected_errors"`
}

// RobustnessRow is one error setting of a robustness table: the same suite evaluated cold
// and warm (both ways) with these model errors, once per seed.
type RobustnessRow struct {
	ModelErrors string `json:"model_errors"` // "" for none
	// LearnOnly: the errors were injected where knowledge was learned (the cold pass)
	// only; the warm passes ran clean — the clean-after-noisy figure.
	LearnOnly   bool        `json:"learn_only,omitempty"`
	Seeds       []uint64    `json:"seeds"`
	Cold        PassFigures `json:"cold"`
	Warm        PassFigures `json:"warm"`
	Independent PassFigures `json:"warm_independent"`
}

// Robustness groups cold/warm reports by their model-error setting and averages each
// pass over the seeds, in the order the settings first appear.
func Robustness(reps []*Report) []RobustnessRow {
	var rows []RobustnessRow
	at := map[string]int{}
	for _, r := range reps {
		t := r.Totals
		if t.Cold == nil {
			continue
		}
		key := fmt.Sprintf("%s|%t", r.Options.ModelErrors, r.Options.ModelErrorsLearnOnly)
		i, ok := at[key]
		if !ok {
			i = len(rows)
			at[key] = i
			rows = append(rows, RobustnessRow{ModelErrors: r.Options.ModelErrors, LearnOnly: r.Options.ModelErrorsLearnOnly})
		}
		row := &rows[i]
		row.Seeds = append(row.Seeds, r.Options.Seed)
		addPass(&row.Cold, t.Cold)
		addPass(&row.Warm, t.Warm)
		addPass(&row.Independent, t.WarmIndependent)
	}
	return rows
}

func addPass(p *PassFigures, t *Totals) {
	if t == nil || t.Tasks == 0 {
		return
	}
	n := float64(p.Runs)
	p.SuccessRate = (p.SuccessRate*n + t.SuccessRate) / (n + 1)
	p.ModelCalls = (p.ModelCalls*n + float64(t.ModelCalls)) / (n + 1)
	if p.Runs == 0 || t.SuccessRate < p.MinSuccess {
		p.MinSuccess = t.SuccessRate
	}
	p.Runs++
	p.FalseSuccess += t.FalseSuccess
	p.Unnamed += t.Unnamed
	p.Refused += t.ConsentsRefused
	for _, v := range t.InjectedErrors {
		p.Injected += v
	}
}

// Robustness file names, written by WriteRobustness.
const (
	RobustnessJSON = "robustness.json"
	robustnessMD   = "robustness.md"
	RobustnessHTML = "robustness.html"
)

// RobustnessMarkdown renders rows as a Markdown table.
func RobustnessMarkdown(rows []RobustnessRow) string {
	var b strings.Builder
	b.WriteString("| model errors | seeds | cold success | warm success | warm-independent success | false success (cold/warm/indep.) | sensitive without named consent | consents refused | model calls cold → warm → indep. |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range rows {
		name := r.ModelErrors
		if name == "" {
			name = "none"
		}
		if r.LearnOnly {
			name += " while learning, clean after"
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %d/%d/%d | %d | %d | %.0f → %.0f → %.0f |\n", name, len(r.Seeds),
			pct1(r.Cold.SuccessRate), pct1(r.Warm.SuccessRate), pct1(r.Independent.SuccessRate),
			r.Cold.FalseSuccess, r.Warm.FalseSuccess, r.Independent.FalseSuccess,
			r.Cold.Unnamed+r.Warm.Unnamed+r.Independent.Unnamed, r.Cold.Refused+r.Warm.Refused+r.Independent.Refused,
			r.Cold.ModelCalls, r.Warm.ModelCalls, r.Independent.ModelCalls)
	}
	b.WriteString("\nSuccess is the mean over the seeds; false success (the agent said done and the task's checks failed), sensitive actions without a consent naming their specifics and refused consents are summed over them.\n")
	return b.String()
}

func pct1(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) }

var robustHTML = template.Must(template.New("robust").Funcs(template.FuncMap{"pct": pct1}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>fairy eval — robustness</title>
<style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px}td{text-align:right}</style></head><body>
<h1>fairy eval — robustness to model errors</h1>
<table id="robustness"><tr><th>model errors</th><th>seeds</th><th>cold success</th><th>warm success</th><th>warm-independent success</th><th>false success cold/warm/indep.</th><th>sensitive without named consent</th><th>consents refused</th><th>model calls cold → warm → indep.</th></tr>
{{range .}}<tr><th>{{if .ModelErrors}}{{.ModelErrors}}{{else}}none{{end}}{{if .LearnOnly}} while learning, clean after{{end}}</th><td>{{len .Seeds}}</td><td>{{pct .Cold.SuccessRate}}</td><td>{{pct .Warm.SuccessRate}}</td><td>{{pct .Independent.SuccessRate}}</td><td>{{.Cold.FalseSuccess}}/{{.Warm.FalseSuccess}}/{{.Independent.FalseSuccess}}</td><td>{{.Cold.Unnamed}}+{{.Warm.Unnamed}}+{{.Independent.Unnamed}}</td><td>{{.Cold.Refused}}+{{.Warm.Refused}}+{{.Independent.Refused}}</td><td>{{printf "%.0f" .Cold.ModelCalls}} → {{printf "%.0f" .Warm.ModelCalls}} → {{printf "%.0f" .Independent.ModelCalls}}</td></tr>
{{end}}</table>
<p>Success is the mean over the seeds; false success (the agent said done and the task's checks failed), sensitive actions without a consent naming their specifics and refused consents are summed over them.</p>
</body></html>
`))

// WriteRobustness writes robustness.json, robustness.md and robustness.html into dir.
func WriteRobustness(dir string, rows []RobustnessRow) error {
	js, err := json.MarshalIndent(rows, "", "  ")
	if err != nil {
		return err
	}
	var h strings.Builder
	if err := robustHTML.Execute(&h, rows); err != nil {
		return err
	}
	for name, body := range map[string][]byte{RobustnessJSON: js, robustnessMD: []byte(RobustnessMarkdown(rows)), RobustnessHTML: []byte(h.String())} {
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o644); err != nil {
			return fmt.Errorf("eval: write %s: %w", name, err)
		}
	}
	return nil
}
