package grounding

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Format writes one action as family f writes it in frame fr (its points already in fr):
// the inverse of Parse, for the scripted model that stands in for these models.
func Format(f Family, fr Frame, a Action) string {
	switch f {
	case UITARS:
		return formatUITARS(fr, a)
	case AutoGLM:
		return formatAutoGLM(fr, a)
	case QwenVL, GUIOwl:
		return formatMobileUse(fr, a)
	}
	return ""
}

// FormatAnswer writes a whole answer: the thought and the actions in the family's markup
// (UI-TARS "Thought: …\nAction: …", AutoGLM <think>/<answer>, GUI-Owl <thinking> and
// <tool_call> blocks, Qwen-VL tool calls).
func FormatAnswer(f Family, fr Frame, thought string, as []Action) string {
	var calls []string
	for _, a := range as {
		calls = append(calls, Format(f, fr, a))
	}
	thought = strings.TrimSpace(thought)
	switch f {
	case UITARS:
		return "Thought: " + oneLine(thought) + "\nAction: " + strings.Join(calls, "\n\n")
	case AutoGLM:
		return "<think>" + thought + "</think>\n<answer>" + strings.Join(calls, "\n") + "</answer>"
	case GUIOwl:
		return "<thinking>\n" + thought + "\n</thinking>\n" + strings.Join(calls,
			"\n") + "\n<conclusion>\n" + oneLine(thought) + "\n</conclusion>"
	case QwenVL:
		if thought != "" {
			return oneLine(thought) + "\n" + strings.Join(calls, "\n")
		}
		return strings.Join(calls, "\n")
	}
	return ""
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// num writes a coordinate: whole numbers, except in the Unit frame.
func num(fr Frame, v float64) string {
	if fr.Kind == Unit {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.Itoa(int(v))
}

// swipeEnd is where a swipe with only a direction ends: a fifth of the frame away.
func swipeEnd(fr Frame, a Action) Point {
	_, _, dx, dy := fr.extent()
	e := a.Point
	switch a.Dir {
	case "up":
		e.Y -= dy / 5
	case "down":
		e.Y += dy / 5
	case "left":
		e.X -= dx / 5
	case "right":
		e.X += dx / 5
	}
	maxX, maxY, _, _ := fr.extent()
	e.X, e.Y = min(max(e.X, 0), maxX), min(max(e.Y, 0), maxY)
	if fr.Kind != Unit {
		e.X, e.Y = float64(int(e.X)), float64(int(e.Y))
	}
	return e
}

// centre is the middle of the frame: where a swipe of the whole screen starts.
func centre(fr Frame) Point {
	maxX, maxY, _, _ := fr.extent()
	if fr.Kind == Unit {
		return Point{X: 0.5, Y: 0.5}
	}
	return Point{X: float64(int(maxX / 2)), Y: float64(int(maxY / 2))}
}

func formatUITARS(fr Frame, a Action) string {
	pt := func(p Point) string {
		if fr.Kind == Absolute {
			return "'<|box_start|>(" + num(fr, p.X) + "," + num(fr, p.Y) + ")<|box_end|>'"
		}
		return "'<point>" + num(fr, p.X) + " " + num(fr, p.Y) + "</point>'"
	}
	key := "start_box="
	if fr.Kind != Absolute {
		key = "point="
	}
	switch a.Kind {
	case Tap:
		return "click(" + key + pt(a.Point) + ")"
	case LongPress:
		return "long_press(" + key + pt(a.Point) + ")"
	case Type:
		return "type(content=" + pyQuote(a.Text, '\'') + ")"
	case Swipe:
		p := a.Point
		if !a.HasPoint {
			p = centre(fr)
		}
		if a.HasEnd {
			if fr.Kind == Absolute {
				return "drag(start_box=" + pt(p) + ", end_box=" + pt(a.End) + ")"
			}
			return "drag(start_point=" + pt(p) + ", end_point=" + pt(a.End) + ")"
		}
		return "scroll(" + key + pt(p) + ", direction='" + opposite(a.Dir) + "')"
	case Back:
		return "press_back()"
	case Home:
		return "press_home()"
	case Enter:
		return "hotkey(key='enter')"
	case Launch:
		return "open_app(app_name=" + pyQuote(a.Text, '\'') + ")"
	case Wait:
		return "wait()"
	case Finish:
		return "finished(content=" + pyQuote(a.Text, '\'') + ")"
	case Interact:
		return "call_user()"
	}
	return ""
}

func formatAutoGLM(fr Frame, a Action) string {
	pt := func(p Point) string { return "[" + num(fr, p.X) + "," + num(fr, p.Y) + "]" }
	q := func(s string) string { return pyQuote(s, '"') }
	switch a.Kind {
	case Tap:
		return `do(action="Tap", element=` + pt(a.Point) + ")"
	case LongPress:
		return `do(action="Long Press", element=` + pt(a.Point) + ")"
	case Type:
		return `do(action="Type", text=` + q(a.Text) + ")"
	case Enter:
		return `do(action="Type", text="\n")`
	case Swipe:
		p := a.Point
		if !a.HasPoint {
			p = centre(fr)
		}
		e := a.End
		if !a.HasEnd {
			e = swipeEnd(fr, Action{Point: p, Dir: a.Dir})
		}
		return `do(action="Swipe", start=` + pt(p) + ", end=" + pt(e) + ")"
	case Back:
		return `do(action="Back")`
	case Home:
		return `do(action="Home")`
	case Launch:
		return `do(action="Launch", app=` + q(a.Text) + ")"
	case Wait:
		return fmt.Sprintf(`do(action="Wait", duration="%s seconds")`, strconv.FormatFloat(a.Seconds, 'f', -1, 64))
	case Finish:
		return "finish(message=" + q(a.Text) + ")"
	case Interact:
		return `do(action="Take_over", message=` + q(a.Text) + ")"
	}
	return ""
}

func formatMobileUse(fr Frame, a Action) string {
	args := map[string]any{}
	pt := func(p Point) []any {
		if fr.Kind == Unit {
			return []any{p.X, p.Y}
		}
		return []any{int(p.X), int(p.Y)}
	}
	switch a.Kind {
	case Tap:
		args["action"], args["coordinate"] = "click", pt(a.Point)
	case LongPress:
		args["action"], args["coordinate"] = "long_press", pt(a.Point)
	case Type:
		args["action"], args["text"] = "type", a.Text
	case Swipe:
		p := a.Point
		if !a.HasPoint {
			p = centre(fr)
		}
		e := a.End
		if !a.HasEnd {
			e = swipeEnd(fr, Action{Point: p, Dir: a.Dir})
		}
		args["action"], args["coordinate"], args["coordinate2"] = "swipe", pt(p), pt(e)
	case Back:
		args["action"], args["button"] = "system_button", "Back"
	case Home:
		args["action"], args["button"] = "system_button", "Home"
	case Enter:
		args["action"], args["button"] = "system_button", "Enter"
	case Launch:
		args["action"], args["text"] = "open", a.Text
	case Wait:
		args["action"], args["time"] = "wait", a.Seconds
	case Finish:
		if a.Text != "" {
			return toolCallText(map[string]any{"action": "answer", "text": a.Text}) + "\n" +
				toolCallText(map[string]any{"action": "terminate", "status": "success"})
		}
		args["action"], args["status"] = "terminate", "success"
	case Interact:
		args["action"], args["status"] = "terminate", "failure"
	default:
		return ""
	}
	return toolCallText(args)
}

// toolCallText writes a mobile_use call as the models do: name first, no HTML escapes.
func toolCallText(args map[string]any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(args)
	return "<tool_call>\n{\"name\": \"mobile_use\", \"arguments\": " + strings.TrimSpace(b.String()) + "}\n</tool_call>"
}
