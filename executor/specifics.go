package executor

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/guard"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/prompts"
)

var (
	// quantityText is an item line's quantity: "× 2", "x2", "2 份".
	quantityText = regexp.MustCompile(`(?:[×xX]\s?\d+)\s*$|\d+\s?(?:份|杯|件|个)`)
	// totalWord marks the line with the sum to pay.
	totalWord = regexp.MustCompile(`(?i)total|合计|总计|应付|实付|to pay|amount`)
)

// readSpecifics reads a consent's specifics for category off the screen the sensitive
// action waits on: the recipient and the text of a send, the items, amount and payee of an
// order or a payment, what a delete removes. items are the item lines seen earlier in the
// task (a payment page often shows only the amount); app names the payee when the page
// does not.
func readSpecifics(category string, s *perception.Screen, target *perception.Element, items []string, app string) event.Specifics {
	var sp event.Specifics
	if s == nil {
		return sp
	}
	ctx := pageTexts(s, target)
	switch category {
	case "send":
		for _, e := range s.Elements {
			if e.Editable && !e.Password && strings.TrimSpace(e.Text) != "" && e.Text != e.Hint {
				sp.Text = strings.TrimSpace(e.Text)
				break
			}
		}
		// The page's title: its first static text (a conversation's contact, a mail's
		// recipient line), unless that is the text being sent.
		for i, c := range ctx {
			c = strings.TrimSpace(c)
			if c != "" && c != sp.Text && guard.FirstAmount(c) == "" {
				sp.To = strings.TrimPrefix(strings.TrimPrefix(c, "To: "), "To ")
				if sp.Text == "" {
					// Nothing typed: a button that sends what the page shows (a receipt,
					// a document). What is sent is what the page says after its title.
					sp.Text = strings.Join(firstTexts(ctx[i+1:], 2), " · ")
				}
				break
			}
		}
	case "order", "payment", "transfer", "subscription":
		sp.Items = itemLines(s)
		if len(sp.Items) == 0 {
			sp.Items = items
		}
		// The amount the action names ("Bezahlen ¥36") is what it pays; else the page's
		// total, else its first amount. (The first amount of a page whose total word is in
		// none of totalWord's languages is an item's price: "Oolong Tee x2 ¥24" above
		// "Summe ¥36" was asked as the amount of a ¥36 payment.)
		named := ""
		if target != nil {
			named = guard.FirstAmount(target.Label)
		}
		for _, c := range ctx {
			if m := guard.FirstAmount(c); m != "" && (sp.Amount == "" || totalWord.MatchString(c)) {
				sp.Amount = m
			}
		}
		sp.Amount = cmp.Or(named, sp.Amount)
		sp.Payee = app
	default:
		what := firstTexts(ctx, 2)
		if r := rowText(s, target); r != "" && !slices.Contains(what, r) {
			what = append([]string{r}, what...)
		}
		sp.What = strings.Join(what, " · ")
	}
	return sp
}

// rowText is the text of the row the target acts on: the leftmost text beside it, or
// just above it (a row's name over its buttons), within three times the target's height
// (a text read from the picture is boxed tight: TeaHouse's Remove is 29 pixels high, 64
// below its cake's line). A Remove drawn under "Almond cake x1" removes the cake, not
// "TeaHouse · Your order".
func rowText(s *perception.Screen, target *perception.Element) string {
	if target == nil || target.Bounds.Empty() {
		return ""
	}
	t := target.Bounds
	type box struct {
		text string
		b    perception.Bounds
	}
	var boxes []box
	for _, r := range s.Read {
		boxes = append(boxes, box{strings.TrimSpace(r.Text), r.Bounds})
	}
	for i := range s.Elements {
		if e := &s.Elements[i]; !e.Clickable && e.Role == "text" && e.Index != target.Index {
			boxes = append(boxes, box{strings.TrimSpace(e.Label), e.Bounds})
		}
	}
	best := box{}
	for _, b := range boxes {
		if b.text == "" || b.text == strings.TrimSpace(target.Label) || guard.OnlyAmount(b.text) {
			continue
		}
		// Beside the target (sharing its rows of pixels), or ending at most three target
		// heights above its top.
		if b.b.Y2 <= t.Y1-3*t.Dy() || b.b.Y1 >= t.Y2 {
			continue
		}
		if best.text == "" || b.b.Y2 > best.b.Y2 || (b.b.Y2 == best.b.Y2 && b.b.X1 < best.b.X1) {
			best = b
		}
	}
	return best.text
}

// firstTexts are the first n distinct non-empty texts of ctx.
func firstTexts(ctx []string, n int) []string {
	var parts []string
	for _, c := range ctx {
		if c = strings.TrimSpace(c); c != "" && !slices.Contains(parts, c) {
			parts = append(parts, c)
		}
		if len(parts) == n {
			break
		}
	}
	return parts
}

