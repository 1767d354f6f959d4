package grounding

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Parse reads a model's answer in family f's syntax into actions, points in the model's
// frame. An answer with no action of the syntax, or with one it cannot read, is an
// ErrSyntax whose message says what was wrong, for the model.
func Parse(f Family, text string) ([]Action, error) {
	var as []Action
	var err error
	switch f {
	case UITARS:
		as, err = parseUITARS(text)
	case AutoGLM:
		as, err = parseAutoGLM(text)
	case QwenVL, GUIOwl:
		as, err = parseMobileUse(f, text)
	default:
		return nil, fmt.Errorf("%w: %q answers are not coordinates (families: "+
			"uitars, autoglm, qwen-vl, guiowl)", ErrFamily, f)
	}
	if err != nil {
		return nil, err
	}
	if f == UITARS {
		as = submits(as)
	}
	if len(as) == 0 {
		return nil, errorf(f, "no action found; answer with one action of the action space")
	}
	return as, nil
}

// Thought is the reasoning an answer gives before its action, in the family's own markup
// ("" when it gives none).
func Thought(f Family, text string) string {
	var m []string
	switch f {
	case UITARS:
		m = regexp.MustCompile(`(?s)Thought:\s*(.*?)\s*(?:\nAction:|$)`).FindStringSubmatch(text)
	case AutoGLM:
		m = regexp.MustCompile(`(?s)<think>\s*(.*?)\s*</think>`).FindStringSubmatch(text)
	case QwenVL, GUIOwl:
		m = regexp.MustCompile(`(?s)<think(?:ing)?>\s*(.*?)\s*</think(?:ing)?>`).FindStringSubmatch(text)
		if m == nil {
			m = regexp.MustCompile(`(?s)^\s*(?:Thought:)?\s*(.*?)\s*<tool_call>`).FindStringSubmatch(text)
		}
	}
	if m == nil {
		return ""
	}
	return strings.TrimSpace(m[1])
}

// submits splits a typed text that ends in a line break (UI-TARS: "use \n at the end of
// content to submit") into the text and Enter.
func submits(as []Action) []Action {
	var out []Action
	for _, a := range as {
		if a.Kind == Type && strings.HasSuffix(a.Text, "\n") {
			t := strings.TrimRight(a.Text, "\n")
			if t != "" {
				a.Text = t
				out = append(out, a)
			}
			out = append(out, Action{Kind: Enter})
			continue
		}
		out = append(out, a)
	}
	return out
}

// number is one number as models and JSON write them, an exponent included: 1e2 is one
// number (100), not the two digit runs 1 and 2.
var number = regexp.MustCompile(`-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?`)

// readPoint reads a point written as (x,y), [x,y], <point>x y</point>,
// <|box_start|>(x,y)<|box_end|> or a box [x1,y1,x2,y2] (its centre).
func readPoint(s string) (Point, bool) {
	ns := number.FindAllString(s, -1)
	var v []float64
	for _, n := range ns {
		f, err := strconv.ParseFloat(n, 64)
		if err != nil {
			return Point{}, false
		}
		v = append(v, f)
	}
	switch len(v) {
	case 2:
		return Point{X: v[0], Y: v[1]}, true
	case 4:
		return Point{X: (v[0] + v[2]) / 2, Y: (v[1] + v[3]) / 2}, true
	}
	return Point{}, false
}

// opposite is the finger's direction of a scroll that shows more on side d.
func opposite(d string) string {
	switch strings.ToLower(strings.TrimSpace(d)) {
	case "down":
		return "up"
	case "up":
		return "down"
	case "left":
		return "right"
	case "right":
		return "left"
	}
	return ""
}

func direction(d string) string {
	switch d = strings.ToLower(strings.TrimSpace(d)); d {
	case "up", "down", "left", "right":
		return d
	}
	return ""
}

var actionLine = regexp.MustCompile(`(?m)^[ \t]*Action:`)

