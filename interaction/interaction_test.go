package interaction

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/memory"
	"github.com/fairy-go/fairy/prompts"
)

// fakeModel answers interactor calls from a list, in order, and records the prompts.
type fakeModel struct {
	mu      sync.Mutex
	answers []string
	prompts []string
}

func (f *fakeModel) Generate(_ context.Context, req llm.Request) (llm.Response, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if req.Schema == nil || req.Schema.Name != string(req.Role) {
		return llm.Response{}, errors.New("schema name must equal the role")
	}
	f.prompts = append(f.prompts, req.Messages[0].Text)
	if len(f.answers) == 0 {
		return llm.Response{}, errors.New("fake model: no more answers")
	}
	a := f.answers[0]
	f.answers = f.answers[1:]
	return llm.Response{Text: a}, nil
}

func newInteractor(t *testing.T, model *fakeModel, d Dialoger) (*Interactor, *memory.Stacks) {
	t.Helper()
	ps, err := prompts.Load()
	if err != nil {
		t.Fatal(err)
	}
	bus := event.NewBus(nil)
	mem := memory.NewStacks()
	mem.Attach(bus)
	bus.Publish(event.AppTaskStarted{Instruction: "order a bubble tea", Task: event.AppTask{App: "shop", Task: "order a bubble tea"}})
	it, err := New(Config{Model: model, Dialoger: d, Memory: mem, Prompts: ps, Bus: bus})
	if err != nil {
		t.Fatal(err)
	}
	return it, mem
}

func TestResolve(t *testing.T) {
	tests := []struct {
		name        string
		need        Need
		answers     []string
		replies     []Rule
		wantSettled bool
		wantConsent string // "", "granted", "refused"
		wantTurns   int
		wantSummary string
	}{
		{
			name:        "choice settled after one question",
			need:        Need{Type: 3, Reason: "which size", Subgoal: "pick size"},
			answers:     []string{`{"status":"B","question":"Which size?","options":["Medium","Large"],"summary":"","consent":""}`, `{"status":"A","question":"","options":[],"summary":"The person wants Large.","consent":""}`},
			replies:     []Rule{{Pattern: "which size", Reply: "2"}},
			wantSettled: true, wantTurns: 1, wantSummary: "The person wants Large.",
		},
		{
			name:        "consent granted",
			need:        Need{Type: 1, Reason: "pay ¥18", Category: "payment"},
			answers:     []string{`{"status":"B","question":"Pay ¥18 now?","options":[],"summary":"","consent":""}`, `{"status":"A","question":"","options":[],"summary":"The person allows paying ¥18.","consent":"granted"}`},
			replies:     []Rule{{Pattern: "pay", Reply: "yes"}},
			wantSettled: true, wantConsent: "granted", wantTurns: 1, wantSummary: "The person allows paying ¥18.",
		},
		{
			name:        "a plain no is obeyed without asking the model",
			need:        Need{Type: 1, Reason: "pay ¥18", Category: "payment"},
			answers:     []string{`{"status":"B","question":"Pay ¥18 now?","options":[],"summary":"","consent":""}`},
			replies:     []Rule{{Pattern: "pay", Reply: "no, don't"}},
			wantSettled: true, wantConsent: "refused", wantTurns: 1, wantSummary: "The person refused: pay ¥18.",
		},
		{
			name:        "model reads consent into a vague answer: the person's words decide",
			need:        Need{Type: 2, Reason: "send the message"},
			answers:     []string{`{"status":"B","question":"Send it?","options":[],"summary":"","consent":""}`, `{"status":"A","question":"","options":[],"summary":"ok","consent":""}`, `{"status":"A","question":"","options":[],"summary":"Send it.","consent":"granted"}`},
			replies:     []Rule{{Pattern: "send it", Reply: "hmm", Times: 1}, {Pattern: "yes or no", Reply: "好的"}},
			wantSettled: true, wantConsent: "granted", wantTurns: 2, wantSummary: "Send it.",
		},
		{
			name:      "turns run out",
			need:      Need{Type: 4, Reason: "which Alice"},
			answers:   []string{`{"status":"B","question":"Which Alice?","options":[],"summary":"","consent":""}`, `{"status":"B","question":"Which one?","options":[],"summary":"","consent":""}`, `{"status":"B","question":"Really?","options":[],"summary":"","consent":""}`, `{"status":"B","question":"?","options":[],"summary":"","consent":""}`},
			replies:   []Rule{{Pattern: ".", Reply: "dunno"}},
			wantTurns: 3,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := NewCanned(tt.replies, "")
			if err != nil {
				t.Fatal(err)
			}
			model := &fakeModel{answers: tt.answers}
			it, mem := newInteractor(t, model, d)
			res, err := it.Resolve(t.Context(), tt.need)
			if err != nil {
				t.Fatal(err)
			}
			if res.Settled != tt.wantSettled || res.Turns != tt.wantTurns || res.Summary != tt.wantSummary {
				t.Errorf("result = %+v", res)
			}
			got := ""
			if res.Consent != nil {
				got = map[bool]string{true: "granted", false: "refused"}[res.Consent.Granted]
				if res.Consent.Category != tt.need.Category {
					t.Errorf("consent category %q, want %q", res.Consent.Category, tt.need.Category)
				}
			}
			if got != tt.wantConsent {
				t.Errorf("consent = %q, want %q", got, tt.wantConsent)
			}
			ins := mem.Instructions()
			if tt.wantSettled && ins[len(ins)-1].Text != tt.wantSummary {
				t.Errorf("instruction stack top = %q, want the summary", ins[len(ins)-1].Text)
			}
			if len(mem.Turns()) != 0 {
				t.Error("interaction stack not cleared")
			}
			if len(d.Asked()) != tt.wantTurns {
				t.Errorf("asked %d questions, want %d", len(d.Asked()), tt.wantTurns)
			}
			// The second model call sees the first answer through the memory manager.
			if len(model.prompts) > 1 && !strings.Contains(model.prompts[1], "Person: "+d.Asked()[0].Answer) {
				t.Errorf("second prompt lacks the answer:\n%s", model.prompts[1])
			}
		})
	}
}

