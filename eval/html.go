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

	"github.com/fairy-go/fairy/sim/cjkfont"
	"golang.org/x/image/draw"
)

// thumbWidth and thumbQuality are the width (pixels) and JPEG quality of the trajectory
// screenshots in an evaluation's report.html.
const (
	thumbWidth   = 240
	thumbQuality = 55
)

type htmlStep struct {
	StepView
	Img  template.URL // the thumbnail, inline
	Full string       // the screenshot file, relative to the page
}

type htmlTask struct {
	TaskResult
	Anchor     string
	Trajectory []htmlStep
	Note       string
	Run        bool // the page of one run: no phase or device, larger screenshots
	Open       bool // shown unfolded
}

type htmlPage struct {
	*Report
	Items []htmlTask
}

// htmlTmpl is report.html. Its "task" template — one task's outcome, questions and
// trajectory — and its "style" are also the page of a single run (runpage.go).
var htmlTmpl = parseHTML()

func parseHTML() *template.Template {
	t := template.New("report").Funcs(template.FuncMap{
		"pct":         pct,
		"phase":       phaseName,
		"add1":        func(i int) int { return i + 1 },
		"cwrows":      cwRows,
		"savings":     savingsRows,
		"safety":      safetyRows,
		"cjkFontFace": cjkFontFace,
	})
	template.Must(t.New("style").Parse(styleHTML))
	template.Must(t.New("task").Parse(taskHTML))
	// Chromium may draw the text laid out before the embedded font has loaded with the
	// fallback font's boxes and never redraw it: a hidden character starts the load before
	// any text shows ("cjkwarm"), and once it has loaded the body is laid out anew
	// ("cjkredraw").
	template.Must(t.New("cjkwarm").Parse(`<div aria-hidden="true" style="position:absolute;visibility:hidden;font-family:'Fairy CJK'">中</div>`))
	template.Must(t.New("cjkredraw").Parse(`<script>if(document.fonts)document.fonts.load('16px "Fairy CJK"','中').then(function(){document.body.innerHTML=document.body.innerHTML})</script>`))
	return template.Must(t.Parse(reportHTML))
}

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
<h2>Tasks</h2>
<table id="tasks"><thead><tr><th>task</th><th>phase</th><th>device</th><th>result</th><th>outcome</th><th>steps</th><th>model calls</th><th>tokens</th><th>questions</th><th>wall s</th><th>reason</th></tr></thead><tbody>
{{range .Items}}<tr><td><a href="#{{.Anchor}}">{{.ID}}</a></td><td>{{phase .TaskResult}}</td><td>{{.Device}}</td><td>{{if .Pass}}<span class="pass">pass</span>{{else}}<span class="fail">fail</span>{{end}}</td><td>{{.Outcome}}</td><td class="n">{{.Steps}}</td><td class="n">{{.ModelCalls}}</td><td class="n">{{.PromptTokens}}+{{.CompletionTokens}}</td><td class="n">{{len .Questions}}</td><td class="n">{{printf "%.1f" .WallSeconds}}</td><td>{{.Reason}}</td></tr>
{{end}}</tbody></table>
<h2>Trajectories</h2>
{{range .Items}}{{template "task" .}}{{end}}
{{template "cjkredraw"}}</body></html>
`

const styleHTML = `{{cjkFontFace}}<style>
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK SC","Fairy CJK",sans-serif;margin:24px;color:#1d232b;background:#fafbfc}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px}h3{font-size:15px;margin:0}
table{border-collapse:collapse;background:#fff;margin:8px 0}th,td{border:1px solid #d8dee4;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#eef1f4}td.n{text-align:right;font-variant-numeric:tabular-nums}
.pass{color:#116329;font-weight:600}.fail{color:#b42318;font-weight:600}.muted{color:#59636e}
details.task{background:#fff;border:1px solid #d8dee4;border-radius:6px;margin:10px 0;padding:8px 12px}
details.task>summary{cursor:pointer}
.steps{display:flex;flex-wrap:wrap;gap:12px;margin-top:10px}
.step{width:260px;border:1px solid #e3e7eb;border-radius:6px;padding:8px;background:#fcfdfe}
.step img{width:240px;border:1px solid #ccd3da;display:block;margin-bottom:6px}
.steps.wide .step{width:380px}.steps.wide .step img{width:360px}
.step ul{margin:4px 0;padding-left:18px}.tag{display:inline-block;background:#eef1f4;border-radius:9px;padding:0 7px;margin-right:3px;font-size:12px}
.res{font-weight:700}.evidence{white-space:pre-wrap;font-family:ui-monospace,monospace;font-size:12px}
</style>`

const taskHTML = `<details class="task" id="{{.Anchor}}"{{if or (not .Pass) .Open}} open{{end}}><summary><h3 style="display:inline">{{.ID}} {{if not .Run}}<span class="muted">{{phase .TaskResult}} · {{.Device}}</span> {{end}}{{if .Pass}}<span class="pass">pass</span>{{else}}<span class="fail">fail</span>{{end}}</h3></summary>
<p>{{.Instruction}}<br>{{range .Tags}}<span class="tag">{{.}}</span>{{end}}</p>
<p>Outcome <b>{{.Outcome}}</b>{{if .Reason}} — {{.Reason}}{{end}}. {{.Steps}} steps, {{.ModelCalls}} model calls {{with .ModelCallsByRole}}({{range $k, $v := .}}{{$k}} {{$v}} {{end}}){{end}}, {{printf "%.1f" .WallSeconds}} s. Run directory: <code>{{.RunDir}}</code>{{if .Shortcuts}} · {{.Shortcuts}} learned shortcut(s) replayed{{end}}</p>
{{if .Checks}}<table><tr><th>check</th><th>result</th><th>evidence</th></tr>{{range .Checks}}<tr><td>{{.Name}}</td><td>{{if .Pass}}<span class="pass">pass</span>{{else}}<span class="fail">fail</span>{{end}}</td><td class="evidence">{{.Evidence}}</td></tr>{{end}}</table>{{end}}
{{if .Questions}}<p><b>Questions</b></p><ul id="questions">{{range .Questions}}<li>{{.Text}}{{if .Options}} [{{range $i, $o := .Options}}{{if $i}} | {{end}}{{$o}}{{end}}]{{end}} → <i>{{.Answer}}</i> <span class="muted">({{.By}})</span></li>{{end}}</ul>{{end}}
{{if .Note}}<p class="muted">{{.Note}}</p>{{end}}
<div class="steps{{if .Run}} wide{{end}}">{{range $i, $s := .Trajectory}}<div class="step"><b>{{add1 $i}}. {{$s.App}}</b> step {{$s.Step}}{{if $s.Result}} · <span class="res">{{$s.Result}}</span>{{end}}
{{if $s.Img}}{{if $s.Full}}<a href="{{$s.Full}}">{{end}}<img alt="step {{$s.Step}} screenshot" src="{{$s.Img}}">{{if $s.Full}}</a>{{end}}{{end}}
{{if $s.Reflection}}<div><i>{{$s.Reflection}}</i></div>{{end}}
{{if $s.Subgoal}}<div>Sub-goal: {{$s.Subgoal}}</div>{{end}}
{{if $s.Thought}}<div class="muted">{{$s.Thought}}</div>{{end}}
<ul>{{range $s.Lines}}<li>{{.}}</li>{{end}}</ul></div>{{end}}</div>
</details>`

// HTML writes report.html: one self-contained page (inline CSS, screenshots embedded as
// data URLs) with the totals, the task table and every task's trajectory, read from the
// run directories (relative to dir).
func (r *Report) HTML(w io.Writer, dir string) error {
	page := htmlPage{Report: r, Items: make([]htmlTask, len(r.Tasks))}
	for i, x := range r.Tasks {
		it := htmlTask{TaskResult: x, Anchor: fmt.Sprintf("t%d-%s", i, x.ID)}
		if x.RunDir != "" {
			tr, err := ReadTrajectory(filepath.Join(dir, x.RunDir))
			if err != nil {
				it.Note = "No trajectory: " + err.Error()
			} else {
				it.Trajectory = htmlSteps(tr, x.RunDir)
			}
		}
		page.Items[i] = it
	}
	thumbnails(page.Items, dir, thumbWidth, thumbQuality)
	var buf bytes.Buffer
	if err := htmlTmpl.Execute(&buf, page); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// cjkFontFace embeds the virtual phone's CJK font in a page, after the system's fonts in
// its font list: the Chinese a page quotes from the phone's screens reads on a machine
// with no CJK font.
func cjkFontFace() template.HTML {
	// Built from our own font bytes: safe to insert as HTML.
	return template.HTML(`<style>@font-face{font-family:"` + cjkfont.Family + `";src:url(data:font/ttf;base64,` +
		base64.StdEncoding.EncodeToString(cjkfont.TTF) + `) format("truetype")}</style>`)
}

// htmlSteps are the steps of tr; runDir is the run directory relative to the page.
func htmlSteps(tr *Trajectory, runDir string) []htmlStep {
	out := make([]htmlStep, 0, len(tr.Steps))
	for _, s := range tr.Steps {
		h := htmlStep{StepView: s}
		if s.Image != "" {
			h.Full = filepath.ToSlash(filepath.Join(runDir, s.Image))
		}
		out = append(out, h)
	}
	return out
}

// thumbnails fills in the inline thumbnail of every step with a screenshot; dir is where
// the page goes (the steps' Full paths are relative to it).
func thumbnails(items []htmlTask, dir string, width, quality int) {
	type job struct{ task, step int }
	var jobs []job
	for i, it := range items {
		for j, s := range it.Trajectory {
			if s.Full != "" {
				jobs = append(jobs, job{i, j})
			}
		}
	}
	// Thumbnails are the slow part (PNG decode); spread them over the cores.
	var wg sync.WaitGroup
	next := make(chan job)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				s := &items[j.task].Trajectory[j.step]
				s.Img = thumbnail(filepath.Join(dir, filepath.FromSlash(s.Full)), width, quality)
			}
		}()
	}
	for _, j := range jobs {
		next <- j
	}
	close(next)
	wg.Wait()
}

// thumbnail reads an image file and returns a JPEG at most width pixels wide as a data URL
// ("" when the file cannot be read).
func thumbnail(path string, width, quality int) template.URL {
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
	w := min(width, b.Dx())
	h := b.Dy() * w / b.Dx()
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.ApproxBiLinear.Scale(dst, dst.Bounds(), img, b, draw.Src, nil)
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, dst, &jpeg.Options{Quality: quality}); err != nil {
		return ""
	}
	// The data URL is built here from our own JPEG bytes, so it is safe to mark as a URL.
	return template.URL("data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(buf.Bytes()))
}