// parseUITARS reads "Thought: …\nAction: click(start_box='(x,y)')"; several calls may
// follow Action: on lines of their own.
func parseUITARS(text string) ([]Action, error) {
	// The actions follow the last "Action:" that starts a line (else the first one): a text
	// to type may hold "Action:" too, and what follows it there is text, not actions.
	body := text
	if m := actionLine.FindAllStringIndex(text, -1); m != nil {
		body = text[m[len(m)-1][1]:]
	} else if i := strings.Index(text, "Action:"); i >= 0 {
		body = text[i+len("Action:"):]
	}
	var out []Action
	for _, c := range calls(body) {
		pt := func(keys ...string) (Point, bool, error) {
			for _, k := range keys {
				if v, ok := c.args[k]; ok {
					p, ok := readPoint(v)
					if !ok {
						return Point{}, false, errorf(UITARS, "%s(%s=%q): the point is not two numbers (x,y)", c.name, k, v)
					}
					return p, true, nil
				}
			}
			return Point{}, false, nil
		}
		switch c.name {
		case "click", "left_single", "tap", "long_press", "left_double":
			p, ok, err := pt("start_box", "point", "start_point")
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, errorf(UITARS, "%s() needs start_box='<|box_start|>(x,y)<|box_end|>'", c.name)
			}
			k := Tap
			if c.name == "long_press" {
				k = LongPress
			}
			out = append(out, Action{Kind: k, Point: p, HasPoint: true})
			if c.name == "left_double" {
				out = append(out, Action{Kind: Tap, Point: p, HasPoint: true})
			}
		case "type":
			out = append(out, Action{Kind: Type, Text: c.args["content"]})
		case "scroll":
			p, ok, err := pt("start_box", "point")
			if err != nil {
				return nil, err
			}
			d := opposite(c.args["direction"])
			if d == "" {
				return nil, errorf(UITARS, "scroll(direction=%q): the direction is up, down, left or right", c.args["direction"])
			}
			out = append(out, Action{Kind: Swipe, Point: p, HasPoint: ok, Dir: d})
		case "drag", "swipe":
			p, ok, err := pt("start_box", "start_point")
			if err != nil {
				return nil, err
			}
			e, eok, err := pt("end_box", "end_point")
			if err != nil {
				return nil, err
			}
			if !ok || !eok {
				return nil, errorf(UITARS, "%s() needs start_box and end_box", c.name)
			}
			out = append(out, Action{Kind: Swipe, Point: p, HasPoint: true, End: e, HasEnd: true})
		case "press_home":
			out = append(out, Action{Kind: Home})
		case "press_back":
			out = append(out, Action{Kind: Back})
		case "hotkey", "press":
			switch strings.ToLower(strings.TrimSpace(c.args["key"])) {
			case "enter", "return":
				out = append(out, Action{Kind: Enter})
			case "back":
				out = append(out, Action{Kind: Back})
			case "home":
				out = append(out, Action{Kind: Home})
			default:
				return nil, errorf(UITARS, "hotkey(key=%q): a phone has only enter, back and home", c.args["key"])
			}
		case "open_app":
			out = append(out, Action{Kind: Launch, Text: c.args["app_name"]})
		case "wait":
			out = append(out, Action{Kind: Wait, Seconds: 5})
		case "finished":
			out = append(out, Action{Kind: Finish, Text: c.args["content"]})
		case "call_user":
			out = append(out, Action{Kind: Interact, Text: c.args["content"]})
		default:
			return nil, errorf(UITARS, "%s() is not in the action space", c.name)
		}
	}
	return out, nil
}

