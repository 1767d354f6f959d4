package sim

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/template"
)

// appState is an installed app's live data.
type appState struct {
	p       *Phone
	spec    *AppSpec
	vars    map[string]string
	records map[string][]Record
	running bool
	tmpl    map[string]*template.Template
	funcs   template.FuncMap
	nextRec int // numbers records added at run time
}

func newAppState(p *Phone, spec *AppSpec) *appState {
	a := &appState{p: p, spec: spec, vars: maps.Clone(spec.Vars), records: map[string][]Record{}, tmpl: map[string]*template.Template{}}
	if a.vars == nil {
		a.vars = map[string]string{}
	}
	for name, recs := range spec.Records {
		for _, r := range recs {
			a.records[name] = append(a.records[name], maps.Clone(r))
		}
	}
	a.funcs = a.funcMap()
	return a
}

// tctx is what a template sees besides the app: the screen and the list record.
type tctx struct {
	inst *screenInst
	item Record
}

// eval renders a template. Plain strings are returned as they are.
func (a *appState) eval(src string, c tctx) string {
	if !strings.Contains(src, "{{") {
		return src
	}
	t, ok := a.tmpl[src]
	if !ok {
		var err error
		t, err = template.New("").Option("missingkey=zero").Funcs(a.funcs).Parse(src)
		if err != nil {
			a.p.log.Warn("sim: bad template", "app", a.spec.Package, "src", src, "err", err)
			t = template.Must(template.New("").Parse(""))
		}
		a.tmpl[src] = t
	}
	params := map[string]string{}
	if c.inst != nil && c.inst.params != nil {
		params = c.inst.params
	}
	item := c.item
	if item == nil {
		item = Record{}
	}
	data := map[string]any{
		"v": a.vars, "p": params, "item": item,
		"app": map[string]string{"package": a.spec.Package, "label": a.spec.Label},
	}
	var b strings.Builder
	if err := t.Execute(&b, data); err != nil {
		a.p.log.Warn("sim: template failed", "app", a.spec.Package, "src", src, "err", err)
		return ""
	}
	return b.String()
}

// truth evaluates a condition template.
func (a *appState) truth(src string, c tctx) bool {
	if src == "" {
		return true
	}
	return truthy(a.eval(src, c))
}

func truthy(s string) bool {
	s = strings.TrimSpace(s)
	return s != "" && s != "false" && s != "0" && s != "<no value>"
}

func num(v any) float64 {
	switch x := v.(type) {
	case int:
		return float64(x)
	case float64:
		return x
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimLeft(x, "¥$€")), 64)
		if err != nil {
			return 0
		}
		return f
	case bool:
		if x {
			return 1
		}
	}
	return 0
}

func fmtNum(f float64) string {
	if f == math.Trunc(f) {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'f', 2, 64)
}

// collection resolves "name" (this app) or "pkg:name" (another app's); "@apps" lists the
// launchable apps.
func (a *appState) collection(name string) []Record {
	if name == "@apps" {
		var out []Record
		for _, pkg := range a.p.order {
			s := a.p.apps[pkg].spec
			if s.Home || s.Hidden {
				continue
			}
			out = append(out, Record{"id": pkg, "package": pkg, "label": s.Label})
		}
		return out
	}
	if pkg, coll, ok := strings.Cut(name, ":"); ok {
		if other := a.p.apps[pkg]; other != nil {
			return other.records[coll]
		}
		return nil
	}
	return a.records[name]
}

