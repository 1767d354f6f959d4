package sim

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Actions: what tapping an element does, as its spec declares (set a variable, add or
// update a record, open a screen, finish, toast…).

// maxActionDepth bounds action lists run inside one another: an app opens a few screens
// in a row on entering at most.
const maxActionDepth = 32

// runActions performs a list of actions in the context of a screen (and a list record).
func (p *Phone) runActions(a *appState, inst *screenInst, item Record, acts []Action) {
	// Screens whose on_enter open each other (a → b → a …) would recurse until the Go
	// stack overflows, a fatal error that ends the whole process: past maxActionDepth the
	// actions are not run, and the phone says why in its log.
	if p.actDepth >= maxActionDepth {
		if len(acts) > 0 {
			p.log.Warn("sim: actions not run: screens open each other on entering, more than the most nested allowed",
				"app", a.spec.Package, "screen", inst.spec.ID, "max", maxActionDepth)
		}
		return
	}
	p.actDepth++
	defer func() { p.actDepth-- }()
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
