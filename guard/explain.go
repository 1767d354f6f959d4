package guard

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/perception"
)

// Explanation is why the guard lets a tap on one element of a screen through, asks first
// or refuses it: `fairy guard explain`.
type Explanation struct {
	Element *perception.Element
	// Verdict is free (done unasked), held (asked first) or never (refused outright).
	Verdict string
	// Category is the category the guard judged the tap to be ("" when free by the
	// guard's own judgement).
	Category string
	// Cue says what decided the guard's own verdict: the element's words, the page's role
	// and cues, or that nothing did.
	Cue string
	// Person is what the person's rules made of the guard's hold (its Verdict "" when none
	// was about it; its Rule an allow that did not apply, with why).
	Person PersonDecision
}

// Explanation verdicts.
const (
	explainFree  = "free"
	ExplainHeld  = "held"
	ExplainNever = "never"
)

// Explain says, for each element of s a tap reaches (text fields aside: what they hold is
// only text), whether a run would tap it unasked, ask first or refuse it, and why.
func (g *Guard) Explain(s *perception.Screen) []Explanation {
	if g == nil || s == nil {
		return nil
	}
	var out []Explanation
	for i := range s.Elements {
		e := &s.Elements[i]
		if e.Editable {
			continue
		}
		x := Explanation{Element: e, Verdict: explainFree}
		v, held := g.check(event.Action{Type: event.Tap, Index: e.Index}, e, s)
		if !held {
			x.Cue = g.freeCue(e, s)
			out = append(out, x)
			continue
		}
		x.Category, x.Verdict = v.Category, ExplainHeld
		x.Cue = g.heldCue(v, e, s)
		x.Person = g.personOf(v, e, s, true)
		switch x.Person.Verdict {
		case personAllow:
			x.Verdict = explainFree
		case personNever:
			x.Verdict = ExplainNever
		}
		out = append(out, x)
	}
	return out
}

// heldCue says why the guard holds v, a tap on el.
func (g *Guard) heldCue(v Verdict, el *perception.Element, s *perception.Screen) string {
	if v.Page {
		info := g.page(s)
		cue := "the page " + pageDoes(info.rule.Category)
		var cues []string
		if a := g.pageAmounts(s); a != "" {
			cues = append(cues, "an amount "+a)
		}
		if info.strong {
			cues = append(cues, "its structure and words")
		} else {
			cues = append(cues, "its words")
		}
		cue += " (" + strings.Join(cues, ", ") + ")"
		if g.generic(el, &info.rule) {
			return cue + ", and this is a generic confirm on it"
		}
		return cue + ", and this is its primary action"
	}
	if target := el.Name(); target != v.Target {
		el = nil // the tap lands on another element drawn over its centre
		for i := range s.Elements {
			if s.Elements[i].Name() == v.Target {
				el = &s.Elements[i]
				break
			}
		}
		if el == nil {
			return fmt.Sprintf("the tap lands on %s", strconv.QuoteToGraphic(v.Target))
		}
	}
	r, ok := g.rule(v.Category)
	if !ok {
		return "its words"
	}
	words, id := g.wordsOf(el, r)
	cue := fmt.Sprintf("its words (a form of a %s word)", v.Category)
	switch {
	case len(words) > 0:
		cue = "its words " + strings.Join(words, ", ")
	case id != "":
		cue = ""
	}
	if id != "" {
		cue = strings.TrimPrefix(cue+" and its resource id "+id, " and ")
	}
	return cue
}

// freeCue says why a tap on el is not held.
func (g *Guard) freeCue(el *perception.Element, s *perception.Screen) string {
	own := g.ownLabel(el)
	switch {
	case g.dismisses(el, own):
		return "a way out"
	case strings.TrimSpace(el.Name()) == "":
		return "no words, and the page does not make it an action"
	}
	for _, r := range g.rules {
		if words, _ := g.wordsOf(el, r); len(words) > 0 {
			return fmt.Sprintf("its %s words name a thing, not the action", r.Category)
		}
	}
	if info := g.page(s); info.ok {
		return "no word of any category, and it is not the primary action of the page that " + strings.TrimPrefix(pageDoes(info.rule.Category), "that ")
	}
	return "no word of any category"
}

// pageDoes says what a page of category does.
func pageDoes(category string) string {
	switch category {
	case "payment":
		return "pays"
	case "transfer":
		return "transfers money"
	case "order":
		return "orders"
	case "delete":
		return "deletes"
	case "send":
		return "sends"
	}
	return "is for " + category
}

// wordsOf are the words of r in el's labels and resource id, quoted, and el's resource id
// when one of r's id patterns matches it.
func (g *Guard) wordsOf(el *perception.Element, r compiledRule) (words []string, id string) {
	var out []string
	add := func(w string) {
		if q := strconv.QuoteToGraphic(w); !slices.Contains(out, q) {
			out = append(out, q)
		}
	}
	texts := append([]string{el.Label, el.Text, el.Desc}, el.Texts...)
	if el.ResourceID != "" {
		texts = append(texts, idWords(el.ResourceID))
	}
	for _, raw := range texts {
		if raw == "" {
			continue
		}
		t := g.newGuardText(raw)
		r.words.find(t, func(_ int, at span) { add(t.s[at.start:at.end]) })
	}
	for _, re := range r.ids {
		if el.ResourceID != "" && re.MatchString(el.ResourceID) {
			id = el.ResourceID
		}
	}
	return out, id
}
