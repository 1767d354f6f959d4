package walkthrough

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fairy-go/fairy/event"
)

// walkActions turns the action shorthand of a step's Do into decider actions. text turns a
// quoted argument into the action's text and index a label into the element's index; both
// may leave slots the scripted model fills.
func walkActions(do []string, text func(string) (string, error), index func(string) (int, error)) ([]event.Action, error) {
	if len(do) == 0 {
		return nil, fmt.Errorf("no actions (do:)")
	}
	var out []event.Action
	for _, d := range do {
		a, err := walkAction(d, text, index)
		if err != nil {
			return nil, fmt.Errorf("action %q: %w", d, err)
		}
		out = append(out, a)
	}
	return out, nil
}

func walkAction(d string, text func(string) (string, error), index func(string) (int, error)) (event.Action, error) {
	toks, err := splitAction(d)
	if err != nil {
		return event.Action{}, err
	}
	a := event.Action{Type: event.ActionType(toks[0].text)}
	args := toks[1:]
	bad := fmt.Errorf("bad arguments for %s", a.Type)
	quoted := func(n int) bool {
		if len(args) != n {
			return false
		}
		for _, t := range args {
			if !t.quoted {
				return false
			}
		}
		return true
	}
	switch a.Type {
	case event.Tap, event.LongPress, event.Clear:
		if !quoted(1) {
			return a, bad
		}
		a.Index, err = index(args[0].text)
	case event.Input:
		if !quoted(2) {
			return a, bad
		}
		if a.Index, err = index(args[0].text); err == nil {
			a.Text, err = text(args[1].text)
		}
	case event.Swipe:
		switch {
		case len(args) == 1 && !args[0].quoted:
			a.Direction = args[0].text
		case len(args) == 2 && args[0].quoted && !args[1].quoted:
			a.Direction = args[1].text
			a.Index, err = index(args[0].text)
		default:
			return a, bad
		}
	case event.Back, event.Home, event.Enter:
		if len(args) != 0 {
			return a, bad
		}
	case event.Wait:
		if len(args) != 1 {
			return a, bad
		}
		if a.Seconds, err = strconv.ParseFloat(args[0].text, 64); err != nil {
			return a, bad
		}
	case event.OpenApp:
		if len(args) != 1 {
			return a, bad
		}
		a.Package = args[0].text
	case event.Finish:
		switch {
		case len(args) == 0:
		case quoted(1):
			a.Text, err = text(args[0].text)
		default:
			return a, bad
		}
	case event.NeedInteraction:
		if !quoted(1) {
			return a, bad
		}
		a.Reason, err = text(args[0].text)
	default:
		return a, fmt.Errorf("unknown type %q", a.Type)
	}
	if err != nil {
		return a, err
	}
	v := a
	if v.Index < 0 {
		v.Index = 1 // a slot: the model's answer has the real index
	}
	return a, v.Validate()
}

type token struct {
	text   string
	quoted bool
}

// splitAction splits `Input "To" "Alice Chen"` into words, Go-quoted strings unquoted.
func splitAction(s string) ([]token, error) {
	var toks []token
	s = strings.TrimSpace(s)
	for s != "" {
		if s[0] == '"' {
			end := 1
			for end < len(s) && s[end] != '"' {
				if s[end] == '\\' {
					end++
				}
				end++
			}
			if end >= len(s) {
				return nil, fmt.Errorf("unterminated quote")
			}
			text, err := strconv.Unquote(s[:end+1])
			if err != nil {
				return nil, err
			}
			toks = append(toks, token{text: text, quoted: true})
			s = strings.TrimSpace(s[end+1:])
			continue
		}
		word, rest, _ := strings.Cut(s, " ")
		toks = append(toks, token{text: word})
		s = strings.TrimSpace(rest)
	}
	if len(toks) == 0 {
		return nil, fmt.Errorf("empty action")
	}
	return toks, nil
}
