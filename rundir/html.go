package rundir

import (
	"bytes"
	"encoding/base64"
	"html/template"
	"image"
	"image/jpeg"
	_ "image/png" // screenshots are PNG
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/fairy-go/fairy/sim/cjkfont"
	"golang.org/x/image/draw"
)

// A run's page and an evaluation's report.html share their look and their task section:
// one task's outcome, questions and steps with their set-of-mark screenshots.

// PageStep is one step on a page: what the trace says of it, and its screenshot.
type PageStep struct {
	StepView
	Img  template.URL // the thumbnail, inline
	Full string       // the screenshot file, relative to the page
}

// pageTmpl holds the templates both pages are made of: "style" (the CSS and the embedded
// CJK font), "cjkwarm" and "cjkredraw" (see Templates), and "task", one task's section.
// "task" reads, of its data: Anchor, ID, Run (the page of one run: no phase or device,
// larger screenshots), PhaseLabel and Device (when not Run), Pass, Open (shown unfolded),
// Instruction, Tags, Outcome, Reason, Steps, ModelCalls, ModelCallsByRole, WallSeconds,
// RunDir, Shortcuts, Checks (Name, Pass, Collateral, Evidence), Questions (Text, Options, Answer, By),
// Note, Trajectory ([]PageStep) and Outcomes (the outcome filter's words for the task,
// space-separated: passed, failed, false-success, refused; "" on a run's page).
var pageTmpl = parsePage()

func parsePage() *template.Template {
	t := template.New("page").Funcs(template.FuncMap{
		"add1":        func(i int) int { return i + 1 },
		"cjkFontFace": cjkFontFace,
	})
	template.Must(t.New("style").Parse(styleHTML))
	template.Must(t.New("task").Parse(taskHTML))
	template.Must(t.New("replaybar").Parse(replayHTML))
	template.Must(t.New("replayjs").Parse(replayScript))
	// Chromium may draw the text laid out before the embedded font has loaded with the
	// fallback font's boxes and never redraw it: a hidden character starts the load before
	// any text shows ("cjkwarm"), and once it has loaded the body is laid out anew
	// ("cjkredraw").
	template.Must(t.New("cjkwarm").Parse(`<div aria-hidden="true" style="position:absolute;visibility:hidden;font-family:'Fairy CJK'">中</div>`))
	template.Must(t.New("cjkredraw").Parse(`<script>if(document.fonts)document.fonts.load('16px "Fairy CJK"','中').then(function(){document.body.innerHTML=document.body.innerHTML})</script>`))
	return t
}

