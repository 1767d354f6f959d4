package executor

import (
	"bytes"
	"context"
	"fmt"
	"image"
	_ "image/jpeg" // DecodeConfig of a JPEG screenshot
	_ "image/png"  // DecodeConfig of a PNG screenshot
	"strconv"
	"strings"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/grounding"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/prompts"
)

// groundingTolerance is how far, in screen pixels, a point may miss an element and still
// be taken for it (the nearest one): a quantized model's misclick of a few pixels past a
// small icon's edge.
const groundingTolerance = 24

// family is the decider's model family.
func (r *run) family() grounding.Family { return grounding.Family(r.cfg.Grounding) }

// frame is the frame the decider's model answers in: the configured one (the probe's), or
// the family's documented one; an Absolute frame without a size is the picture sent.
func (r *run) frame() grounding.Frame {
	fr := r.cfg.GroundingFrame
	w, h := r.pictureSize()
	if fr.Kind == "" {
		return grounding.DefaultFrame(r.family(), w, h)
	}
	if fr.Kind == grounding.Absolute && (fr.W <= 0 || fr.H <= 0) {
		fr.W, fr.H = w, h
	}
	return fr
}

// pictureSize is the size of the picture the models see, or the screen's when none is sent.
func (r *run) pictureSize() (int, int) {
	if img := r.images(); img != nil {
		if c, _, err := image.DecodeConfig(bytes.NewReader(img[0].Data)); err == nil && c.Width > 0 && c.Height > 0 {
			return c.Width, c.Height
		}
	}
	return r.screenSize()
}

// screenSize is the size the screen's bounds are in.
func (r *run) screenSize() (int, int) { return r.screen.Width, r.screen.Height }

// elementBoxes lists each element's box in frame fr, one grounding.BoxLine a line.
func (r *run) elementBoxes(fr grounding.Frame) string {
	sw, sh := r.screenSize()
	var b strings.Builder
	for _, el := range r.screen.Elements {
		if el.Bounds.Empty() {
			continue
		}
		p1 := fr.FromScreen(grounding.Point{X: float64(el.Bounds.X1), Y: float64(el.Bounds.Y1)}, sw, sh)
		p2 := fr.FromScreen(grounding.Point{X: float64(el.Bounds.X2 - 1), Y: float64(el.Bounds.Y2 - 1)}, sw, sh)
		b.WriteString(grounding.BoxLine(el.Index, [4]float64{p1.X, p1.Y, p2.X, p2.Y}) + "\n")
	}
	return b.String()
}

// decideInCoordinates asks a model that answers in coordinates, in its family's prompt, and
// maps its actions to fairy's: a point becomes the element under it. problems are what was
// wrong with the answer, for the model (the caller asks again).
func (r *run) decideInCoordinates(ctx context.Context, d prompts.DeciderData) (prompts.DeciderAnswer, []prompts.Note, error) {
	fam, fr := r.family(), r.frame()
	sw, sh := r.screenSize()
	d.Grounding, d.Frame, d.Boxes = string(fam), grounding.FrameLine(fr, sw, sh), r.elementBoxes(fr)
	d.Shell, d.Hint, d.Navigate = nil, "", false // no syntax of theirs says these
	p, err := r.cfg.Prompts.DecideInCoordinates(d)
	if err != nil {
		return prompts.DeciderAnswer{}, nil, err
	}
	req := llm.Request{Role: llm.RoleDecider, System: p.System,
		Messages: []llm.Message{{Role: "user", Text: p.User, Images: r.images()}}}
	resp, err := r.cfg.Model.Generate(ctx, req)
	if err != nil {
		return prompts.DeciderAnswer{}, nil, fmt.Errorf("%s model: %w", llm.RoleDecider, err)
	}
	ans := prompts.DeciderAnswer{Thought: grounding.Thought(fam, resp.Text)}
	acts, err := grounding.Parse(fam, resp.Text)
	if err != nil {
		r.publish(event.ActionRejected{Step: r.step, Action: event.Action{Type: "?"}, Reason: err.Error()})
		return ans, []prompts.Note{prompts.NoteUnread{Err: err}}, nil
	}
	r.pointTaps = map[string]bool{}
	for _, a := range acts {
		fa, why := r.fromPoint(fr, a, ans.Actions)
		if why != "" {
			r.publish(event.ActionRejected{Step: r.step, Action: event.Action{Type: event.ActionType(a.Kind)}, Reason: why})
			return ans, []prompts.Note{prompts.NoteRejected{Action: grounding.Format(fam, fr, a), Why: why}}, nil
		}
		if fa.Type == event.Input && len(ans.Actions) > 0 {
			// A tap on the field, then its text: fairy's Input does both.
			if last := ans.Actions[len(ans.Actions)-1]; last.Type == event.Tap && last.Index == fa.Index {
				ans.Actions = ans.Actions[:len(ans.Actions)-1]
			}
		}
		ans.Actions = append(ans.Actions, fa)
	}
	return ans, nil, nil
}

