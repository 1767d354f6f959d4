package executor

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/grounding"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/llm"
)

// coordsModel is shopModel's planner and interactor with a decider that answers in a
// coordinate family's syntax (no JSON schema): decide gets the call number and the prompt.
type coordsModel struct {
	*fakeModel
	decide  func(n int, system, user string) string
	prompts []string
}

func (m *coordsModel) Generate(ctx context.Context, req llm.Request) (llm.Response, error) {
	if req.Role != llm.RoleDecider {
		return m.fakeModel.Generate(ctx, req)
	}
	if req.Schema != nil {
		return llm.Response{}, fmt.Errorf("a coordinate decider got a JSON schema (%s)", req.Schema.Name)
	}
	m.mu.Lock()
	n := len(m.prompts)
	m.prompts = append(m.prompts, req.Messages[0].Text)
	m.mu.Unlock()
	return llm.Response{Text: m.decide(n, req.System, req.Messages[0].Text), Usage: llm.Usage{PromptTokens: 100, CompletionTokens: 20}}, nil
}

// centreOf is the centre of the labelled element's box in the prompt, in its frame.
func centreOf(t *testing.T, prompt, label string) (int, int) {
	if b, ok := grounding.ReadBoxes(prompt)[index(prompt, label)]; ok {
		return int(b[0]+b[2]) / 2, int(b[1]+b[3]) / 2
	}
	t.Fatalf("no box for %q in the prompt:\n%s", label, prompt)
	return 0, 0
}

// shopTaps is a coordinate decider for the shop: the Pay button's or Large's box centre,
// written by say; first, when given, is the answer of its first call.
func shopTaps(t *testing.T, say func(x, y int) string, first string) func(int, string, string) string {
	return func(n int, _, u string) string {
		if n == 0 && first != "" {
			return first
		}
		if strings.Contains(u, `"Pay"`) {
			return say(centreOf(t, u, "Pay"))
		}
		return say(centreOf(t, u, "Large ¥18"))
	}
}

func uitarsClick(x, y int) string {
	return fmt.Sprintf("Thought: tap it\nAction: click(start_box='<|box_start|>(%d,%d)<|box_end|>')", x, y)
}

// TestDecideInCoordinates: a decider that answers in a family's syntax and frame taps the
// element under its point, and the guard holds the payment as for a numbered tap.
func TestDecideInCoordinates(t *testing.T) {
	families := map[string]func(x, y int) string{
		"uitars": uitarsClick,
		"autoglm": func(x, y int) string {
			return fmt.Sprintf("<think>tap it</think>\n<answer>do(action=\"Tap\", element=[%d,%d])</answer>", x, y)
		},
		"qwen-vl": func(x, y int) string {
			return fmt.Sprintf(`<tool_call>
{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [%d, %d]}}
</tool_call>`, x, y)
		},
		"guiowl": func(x, y int) string {
			return fmt.Sprintf("<thinking>\ntap it\n</thinking>\n<tool_call>\n{\"name\": \"mobile_use\", \"arguments\": {\"action\": \"click\", \"coordinate\": [%d, %d]}}\n</tool_call>\n<conclusion>\nTap.\n</conclusion>", x, y)
		},
	}
	frames := map[string]string{"uitars": "absolute pixels of the 1080×2400 screenshot", "autoglm": "0–999", "qwen-vl": "absolute pixels", "guiowl": "0–1000"}
	for fam, say := range families {
		for _, reply := range []string{"no", "yes, pay"} {
			t.Run(fam+"/"+reply, func(t *testing.T) {
				m := &coordsModel{fakeModel: shopModel()}
				m.decide = shopTaps(t, say, "")
				phone := shopPhone()
				h := newHarness(t, phone, m.fakeModel, []interaction.Rule{{Pattern: "pay", Reply: reply}}, func(c *Config) {
					c.Grounding = fam
					c.Model = Metered{Model: m, Meter: &llm.Meter{}, Bus: c.Bus}
				})
				res := h.run(t, "Order a large bubble tea")
				want, paid := event.OutcomeRefused, 0
				if reply != "no" {
					want, paid = event.OutcomeDone, 1
				}
				if res.Outcome != want || phone.tapped("Pay") != paid || phone.tapped("Large ¥18") != 1 {
					t.Fatalf("outcome %s, Pay tapped %d, Large %d; want %s, %d, 1", res.Outcome, phone.tapped("Pay"), phone.tapped("Large ¥18"), want, paid)
				}
				if len(find[event.InteractionAsked](h)) == 0 {
					t.Error("the guard asked nothing before the payment")
				}
				for _, d := range find[event.ActionsDecided](h) {
					for _, a := range d.Actions {
						if a.Type != event.Tap || a.Index < 1 {
							t.Errorf("decided %s, want a tap on an element", a)
						}
					}
				}
				if !strings.Contains(m.prompts[0], "Coordinates: ") || !strings.Contains(m.prompts[0], frames[fam]) {
					t.Errorf("the prompt does not state the frame %q:\n%s", frames[fam], m.prompts[0])
				}
			})
		}
	}
}