// parseAutoGLM reads "<think>…</think><answer>do(action=\"Tap\", element=[x,y])</answer>".
func parseAutoGLM(text string) ([]Action, error) {
	body := text
	if m := regexp.MustCompile(`(?s)<answer>(.*?)(?:</answer>|$)`).FindStringSubmatch(text); m != nil {
		body = m[1]
	} else if i := strings.Index(text, "</think>"); i >= 0 {
		body = text[i+len("</think>"):]
	}
	var out []Action
	for _, c := range calls(body) {
		if c.name == "finish" {
			out = append(out, Action{Kind: Finish, Text: c.args["message"]})
			continue
		}
		if c.name != "do" {
			continue
		}
		elem := func(key string) (Point, error) {
			p, ok := readPoint(c.args[key])
			if !ok || strings.Count(c.args[key], ",") != 1 {
				return Point{}, errorf(AutoGLM, "do(action=%q, %s=%q): %s is a list of 2 integers [x,y]", c.args["action"], key,
					c.args[key], key)
			}
			return p, nil
		}
		switch act := c.args["action"]; act {
		case "Tap", "Long Press", "Double Tap":
			p, err := elem("element")
			if err != nil {
				return nil, err
			}
			k := Tap
			if act == "Long Press" {
				k = LongPress
			}
			out = append(out, Action{Kind: k, Point: p, HasPoint: true})
			if act == "Double Tap" {
				out = append(out, Action{Kind: Tap, Point: p, HasPoint: true})
			}
		case "Type", "Type_Name":
			if c.args["text"] == "\n" {
				out = append(out, Action{Kind: Enter}) // a line break alone: the keyboard's Enter
				continue
			}
			out = append(out, Action{Kind: Type, Text: c.args["text"]})
		case "Swipe":
			p, err := elem("start")
			if err != nil {
				return nil, err
			}
			e, err := elem("end")
			if err != nil {
				return nil, err
			}
			out = append(out, Action{Kind: Swipe, Point: p, HasPoint: true, End: e, HasEnd: true})
		case "Launch":
			out = append(out, Action{Kind: Launch, Text: c.args["app"]})
		case "Back":
			out = append(out, Action{Kind: Back})
		case "Home":
			out = append(out, Action{Kind: Home})
		case "Wait":
			s := 1.0
			if n := number.FindString(c.args["duration"]); n != "" {
				s, _ = strconv.ParseFloat(n, 64)
			}
			out = append(out, Action{Kind: Wait, Seconds: s})
		case "Take_over", "Interact":
			out = append(out, Action{Kind: Interact, Text: c.args["message"]})
		case "Note", "Call_API":
			// Open-AutoGLM's notes to itself: nothing on the phone.
		default:
			return nil, errorf(AutoGLM, "do(action=%q) is not in the action space (Tap, Type, Swipe, Long Press, Double Tap, "+
				"Launch, Back, Home, Wait, Take_over)", act)
		}
	}
	return out, nil
}

// mobileUse is the mobile_use tool call of Qwen2.5-VL, Qwen3-VL and GUI-Owl.
type mobileUse struct {
	Name      string `json:"name"`
	Arguments struct {
		Action      string          `json:"action"`
		Coordinate  json.RawMessage `json:"coordinate"`
		Coordinate2 json.RawMessage `json:"coordinate2"`
		Text        string          `json:"text"`
		Button      string          `json:"button"`
		Direction   string          `json:"direction"`
		Time        json.Number     `json:"time"`
		Status      string          `json:"status"`
	} `json:"arguments"`
}

var bareCall = regexp.MustCompile(`\{\s*"name"\s*:`)

var toolCall = regexp.MustCompile(`(?s)<tool_call>\s*(.*?)\s*(?:</tool_call>|$)`)

