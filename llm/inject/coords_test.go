package inject

import (
	"context"
	"math"
	"strings"
	"testing"

	ground "github.com/fairy-go/fairy/grounding"
	"github.com/fairy-go/fairy/llm"
)

// coordsPrompt is a coordinate decider prompt: the frame line and element lines with boxes
// in that frame (absolute pixels of a half-size screenshot of a 1080×2400 screen).
func coordsPrompt(fr ground.Frame) string {
	box := func(i int, x1, y1, x2, y2 float64) string {
		p1 := fr.FromScreen(ground.Point{X: x1, Y: y1}, 1080, 2400)
		p2 := fr.FromScreen(ground.Point{X: x2, Y: y2}, 1080, 2400)
		return ground.BoxLine(i, [4]float64{p1.X, p1.Y, p2.X, p2.Y}) + "\n"
	}
	return "Sub-goal: pay\n<<<SCREEN\n" + `- [1] button "Back"` + "\n" + `- [2] button "Pay"` + "\nSCREEN>>>\n" +
		ground.FrameLine(fr, 1080, 2400) + "\n<<<BOXES\n" + box(1, 0, 100, 149, 249) + box(2, 100, 2000, 979, 2199) + "BOXES>>>\n"
}

func TestOffsetMovesEveryPointByN(t *testing.T) {
	for _, fr := range []ground.Frame{{Kind: ground.Absolute, W: 540, H: 1200}, {Kind: ground.Norm1000}, {Kind: ground.Norm999}} {
		for _, fam := range ground.Families() {
			centre := fr.FromScreen(ground.Point{X: 540, Y: 2100}, 1080, 2400)
			answer := ground.FormatAnswer(fam, fr, "pay", []ground.Action{{Kind: ground.Tap, Point: centre, HasPoint: true}})
			rates, err := ParseRates("offset=60")
			if err != nil {
				t.Fatal(err)
			}
			var got []Injection
			w := Wrap(&cannedModel{answers: []string{answer}}, rates, 3, func(i Injection) { got = append(got, i) })
			resp, err := w.Generate(context.Background(), llm.Request{Role: llm.RoleDecider, Messages: []llm.Message{{Role: "user", Text: coordsPrompt(fr)}}})
			if err != nil {
				t.Fatal(err)
			}
			as, err := ground.Parse(fam, resp.Text)
			if err != nil || len(as) != 1 {
				t.Fatalf("%s %s: the changed answer does not parse: %v\n%s", fam, fr.Kind, err, resp.Text)
			}
			before, _ := fr.ToScreen(centre, 1080, 2400)
			after, _ := fr.ToScreen(as[0].Point, 1080, 2400)
			// 60 px on the screen, up to the frame's grain (an absolute pixel of the half-size
			// picture is two of the screen's; 0–1000 on 2400 is 2.4).
			if d := math.Hypot(after.X-before.X, after.Y-before.Y); d < 54 || d > 66 {
				t.Errorf("%s %s: moved %.1f px (%s → %s), want 60", fam, fr.Kind, d, before, after)
			}
			if len(got) != 1 || !strings.HasPrefix(string(got[0].Kind), "offset") || !strings.Contains(got[0].Change, `60 px off: [2] "Pay" → `) {
				t.Errorf("%s %s: injections %+v, want one offset naming where the point went", fam, fr.Kind, got)
			}
		}
	}
}

