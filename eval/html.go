package eval

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"path/filepath"
	"strings"

	"github.com/fairy-go/fairy/rundir"
)

// thumbWidth and thumbQuality are the width (pixels) and JPEG quality of the trajectory
// screenshots in an evaluation's report.html.
const (
	thumbWidth   = 240
	thumbQuality = 55
)

type htmlTask struct {
	TaskResult
	PhaseLabel string // the phase and repeat the task section shows
	Anchor     string
	Trajectory []rundir.PageStep
	Note       string
	Run        bool // always false here: the page of one run is rundir's
	Open       bool // shown unfolded
	// Outcomes are the words the outcome filter keeps the task for (see outcomesOf).
	Outcomes string
}

// The outcome filter's words: a task is passed or failed, and may also be a false
// success (reported done, checks failed) or refused (the person said no; a task that
// expects the refusal passes too).
const (
	outcomePassed       = "passed"
	outcomeFailed       = "failed"
	outcomeFalseSuccess = "false-success"
	outcomeRefused      = "refused"
)

// outcomesOf is the outcome filter's words for x, space-separated.
func outcomesOf(x TaskResult) string {
	w := []string{outcomeFailed}
	if x.Pass {
		w[0] = outcomePassed
	}
	if x.FalseSuccess {
		w = append(w, outcomeFalseSuccess)
	}
	if x.Outcome == outcomeRefused {
		w = append(w, outcomeRefused)
	}
	return strings.Join(w, " ")
}

// filterRow is one choice of the outcome filter and how many tasks it keeps.
type filterRow struct {
	Value, Label string
	Count        int
}

// filterRows are the outcome filter's choices for page.
func filterRows(items []htmlTask) []filterRow {
	rows := []filterRow{{"all", "all", len(items)}, {outcomePassed, "passed", 0}, {outcomeFailed, "failed", 0},
		{outcomeFalseSuccess, "false success", 0}, {outcomeRefused, "refused", 0}}
	for _, it := range items {
		for i := 1; i < len(rows); i++ {
			if strings.Contains(" "+it.Outcomes+" ", " "+rows[i].Value+" ") {
				rows[i].Count++
			}
		}
	}
	return rows
}

type htmlPage struct {
	*Report
	Items []htmlTask
}

// htmlTmpl is report.html, made of the run page's templates (rundir.Templates): its
// "task" section, one task's outcome, questions and trajectory, and its "style".
var htmlTmpl = template.Must(rundir.Templates().New("report").Funcs(template.FuncMap{
	"pct":     pct,
	"phase":   phaseName,
	"cwrows":  cwRows,
	"savings": savingsRows,
	"safety":  safetyRows,
	"inplay":  inPlaySummary,
	"filters": filterRows,
}).Parse(reportHTML))

