package eval

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html/template"
	"image"
	"image/jpeg"
	_ "image/png" // screenshots are PNG
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"golang.org/x/image/draw"
)

// thumbWidth is the width of the trajectory screenshots in report.html, in pixels.
const thumbWidth = 240

type htmlStep struct {
	StepView
	Img template.URL
}

type htmlTask struct {
	TaskResult
	Anchor     string
	Trajectory []htmlStep
	Note       string
}

type htmlPage struct {
	*Report
	Items []htmlTask
}

var htmlTmpl = template.Must(template.New("report").Funcs(template.FuncMap{
	"pct":     pct,
	"phase":   phaseName,
	"add1":    func(i int) int { return i + 1 },
	"cwrows":  cwRows,
	"savings": savingsRows,
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>fairy eval — {{.Suite}}</title>
<style>
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK SC",sans-serif;margin:24px;color:#1d232b;background:#fafbfc}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px}h3{font-size:15px;margin:0}
table{border-collapse:collapse;background:#fff;margin:8px 0}th,td{border:1px solid #d8dee4;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#eef1f4}td.n{text-align:right;font-variant-numeric:tabular-nums}
.pass{color:#116329;font-weight:600}.fail{color:#b42318;font-weight:600}.muted{color:#59636e}
details.task{background:#fff;border:1px solid #d8dee4;border-radius:6px;margin:10px 0;padding:8px 12px}
details.task>summary{cursor:pointer}
.steps{display:flex;flex-wrap:wrap;gap:12px;margin-top:10px}
.step{width:260px;border:1px solid #e3e7eb;border-radius:6px;padding:8px;background:#fcfdfe}
.step img{width:240px;border:1px solid #ccd3da;display:block;margin-bottom:6px}
.step ul{margin:4px 0;padding-left:18px}.tag{display:inline-block;background:#eef1f4;border-radius:9px;padding:0 7px;margin-right:3px;font-size:12px}
.res{font-weight:700}.evidence{white-space:pre-wrap;font-family:ui-monospace,monospace;font-size:12px}
</style></head><body>
<h1>fairy eval — {{.Suite}}</h1>
<p class="muted">{{.Started.Format "2006-01-02 15:04:05 MST"}} · devices: {{range $i, $d := .Devices}}{{if $i}}, {{end}}{{$d}}{{end}} · parallel {{.Options.Parallel}} · repeat {{.Options.Repeat}} · knowledge {{.Options.Knowledge}}{{if .Options.ColdWarm}} · cold/warm{{end}}{{with .Options.Learn}} · learned first on {{.}}{{end}}{{if .Interrupted}} · <b class="fail">interrupted</b>: only finished tasks are reported{{end}}</p>
<h2>Totals</h2>
<table id="totals"><tr><th></th><th>tasks</th><th>passed</th><th>steps</th><th>model calls</th><th>prompt tokens</th><th>completion tokens</th><th>cost</th><th>wall s</th></tr>
{{with .Totals}}<tr><th>total</th><td class="n">{{.Tasks}}</td><td class="n">{{.Passed}}</td><td class="n">{{.Steps}}</td><td class="n">{{.ModelCalls}}</td><td class="n">{{.PromptTokens}}</td><td class="n">{{.CompletionTokens}}</td><td class="n">${{printf "%.4f" .Cost}}</td><td class="n">{{printf "%.1f" .WallSeconds}}</td></tr>{{end}}
{{with .Totals.Cold}}<tr><th>cold</th><td class="n">{{.Tasks}}</td><td class="n">{{.Passed}}</td><td class="n">{{.Steps}}</td><td class="n">{{.ModelCalls}}</td><td class="n">{{.PromptTokens}}</td><td class="n">{{.CompletionTokens}}</td><td class="n">${{printf "%.4f" .Cost}}</td><td class="n">{{printf "%.1f" .WallSeconds}}</td></tr>{{end}}
{{with .Totals.Warm}}<tr><th>warm</th><td class="n">{{.Tasks}}</td><td class="n">{{.Passed}}</td><td class="n">{{.Steps}}</td><td class="n">{{.ModelCalls}}</td><td class="n">{{.PromptTokens}}</td><td class="n">{{.CompletionTokens}}</td><td class="n">${{printf "%.4f" .Cost}}</td><td class="n">{{printf "%.1f" .WallSeconds}}</td></tr>{{end}}
{{with .Totals.WarmIndependent}}<tr><th>warm-independent</th><td class="n">{{.Tasks}}</td><td class="n">{{.Passed}}</td><td class="n">{{.Steps}}</td><td class="n">{{.ModelCalls}}</td><td class="n">{{.PromptTokens}}</td><td class="n">{{.CompletionTokens}}</td><td class="n">${{printf "%.4f" .Cost}}</td><td class="n">{{printf "%.1f" .WallSeconds}}</td></tr>{{end}}
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
<h2>Tasks</h2>
<table id="tasks"><thead><tr><th>task</th><th>phase</th><th>device</th><th>result</th><th>outcome</th><th>steps</th><th>model calls</th><th>tokens</th><th>questions</th><th>wall s</th><th>reason</th></tr></thead><tbody>
{{range .Items}}<tr><td><a href="#{{.Anchor}}">{{.ID}}</a></td><td>{{phase .TaskResult}}</td><td>{{.Device}}</td><td>{{if .Pass}}<span class="pass">pass</span>{{else}}<span class="fail">fail</span>{{end}}</td><td>{{.Outcome}}</td><td class="n">{{.Steps}}</td><td class="n">{{.ModelCalls}}</td><td class="n">{{.PromptTokens}}+{{.CompletionTokens}}</td><td class="n">{{len .Questions}}</td><td class="n">{{printf "%.1f" .WallSeconds}}</td><td>{{.Reason}}</td></tr>
{{end}}</tbody></table>
<h2>Trajectories</h2>
{{range .Items}}<details class="task" id="{{.Anchor}}"{{if not .Pass}} open{{end}}><summary><h3 style="display:inline">{{.ID}} <span class="muted">{{phase .TaskResult}} · {{.Device}}</span> {{if .Pass}}<span class="pass">pass</span>{{else}}<span class="fail">fail</span>{{end}}</h3></summary>
<p>{{.Instruction}}<br>{{range .Tags}}<span class="tag">{{.}}</span>{{end}}</p>
<p>Outcome <b>{{.Outcome}}</b>{{if .Reason}} — {{.Reason}}{{end}}. {{.Steps}} steps, {{.ModelCalls}} model calls {{with .ModelCallsByRole}}({{range $k, $v := .}}{{$k}} {{$v}} {{end}}){{end}}, {{printf "%.1f" .WallSeconds}} s. Run directory: <code>{{.RunDir}}</code>{{if .Shortcuts}} · {{.Shortcuts}} learned shortcut(s) replayed{{end}}</p>
<table><tr><th>check</th><th>result</th><th>evidence</th></tr>{{range .Checks}}<tr><td>{{.Name}}</td><td>{{if .Pass}}<span class="pass">pass</span>{{else}}<span class="fail">fail</span>{{end}}</td><td class="evidence">{{.Evidence}}</td></tr>{{end}}</table>
{{if .Questions}}<p><b>Questions</b></p><ul>{{range .Questions}}<li>{{.Text}}{{if .Options}} [{{range $i, $o := .Options}}{{if $i}} | {{end}}{{$o}}{{end}}]{{end}} → <i>{{.Answer}}</i> <span class="muted">({{.By}})</span></li>{{end}}</ul>{{end}}
{{if .Note}}<p class="muted">{{.Note}}</p>{{end}}
<div class="steps">{{range $i, $s := .Trajectory}}<div class="step"><b>{{add1 $i}}. {{$s.App}}</b> step {{$s.Step}}{{if $s.Result}} · <span class="res">{{$s.Result}}</span>{{end}}
{{if $s.Img}}<img alt="step {{$s.Step}} screenshot" src="{{$s.Img}}">{{end}}
{{if $s.Reflection}}<div><i>{{$s.Reflection}}</i></div>{{end}}
{{if $s.Subgoal}}<div>Sub-goal: {{$s.Subgoal}}</div>{{end}}
{{if $s.Thought}}<div class="muted">{{$s.Thought}}</div>{{end}}
<ul>{{range $s.Lines}}<li>{{.}}</li>{{end}}</ul></div>{{end}}</div>
</details>
{{end}}
</body></html>
`))

// HTML writes report.html: one self-contained page (inline CSS, screenshots embedded as
// data URLs) with the totals, the task table and every task's trajectory, read from the
// run directories (relative to dir).
func (r *Report) HTML(w io.Writer, dir string) error {
	page := htmlPage{Report: r, Items: make([]htmlTask, len(r.Tasks))}
	type job struct{ task, step int }
	var jobs []job
	var paths []string
	for i, x := range r.Tasks {
		it := htmlTask{TaskResult: x, Anchor: fmt.Sprintf("t%d-%s", i, x.ID)}
		if x.RunDir != "" {
			tr, err := ReadTrajectory(filepath.Join(dir, x.RunDir))
			if err != nil {
				it.Note = "No trajectory: " + err.Error()
			} else {
				for _, s := range tr.Steps {
					it.Trajectory = append(it.Trajectory, htmlStep{StepView: s})
					if s.Image != "" {
						jobs = append(jobs, job{i, len(it.Trajectory) - 1})
						paths = append(paths, filepath.Join(dir, x.RunDir, s.Image))
					}
				}
			}
		}
		page.Items[i] = it
	}
	// Thumbnails are the slow part (PNG decode); spread them over the cores.
	urls := make([]template.URL, len(jobs))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				urls[k] = thumbnail(paths[k])
			}
		}()
	}
	for k := range jobs {
		next <- k
	}
	close(next)
	wg.Wait()
	for k, j := range jobs {
		page.Items[j.task].Trajectory[j.step].Img = urls[k]
	}
	var buf bytes.Buffer
	if err := htmlTmpl.Execute(&buf, page); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// thumbnail reads an image file and returns a small JPEG as a data URL ("" when the file
// cannot be read).
func thumbnail(path string) template.URL {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		return ""
	}
	b := img.Bounds()
	if b.Dx() == 0 || b.Dy() == 0 {
		return ""
	}
	w := min(thumbWidth, b.Dx())
	h := b.Dy() * w / b.Dx()
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.ApproxBiLinear.Scale(dst, dst.Bounds(), img, b, draw.Src, nil)
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, dst, &jpeg.Options{Quality: 55}); err != nil {
		return ""
	}
	// The data URL is built here from our own JPEG bytes, so it is safe to mark as a URL.
	return template.URL("data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(buf.Bytes()))
}
