package sim

import (
	"fmt"
	"strings"
)

// A person's hands on the phone: what someone holding it does, not what an agent sends
// over adb. An evaluation's simulated person uses them when the agent hands the phone
// over (a password, a one-time code): the touches and keys reach the apps as the screen's
// own input does, and no adb command, log line or agent event carries them.

// TouchID touches, as a finger would, the middle of the element shown with the resource id
// id ("password", or whole: "com.fairy.bank:id/password"); an input is focused and gets
// the keyboard. It reports whether such an element was on the screen.
func (p *Phone) TouchID(id string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := p.shownID(id)
	if n == nil {
		return false
	}
	c := n.b.Min.Add(n.b.Max).Div(2)
	p.touch(c.X, c.Y, false)
	return true
}

// Shows reports whether an element with the resource id id is on the screen now.
func (p *Phone) Shows(id string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.shownID(id) != nil
}

// TypeKeys types text into the focused field on the on-screen keyboard, as a person's
// thumbs do. It fails when no field has the focus.
func (p *Phone) TypeKeys(text string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.typeText(text) {
		return fmt.Errorf("sim: type: no text field has the focus: touch one first")
	}
	return nil
}

// shownID is the node with resource id id on the current frame's windows, topmost first
// (callers hold p.mu).
func (p *Phone) shownID(id string) *node {
	f := p.frameLocked()
	match := func(rid string) bool {
		return rid != "" && (rid == id || strings.HasSuffix(rid, ":id/"+id))
	}
	var find func(n *node) *node
	find = func(n *node) *node {
		if n == nil {
			return nil
		}
		if match(n.rid) && !n.b.Empty() {
			return n
		}
		for _, c := range n.children {
			if f := find(c); f != nil {
				return f
			}
		}
		return nil
	}
	for i := len(f.windows) - 1; i >= 0; i-- {
		if n := find(f.windows[i].root); n != nil {
			return n
		}
	}
	return nil
}
