package eval

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/global"
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
	Summary   global.Summary
	Started   string
	Task      htmlTask
	Knowledge []string // what the run used and learned, one line each
	Served    []string // knowledge put into prompts or replayed, step by step
	Note      string   // why the figures are missing, when they are
}

var runTmpl = template.Must(template.Must(htmlTmpl.Clone()).New("run").Parse(`<!DOCTYPE html>
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
{{template "cjkredraw"}}</body></html>
`))

// RunView is one run directory read back: what `fairy runs show` says and the run's
// page shows.
type RunView struct {
	Dir     string
	Summary global.Summary // zero when summary.json is missing (Note says so)
	// Questions are the questions asked, each with the answer that followed it.
	Questions []Question
	// Knowledge says in words what the run used and learned of long-term knowledge;
	// Served lists, step by step, what went into prompts or was replayed.
	Knowledge, Served []string
	Trajectory        *Trajectory // nil when the trace does not read (TraceErr says why)
	TraceErr          error
	Note              string // why the figures are missing, when they are
}

// ReadRun reads the run directory dir: summary.json and trace.jsonl. A missing or
// unreadable summary or trace is noted, not an error; a directory with neither is.
func ReadRun(dir string) (*RunView, error) {
	v := &RunView{Dir: dir}
	raw, err := os.ReadFile(filepath.Join(dir, global.SummaryFile))
	switch {
	case err == nil:
		if err := json.Unmarshal(raw, &v.Summary); err != nil {
			v.Note = fmt.Sprintf("The run's %s does not read (%v): the figures are missing.", global.SummaryFile, err)
		}
	case errors.Is(err, fs.ErrNotExist):
		v.Note = "The run wrote no " + global.SummaryFile + " (it stopped before the end): the figures are missing."
	default:
		return nil, fmt.Errorf("eval: read run %s: %w", dir, err)
	}
	v.Trajectory, v.TraceErr = ReadTrajectory(dir)
	if v.TraceErr != nil {
		v.Trajectory = nil
		if err != nil {
			return nil, fmt.Errorf("eval: %s is not a run directory: it has no %s and no %s", dir, global.SummaryFile, TraceFile)
		}
	} else {
		v.Questions = traceQuestions(v.Trajectory)
		v.Served = servedLines(v.Trajectory)
		if v.Summary.Instruction == "" {
			v.Summary.Instruction = traceInstruction(v.Trajectory)
		}
	}
	v.Summary.RunID = cmp.Or(v.Summary.RunID, filepath.Base(dir))
	v.Knowledge = knowledgeLines(v.Summary.Knowledge)
	return v, nil
}