func (a *appState) funcMap() template.FuncMap {
	return template.FuncMap{
		"contains": func(s, sub any) bool {
			return strings.Contains(strings.ToLower(fmt.Sprint(s)), strings.ToLower(strings.TrimSpace(fmt.Sprint(sub))))
		},
		"add":   func(x, y any) string { return fmtNum(num(x) + num(y)) },
		"sub":   func(x, y any) string { return fmtNum(num(x) - num(y)) },
		"mul":   func(x, y any) string { return fmtNum(num(x) * num(y)) },
		"gtn":   func(x, y any) bool { return num(x) > num(y) },
		"ltn":   func(x, y any) bool { return num(x) < num(y) },
		"lower": strings.ToLower,
		"upper": strings.ToUpper,
		"trim":  strings.TrimSpace,
		"default": func(def string, v any) string {
			s := fmt.Sprint(v)
			if strings.TrimSpace(s) == "" {
				return def
			}
			return s
		},
		"count": func(coll string) int { return len(a.collection(coll)) },
		// initial is the first letter of s, upper-cased (avatar and icon glyphs).
		"initial": func(s string) string {
			for _, r := range s {
				return strings.ToUpper(string(r))
			}
			return ""
		},
		// matches is a search: true when the query is empty or any of its words (3+ letters,
		// a plural "s" dropped; any CJK word) occurs in one of the fields.
		"matches": func(query string, fields ...string) bool {
			hay := strings.ToLower(strings.Join(fields, " "))
			q := strings.ToLower(strings.TrimSpace(query))
			if q == "" {
				return true
			}
			if strings.Contains(hay, q) {
				return true
			}
			for _, w := range strings.Fields(q) {
				w = strings.TrimSuffix(w, "s")
				if (len(w) >= 3 || w != "" && w[0] >= 0x80) && strings.Contains(hay, w) {
					return true
				}
			}
			return false
		},
		// sum adds field (times qty when a second field is given) over a collection.
		"sum": func(coll, field string, qty ...string) string {
			t := 0.0
			for _, r := range a.collection(coll) {
				v := num(r[field])
				if len(qty) > 0 {
					v *= num(r[qty[0]])
				}
				t += v
			}
			return fmtNum(t)
		},
		// summary renders each record with a "{field}" format and joins them with ", ".
		"summary": func(coll, format string) string {
			var parts []string
			for _, r := range a.collection(coll) {
				s := format
				for k, v := range r {
					s = strings.ReplaceAll(s, "{"+k+"}", v)
				}
				parts = append(parts, s)
			}
			return strings.Join(parts, ", ")
		},
		"field": func(coll, id, field string) string {
			for _, r := range a.collection(coll) {
				if r["id"] == id {
					return r[field]
				}
			}
			return ""
		},
		"setting": func(ns, key string) string { return a.p.settings[ns][key] },
		"now":     func(layout string) string { return a.p.cfg.Clock().Format(layout) },
		"money":   func(v any) string { return strconv.FormatFloat(num(v), 'f', 2, 64) },
		"nextid": func(coll string) string {
			maxID := 1000
			for _, r := range a.collection(coll) {
				if n, err := strconv.Atoi(r["id"]); err == nil && n > maxID {
					maxID = n
				}
			}
			return strconv.Itoa(maxID + 1)
		},
	}
}

// rows returns the records a list shows: sorted, then filtered and de-duplicated (so
// "sort: -time, distinct: to" keeps the newest record of each value).
func (a *appState) rows(e *ElementSpec, inst *screenInst) []Record {
	var src []Record
	if e.From != "" {
		src = slices.Clone(a.collection(e.From))
	} else {
		src = slices.Clone(e.Items)
	}
	if e.Sort != "" {
		field, desc := strings.TrimPrefix(e.Sort, "-"), strings.HasPrefix(e.Sort, "-")
		sort.SliceStable(src, func(i, j int) bool {
			x, y := src[i][field], src[j][field]
			fx, errx := strconv.ParseFloat(x, 64)
			fy, erry := strconv.ParseFloat(y, 64)
			if errx == nil && erry == nil {
				if desc {
					return fx > fy
				}
				return fx < fy
			}
			if desc {
				return x > y
			}
			return x < y
		})
	}
	out := make([]Record, 0, len(src))
	seen := map[string]bool{}
	for _, r := range src {
		if e.Where != "" && !a.truth(e.Where, tctx{inst: inst, item: r}) {
			continue
		}
		if e.Distinct != "" {
			if seen[r[e.Distinct]] {
				continue
			}
			seen[r[e.Distinct]] = true
		}
		out = append(out, r)
	}
	return out
}

// ---- tasks and navigation (callers hold p.mu) ----

func (p *Phone) newTask(a *appState) *task {
	t := &task{id: p.nextTaskID, pkg: a.spec.Package}
	p.nextTaskID++
	t.stack = append(t.stack, p.newInst(a, a.spec.screens[a.spec.Start], nil))
	return t
}

func (p *Phone) newInst(a *appState, s *ScreenSpec, params map[string]string) *screenInst {
	inst := &screenInst{id: p.nextInstID, spec: s, app: a, params: params, scroll: map[string]int{}}
	if inst.params == nil {
		inst.params = map[string]string{}
	}
	p.nextInstID++
	return inst
}

