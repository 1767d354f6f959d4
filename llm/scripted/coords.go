package scripted

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/fairy-go/fairy/grounding"
	"github.com/fairy-go/fairy/llm"
)

// decided is the part of a numbered-action decider answer (fairy's JSON) the formatter reads.
type decided struct {
	Thought string `json:"thought"`
	Actions []struct {
		Type      string  `json:"type"`
		Index     int     `json:"index"`
		Text      string  `json:"text"`
		Direction string  `json:"direction"`
		Seconds   float64 `json:"seconds"`
		Package   string  `json:"package"`
		Reason    string  `json:"reason"`
	} `json:"actions"`
}

// inFamily rewrites a decider answer in numbered actions (what the rules write) as family
// f writes it: each element's box centre, in the frame the prompt states (its frame line
// and the element lines' box=[x1,y1,x2,y2]). The rules still choose the element; only the
// way of saying it changes. An action the family cannot say is an error naming it.
func inFamily(f grounding.Family, answer, prompt string) (string, error) {
	js, err := llm.ExtractJSON(answer)
	if err != nil {
		return "", fmt.Errorf("scripted: the rule's decider answer is not JSON: %w", err)
	}
	var d decided
	if err := json.Unmarshal([]byte(js), &d); err != nil {
		return "", fmt.Errorf("scripted: the rule's decider answer: %w", err)
	}
	fr, _, _, ok := grounding.ReadFrameLine(prompt)
	if !ok {
		return "", fmt.Errorf("scripted: a %s answer needs the prompt's coordinate line (\"Coordinates: "+
			"…\"), and the prompt has none", f)
	}
	screen, boxes := parseScreen(prompt), grounding.ReadBoxes(prompt)
	centre := func(i int) (grounding.Point, error) {
		b, ok := boxes[i]
		if !ok {
			return grounding.Point{}, fmt.Errorf("%w: index %d has no box in the prompt (%s)", errNoElement, i, describe(screen))
		}
		p := grounding.Point{X: (b[0] + b[2]) / 2, Y: (b[1] + b[3]) / 2}
		if fr.Kind != grounding.Unit {
			p.X, p.Y = math.Floor(p.X), math.Floor(p.Y)
		}
		return p, nil
	}
	var as []grounding.Action
	for _, a := range d.Actions {
		switch strings.ToLower(a.Type) {
		case "tap", "longpress", "long_press", "input", "clear":
			p, err := centre(a.Index)
			if err != nil {
				return "", err
			}
			k := grounding.Tap
			if t := strings.ToLower(a.Type); t == "longpress" || t == "long_press" {
				k = grounding.LongPress
			}
			as = append(as, grounding.Action{Kind: k, Point: p, HasPoint: true})
			if t := strings.ToLower(a.Type); t == "input" || t == "clear" {
				as = append(as, grounding.Action{Kind: grounding.Type, Text: a.Text})
			}
		case "swipe":
			g := grounding.Action{Kind: grounding.Swipe, Dir: a.Direction}
			if a.Index > 0 {
				p, err := centre(a.Index)
				if err != nil {
					return "", err
				}
				g.Point, g.HasPoint = p, true
			}
			as = append(as, g)
		case "back":
			as = append(as, grounding.Action{Kind: grounding.Back})
		case "home":
			as = append(as, grounding.Action{Kind: grounding.Home})
		case "enter":
			as = append(as, grounding.Action{Kind: grounding.Enter})
		case "wait":
			as = append(as, grounding.Action{Kind: grounding.Wait, Seconds: a.Seconds})
		case "openapp":
			as = append(as, grounding.Action{Kind: grounding.Launch, Text: a.Package})
		case "finish":
			as = append(as, grounding.Action{Kind: grounding.Finish, Text: a.Text})
		case "needinteraction":
			as = append(as, grounding.Action{Kind: grounding.Interact, Text: a.Reason})
		default:
			return "", fmt.Errorf("scripted: %s has no way to say the action %q", f, a.Type)
		}
	}
	return grounding.FormatAnswer(f, fr, d.Thought, as), nil
}
