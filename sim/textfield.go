package sim

// Text fields: typing into, deleting from and submitting the focused input (callers hold
// p.mu).

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
		if f := findElement(e.parts, id); f != nil {
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
	pickerEdited(a, e)
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
		pickerEdited(a, e)
		p.selectAll = false
		p.bump()
		return
	}
	r := []rune(a.vars[e.Bind])
	if n > len(r) {
		n = len(r)
	}
	a.vars[e.Bind] = string(r[:len(r)-n])
	pickerEdited(a, e)
	p.bump()
}

func (p *Phone) clearField() {
	inst, e := p.focusedInput()
	if e == nil {
		return
	}
	inst.app.vars[e.Bind] = ""
	pickerEdited(inst.app, e)
	p.selectAll = false
	p.bump()
}

// submit is Enter / the IME action on the focused field; in a multi-line field, Enter
// starts a new line.
func (p *Phone) submit() {
	inst, e := p.focusedInput()
	if e == nil {
		return
	}
	if e.Multiline {
		p.typeText("\n")
		return
	}
	if len(e.OnSubmit) > 0 {
		p.hideKeyboard()
		p.runActions(inst.app, inst, nil, e.OnSubmit)
	}
	p.bump()
}