// pageTexts are a screen's static texts. A page drawn in pixels (a WebView, a canvas) has
// them in the lines read from the picture too, but for the one target (nil: none) is.
func pageTexts(s *perception.Screen, target *perception.Element) []string {
	if len(s.Read) == 0 {
		return s.Context
	}
	ctx := slices.Clone(s.Context)
	for _, b := range s.Read {
		if t := strings.TrimSpace(b.Text); t != "" && (target == nil || t != strings.TrimSpace(target.Label)) {
			ctx = append(ctx, t)
		}
	}
	return ctx
}

// itemLines are a screen's static texts that name an item with its quantity.
func itemLines(s *perception.Screen) []string {
	var out []string
	for _, c := range pageTexts(s, nil) {
		if c = strings.TrimSpace(c); c != "" && quantityText.MatchString(c) && !totalWord.MatchString(c) {
			out = append(out, c)
		}
	}
	return out
}

// named reports whether sp names what category needs: a recipient and a text for a send,
// an amount or items for an order or payment, something for the rest.
func named(category string, sp event.Specifics) bool {
	switch category {
	case "send":
		return sp.To != "" && sp.Text != ""
	case "order", "payment", "transfer", "subscription":
		return sp.Amount != "" || len(sp.Items) > 0
	}
	return sp.What != ""
}

// maxCorrections bounds how often one app task goes back after the person refused a
// consent and said what they meant; then a refusal ends the task.
const maxCorrections = 2

// correctionWords mark an answer that corrects rather than only refuses: "no, I meant
// Carol", "that order should hold red bean milk tea", "不是这个，我要红豆奶茶".
var correctionWords = regexp.MustCompile(`(?i)\b(?:meant|mean|should|instead|asked for|wanted|wrong)\b|not (?:to|for) |不是|我要|应该|错了`)

// corrects reports whether a refusal says what the person meant instead.
func corrects(answer string) bool { return correctionWords.MatchString(answer) }

// indexOf is the index of the first element labelled label on s, or 0.
func indexOf(s *perception.Screen, label string) int {
	if s == nil || label == "" {
		return 0
	}
	for _, e := range s.Elements {
		if e.Label == label {
			return e.Index
		}
	}
	return 0
}

// recoverFromRefusal goes back one page after the person refused a consent whose
// specifics were wrong, tells the Re-Planner why (the result was wrong: C), and goes on
// from the page before, without starting over.
func (r *run) recoverFromRefusal(ctx context.Context, need interaction.Need, answer string, ranBefore bool) (State, error) {
	r.corrections++
	r.corrected = append(r.corrected, correction{answer: answer, refused: need.Specifics.String()})
	if r.offGoal(need) {
		// The page is the sub-goal's; the decider slipped onto another kind of action on it
		// (a wrong tap on "Order TH-1001 settled" while sending the receipt): stay, and let
		// it do the sub-goal's own action. Back would undo the right page.
		r.planNote = append(r.planNote, prompts.NoteRefusedStayed{Reason: need.Reason, Answer: answer, Subgoal: need.Subgoal})
		r.reuse, r.noActs, r.lastActs = !ranBefore, true, nil
		return statePerceive, nil
	}
	r.planNote = append(r.planNote, prompts.NoteRefusedWentBack{Reason: need.Reason, Answer: answer, Subgoal: need.Subgoal})
	st, err := r.goBack(ctx, fmt.Sprintf("Back: the person refused %q and said %q", need.Reason, answer))
	if err != nil && ctx.Err() != nil {
		return stateError, ctx.Err()
	}
	if err != nil || st != statePerceive {
		return stateRefuse, r.setReason("the person refused: " + need.Reason)
	}
	return st, nil
}

// offGoal reports whether the refused action is of another kind than the one the step's
// sub-goal names, read by the guard as if it were a label ("Envoyer le ticket" is a send;
// the refused tap was an order). A sub-goal that names no sensitive action, or the same
// kind (a send to the wrong person: the page is wrong), is not off goal.
func (r *run) offGoal(need interaction.Need) bool {
	if r.cfg.Guard == nil || need.Category == "" || strings.TrimSpace(need.Subgoal) == "" {
		return false
	}
	s := &perception.Screen{Elements: []perception.Element{{Index: 1, Label: need.Subgoal, Class: "android.widget.Button", Clickable: true}}}
	v, ok := r.cfg.Guard.Check(event.Action{Type: event.Tap, Index: 1}, &s.Elements[0], s)
	return ok && v.Category != need.Category
}

// goBack presses Back once, model-independent recovery from a wrong page, and perceives
// the page it leads to; what is the Re-Planner's next step.
func (r *run) goBack(ctx context.Context, what string) (State, error) {
	back := event.Action{Type: event.Back}
	if err := r.actAlone(ctx, back); err != nil {
		return stateError, err
	}
	if now, err := r.dumpRead(ctx); err == nil && r.screen != nil && now.Signature == r.screen.Signature && r.screen.Keyboard {
		// The Back only closed the keyboard: the page is still the one to leave.
		if err := r.actAlone(ctx, back); err != nil && ctx.Err() != nil {
			return stateError, err
		}
	}
	r.lastActs = []string{what}
	r.reuse, r.noActs = false, false
	return statePerceive, nil
}