func TestResolveErrors(t *testing.T) {
	d, _ := NewCanned(nil, "")
	it, _ := newInteractor(t, &fakeModel{answers: []string{`{"status":"B","question":"Which?","options":[],"summary":"","consent":""}`}}, d)
	if _, err := it.Resolve(t.Context(), Need{Type: 3, Reason: "x"}); !errors.Is(err, ErrNoAnswer) {
		t.Errorf("unanswerable question: err = %v, want ErrNoAnswer", err)
	}
	it, _ = newInteractor(t, &fakeModel{answers: []string{"I refuse to answer in JSON"}}, d)
	if _, err := it.Resolve(t.Context(), Need{Type: 3, Reason: "x"}); !errors.Is(err, errBadAnswer) {
		t.Errorf("prose answer: err = %v, want ErrBadAnswer", err)
	}
	if _, err := it.Resolve(t.Context(), Need{Type: 0}); !errors.Is(err, errConfig) {
		t.Errorf("type 0: err = %v, want ErrConfig", err)
	}
	if _, err := New(Config{}); !errors.Is(err, errConfig) {
		t.Errorf("empty config: err = %v", err)
	}
}

func TestScripted(t *testing.T) {
	d, err := NewCanned([]Rule{{Pattern: `size`, Reply: "large", Times: 1}, {Pattern: `alice`, Reply: "Alice Wong"}}, "yes")
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	for _, c := range []struct{ q, want string }{
		{"Which SIZE?", "large"}, {"Which size again?", "yes"}, {"Which one?\n", "yes"},
	} {
		if got, _ := d.Ask(ctx, Question{Text: c.q}); got != c.want {
			t.Errorf("Ask(%q) = %q, want %q", c.q, got, c.want)
		}
	}
	if got, _ := d.Ask(ctx, Question{Text: "Which contact?", Options: []string{"Alice Wong", "Alice Chen"}}); got != "Alice Wong" {
		t.Errorf("option match = %q", got)
	}
	if n := len(d.Asked()); n != 4 || d.Asked()[2].Rule != -1 {
		t.Errorf("record = %+v", d.Asked())
	}
	if _, err := NewCanned([]Rule{{Pattern: "("}}, ""); !errors.Is(err, errConfig) {
		t.Errorf("bad pattern: %v", err)
	}
}