func (p *Phone) front() *task { return p.tasks[len(p.tasks)-1] }

func (p *Phone) top() *screenInst {
	t := p.front()
	return t.stack[len(t.stack)-1]
}

func (p *Phone) findTask(pkg string) *task {
	for _, t := range p.tasks {
		if t.pkg == pkg {
			return t
		}
	}
	return nil
}

func (p *Phone) toFront(t *task) {
	i := slices.Index(p.tasks, t)
	if i >= 0 {
		p.tasks = append(p.tasks[:i], p.tasks[i+1:]...)
	}
	p.tasks = append(p.tasks, t)
}

func (p *Phone) hideKeyboard() {
	p.kbShown = false
	p.selectAll = false
}

// launch brings pkg's task to the front, or starts it. It reports whether a task existed.
func (p *Phone) launch(pkg string) (existed bool, err error) {
	a := p.apps[pkg]
	if a == nil {
		return false, fmt.Errorf("launch %s: %w", pkg, ErrNotFound)
	}
	p.hideKeyboard()
	p.toast = ""
	defer p.bump()
	if pkg == p.home {
		p.goHome()
		return true, nil
	}
	if t := p.findTask(pkg); t != nil {
		p.toFront(t)
		p.maybeRateDialog(t)
		return true, nil
	}
	t := p.newTask(a)
	p.tasks = append(p.tasks, t)
	if !a.running {
		a.running = true
		p.runActions(a, t.stack[0], nil, a.spec.OnLaunch)
	}
	p.runActions(a, t.stack[0], nil, t.stack[0].spec.OnEnter)
	p.maybeRateDialog(t)
	return false, nil
}

func (p *Phone) goHome() {
	p.hideKeyboard()
	t := p.findTask(p.home)
	if t == nil {
		t = p.newTask(p.apps[p.home])
		p.tasks = append(p.tasks, t)
	}
	t.stack = t.stack[:1]
	t.stack[0].scroll = map[string]int{}
	p.toFront(t)
	p.bump()
}

// push opens screen s of app a on top of the front task.
func (p *Phone) push(a *appState, s *ScreenSpec, params map[string]string) {
	t := p.front()
	if t.pkg != a.spec.Package {
		t = p.findTask(a.spec.Package)
		if t == nil {
			t = &task{id: p.nextTaskID, pkg: a.spec.Package}
			p.nextTaskID++
			p.tasks = append(p.tasks, t)
			a.running = true
		}
		p.toFront(t)
	}
	p.hideKeyboard()
	inst := p.newInst(a, s, params)
	t.stack = append(t.stack, inst)
	p.bump()
	p.runActions(a, inst, nil, s.OnEnter)
	if !s.Dialog {
		p.maybeRateDialog(t)
	}
}

// pop removes the top screen; popping a task's root sends the task to the back.
func (p *Phone) pop() {
	t := p.front()
	p.hideKeyboard()
	p.bump()
	if len(t.stack) > 1 {
		t.stack = t.stack[:len(t.stack)-1]
		return
	}
	if t.pkg == p.home {
		return
	}
	// Android 12+: Back on a root activity moves the task to the back.
	p.tasks = slices.DeleteFunc(p.tasks, func(x *task) bool { return x == t })
	p.tasks = append([]*task{t}, p.tasks...)
	p.goHome()
}

// back is the Back key.
func (p *Phone) back() {
	p.toast = ""
	if p.kbShown {
		p.kbShown = false
		p.selectAll = false
		p.bump()
		return
	}
	inst := p.top()
	if len(inst.spec.OnBack) > 0 {
		p.runActions(inst.app, inst, nil, inst.spec.OnBack)
		return
	}
	p.pop()
}

func (p *Phone) forceStop(pkg string) {
	a := p.apps[pkg]
	if a == nil || pkg == p.home {
		return
	}
	a.running = false
	fresh := maps.Clone(a.spec.Vars)
	if fresh == nil {
		fresh = map[string]string{}
	}
	for _, k := range a.spec.Persist {
		if v, ok := a.vars[k]; ok {
			fresh[k] = v
		}
	}
	a.vars = fresh
	wasFront := p.front().pkg == pkg
	p.tasks = slices.DeleteFunc(p.tasks, func(t *task) bool { return t.pkg == pkg })
	if wasFront || len(p.tasks) == 0 {
		p.goHome()
	}
	p.bump()
}