// RunHTML writes the page of the run in directory dir (its summary.json and trace.jsonl;
// screenshots are embedded, and linked by their file name).
func RunHTML(w io.Writer, dir string) error {
	v, err := ReadRun(dir)
	if err != nil {
		return err
	}
	s := v.Summary
	page := runPage{Summary: s, Knowledge: v.Knowledge, Served: v.Served, Note: v.Note}
	if !s.Started.IsZero() {
		page.Started = s.Started.Local().Format("2006-01-02 15:04:05 MST")
	}
	task := htmlTask{Run: true, Open: true, Anchor: "steps", TaskResult: TaskResult{
		ID: s.RunID, Instruction: s.Instruction, Pass: s.Outcome == event.OutcomeDone,
		Outcome: string(s.Outcome), Reason: s.Reason, Steps: s.Steps, ModelCalls: s.ModelCalls,
		ModelCallsByRole: s.ModelCallsByRole, PromptTokens: s.PromptTokens, CompletionTokens: s.CompletionTokens,
		Cost: s.Cost, WallSeconds: s.WallSeconds, RunDir: dir, Questions: v.Questions,
		Shortcuts: s.Knowledge.Navigations, VerifiedSteps: s.Knowledge.VerifiedSteps,
	}}
	if v.Trajectory != nil {
		task.Trajectory = htmlSteps(v.Trajectory, "")
	} else {
		task.Note = "No trajectory: " + v.TraceErr.Error()
	}
	items := []htmlTask{task}
	thumbnails(items, dir, runThumbWidth, runThumbQuality)
	page.Task = items[0]
	var buf bytes.Buffer
	if err := runTmpl.Execute(&buf, page); err != nil {
		return fmt.Errorf("eval: run page: %w", err)
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// WriteRunHTML writes dir/report.html (whole or not at all) and returns its path.
func WriteRunHTML(dir string) (string, error) {
	var buf bytes.Buffer
	if err := RunHTML(&buf, dir); err != nil {
		return "", err
	}
	path := filepath.Join(dir, ReportHTML)
	tmp, err := os.CreateTemp(dir, ".report-*.html")
	if err != nil {
		return "", fmt.Errorf("eval: write run page: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		return "", fmt.Errorf("eval: write run page: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("eval: write run page: %w", err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return "", fmt.Errorf("eval: write run page: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return "", fmt.Errorf("eval: write run page: %w", err)
	}
	return path, nil
}

// traceQuestions pairs each question in the trace with the answer that followed it.
func traceQuestions(tr *Trajectory) []Question {
	var out []Question
	for _, ev := range tr.Events {
		switch ev.Kind {
		case "InteractionAsked":
			var e event.InteractionAsked
			if json.Unmarshal(ev.Raw, &e) == nil {
				out = append(out, Question{Type: e.Type, Text: e.Question, Options: e.Options, By: "the person"})
			}
		case "InteractionAnswered":
			var e event.InteractionAnswered
			if json.Unmarshal(ev.Raw, &e) == nil && len(out) > 0 && out[len(out)-1].Answer == "" {
				out[len(out)-1].Answer = e.Answer
			}
		}
	}
	for i := range out {
		if out[i].Answer == "" {
			out[i].Answer, out[i].By = "(no answer)", "none"
		}
	}
	return out
}

// traceInstruction is the instruction of the trace's RunStarted event.
func traceInstruction(tr *Trajectory) string {
	for _, ev := range tr.Events {
		if ev.Kind == "RunStarted" {
			var e event.RunStarted
			if json.Unmarshal(ev.Raw, &e) == nil {
				return e.Instruction
			}
		}
	}
	return ""
}

// knowledgeLines says, in a person's words, what the run used and learned.
func knowledgeLines(k global.KnowledgeUse) []string {
	if k.Off != "" {
		return []string{"Ran without long-term knowledge: " + k.Off}
	}
	var out []string
	add := func(n int, one, many string) {
		switch {
		case n == 1:
			out = append(out, one)
		case n > 1:
			out = append(out, fmt.Sprintf(many, n))
		}
	}
	add(k.Tricks, "1 App Trick put into a prompt", "%d App Tricks put into prompts")
	add(k.Hints, "1 navigation hint from the App Map", "%d navigation hints from the App Map")
	add(k.DescribedApps, "1 learned app description given to the planner", "%d learned app descriptions given to the planner")
	add(k.VerifiedSteps, "1 step confirmed by the App Map without the Re-Planner", "%d steps confirmed by the App Map without the Re-Planner")
	add(k.Navigations, "1 known path replayed", "%d known paths replayed")
	add(k.ShortcutSteps, "1 step replayed from the App Map with no model call", "%d steps replayed from the App Map with no model call")
	add(k.Routines, "1 learned routine run", "%d learned routines run")
	add(k.KnownReads, "1 page whose facts were already known", "%d pages whose facts were already known")
	if len(out) == 0 {
		out = append(out, "No learned knowledge was used.")
	}
	switch {
	case k.LearnErrors > 0:
		out = append(out, fmt.Sprintf("Learning failed %d time(s); the run's own outcome is unaffected.", k.LearnErrors))
	case k.LearnedTasks > 0:
		tasks := "1 app task"
		if k.LearnedTasks > 1 {
			tasks = fmt.Sprintf("%d app tasks", k.LearnedTasks)
		}
		out = append(out, fmt.Sprintf("Learned from %s: %d trick(s) added or merged, and the App Map updated.", tasks, k.LearnedTricks))
	}
	return out
}

// servedLines lists, step by step, the knowledge the trace shows going into prompts or
// replayed.
func servedLines(tr *Trajectory) []string {
	var out []string
	for _, ev := range tr.Events {
		switch ev.Kind {
		case "KnowledgeServed":
			var e event.KnowledgeServed
			if json.Unmarshal(ev.Raw, &e) != nil {
				continue
			}
			var what []string
			if e.Tricks > 0 {
				what = append(what, fmt.Sprintf("%d trick line(s)", e.Tricks))
			}
			if e.Hint {
				what = append(what, "a navigation hint")
			}
			if e.Apps > 0 {
				what = append(what, fmt.Sprintf("%d app description(s)", e.Apps))
			}
			if len(what) > 0 {
				out = append(out, fmt.Sprintf("%s%s: %s", stepPrefix(e.Step), e.Role, strings.Join(what, ", ")))
			}
		case "Navigated":
			var e event.Navigated
			if json.Unmarshal(ev.Raw, &e) == nil {
				line := fmt.Sprintf("%sknown path to %s: %d of %d steps replayed", stepPrefix(e.Step), e.Target, e.Replayed, e.Planned)
				if e.Stopped != "" {
					line += " (stopped: " + e.Stopped + ")"
				}
				out = append(out, line)
			}
		case "RoutineRan":
			var e event.RoutineRan
			if json.Unmarshal(ev.Raw, &e) == nil {
				out = append(out, fmt.Sprintf("%sroutine %q: %d of %d steps replayed", stepPrefix(e.Step), e.Name, e.Replayed, e.Planned))
			}
		}
	}
	return out
}

func stepPrefix(step int) string {
	if step == 0 {
		return "planning · "
	}
	return fmt.Sprintf("step %d · ", step)
}
