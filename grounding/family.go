package grounding

import (
	"fmt"
	"strings"
)

// Family is a model family's action syntax: how its answers name an action and a point.
type Family string

// The families. Som is fairy's numbered actions (set-of-mark), the default; Auto asks the
// probe to tell the family and frame.
const (
	Som     Family = "som"
	UITARS  Family = "uitars"
	AutoGLM Family = "autoglm"
	QwenVL  Family = "qwen-vl"
	GUIOwl  Family = "guiowl"
	Auto    Family = "auto"
)

// Families lists the families that answer in coordinates, in a stable order.
func Families() []Family { return []Family{UITARS, AutoGLM, QwenVL, GUIOwl} }

// ParseFamily reads a family name as config and flags give it ("" is Som).
func ParseFamily(s string) (Family, error) {
	f := Family(strings.ToLower(strings.TrimSpace(s)))
	switch f {
	case "":
		return Som, nil
	case Som, UITARS, AutoGLM, QwenVL, GUIOwl, Auto:
		return f, nil
	case "ui-tars", "doubao":
		return UITARS, nil
	case "qwen", "qwenvl", "qwen2.5-vl", "qwen3-vl":
		return QwenVL, nil
	case "gui-owl":
		return GUIOwl, nil
	case "auto-glm":
		return AutoGLM, nil
	}
	return "", fmt.Errorf("%w: %q (use som, uitars, autoglm, qwen-vl, guiowl or auto)", ErrFamily, s)
}

// Coordinates reports whether the family answers in coordinates (every family but Som and
// Auto, which is not a syntax).
func (f Family) Coordinates() bool {
	switch f {
	case UITARS, AutoGLM, QwenVL, GUIOwl:
		return true
	}
	return false
}