// parseMobileUse reads <tool_call>{"name": "mobile_use", "arguments": {…}}</tool_call>
// blocks (or bare such objects).
func parseMobileUse(f Family, text string) ([]Action, error) {
	var bodies []string
	for _, m := range toolCall.FindAllStringSubmatch(text, -1) {
		bodies = append(bodies, m[1])
	}
	if len(bodies) == 0 {
		end := 0 // where the last object read ends: an object inside it is an argument, not a call
		for _, loc := range bareCall.FindAllStringIndex(text, -1) {
			if loc[0] < end {
				continue
			}
			bodies = append(bodies, text[loc[0]:])
			dec := json.NewDecoder(strings.NewReader(text[loc[0]:]))
			var v json.RawMessage
			if dec.Decode(&v) != nil {
				break // the error is said when the body is read below
			}
			end = loc[0] + int(dec.InputOffset())
		}
	}
	var out []Action
	for _, b := range bodies {
		var c mobileUse
		if err := json.NewDecoder(strings.NewReader(b)).Decode(&c); err != nil {
			return nil, errorf(f, "the tool call is not JSON (%v); write {\"name\": \"mobile_use\", \"arguments\": {…}}", err)
		}
		if c.Name != "mobile_use" {
			return nil, errorf(f, "the tool %q is not offered; call mobile_use", c.Name)
		}
		a := c.Arguments
		coord := func(raw json.RawMessage, key string) (Point, bool, error) {
			if len(raw) == 0 || string(raw) == "null" {
				return Point{}, false, nil
			}
			// The numbers are read from the value JSON holds, not from its escapes: the
			// string "\u001b[2J" is no point (1,2).
			text := string(raw)
			var str string
			if json.Unmarshal(raw, &str) == nil {
				text = str
			}
			p, ok := readPoint(text)
			if !ok {
				return Point{}, false, errorf(f, "%s %s is not [x, y]", key, raw)
			}
			return p, true, nil
		}
		p, hasP, err := coord(a.Coordinate, "coordinate")
		if err != nil {
			return nil, err
		}
		switch strings.ToLower(a.Action) {
		case "click", "tap", "long_press":
			if !hasP {
				return nil, errorf(f, "%s needs a coordinate [x, y]", a.Action)
			}
			k := Tap
			if strings.ToLower(a.Action) == "long_press" {
				k = LongPress
			}
			out = append(out, Action{Kind: k, Point: p, HasPoint: true})
		case "swipe", "drag":
			e, hasE, err := coord(a.Coordinate2, "coordinate2")
			if err != nil {
				return nil, err
			}
			d := direction(a.Direction)
			if !hasE && d == "" {
				return nil, errorf(f, "swipe needs coordinate2 (where the finger ends) or a direction")
			}
			out = append(out, Action{Kind: Swipe, Point: p, HasPoint: hasP, End: e, HasEnd: hasE, Dir: d})
		case "type":
			out = append(out, Action{Kind: Type, Text: a.Text})
		case "system_button":
			switch strings.ToLower(a.Button) {
			case "back":
				out = append(out, Action{Kind: Back})
			case "home":
				out = append(out, Action{Kind: Home})
			case "enter":
				out = append(out, Action{Kind: Enter})
			default:
				return nil, errorf(f, "system_button %q: the buttons are Back, Home and Enter", a.Button)
			}
		case "key":
			if strings.EqualFold(a.Text, "enter") {
				out = append(out, Action{Kind: Enter})
			} else {
				return nil, errorf(f, "key %q: use system_button (Back, Home, Enter)", a.Text)
			}
		case "open", "awake":
			out = append(out, Action{Kind: Launch, Text: a.Text})
		case "wait":
			s, _ := a.Time.Float64()
			if s == 0 {
				s = 1
			}
			out = append(out, Action{Kind: Wait, Seconds: s})
		case "answer":
			out = append(out, Action{Kind: Finish, Text: a.Text})
		case "terminate":
			if n := len(out); n > 0 && out[n-1].Kind == Finish {
				continue // the answer before it ended the task
			}
			if st := strings.ToLower(a.Status); st == "fail" || st == "failure" {
				out = append(out, Action{Kind: Interact, Text: "the model gave up on the task"})
			} else {
				out = append(out, Action{Kind: Finish})
			}
		default:
			return nil, errorf(f, "the action %q is not in mobile_use (click, long_press, swipe, type, system_button, open, "+
				"wait, answer, terminate)", a.Action)
		}
	}
	return out, nil
}
