package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
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

// groundingChoices are the values model.grounding takes, in the order the README lists them.
var groundingChoices = []string{groundingSoM, groundingUITARS, groundingAutoGLM, groundingQwenVL, groundingGUIOwl, groundingAuto}

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
	// System is the system prompt of the probe's request: the family's action space as its
	// model card writes it, cut to the one action the probe asks for.
	System func(imageW, imageH int) string
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
		{Name: groundingUITARS, Image: uitarsImage, Frame: frameImage, Parse: parseUITARS, System: func(int, int) string {
			return "You are a GUI agent. You are given a task and your action history, with screenshots. You need to perform the next action to complete the task.\n\n" +
				"## Output Format\n```\nThought: ...\nAction: ...\n```\n\n## Action Space\nclick(start_box='<|box_start|>(x1,y1)<|box_end|>')\n"
		}},
		{Name: groundingAutoGLM, Image: normalisedImage, Frame: frame999, Parse: parseAutoGLM, System: func(int, int) string {
			return "You are a phone agent. Answer with <think>your reasoning</think><answer>one action</answer>.\n" +
				"Tap: do(action=\"Tap\", element=[x,y]) taps a point; the coordinates run from (0,0) at the top left to (999,999) at the bottom right.\n"
		}},
		{Name: groundingQwenVL, Image: qwenImage, Frame: frameImage, Parse: parseToolCall, System: func(w, h int) string {
			return mobileUseSystem(fmt.Sprintf("The screen's resolution is %dx%d.", w, h))
		}},
		{Name: groundingGUIOwl, Image: qwenImage, Frame: frame1000, Parse: parseToolCall, System: func(int, int) string {
			return mobileUseSystem("Coordinates are relative, from 0 to 1000 on each axis.")
		}},
	}
}

// mobileUseSystem is the Qwen-VL mobile agent's function-call prompt, cut to a click.
func mobileUseSystem(resolution string) string {
	return "You are a helpful assistant.\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n" +
		"<tools>\n{\"type\": \"function\", \"function\": {\"name\": \"mobile_use\", \"description\": \"Use a touchscreen to interact with a mobile device. " +
		resolution + "\", \"parameters\": {\"properties\": {\"action\": {\"enum\": [\"click\"]}, \"coordinate\": {\"type\": \"array\"}}, \"required\": [\"action\"], \"type\": \"object\"}}}\n</tools>\n\n" +
		"For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n" +
		"<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call>"
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
	return "", fmt.Errorf("%s: %q is no grounding family: set one of %s (som: the model names elements by their number; auto: `fairy model probe` finds the family)",
		keyModelGrounding, v, strings.Join(groundingChoices, ", "))
}

// The interim parsers below read only the point of a tap; package grounding's Parse
// replaces them at merge (it reads every action of each family).
var (
	uitarsBox   = regexp.MustCompile(`start_box\s*=\s*['"]?\s*(?:<\|box_start\|>)?\s*[\(\[]\s*(-?[0-9.]+)\s*,\s*(-?[0-9.]+)`)
	uitarsPoint = regexp.MustCompile(`<point>\s*(-?[0-9.]+)\s+(-?[0-9.]+)\s*</point>`)
	autoglmTap  = regexp.MustCompile(`do\(\s*action\s*=\s*"Tap"\s*,\s*element\s*=\s*\[\s*(-?[0-9.]+)\s*,\s*(-?[0-9.]+)\s*\]`)
	toolCall    = regexp.MustCompile(`(?s)<tool_call>\s*(\{.*?\})\s*</tool_call>`)
)

func parseUITARS(text string) (float64, float64, error) {
	for _, re := range []*regexp.Regexp{uitarsBox, uitarsPoint} {
		if m := re.FindStringSubmatch(text); m != nil {
			return numbers(m[1], m[2])
		}
	}
	return 0, 0, errNoPoint
}

func parseAutoGLM(text string) (float64, float64, error) {
	if m := autoglmTap.FindStringSubmatch(text); m != nil {
		return numbers(m[1], m[2])
	}
	return 0, 0, errNoPoint
}

// parseToolCall reads {"name": "mobile_use", "arguments": {"action": "click",
// "coordinate": [x, y]}} inside <tool_call> tags (Qwen-VL, GUI-Owl).
func parseToolCall(text string) (float64, float64, error) {
	m := toolCall.FindStringSubmatch(text)
	if m == nil {
		return 0, 0, errNoPoint
	}
	var call struct {
		Arguments struct {
			Action     string    `json:"action"`
			Coordinate []float64 `json:"coordinate"`
		} `json:"arguments"`
	}
	if err := json.Unmarshal([]byte(m[1]), &call); err != nil {
		return 0, 0, fmt.Errorf("tool call: %w", err)
	}
	if c := call.Arguments; (c.Action == "click" || c.Action == "tap") && len(c.Coordinate) == 2 {
		return finite(c.Coordinate[0], c.Coordinate[1])
	}
	return 0, 0, errNoPoint
}

func numbers(a, b string) (float64, float64, error) {
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, 0, err
	}
	return finite(x, y)
}

func finite(x, y float64) (float64, float64, error) {
	if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
		return 0, 0, errNoPoint
	}
	return x, y, nil
}