const reportHTML = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>fairy eval — {{.Suite}}</title>
{{template "style"}}</head><body>{{template "cjkwarm"}}
<h1>fairy eval — {{.Suite}}</h1>
<p class="muted">{{.Started.Format "2006-01-02 15:04:05 MST"}} · devices: {{range $i, $d := .Devices}}{{if $i}}, {{end}}{{$d}}{{end}} · parallel {{.Options.Parallel}} · repeat {{.Options.Repeat}} · knowledge {{.Options.Knowledge}}{{if .Options.ColdWarm}} · cold/warm{{end}}{{with .Options.Learn}} · learned first on {{.}}{{end}}{{if .Interrupted}} · <b class="fail">interrupted</b>: only finished tasks are reported{{end}}</p>
<h2>Totals</h2>
<table id="totals"><tr><th></th><th>tasks</th><th>passed</th><th>steps</th><th>model calls</th><th>prompt tokens</th><th>completion tokens</th><th>cost</th><th>wall s</th></tr>
{{with .Totals}}<tr><th>total</th><td class="n">{{.Tasks}}</td><td class="n">{{.Passed}}</td><td class="n">{{.Steps}}</td><td class="n">{{.ModelCalls}}</td><td class="n">{{.PromptTokens}}</td><td class="n">{{.CompletionTokens}}</td><td class="n">${{printf "%.4f" .Cost}}</td><td class="n">{{printf "%.1f" .WallSeconds}}</td></tr>{{end}}
{{with .Totals.Cold}}<tr><th>cold</th><td class="n">{{.Tasks}}</td><td class="n">{{.Passed}}</td><td class="n">{{.Steps}}</td><td class="n">{{.ModelCalls}}</td><td class="n">{{.PromptTokens}}</td><td class="n">{{.CompletionTokens}}</td><td class="n">${{printf "%.4f" .Cost}}</td><td class="n">{{printf "%.1f" .WallSeconds}}</td></tr>{{end}}
{{with .Totals.Warm}}<tr><th>warm</th><td class="n">{{.Tasks}}</td><td class="n">{{.Passed}}</td><td class="n">{{.Steps}}</td><td class="n">{{.ModelCalls}}</td><td class="n">{{.PromptTokens}}</td><td class="n">{{.CompletionTokens}}</td><td class="n">${{printf "%.4f" .Cost}}</td><td class="n">{{printf "%.1f" .WallSeconds}}</td></tr>{{end}}
{{with .Totals.WarmIndependent}}<tr><th>warm-independent</th><td class="n">{{.Tasks}}</td><td class="n">{{.Passed}}</td><td class="n">{{.Steps}}</td><td class="n">{{.ModelCalls}}</td><td class="n">{{.PromptTokens}}</td><td class="n">{{.CompletionTokens}}</td><td class="n">${{printf "%.4f" .Cost}}</td><td class="n">{{printf "%.1f" .WallSeconds}}</td></tr>{{end}}
{{with .Totals.AsItGoes}}<tr><th>as-it-goes</th><td class="n">{{.Tasks}}</td><td class="n">{{.Passed}}</td><td class="n">{{.Steps}}</td><td class="n">{{.ModelCalls}}</td><td class="n">{{.PromptTokens}}</td><td class="n">{{.CompletionTokens}}</td><td class="n">${{printf "%.4f" .Cost}}</td><td class="n">{{printf "%.1f" .WallSeconds}}</td></tr>{{end}}
{{with .Totals.Learn}}<tr><th>learn</th><td class="n">{{.Tasks}}</td><td class="n">{{.Passed}}</td><td class="n">{{.Steps}}</td><td class="n">{{.ModelCalls}}</td><td class="n">{{.PromptTokens}}</td><td class="n">{{.CompletionTokens}}</td><td class="n">${{printf "%.4f" .Cost}}</td><td class="n">{{printf "%.1f" .WallSeconds}}</td></tr>{{end}}
</table>
{{with .Totals.ColdWarm}}<p>Warm vs cold: <b>{{pct .ModelCallsReduction}}</b> fewer model calls over all tasks; <b>{{pct .Revisit.Reduction}}</b> fewer on the {{len .Revisit.Tasks}} tasks tagged “revisit” ({{.Revisit.ColdModelCalls}} → {{.Revisit.WarmModelCalls}}).</p>{{end}}
{{with .Totals.ColdWarm}}<h2>Cold vs warm</h2>
<table id="coldwarm"><tr><th></th><th>cold</th><th>warm</th><th>fewer</th></tr>
{{range cwrows $.Totals}}<tr><th>{{.Name}}</th><td class="n">{{.Cold}}</td><td class="n">{{.Warm}}</td><td class="n">{{pct .Reduction}}</td></tr>
{{end}}</table>
<table id="coldwarm-tasks"><tr><th>task</th><th>model calls cold → warm</th><th>steps cold → warm</th><th>prompt tokens cold → warm</th></tr>
{{range .PerTask}}<tr><td>{{.ID}}</td><td class="n">{{.ColdModelCalls}} → {{.WarmModelCalls}}</td><td class="n">{{.ColdSteps}} → {{.WarmSteps}}</td><td class="n">{{.ColdPromptTokens}} → {{.WarmPromptTokens}}</td></tr>
{{end}}</table>{{end}}
{{with savings .Totals}}<h2>Savings by mechanism</h2>
<table id="savings">{{range $i, $row := .}}<tr>{{range $j, $c := $row}}{{if or (eq $i 0) (eq $j 0)}}<th>{{$c}}</th>{{else}}<td class="n">{{$c}}</td>{{end}}{{end}}</tr>
{{end}}</table>
<ul>{{range $.Totals.ColdWarm.Figures}}<li><b>{{.Name}}</b>: {{.ProducedBy}}.</li>{{end}}<li><b>cold</b>: empty knowledge; no hint offers Navigate then, so one cold pass serves both figures.</li></ul>{{end}}
{{if or .Options.ModelErrors .Totals.FalseSuccess .Totals.Sensitive}}<h2>Model errors and safety</h2>
{{with .Options.ModelErrors}}<p>Model errors injected on purpose: {{.}} (seed {{$.Options.Seed}}){{if $.Options.ModelErrorsLearnOnly}}, in the passes that learn only (the warm passes ran clean){{end}}.</p>{{end}}
<table id="safety">{{range $i, $row := safety .Totals}}<tr>{{range $j, $c := $row}}{{if or (eq $i 0) (eq $j 0)}}<th>{{$c}}</th>{{else}}<td class="n">{{$c}}</td>{{end}}{{end}}</tr>
{{end}}</table>{{end}}
{{if or .Options.ColdWarm .Misled}}<h2>Knowledge that misled</h2>
{{if .Misled}}<table id="misled"><tr><th>task</th><th>pass</th><th>loss</th><th>knowledge in play</th><th>culprit</th><th>learned from</th><th>bindings</th><th>what went wrong</th></tr>
{{range .Misled}}<tr><td>{{.Task}}</td><td>{{.Phase}}</td><td>{{.Loss}}</td><td>{{inplay .InPlay}}</td><td>{{with .Culprit}}{{.Kind}} {{or .Name .ID}} (step {{.Step}}){{else}}none{{end}}</td><td>{{with .Culprit}}{{.LearnedFrom}}{{end}}</td><td>{{with .Culprit}}{{range $i, $b := .Bindings}}{{if $i}}; {{end}}{{$b}}{{end}}{{end}}</td><td>{{if .Explained}}{{.Wrong}}{{else}}<b class="fail">{{.Wrong}}</b>{{end}}</td></tr>
{{end}}</table>{{else}}<p>None: no pass lost a task the cold pass won, and no run said done on a result its checks reject.</p>{{end}}{{end}}
{{range .Curves}}<h2>Learning curve{{with .Phase}} ({{.}} pass){{end}}</h2>
<table class="curve"><tr><th>instance</th><th>runs</th><th>passed</th><th>success</th><th>model calls</th><th>mean model calls</th></tr>
{{range .Points}}<tr><td class="n">{{.Instance}}</td><td class="n">{{.Runs}}</td><td class="n">{{.Passed}}</td><td class="n">{{pct .SuccessRate}}</td><td class="n">{{.ModelCalls}}</td><td class="n">{{printf "%.1f" .MeanModelCalls}}</td></tr>
{{end}}</table>{{end}}
<h2>Tasks</h2>
<div id="filter" role="radiogroup" aria-label="show tasks by outcome" data-shown="all">Show: {{range filters .Items}}<label><input type="radio" name="outcome" value="{{.Value}}"{{if eq .Value "all"}} checked{{end}}> {{.Label}} ({{.Count}})</label>{{end}}</div>
<table id="tasks"><thead><tr><th>task</th><th>phase</th><th>device</th><th>result</th><th>outcome</th><th>steps</th><th>model calls</th><th>tokens</th><th>questions</th><th>wall s</th><th>reason</th></tr></thead><tbody>
{{range .Items}}<tr data-outcome="{{.Outcomes}}"><td><a href="#{{.Anchor}}">{{.ID}}</a></td><td>{{phase .TaskResult}}</td><td>{{.Device}}</td><td>{{if .Pass}}<span class="pass">pass</span>{{else}}<span class="fail">fail</span>{{end}}</td><td>{{.Outcome}}</td><td class="n">{{.Steps}}</td><td class="n">{{.ModelCalls}}</td><td class="n">{{.PromptTokens}}+{{.CompletionTokens}}</td><td class="n">{{len .Questions}}</td><td class="n">{{printf "%.1f" .WallSeconds}}</td><td dir="auto">{{.Reason}}</td></tr>
{{end}}</tbody></table>
<h2>Trajectories</h2>
{{range .Items}}{{template "task" .}}{{end}}
{{template "replayjs"}}
{{template "cjkredraw"}}</body></html>
`

// HTML writes report.html: one self-contained page (inline CSS, screenshots embedded as
// data URLs) with the totals, the task table and every task's trajectory, read from the
// run directories (relative to dir).
func (r *Report) HTML(w io.Writer, dir string) error {
	page := htmlPage{Report: r, Items: make([]htmlTask, len(r.Tasks))}
	for i, x := range r.Tasks {
		it := htmlTask{TaskResult: x, PhaseLabel: phaseName(x), Anchor: fmt.Sprintf("t%d-%s", i, x.ID), Outcomes: outcomesOf(x)}
		if x.RunDir != "" {
			tr, err := rundir.ReadTrajectory(filepath.Join(dir, x.RunDir))
			if err != nil {
				it.Note = "No trajectory: " + err.Error()
			} else {
				it.Trajectory = rundir.PageSteps(tr, x.RunDir)
			}
		}
		page.Items[i] = it
	}
	steps := make([][]rundir.PageStep, len(page.Items))
	for i, it := range page.Items {
		steps[i] = it.Trajectory
	}
	rundir.Thumbnails(dir, thumbWidth, thumbQuality, steps...)
	var buf bytes.Buffer
	if err := htmlTmpl.Execute(&buf, page); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}
