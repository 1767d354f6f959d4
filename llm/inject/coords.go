package inject

import (
	"fmt"
	"math"
	"strings"

	ground "github.com/fairy-go/fairy/grounding"
)

// misplace applies offset or frame to a decider answer in coordinates: the prompt's
// frame line says the frame and the screen, its element lines where the elements are, so
// the change names where a point went ("[3] "Pay" → no element"). The kind returned is the
// one to report (an offset's says where its points went).
func (w *Wrapper) misplace(k Kind, text, prompt string) (string, string, bool, Kind) {
	fr, sw, sh, ok := ground.ReadFrameLine(prompt)
	if !ok {
		return "", "", false, k
	}
	fam, as, ok := readCoords(text)
	if !ok {
		return "", "", false, k
	}
	wrong := ground.Frame{Kind: ground.Norm1000}
	if fr.Kind != ground.Absolute {
		wrong = ground.Frame{Kind: ground.Absolute, W: sw, H: sh}
	}
	var what []string
	moved := false
	landed := 0 // where the offset points went: 0 their own element, 1 no element, 2 another
	move := func(p ground.Point) ground.Point {
		sp, err := fr.ToScreen(p, sw, sh)
		if err != nil {
			return p // already off the frame: the executor says so
		}
		if k == frameKind {
			np := wrong.FromScreen(sp, sw, sh)
			what = append(what, fmt.Sprintf("%s → %s (%s, not %s)", p, np, wrong, fr))
			moved = true
			return np
		}
		px := w.rates[Offset]
		a := w.rng.Float64() * 2 * math.Pi
		np := ground.Point{X: math.Round(sp.X + px*math.Cos(a)), Y: math.Round(sp.Y + px*math.Sin(a))}
		np.X, np.Y = min(max(np.X, 0), float64(sw-1)), min(max(np.Y, 0), float64(sh-1))
		from, to := elementAt(prompt, fr, sw, sh, sp), elementAt(prompt, fr, sw, sh, np)
		what = append(what, fmt.Sprintf("%s → %s, %g px off: %s → %s", sp, np, px, from, to))
		switch {
		case to == from:
		case to == "no element":
			landed = max(landed, 1)
		default:
			landed = 2
		}
		moved = true
		return fr.FromScreen(np, sw, sh)
	}
	for i, a := range as {
		if a.HasPoint {
			as[i].Point = move(a.Point)
		}
		if a.HasEnd {
			as[i].End = move(a.End)
		}
	}
	if !moved || (k == Offset && w.rates[Offset] == 0) {
		return "", "", false, k
	}
	out := ground.FormatAnswer(fam, fr, ground.Thought(fam, text), as)
	if k == Offset {
		// The kind says where the points went, so the report's count of injected errors
		// by kind tells the misses apart: offset (still on the element), offset→no element,
		// offset→other element.
		return out, strings.Join(what, "; "), true, [...]Kind{Offset, Offset + "→no element",
			Offset + "→other element"}[landed]
	}
	return out, strings.Join(what, "; "), true, k
}

// readCoords reads an answer in the syntax of whichever family it is written in.
func readCoords(text string) (ground.Family, []ground.Action, bool) {
	for _, f := range ground.Families() {
		if f == ground.QwenVL && strings.Contains(text, "<conclusion>") {
			continue // GUI-Owl's, written with its markup
		}
		if as, err := ground.Parse(f, text); err == nil {
			return f, as, true
		}
	}
	return "", nil, false
}

// elementAt names the element of the prompt's screen under a screen point: `[3] "Pay"`, or
// "no element".
func elementAt(prompt string, fr ground.Frame, sw, sh int, sp ground.Point) string {
	best, area := "", math.Inf(1)
	boxes := ground.ReadBoxes(prompt)
	for _, e := range screenOf(prompt) {
		b, ok := boxes[e.Index]
		if !ok {
			continue
		}
		p1, err1 := fr.ToScreen(ground.Point{X: b[0], Y: b[1]}, sw, sh)
		p2, err2 := fr.ToScreen(ground.Point{X: b[2], Y: b[3]}, sw, sh)
		if err1 != nil || err2 != nil {
			continue
		}
		if sp.X >= p1.X && sp.X <= p2.X && sp.Y >= p1.Y && sp.Y <= p2.Y {
			if a := (p2.X - p1.X + 1) * (p2.Y - p1.Y + 1); a < area {
				best, area = fmt.Sprintf("[%d] %q", e.Index, e.Label), a
			}
		}
	}
	if best == "" {
		return "no element"
	}
	return best
}