// maybeRateDialog is the "unexpected dialog" fault.
func (p *Phone) maybeRateDialog(t *task) {
	if p.faults.Dialog <= 0 || t.pkg == p.home {
		return
	}
	if p.rng.Float64() >= p.faults.Dialog {
		return
	}
	top := t.stack[len(t.stack)-1]
	if top.spec.Dialog {
		return
	}
	t.stack = append(t.stack, p.newInst(top.app, p.rateDialog, nil))
	p.bump()
}

func rateDialogSpec() *ScreenSpec {
	return &ScreenSpec{
		ID: "fairy_rate_dialog", Dialog: true,
		Elements: []*ElementSpec{
			{Type: "title", ID: "alertTitle", Text: "Enjoying {{.app.label}}?"},
			{Type: "text", ID: "message", Text: "Rate this app: tell others what you think."},
			{Type: "hbox", ID: "buttonPanel", Children: []*ElementSpec{
				{Type: "button", ID: "button2", Text: "Not now", OnTap: []Action{{Finish: true}}},
				{Type: "button", ID: "button1", Text: "Rate now", OnTap: []Action{{Finish: true}, {Toast: "Thanks for rating!"}}},
			}},
		},
	}
}

// runActions performs a list of actions in the context of a screen (and a list record).
func (p *Phone) runActions(a *appState, inst *screenInst, item Record, acts []Action) {
	c := tctx{inst: inst, item: item}
	for _, ac := range acts {
		if ac.If != "" && !a.truth(ac.If, c) {
			continue
		}
		p.bump()
		with := func(m map[string]string) map[string]string {
			out := map[string]string{}
			for k, v := range m {
				out[k] = a.eval(v, c)
			}
			return out
		}
		switch {
		case ac.Set != nil:
			vals := with(ac.Set)
			maps.Copy(a.vars, vals)
		case ac.Toggle != "":
			a.vars[ac.Toggle] = strconv.FormatBool(!truthy(a.vars[ac.Toggle]))
		case ac.ToggleSetting != "":
			ns, key, _ := strings.Cut(a.eval(ac.ToggleSetting, c), "/")
			if p.settings[ns] != nil {
				if truthy(p.settings[ns][key]) && p.settings[ns][key] != "1" && key == "ui_night_mode" {
					p.settings[ns][key] = "1"
				} else if key == "ui_night_mode" {
					p.settings[ns][key] = "2"
				} else if truthy(p.settings[ns][key]) {
					p.settings[ns][key] = "0"
				} else {
					p.settings[ns][key] = "1"
				}
			}
		case ac.PutSetting != nil:
			for k, v := range ac.PutSetting {
				ns, key, _ := strings.Cut(a.eval(k, c), "/")
				if p.settings[ns] != nil {
					p.settings[ns][key] = a.eval(v, c)
				}
			}
		case ac.Add != nil:
			rec := Record{}
			for k, v := range ac.Add.Record {
				rec[k] = a.eval(v, c)
			}
			key := ""
			if ac.Add.Key != "" {
				key = a.eval(ac.Add.Key, c)
				rec["id"] = key
			}
			if rec["id"] == "" {
				a.nextRec++
				rec["id"] = fmt.Sprintf("%s-new%d", ac.Add.To, a.nextRec)
			}
			coll := a.records[ac.Add.To]
			if i := slices.IndexFunc(coll, func(r Record) bool { return key != "" && r["id"] == key }); i >= 0 {
				coll[i] = rec
			} else {
				a.records[ac.Add.To] = append(coll, rec)
			}
		case ac.Update != nil:
			for _, r := range a.records[ac.Update.In] {
				rc := tctx{inst: inst, item: r}
				if ac.Update.Where != "" && !a.truth(ac.Update.Where, rc) {
					continue
				}
				vals := map[string]string{}
				for k, v := range ac.Update.Set {
					vals[k] = a.eval(v, rc)
				}
				maps.Copy(r, vals)
			}
		case ac.Delete != nil:
			a.records[ac.Delete.From] = slices.DeleteFunc(a.records[ac.Delete.From], func(r Record) bool {
				return ac.Delete.Where == "" || a.truth(ac.Delete.Where, tctx{inst: inst, item: r})
			})
		case ac.Copy != nil:
			for _, r := range a.records[ac.Copy.From] {
				nr := maps.Clone(r)
				for k, v := range ac.Copy.Set {
					nr[k] = a.eval(v, tctx{inst: inst, item: r})
				}
				a.nextRec++
				nr["id"] = fmt.Sprintf("%s-new%d", ac.Copy.To, a.nextRec)
				a.records[ac.Copy.To] = append(a.records[ac.Copy.To], nr)
			}
		case ac.Clear != "":
			delete(a.records, ac.Clear)
		case ac.Toast != "":
			p.toast = a.eval(ac.Toast, c)
		case ac.Go != "":
			p.push(a, a.spec.screens[ac.Go], with(ac.With))
			inst = p.top()
			c.inst = inst
		case ac.Replace != "":
			params := with(ac.With)
			t := p.front()
			if len(t.stack) > 1 {
				t.stack = t.stack[:len(t.stack)-1]
			}
			p.push(a, a.spec.screens[ac.Replace], params)
			inst = p.top()
			c.inst = inst
		case ac.Reset != "":
			params := with(ac.With)
			t := p.findTask(a.spec.Package)
			if t != nil {
				t.stack = t.stack[:1]
				p.toFront(t)
				p.hideKeyboard()
			}
			if ac.Reset != a.spec.Start || t == nil {
				p.push(a, a.spec.screens[ac.Reset], params)
			} else {
				t.stack[0].scroll = map[string]int{}
			}
			inst = p.top()
			c.inst = inst
		case ac.Finish:
			p.pop()
		case ac.Back:
			p.back()
		case ac.Home:
			p.goHome()
		case ac.Launch != "":
			_, _ = p.launch(a.eval(ac.Launch, c))
		case ac.Open != nil:
			other := p.apps[ac.Open.Package]
			if other == nil {
				continue
			}
			params := with(ac.Open.With)
			if p.findTask(other.spec.Package) == nil {
				_, _ = p.launch(other.spec.Package)
			} else {
				p.toFront(p.findTask(other.spec.Package))
			}
			if s := other.spec.screens[ac.Open.Screen]; s != nil && ac.Open.Screen != other.spec.Start {
				p.push(other, s, params)
			}
			return
		}
	}
}

