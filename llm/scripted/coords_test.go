package scripted_test

import (
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/grounding"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/llm/openai"
	"github.com/fairy-go/fairy/llm/scripted"
)

const coordRules = `
rules:
  - name: pay
    role: decider
    match: 'Sub-goal: pay'
    answer: '{"thought": "Pay the bill", "actions": [{"type": "Input", "index": {{index "Note"}}, "text": "rent"}, {"type": "Tap", "index": {{index "Pay"}}}], "expect": "paid"}'
  - name: scroll
    role: decider
    match: 'Sub-goal: scroll'
    answer: '{"thought": "", "actions": [{"type": "Swipe", "index": 0, "direction": "up"}], "expect": ""}'
`

// TestScriptedAnswersInFamily: with a grounding family, the scripted decider writes the
// element its rule chose as that family would: the box centre in the prompt's frame.
func TestScriptedAnswersInFamily(t *testing.T) {
	frames := map[grounding.Family]grounding.Frame{
		grounding.UITARS: {Kind: grounding.Absolute, W: 540, H: 1200}, grounding.AutoGLM: {Kind: grounding.Norm999},
		grounding.QwenVL: {Kind: grounding.Absolute, W: 1080, H: 2400}, grounding.GUIOwl: {Kind: grounding.Norm1000},
	}
	for fam, fr := range frames {
		t.Run(string(fam), func(t *testing.T) {
			rs, err := scripted.ParseRules([]byte(coordRules))
			if err != nil {
				t.Fatal(err)
			}
			s, err := scripted.NewServer(rs, scripted.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Grounding: fam})
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(s)
			defer srv.Close()
			c := client(t, srv.URL, openai.ModeJSONSchema, nil)
			box := func(i int, x1, y1, x2, y2 float64) string {
				p1 := fr.FromScreen(grounding.Point{X: x1, Y: y1}, 1080, 2400)
				p2 := fr.FromScreen(grounding.Point{X: x2, Y: y2}, 1080, 2400)
				return grounding.BoxLine(i, [4]float64{p1.X, p1.Y, p2.X, p2.Y}) + "\n"
			}
			prompt := func(sub string) string {
				return "Sub-goal: " + sub + "\n" + `- [1] input "Note"` + "\n" + `- [2] button "Pay"` + "\n" +
					grounding.FrameLine(fr, 1080, 2400) + "\n" + box(1, 40, 1000, 1039, 1119) + box(2, 100, 2000, 979, 2199)
			}
			resp, err := c.Generate(t.Context(), llm.Request{Role: llm.RoleDecider, Messages: []llm.Message{{Role: "user", Text: prompt("pay")}}})
			if err != nil {
				t.Fatal(err)
			}
			as, err := grounding.Parse(fam, resp.Text)
			if err != nil {
				t.Fatalf("the answer is not in %s's syntax: %v\n%s", fam, err, resp.Text)
			}
			if len(as) != 3 || as[0].Kind != grounding.Tap || as[1].Kind != grounding.Type || as[1].Text != "rent" || as[2].Kind != grounding.Tap {
				t.Fatalf("actions %v, want tap the field, type rent, tap Pay", as)
			}
			for i, want := range map[int]grounding.Point{0: {X: 540, Y: 1060}, 2: {X: 540, Y: 2100}} {
				sp, err := fr.ToScreen(as[i].Point, 1080, 2400)
				if err != nil || absf(sp.X-want.X) > 3 || absf(sp.Y-want.Y) > 3 {
					t.Errorf("action %d lands on %s (%v), want the box centre %s", i, sp, err, want)
				}
			}
			if th := grounding.Thought(fam, resp.Text); th != "Pay the bill" {
				t.Errorf("thought %q", th)
			}
			resp, err = c.Generate(t.Context(), llm.Request{Role: llm.RoleDecider, Messages: []llm.Message{{Role: "user", Text: prompt("scroll")}}})
			if err != nil {
				t.Fatal(err)
			}
			if as, err := grounding.Parse(fam, resp.Text); err != nil || len(as) != 1 || as[0].Kind != grounding.Swipe || as[0].Direction() != "up" {
				t.Errorf("scroll answer %q: %v %v", resp.Text, as, err)
			}
			// No frame line: the scripted model cannot say where, and says so.
			_, err = c.Generate(t.Context(), llm.Request{Role: llm.RoleDecider, Messages: []llm.Message{{Role: "user", Text: "Sub-goal: pay\n- [1] input \"Note\"\n- [2] button \"Pay\"\n"}}})
			if err == nil || !strings.Contains(err.Error(), "coordinate line") {
				t.Errorf("a prompt without a frame: err %v", err)
			}
		})
	}
}

func absf(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