// fromPoint maps one action of a coordinate model to fairy's. before are the actions of
// the same answer mapped so far (a Type goes into the field tapped just before it).
func (r *run) fromPoint(fr grounding.Frame, a grounding.Action, before []event.Action) (event.Action, string) {
	sw, sh := r.screenSize()
	toScreen := func(p grounding.Point) (grounding.Point, string) {
		sp, err := fr.ToScreen(p, sw, sh)
		if err != nil {
			return grounding.Point{}, err.Error()
		}
		return sp, ""
	}
	switch a.Kind {
	case grounding.Tap, grounding.LongPress:
		sp, why := toScreen(a.Point)
		if why != "" {
			return event.Action{}, why
		}
		t := event.Tap
		if a.Kind == grounding.LongPress {
			t = event.LongPress
		}
		if i, ok := grounding.ElementAt(r.screen, sp, groundingTolerance); ok {
			return event.Action{Type: t, Index: i}, ""
		}
		// On no element: a tap at the point, judged by the guard as the command it is.
		cmd := fmt.Sprintf("input tap %d %d", int(sp.X), int(sp.Y))
		if t == event.LongPress {
			cmd = fmt.Sprintf("input swipe %d %d %d %d %d", int(sp.X), int(sp.Y), int(sp.X), int(sp.Y), longPressDuration.Milliseconds())
		}
		r.pointTaps[cmd] = true
		return event.Action{Type: event.Shell, Command: cmd}, ""
	case grounding.Type:
		if n := len(before); n > 0 && (before[n-1].Type == event.Tap || before[n-1].Type == event.LongPress || before[n-1].Type == event.Shell) {
			// The text is meant for what was just tapped: into that field, or nowhere. Into
			// another field of the screen (the one focused, the only one) it goes where the
			// model never pointed: a note in the search bar.
			if el := r.element(before[n-1].Index); before[n-1].Type == event.Tap && el != nil && el.Editable {
				return event.Action{Type: event.Input, Index: el.Index, Text: a.Text}, ""
			}
			return event.Action{}, "the point tapped before it is no text field; tap a text field's box, then type (or tap alone, and type once a field has the focus)"
		}
		if el := typingField(r.screen); el != nil {
			return event.Action{Type: event.Input, Index: el.Index, Text: a.Text}, ""
		}
		return event.Action{}, "no text field has the focus; tap the field first, then type"
	case grounding.Swipe:
		idx := 0
		if a.HasPoint {
			sp, why := toScreen(a.Point)
			if why != "" {
				return event.Action{}, why
			}
			idx = scrollableAt(r.screen, sp)
		}
		if a.HasEnd {
			if _, why := toScreen(a.End); why != "" {
				return event.Action{}, why
			}
		}
		dir := a.Direction()
		if dir == "" {
			return event.Action{}, "the swipe starts and ends on the same point; give where it ends or a direction"
		}
		return event.Action{Type: event.Swipe, Index: idx, Direction: dir}, ""
	case grounding.Back:
		return event.Action{Type: event.Back}, ""
	case grounding.Home:
		return event.Action{Type: event.Home}, ""
	case grounding.Enter:
		return event.Action{Type: event.Enter}, ""
	case grounding.Launch:
		pkg := strings.TrimSpace(a.Text)
		if !strings.Contains(pkg, ".") {
			// A name, not a package: which app it names is for the phone's launcher to
			// say, and a wrong guess opens another app.
			return event.Action{}, fmt.Sprintf("open the app by its package name (this task's app is %s), not by a name such as %q", r.a.Task.App, pkg)
		}
		return event.Action{Type: event.OpenApp, Package: pkg}, ""
	case grounding.Wait:
		return event.Action{Type: event.Wait, Seconds: a.Seconds}, ""
	case grounding.Finish:
		return event.Action{Type: event.Finish, Text: a.Text}, ""
	case grounding.Interact:
		why := a.Text
		if why == "" {
			why = "the model asks for the person to decide"
		}
		return event.Action{Type: event.NeedInteraction, Reason: why}, ""
	}
	return event.Action{}, fmt.Sprintf("%s is not an action fairy can take", a.Kind)
}

// typingField is the field text goes into: the focused text field, else the only one.
func typingField(s *perception.Screen) *perception.Element {
	var only *perception.Element
	n := 0
	for i := range s.Elements {
		e := &s.Elements[i]
		if !e.Editable {
			continue
		}
		if e.Focused {
			return e
		}
		only = e
		n++
	}
	if n == 1 {
		return only
	}
	return nil
}

// scrollableAt is what a swipe starting at a screen point moves: the smallest scrollable
// element under it, else a slider under it (its thumb is dragged), else 0 (the whole
// screen).
func scrollableAt(s *perception.Screen, p grounding.Point) int {
	pt := perception.Point{X: int(p.X), Y: int(p.Y)}
	best, area := 0, 0
	for _, e := range s.Elements {
		if e.Scrollable && e.Bounds.Contains(pt) && (best == 0 || e.Bounds.Area() < area) {
			best, area = e.Index, e.Bounds.Area()
		}
	}
	if best == 0 {
		for _, e := range s.Elements {
			if e.Role == "slider" && e.Bounds.Contains(pt) {
				return e.Index
			}
		}
	}
	return best
}

// pointTap is the point of a Shell command the decider made of a point on no element.
func (r *run) pointTap(cmd string) (x, y int, long, ok bool) {
	if !r.pointTaps[cmd] {
		return 0, 0, false, false
	}
	f := strings.Fields(cmd)
	if len(f) < 4 {
		return 0, 0, false, false
	}
	x, err1 := strconv.Atoi(f[2])
	y, err2 := strconv.Atoi(f[3])
	return x, y, f[1] == "swipe", err1 == nil && err2 == nil
}