// Templates returns a copy of the templates a page is made of, for an evaluation's
// report.html to add its own to: "style", "cjkwarm", "cjkredraw", "task" (see pageTmpl
// for the fields "task" reads) with its "replaybar", and "replayjs", the script of the
// replay controls (see replay.go), with the function add1.
func Templates() *template.Template { return template.Must(pageTmpl.Clone()) }

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
` + replayCSS + `</style>`

const taskHTML = `<details class="task" id="{{.Anchor}}"{{with .Outcomes}} data-outcome="{{.}}"{{end}}{{if or (not .Pass) .Open}} open{{end}}><summary><h3 style="display:inline" dir="auto">{{.ID}} {{if not .Run}}<span class="muted">{{.PhaseLabel}} · {{.Device}}</span> {{end}}{{if .Pass}}<span class="pass">pass</span>{{else}}<span class="fail">fail</span>{{end}}</h3></summary>
<p dir="auto">{{.Instruction}}<br>{{range .Tags}}<span class="tag">{{.}}</span>{{end}}</p>
<p>Outcome <b>{{.Outcome}}</b>{{if .Reason}} — <span dir="auto">{{.Reason}}</span>{{end}}. {{.Steps}} steps, {{.ModelCalls}} model calls {{with .ModelCallsByRole}}({{range $k, $v := .}}{{$k}} {{$v}} {{end}}){{end}}, {{printf "%.1f" .WallSeconds}} s. Run directory: <code>{{.RunDir}}</code>{{if .Shortcuts}} · {{.Shortcuts}} learned shortcut(s) replayed{{end}}</p>
{{if .Checks}}<table><tr><th>check</th><th>result</th><th>evidence</th></tr>{{range .Checks}}<tr><td>{{.Name}}</td><td>{{if .Pass}}<span class="pass">pass</span>{{else if .Collateral}}collateral change{{else}}<span class="fail">fail</span>{{end}}</td><td class="evidence" dir="auto">{{.Evidence}}</td></tr>{{end}}</table>{{end}}
{{if .Questions}}<p><b>Questions</b></p><ul id="questions">{{range .Questions}}<li dir="auto">{{.Text}}{{if .Options}} [{{range $i, $o := .Options}}{{if $i}} | {{end}}{{$o}}{{end}}]{{end}} → <i>{{.Answer}}</i> <span class="muted">({{.By}})</span></li>{{end}}</ul>{{end}}
{{if .Note}}<p class="muted">{{.Note}}</p>{{end}}
{{template "replaybar" .}}
<div class="steps{{if .Run}} wide{{end}}">{{range $i, $s := .Trajectory}}<div class="step" data-i="{{add1 $i}}"><b>{{add1 $i}}. {{$s.App}}</b> step {{$s.Step}}{{if $s.Result}} · <span class="res">{{$s.Result}}</span>{{end}}
{{if $s.Img}}{{if $s.Full}}<a href="{{$s.Full}}">{{end}}<img alt="step {{$s.Step}} screenshot" src="{{$s.Img}}">{{if $s.Full}}</a>{{end}}{{end}}
{{if $s.Reflection}}<div dir="auto"><i>{{$s.Reflection}}</i></div>{{end}}
{{if $s.Subgoal}}<div dir="auto">Sub-goal: {{$s.Subgoal}}</div>{{end}}
{{if $s.Thought}}<div class="muted" dir="auto">{{$s.Thought}}</div>{{end}}
<ul>{{range $s.Lines}}<li dir="auto">{{.}}</li>{{end}}</ul>
{{if $s.Screen}}<details class="told"><summary class="muted">the screen as the model was told it</summary><pre dir="auto">{{$s.Screen}}</pre></details>{{end}}</div>{{end}}</div>
</details>`

// cjkFontFace embeds the virtual phone's CJK font in a page, after the system's fonts in
// its font list: the Chinese a page quotes from the phone's screens reads on a machine
// with no CJK font.
func cjkFontFace() template.HTML {
	// Built from our own font bytes: safe to insert as HTML.
	return template.HTML(`<style>@font-face{font-family:"` + cjkfont.Family + `";src:url(data:font/ttf;base64,` +
		base64.StdEncoding.EncodeToString(cjkfont.TTF) + `) format("truetype")}</style>`)
}

// PageSteps are the steps of tr for a page; runDir is the run directory relative to the
// page. Thumbnails fills in their pictures.
func PageSteps(tr *Trajectory, runDir string) []PageStep {
	out := make([]PageStep, 0, len(tr.Steps))
	for _, s := range tr.Steps {
		h := PageStep{StepView: s}
		if s.Image != "" {
			h.Full = filepath.ToSlash(filepath.Join(runDir, s.Image))
		}
		out = append(out, h)
	}
	return out
}

// Thumbnails fills in the inline thumbnail, a JPEG at most width pixels wide, of every
// step with a screenshot in each of tasks (the steps of a page's tasks); dir is where the
// page goes (the steps' Full paths are relative to it).
func Thumbnails(dir string, width, quality int, tasks ...[]PageStep) {
	type job struct{ task, step int }
	var jobs []job
	for i, steps := range tasks {
		for j, s := range steps {
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
				s := &tasks[j.task][j.step]
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