// TestDecideInCoordinatesOffTheElements: a point on no element is a tap at that point (a
// Shell "input tap" the guard judges, tapped without a shell); a point off the screen is
// told to the model, which answers again.
func TestDecideInCoordinatesOffTheElements(t *testing.T) {
	t.Run("no element", func(t *testing.T) {
		m := &coordsModel{fakeModel: shopModel()}
		m.decide = shopTaps(t, uitarsClick, uitarsClick(540, 2000))
		phone := shopPhone()
		h := newHarness(t, phone, m.fakeModel, []interaction.Rule{{Pattern: "pay", Reply: "yes"}}, func(c *Config) {
			c.Grounding = "uitars"
			c.Model = Metered{Model: m, Meter: &llm.Meter{}, Bus: c.Bus}
		})
		if res := h.run(t, "Order a large bubble tea"); res.Outcome != event.OutcomeDone {
			t.Fatalf("outcome %s: %s", res.Outcome, res.Reason)
		}
		var cmd string
		for _, e := range find[event.ActionExecuted](h) {
			if e.Action.Type == event.Shell {
				cmd = e.Action.Command
				if e.Err != "" {
					t.Errorf("the tap at the point failed: %s", e.Err)
				}
			}
		}
		if cmd != "input tap 540 2000" {
			t.Errorf("executed shell %q, want the point's input tap", cmd)
		}
	})
	t.Run("off the screen", func(t *testing.T) {
		m := &coordsModel{fakeModel: shopModel()}
		m.decide = shopTaps(t, uitarsClick, uitarsClick(1500, 300))
		phone := shopPhone()
		h := newHarness(t, phone, m.fakeModel, []interaction.Rule{{Pattern: "pay", Reply: "yes"}}, func(c *Config) {
			c.Grounding = "uitars"
			c.Model = Metered{Model: m, Meter: &llm.Meter{}, Bus: c.Bus}
		})
		if res := h.run(t, "Order a large bubble tea"); res.Outcome != event.OutcomeDone {
			t.Fatalf("outcome %s: %s", res.Outcome, res.Reason)
		}
		if len(m.prompts) < 2 || !strings.Contains(m.prompts[1], "(1500,300) is outside the frame") || !strings.Contains(m.prompts[1], "x from 0 to 1080") {
			t.Fatalf("the second decider prompt does not tell the model its point was off the screen:\n%s", m.prompts[min(1, len(m.prompts)-1)])
		}
		if phone.tapped("Large ¥18") != 1 || phone.tapped("Pay") != 1 {
			t.Errorf("taps: Large %d, Pay %d", phone.tapped("Large ¥18"), phone.tapped("Pay"))
		}
	})
	t.Run("unknown family", func(t *testing.T) {
		cfg := newHarness(t, shopPhone(), shopModel(), nil, nil).exec.cfg
		for _, g := range []string{"llava", "auto"} {
			cfg.Grounding = g
			if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "model.grounding") {
				t.Errorf("grounding %q: err %v, want one naming model.grounding", g, err)
			}
		}
	})
}