// actAlone runs a, which needs no element (Back, OpenApp), outside the decider's batch:
// the executor's own recovery. It publishes it on the current page and waits for the screen
// to settle; the error is the action's, or the context's.
func (r *run) actAlone(ctx context.Context, a event.Action) error {
	_, err := r.exec(ctx, a, nil)
	ev := event.ActionExecuted{Step: r.step, Action: a, Signature: r.screen.Signature}
	if err != nil {
		ev.Err = err.Error()
	}
	r.publish(ev)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	if err := r.cfg.Device.Settle(ctx); err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return nil
}

// againstChoice says why a tap on a row is not the row the person chose in this task
// when a sibling row (same resource-id) on the screen is: a grounding error caught before
// it acts, whatever the model meant. "" when the tap is fine or nothing is known.
func (r *run) againstChoice(a event.Action) string {
	if (a.Type != event.Tap && a.Type != event.LongPress) || len(r.choices)+len(r.corrected) == 0 {
		return ""
	}
	el := r.element(a.Index)
	if el == nil || el.ResourceID == "" {
		return ""
	}
	if why := r.againstCorrection(el); why != "" {
		return why
	}
	label := strings.ToLower(el.Label)
	for _, c := range r.choices {
		lead := choiceLead(c)
		if lead == "" || strings.Contains(label, strings.ToLower(lead)) {
			continue
		}
		for _, o := range r.screen.Elements {
			if o.Index != el.Index && o.ResourceID == el.ResourceID && strings.Contains(strings.ToLower(o.Label), strings.ToLower(lead)) {
				return fmt.Sprintf("[%d] %q is not what the person chose (%q): that is [%d] %q", el.Index, el.Label, lead, o.Index, o.Label)
			}
		}
	}
	return ""
}

// choiceLead is the lead of a person's answer to a choice: "Alice Wong" of "Alice Wong,
// from work".
// correction is a consent the person refused saying what they meant: their answer, and
// the specifics of the question they refused.
type correction struct{ answer, refused string }

// againstCorrection says why a tap on row el is not what the person said they meant when
// they refused a consent: among el's sibling rows (same resource-id), some are named in
// their answer and not in the refused question ("that would go to Frank Miller, and I
// meant Bob Smith": Bob Smith), and el is not one of them. "" when the tap is fine or
// the answer names no row.
func (r *run) againstCorrection(el *perception.Element) string {
	for _, c := range r.corrected {
		answer, refused := strings.ToLower(c.answer), strings.ToLower(c.refused)
		var meant []string
		mine := false
		for _, o := range r.screen.Elements {
			l := strings.ToLower(strings.TrimSpace(o.Label))
			if o.ResourceID != el.ResourceID || l == "" || !strings.Contains(answer, l) || strings.Contains(refused, l) {
				continue
			}
			meant = append(meant, o.Label)
			mine = mine || o.Index == el.Index
		}
		if len(meant) > 0 && !mine {
			return fmt.Sprintf("[%d] %q is not what the person said they meant when they refused (%q): that is %q", el.Index, el.Label, c.answer, meant[0])
		}
	}
	return ""
}

func choiceLead(c string) string {
	parts := strings.FieldsFunc(c, func(r rune) bool { return strings.ContainsRune(",;，；—(", r) })
	if len(parts) == 0 {
		return ""
	}
	return strings.TrimSpace(parts[0])
}

// unshownChoice is, for a task that ends with an answer, the first of the person's
// choices (the answer's lead: "Alice Wong" of "Alice Wong, from work") that the final
// screen does not show; "" when it shows them all, or the task has no answer.
func (r *run) unshownChoice() string {
	if strings.TrimSpace(r.answer) == "" || r.screen == nil {
		return ""
	}
	text := strings.ToLower(r.screen.Text())
	for _, c := range r.choices {
		lead := choiceLead(c)
		if lead == "" || strings.Contains(text, strings.ToLower(lead)) {
			continue
		}
		return lead
	}
	return ""
}

// typedInto is s as it will be once the Inputs of batch ran: what a Send held back after
// them will send. s itself is left as it is.
func typedInto(s *perception.Screen, batch []event.Action) *perception.Screen {
	if s == nil {
		return nil
	}
	var out *perception.Screen
	for _, a := range batch {
		if a.Type != event.Input || a.Index < 1 || a.Index > len(s.Elements) {
			continue
		}
		if out == nil {
			c := *s
			c.Elements = slices.Clone(s.Elements)
			out = &c
		}
		out.Elements[a.Index-1].Text = a.Text
	}
	if out == nil {
		return s
	}
	return out
}
