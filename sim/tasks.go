package sim

import (
	"fmt"
	"maps"
	"slices"
)

// Tasks and navigation: the back stack of each app's task, launching, going home and back
// (callers hold p.mu).

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
		return false, fmt.Errorf("launch %s: %w", pkg, errNotFound)
	}
	p.hideKeyboard()
	p.toast = ""
	defer p.bump()
	p.logf("system", pidSystemServer, 'I', "ActivityTaskManager", "START u0 {act=android.intent.action.MAIN "+
		"cat=[android.intent.category.LAUNCHER] flg=0x10200000 cmp=%s} from uid 2000", a.spec.shortComponent(a.spec.Activity))
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

// frontActivity is the top non-dialog screen of the front task (a dialog is not an activity).
func (p *Phone) frontActivity() (*task, *screenInst) {
	t := p.front()
	for i := len(t.stack) - 1; i >= 0; i-- {
		if !t.stack[i].spec.Dialog || i == 0 {
			return t, t.stack[i]
		}
	}
	return t, t.stack[0]
}
