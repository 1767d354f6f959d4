package main

import (
	"errors"
	"fmt"
	"github.com/fairy-go/fairy/grounding"
	"math"
	"strings"

	"github.com/fairy-go/fairy/perception"
)

// The grounding families of model.grounding: how the decider's model names what to tap.
// som names elements by their set-of-mark number; the others answer in coordinates, each in
// its own syntax and frame; auto lets `fairy model probe` find the family and the frame.
const (
	groundingSoM     = "som"
	groundingUITARS  = "uitars"
	groundingAutoGLM = "autoglm"
	groundingQwenVL  = "qwen-vl"
	groundingGUIOwl  = "guiowl"
	groundingAuto    = "auto"
)

// groundingChoices are the values model.grounding takes, in the order docs/grounding.md lists them.
var groundingChoices = []string{groundingSoM, groundingUITARS, groundingAutoGLM, groundingQwenVL, groundingGUIOwl,
	groundingAuto}

// pointParser reads the point of one tap from a model's answer, in the numbers the model
// wrote (its own frame). At merge with package grounding it is grounding.Parse of the
// family, taking the first tap's point (see groundingParser).
type pointParser func(text string) (x, y float64, err error)

// errNoPoint says an answer holds no tap the family's syntax describes.
var errNoPoint = errors.New("no tap in the answer")

// familySpec is what fairy knows of one coordinate family: the picture size it is sent,
// the frame its model card documents, how its tap is written and how it is asked.
type familySpec struct {
	Name  string
	Image perception.ImageSize
	Frame frameKind // the documented frame; the probe prefers it among frames that fit equally
	Parse pointParser
}

// Picture sizes the families' processors resize to (qwen_vl_utils' smart_resize bounds, the
// ones bytedance/UI-TARS README_coordinates.md uses too); the normalised families get the
// set-of-mark picture's long edge, their answers do not depend on it.
var (
	qwenImage       = perception.ImageSize{Factor: 28, MinPixels: 4 * 28 * 28, MaxPixels: 16384 * 28 * 28}
	uitarsImage     = perception.ImageSize{Factor: 28, MinPixels: 100 * 28 * 28, MaxPixels: 16384 * 28 * 28}
	normalisedImage = perception.ImageSize{LongEdge: perception.DefaultLongEdge}
	// probeAutoImage is what an unknown family is sent: small enough that a model answering
	// in the picture's pixels is told apart from one answering in the screen's.
	probeAutoImage = perception.ImageSize{Factor: 28, MinPixels: 4 * 28 * 28, MaxPixels: 1280 * 28 * 28}
)

// coordinateFamilies are the families that answer in coordinates, in the order auto tries
// their syntax.
func coordinateFamilies() []familySpec {
	return []familySpec{
		{Name: groundingUITARS, Image: uitarsImage, Frame: frameImage, Parse: tapOf(grounding.UITARS)},
		{Name: groundingAutoGLM, Image: normalisedImage, Frame: frame999, Parse: tapOf(grounding.AutoGLM)},
		{Name: groundingQwenVL, Image: qwenImage, Frame: frameImage, Parse: tapOf(grounding.QwenVL)},
		{Name: groundingGUIOwl, Image: qwenImage, Frame: frame1000, Parse: tapOf(grounding.GUIOwl)},
	}
}

// familyByName is the coordinate family of a model.grounding value.
func familyByName(name string) (familySpec, bool) {
	for _, f := range coordinateFamilies() {
		if f.Name == name {
			return f, true
		}
	}
	return familySpec{}, false
}

// checkGrounding refuses a model.grounding value fairy does not know, saying what it takes.
func checkGrounding(v string) (string, error) {
	v = strings.ToLower(strings.TrimSpace(v))
	if v == "" {
		return groundingSoM, nil
	}
	for _, c := range groundingChoices {
		if v == c {
			return v, nil
		}
	}
	return "", fmt.Errorf("%s: %q is no grounding family: set one of %s (som: "+
		"the model names elements by their number; auto: `fairy model probe` finds the family)",
		keyModelGrounding, v, strings.Join(groundingChoices, ", "))
}

// tapOf reads the first tap of an answer in family f's syntax (package grounding's
// parser, which reads every action of each family) as the raw numbers of its frame.
func tapOf(f grounding.Family) func(string) (float64, float64, error) {
	return func(text string) (float64, float64, error) {
		acts, err := grounding.Parse(f, text)
		if err != nil {
			return 0, 0, err
		}
		for _, a := range acts {
			if (a.Kind == grounding.Tap || a.Kind == grounding.LongPress) && a.HasPoint {
				return finite(a.Point.X, a.Point.Y)
			}
		}
		return 0, 0, errNoPoint
	}
}

func finite(x, y float64) (float64, float64, error) {
	if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
		return 0, 0, errNoPoint
	}
	return x, y, nil
}