func TestFrameErrorWritesAnotherFrame(t *testing.T) {
	fr := ground.Frame{Kind: ground.Norm1000}
	answer := ground.FormatAnswer(ground.GUIOwl, fr, "pay", []ground.Action{{Kind: ground.Tap, Point: ground.Point{X: 500, Y: 875}, HasPoint: true}})
	rates, _ := ParseRates("frame=1")
	var got []Injection
	w := Wrap(&cannedModel{answers: []string{answer}}, rates, 3, func(i Injection) { got = append(got, i) })
	resp, err := w.Generate(context.Background(), llm.Request{Role: llm.RoleDecider, Messages: []llm.Message{{Role: "user", Text: coordsPrompt(fr)}}})
	if err != nil {
		t.Fatal(err)
	}
	as, err := ground.Parse(ground.GUIOwl, resp.Text)
	if err != nil || len(as) != 1 || as[0].Point != (ground.Point{X: 540, Y: 2100}) {
		t.Fatalf("answer %q (%v): want the point in the screen's pixels (540,2100)", resp.Text, err)
	}
	if _, err := fr.ToScreen(as[0].Point, 1080, 2400); err == nil {
		t.Error("the wrong frame's point fits the model's frame: the executor could not tell")
	}
	if len(got) != 1 || got[0].Kind != frameKind {
		t.Errorf("injections %+v", got)
	}
}

func TestOffsetSpec(t *testing.T) {
	r, err := ParseRates("offset=30,grounding=0.1")
	if err != nil || r[Offset] != 30 || r.String() != "grounding=0.1,offset=30" || !r.Any() {
		t.Fatalf("ParseRates = %v, %v (%s)", r, err, r)
	}
	for _, bad := range []string{"offset=0.5", "offset=-3", "offset=x", "offset=3,offset=4"} {
		if _, err := ParseRates(bad); err == nil {
			t.Errorf("ParseRates(%q) accepted", bad)
		}
	}
	// A numbered-action answer has no point to move: the offset leaves it alone.
	out, got := run(t, Rates{Offset: 30}, llm.RoleDecider, `{"thought":"","actions":[{"type":"Tap","index":2}],"expect":""}`)
	if len(got) != 0 || !strings.Contains(out[0], `"index":2`) {
		t.Errorf("offset changed a numbered answer: %v %v", out, got)
	}
}

// TestOffsetSaysWhereThePointWent: an offset's reported kind tells a point still on its
// element from one on no element and one on another element.
func TestOffsetSaysWhereThePointWent(t *testing.T) {
	fr := ground.Frame{Kind: ground.Absolute, W: 1080, H: 2400}
	inject := func(spec, prompt string, at ground.Point, seed uint64) Injection {
		answer := ground.FormatAnswer(ground.UITARS, fr, "", []ground.Action{{Kind: ground.Tap, Point: at, HasPoint: true}})
		rates, _ := ParseRates(spec)
		var got []Injection
		w := Wrap(&cannedModel{answers: []string{answer}}, rates, seed, func(i Injection) { got = append(got, i) })
		if _, err := w.Generate(context.Background(), llm.Request{Role: llm.RoleDecider, Messages: []llm.Message{{Role: "user", Text: prompt}}}); err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 {
			t.Fatalf("%d injections", len(got))
		}
		return got[0]
	}
	if got := inject("offset=5", coordsPrompt(fr), ground.Point{X: 540, Y: 2100}, 1); got.Kind != Offset {
		t.Errorf("5 px inside a wide button: %+v, want %s", got, Offset)
	}
	if got := inject("offset=400", coordsPrompt(fr), ground.Point{X: 75, Y: 175}, 1); got.Kind != "offset→no element" {
		t.Errorf("400 px from Back: %+v, want offset→no element", got)
	}
	// Two elements that tile the screen: a point 10 px above their border goes to the
	// other one about half the time, and never to no element.
	halves := "Sub-goal: pick\n" + `- [1] button "Top"` + "\n" + `- [2] button "Bottom"` + "\n" + ground.FrameLine(fr, 1080, 2400) + "\n" +
		"[1] box=[0,0,1079,1199]\n[2] box=[0,1200,1079,2399]\n"
	seen := map[Kind]int{}
	for seed := uint64(1); seed <= 40; seed++ {
		seen[inject("offset=30", halves, ground.Point{X: 540, Y: 1190}, seed).Kind]++
	}
	if seen["offset→other element"] == 0 || seen[Offset] == 0 || seen["offset→no element"] != 0 {
		t.Errorf("kinds over 40 draws: %v", seen)
	}
}