func TestTerminal(t *testing.T) {
	var out strings.Builder
	term := NewTerminal(strings.NewReader("\n2\nmaybe later\n"), &out)
	ctx := t.Context()
	got, err := term.Ask(ctx, Question{Kind: Options, Text: "Which size?", Options: []string{"Medium", "Large"}})
	if err != nil || got != "Large" {
		t.Errorf("option by number = %q, %v", got, err)
	}
	got, err = term.Ask(ctx, Question{Kind: YesNo, Text: "Pay?", Covers: `tap "Pay ¥18" (payment)`})
	if err != nil || got != "maybe later" {
		t.Errorf("free answer = %q, %v", got, err)
	}
	if _, err := term.Ask(ctx, Question{Kind: open, Text: "More?"}); !errors.Is(err, ErrNoAnswer) {
		t.Errorf("EOF: err = %v", err)
	}
	if !strings.Contains(out.String(), "? Which size?\n  1) Medium\n  2) Large\n") || !strings.Contains(out.String(), "? Pay?\n  (a yes allows this once: tap \"Pay ¥18\" (payment))\n  [y/n] > ") {
		t.Errorf("output:\n%s", out.String())
	}

	// A cancelled Ask returns at once; the line typed later answers the next question.
	pr, pw := io.Pipe()
	term = NewTerminal(pr, io.Discard)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := term.Ask(cctx, Question{Text: "x"}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	go pw.Write([]byte("late\n"))
	if got, err := term.Ask(ctx, Question{Text: "y"}); got != "late" || err != nil {
		t.Errorf("after cancel = %q, %v", got, err)
	}
	pw.Close()
}

func TestYesNo(t *testing.T) {
	for _, c := range []struct {
		s           string
		yes, clear_ bool
	}{
		{"yes", true, true}, {"Y", true, true}, {"ok, go ahead", true, true}, {"好的", true, true}, {"确认支付", true, true},
		{"no", false, true}, {"nope", false, true}, {"不要", false, true}, {"cancel it", false, true},
		{"yellow", false, false}, {"not sure", false, false}, {"maybe", false, false}, {"nothing", false, false},
	} {
		y, c2 := ReadYesNo(c.s)
		if y != c.yes || c2 != c.clear_ {
			t.Errorf("ReadYesNo(%q) = %v,%v want %v,%v", c.s, y, c2, c.yes, c.clear_)
		}
	}
}

// TestConsentIsNotReadIntoDoubt: replies that start like a yes but take it back or leave it
// open never count as a yes, and never overrule a model that heard a refusal.
func TestConsentIsNotReadIntoDoubt(t *testing.T) {
	for _, reply := range []string{"好贵，算了", "可以不买吗", "是不是要扣钱？那不要了", "Okay, never mind", "ok wait, don't",
		"Do it later", "Sure... actually no", "yes but not now", "好贵", "allow? hmm", "OK if it is under 10"} {
		if g, clear := ReadYesNo(reply); g && clear {
			t.Errorf("ReadYesNo(%q) reads a clear yes", reply)
		}
		if g, _ := consentOf("refused", reply); g {
			t.Errorf("consentOf(refused, %q) grants", reply)
		}
		if g, _ := consentOf("", reply); g {
			t.Errorf("consentOf(\"\", %q) grants with no verdict", reply)
		}
	}
	for _, reply := range []string{"yes", "Yes, go ahead.", "ok", "好的", "确认支付", "可以", "yes please"} {
		if g, clear := ReadYesNo(reply); !g || !clear {
			t.Errorf("ReadYesNo(%q) = %v, %v: a plain yes", reply, g, clear)
		}
	}
	if g, ok := consentOf("granted", "no"); g || !ok {
		t.Error("a plain no lost to the model's granted")
	}
}

// TestTerminalEscapesQuestions: a question a model wrote, and the options a phone showed,
// reach the terminal with their control characters written out.
func TestTerminalEscapesQuestions(t *testing.T) {
	var out strings.Builder
	term := NewTerminal(strings.NewReader("1\n"), &out)
	evil := "Pay\x1b]0;PWNED\a\x1b[2J\u202e"
	if _, err := term.Ask(t.Context(), Question{Kind: Options, Text: evil, Options: []string{evil}, Covers: evil}); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(out.String(), "\x1b\a\u202e") || !strings.Contains(out.String(), `? Pay\x1b]0;PWNED\x07\x1b[2J\u202e`) {
		t.Fatalf("output:\n%q", out.String())
	}
}
