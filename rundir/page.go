package rundir

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"

	"github.com/fairy-go/fairy/event"
)

// The page of one run. `fairy run` and `fairy demo` write report.html into their run
// directory: the run's outcome and figures, its app tasks, the knowledge it used and
// learned, and the task page an evaluation's report.html shows for every task (steps with
// their set-of-mark screenshots, reflections, sub-goals, actions, questions and answers).

// Screenshots on a run's page are larger than in an evaluation's, where many tasks share
// the page: a person reads the screen's text there.
const (
	runThumbWidth   = 360
	runThumbQuality = 82
)

// runPage is what the run page template reads.
type runPage struct {
	Summary   Summary
	Started   string
	Task      runTask
	Knowledge []string // what the run used and learned, one line each
	Served    []string // knowledge put into prompts or replayed, step by step
	Note      string   // why the figures are missing, when they are
}

// runTask is the run as the "task" section shows it (see pageTmpl).
type runTask struct {
	Anchor, ID, Instruction string
	Run, Open, Pass         bool
	Tags                    []string
	Outcome, Reason         string
	Steps, ModelCalls       int
	ModelCallsByRole        map[string]int
	WallSeconds             float64
	RunDir                  string
	Shortcuts               int
	Checks                  []struct{} // a run has no checks; an evaluation's task has
	Questions               []Asked
	Note                    string
	Trajectory              []PageStep
	Outcomes                string // a run's page has no outcome filter
}

var runTmpl = template.Must(Templates().New("run").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>fairy run — {{.Summary.Instruction}}</title>
{{template "style"}}</head><body>{{template "cjkwarm"}}
<h1>fairy run</h1>
<p id="instruction" style="font-size:16px">{{.Summary.Instruction}}</p>
<p class="muted">run {{.Summary.RunID}}{{with .Started}} · {{.}}{{end}}</p>
{{with .Note}}<p class="fail">{{.}}</p>{{end}}
<table id="run"><tr><th>outcome</th><th>steps</th><th>model calls</th><th>prompt tokens</th><th>completion tokens</th><th>cost</th><th>questions</th><th>wall s</th></tr>
{{with .Summary}}<tr><td>{{if eq .Outcome "done"}}<span class="pass">done</span>{{else}}<span class="fail">{{.Outcome}}</span>{{end}}{{with .Reason}} — {{.}}{{end}}</td><td class="n">{{.Steps}}</td><td class="n">{{.ModelCalls}}</td><td class="n">{{.PromptTokens}}</td><td class="n">{{.CompletionTokens}}</td><td class="n">${{printf "%.4f" .Cost}}</td><td class="n">{{.Interactions}}</td><td class="n">{{printf "%.1f" .WallSeconds}}</td></tr>{{end}}
</table>
{{with .Summary.Answer}}<p><b>Answer:</b> {{.}}</p>{{end}}
{{with .Summary.Tasks}}<h2>App tasks</h2>
<table id="apptasks"><tr><th>#</th><th>app</th><th>task</th><th>outcome</th><th>steps</th></tr>
{{range .}}<tr><td class="n">{{add1 .Index}}</td><td>{{.App}}</td><td>{{.Task}}</td><td>{{.Outcome}}{{with .Reason}} — {{.}}{{end}}</td><td class="n">{{.Steps}}</td></tr>
{{end}}</table>{{end}}
<h2>Knowledge</h2>
<ul id="knowledge">{{range .Knowledge}}<li>{{.}}</li>{{end}}</ul>
{{with .Served}}<ul id="served" class="muted">{{range .}}<li>{{.}}</li>{{end}}</ul>{{end}}
<h2>Steps</h2>
{{template "task" .Task}}
{{template "replayjs"}}
{{template "cjkredraw"}}</body></html>
`))

// writePage writes the page of the run in directory dir (its summary.json and
// trace.jsonl; screenshots are embedded, and linked by their file name).
func writePage(w io.Writer, dir string) error {
	v, err := Read(dir)
	if err != nil {
		return err
	}
	s := v.Summary
	page := runPage{Summary: s, Knowledge: v.Knowledge, Served: v.Served, Note: v.Note}
	if !s.Started.IsZero() {
		page.Started = s.Started.Local().Format("2006-01-02 15:04:05 MST")
	}
	task := runTask{Run: true, Open: true, Anchor: "steps",
		ID: s.RunID, Instruction: s.Instruction, Pass: s.Outcome == event.OutcomeDone,
		Outcome: string(s.Outcome), Reason: s.Reason, Steps: s.Steps, ModelCalls: s.ModelCalls,
		ModelCallsByRole: s.ModelCallsByRole, WallSeconds: s.WallSeconds, RunDir: dir, Questions: v.Questions,
		Shortcuts: s.Knowledge.Navigations,
	}
	if v.Trajectory != nil {
		task.Trajectory = PageSteps(v.Trajectory, "")
		Thumbnails(dir, runThumbWidth, runThumbQuality, task.Trajectory)
	} else {
		task.Note = "No trajectory: " + v.TraceErr.Error()
	}
	page.Task = task
	var buf bytes.Buffer
	if err := runTmpl.Execute(&buf, page); err != nil {
		return fmt.Errorf("rundir: run page: %w", err)
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// WritePage writes the run's page, dir/report.html (whole or not at all), and returns its
// path.
func WritePage(dir string) (string, error) {
	var buf bytes.Buffer
	if err := writePage(&buf, dir); err != nil {
		return "", err
	}
	path := filepath.Join(dir, PageFile)
	tmp, err := os.CreateTemp(dir, ".report-*.html")
	if err != nil {
		return "", fmt.Errorf("rundir: write run page: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		return "", fmt.Errorf("rundir: write run page: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("rundir: write run page: %w", err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return "", fmt.Errorf("rundir: write run page: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return "", fmt.Errorf("rundir: write run page: %w", err)
	}
	return path, nil
}