// ---- text fields ----

// focusedInput returns the focused input's element spec on the top screen.
func (p *Phone) focusedInput() (*screenInst, *ElementSpec) {
	inst := p.top()
	if inst.focus == "" {
		return inst, nil
	}
	return inst, findElement(inst.spec.Elements, inst.focus)
}

func findElement(els []*ElementSpec, id string) *ElementSpec {
	for _, e := range els {
		if e.ID == id && e.Type == "input" {
			return e
		}
		if f := findElement(e.Children, id); f != nil {
			return f
		}
	}
	return nil
}

// typeText inserts text into the focused field; it reports whether a field took it.
func (p *Phone) typeText(s string) bool {
	inst, e := p.focusedInput()
	if e == nil {
		return false
	}
	a := inst.app
	if p.selectAll {
		a.vars[e.Bind] = ""
		p.selectAll = false
	}
	a.vars[e.Bind] += s
	p.toast = ""
	p.bump()
	return true
}

// deleteChars removes n characters before the cursor (the cursor is at the end).
func (p *Phone) deleteChars(n int) {
	inst, e := p.focusedInput()
	if e == nil {
		return
	}
	a := inst.app
	if p.selectAll {
		a.vars[e.Bind] = ""
		p.selectAll = false
		p.bump()
		return
	}
	r := []rune(a.vars[e.Bind])
	if n > len(r) {
		n = len(r)
	}
	a.vars[e.Bind] = string(r[:len(r)-n])
	p.bump()
}

func (p *Phone) clearField() {
	inst, e := p.focusedInput()
	if e == nil {
		return
	}
	inst.app.vars[e.Bind] = ""
	p.selectAll = false
	p.bump()
}

// submit is Enter / the IME action on the focused field.
func (p *Phone) submit() {
	inst, e := p.focusedInput()
	if e == nil {
		return
	}
	if len(e.OnSubmit) > 0 {
		p.hideKeyboard()
		p.runActions(inst.app, inst, nil, e.OnSubmit)
	}
	p.bump()
}
