package replay

import (
	"regexp"
	"strings"

	"github.com/fairy-go/fairy/perception"
)

// StateWord is an on/off word of a task or sub-goal: where it stands and the state it
// names.
type StateWord struct {
	Start, End int
	Word       string
	On         bool
}

// stateRE finds the words that name a switch's state: on or off after turn, switch,
// toggle or set (a few words between: "turn wifi on"), and enable, disable, activate,
// deactivate. A bare "on" ("an event on Monday") names none.
var stateRE = regexp.MustCompile(`(?i)\b(?:(?:turn|switch|toggle|set)\s+(?:[^\s,.;:]+\s+){0,3}?(on|off)\b|(enable|disable|activate|deactivate)d?\b)`)

// StateWords lists the on/off words of text in order.
func StateWords(text string) []StateWord {
	var out []StateWord
	for _, m := range stateRE.FindAllStringSubmatchIndex(text, -1) {
		g := 2
		if m[2] < 0 {
			g = 4
		}
		w := text[m[g]:m[g+1]]
		on, _ := StateOf(w)
		out = append(out, StateWord{Start: m[g], End: m[g+1], Word: w, On: on})
	}
	return out
}

// StateOf reads an on/off argument: on, enable, activate (and their -d forms) are on;
// off, disable, deactivate off.
func StateOf(arg string) (on, ok bool) {
	switch strings.TrimSuffix(strings.ToLower(strings.TrimSpace(arg)), "d") {
	case "on", "enable", "activate", "true", "1":
		return true, true
	case "off", "of", "disable", "deactivate", "false", "0":
		return false, true
	}
	return false, false
}

// Satisfied says why a tap on element index of screen would undo what text (a sub-goal,
// else the task) asks: the tap flips a switch (the element, or the one inside its row) that text names, with its one on/off word, and the switch already shows
// that state. "" when the tap flips nothing, text names no single state for it, or the
// switch is not yet in it.
func Satisfied(screen *perception.Screen, index int, texts ...string) string {
	if screen == nil || index <= 0 {
		return ""
	}
	sw, ok := switchOf(screen, index)
	if !ok || !(strings.Contains(sw.Class, "Switch") || strings.Contains(sw.Class, "Toggle")) {
		// A radio or a checked list item is chosen, never un-chosen, by a tap; a checkbox
		// picks a row more often than it names a state ("turn off after 5 minutes").
		return ""
	}
	var row perception.Element
	for _, e := range screen.Elements {
		if e.Index == index {
			row = e
		}
	}
	for _, text := range texts {
		words := StateWords(text)
		if len(words) != 1 {
			continue
		}
		lower := strings.ToLower(text)
		named := false
		for _, l := range []string{row.Label, sw.Label} {
			if l = strings.ToLower(strings.TrimSpace(l)); len(l) >= 2 && HasWords(lower, l) {
				named = true
			}
		}
		if !named {
			continue
		}
		if sw.Checked == words[0].On {
			return strings.TrimSpace(row.Label) + " is already " + onOff(sw.Checked)
		}
		return ""
	}
	return ""
}
