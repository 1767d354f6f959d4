package executor

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/prompts"
)

// fingers is a person who, given the phone, signs in on it by hand: the fake phone moves
// on to where their taps lead. It says yes to a question.
type fingers struct {
	phone  *fakePhone
	to     string
	given  []interaction.HandOver
	noBody bool // no one is there: the hand-over has no answer
}

func (f *fingers) Ask(context.Context, interaction.Question) (string, error) {
	if f.noBody {
		return "", interaction.ErrNoAnswer
	}
	return "yes", nil
}

func (f *fingers) HandOver(_ context.Context, h interaction.HandOver) error {
	f.given = append(f.given, h)
	if f.noBody {
		return interaction.ErrNoAnswer
	}
	f.phone.mu.Lock()
	f.phone.cur = f.to
	f.phone.mu.Unlock()
	return nil
}

func loginPhone(first string) *fakePhone {
	return &fakePhone{pkg: "com.fairy.login", cur: first, screens: map[string][]fakeNode{
		"password": {{kind: "text", text: "Sign in to Lumen Bank"}, {kind: "edit", text: "ada@example.com", id: "com.fairy.login:id/user"},
			{kind: "password", text: "", id: "com.fairy.login:id/password"}, {kind: "button", text: "Sign in", to: "code"}},
		"code": {{kind: "text", text: "Enter the code we sent you"}, {kind: "edit", text: "", id: "com.fairy.login:id/otp_code"},
			{kind: "button", text: "Verify", to: "home"}},
		"email":  {{kind: "text", text: "Welcome"}, {kind: "text", text: "Log in with your e-mail"}, {kind: "edit", text: "", id: "com.fairy.login:id/email"}, {kind: "button", text: "Next", to: "home"}},
		"bank":   {{kind: "text", text: "Approve this sign-in in your bank app"}, {kind: "button", text: "I approved it", to: "home"}},
		"finger": {{kind: "text", text: "Touch the fingerprint sensor"}, {kind: "button", text: "Use PIN", to: "home"}},
		"home":   {{kind: "text", text: "Balance ¥1,024"}},
	}}
}

// balanceModel reads the balance once the home page shows; before that it asks for a
// hand-over only when ask is set (a screen the executor cannot tell needs the person).
func balanceModel(ask bool) *fakeModel {
	return &fakeModel{fn: map[llm.Role]func(int, string) string{
		llm.RoleReplanner: func(_ int, u string) string {
			switch {
			case strings.Contains(u, "Balance ¥1,024"):
				return plan("A", "Finished", 0, "")
			case ask:
				return plan("", "Sign in", prompts.HandOverInteraction, "approval in the bank app")
			}
			return plan("", "Sign in", 0, "")
		},
		llm.RoleInteractor: func(n int, u string) string {
			if !strings.Contains(u, "Person:") {
				return `{"status":"B","question":"May I tap Next?","options":[],"summary":"","consent":""}`
			}
			return `{"status":"A","question":"","options":[],"summary":"The person allows it.","consent":"granted"}`
		},
		llm.RoleDecider: func(_ int, u string) string {
			for _, l := range []string{"Sign in", "Next"} {
				if i := index(u, l); i > 0 {
					return tap(i)
				}
			}
			return `{"thought":"","actions":[{"type":"Finish","text":"¥1,024"}],"expect":""}`
		},
	}}
}

func handOverHarness(t *testing.T, phone *fakePhone, model *fakeModel, f *fingers, logins bool) *harness {
	var h *harness
	h = newHarness(t, phone, model, nil, func(c *Config) {
		it, err := interaction.New(interaction.Config{Model: c.Model, Dialoger: f, Memory: c.Memory.(interaction.Memory), Prompts: c.Prompts, Bus: c.Bus})
		if err != nil {
			t.Fatal(err)
		}
		c.Interactor = it
		c.HandOverLogins = logins
	})
	return h
}

func TestHandOverOnSecretScreens(t *testing.T) {
	tests := []struct {
		name   string
		first  string
		ask    bool // the model asks for the hand-over
		logins bool // the person's "always hand over logins"
		want   []string
		by     string
	}{
		{"password then code", "password", false, false, []string{"a password"}, handOverScreen},
		{"one-time code", "code", false, false, []string{"a one-time code"}, handOverScreen},
		{"fingerprint", "finger", false, false, []string{"a fingerprint or face check"}, handOverScreen},
		{"model asks", "bank", true, false, []string{"approval in the bank app"}, handOverModel},
		{"login by policy", "email", false, true, []string{"a login (your policy: always hand over logins)"}, handOverPolicy},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			phone := loginPhone(tt.first)
			f := &fingers{phone: phone, to: "home"}
			h := handOverHarness(t, phone, balanceModel(tt.ask), f, tt.logins)
			res := h.run(t, "Read my bank balance")
			if res.Outcome != event.OutcomeDone {
				t.Fatalf("outcome = %s (%s), want done", res.Outcome, res.Reason)
			}
			if len(f.given) != len(tt.want) {
				t.Fatalf("handed over %d times (%+v), want %d", len(f.given), f.given, len(tt.want))
			}
			evs := find[event.HandOver](h)
			if len(evs) != 2*len(tt.want) {
				t.Fatalf("HandOver events = %+v, want an opening and a closing one per hand-over", evs)
			}
			for i, w := range tt.want {
				open, closed := evs[2*i], evs[2*i+1]
				if open.Reason != w || open.By != tt.by || !open.Ended.IsZero() || closed.Ended.IsZero() || closed.Error != "" {
					t.Errorf("hand-over %d events = %+v / %+v, want reason %q by %s, opened then closed", i, open, closed, w, tt.by)
				}
			}
			if len(phone.typed) != 0 || len(phone.taps) != 0 {
				t.Errorf("the agent typed %q and tapped %q on a screen that was the person's", phone.typed, phone.taps)
			}
		})
	}
}

func TestNoHandOverOnAPlainSignInPage(t *testing.T) {
	phone := loginPhone("email")
	f := &fingers{phone: phone, to: "home"}
	h := handOverHarness(t, phone, balanceModel(false), f, false)
	if res := h.run(t, "Read my bank balance"); res.Outcome != event.OutcomeDone {
		t.Fatalf("outcome = %s (%s)", res.Outcome, res.Reason)
	}
	if len(f.given) != 0 || phone.tapped("Next") != 1 {
		t.Errorf("without the logins policy an e-mail-only page is the agent's: handed over %d times, Next tapped %d times", len(f.given), phone.tapped("Next"))
	}
}

func TestHandOverWithNoOneThereFails(t *testing.T) {
	phone := loginPhone("password")
	f := &fingers{phone: phone, noBody: true}
	h := handOverHarness(t, phone, balanceModel(false), f, false)
	res := h.run(t, "Read my bank balance")
	if res.Outcome != event.OutcomeFailed || !strings.Contains(res.Reason, "no one took the phone") {
		t.Fatalf("outcome = %s (%s), want failed: no one took the phone", res.Outcome, res.Reason)
	}
	if n := h.model.count(llm.RoleReplanner); n != 0 {
		t.Errorf("the Re-Planner was called %d times on a password screen: a secret screen is the person's, whatever a model says", n)
	}
}

func TestDeciderNeverTypesIntoAPasswordField(t *testing.T) {
	phone := loginPhone("password")
	s := phone.screens["password"]
	s[2].kind = "password"
	f := &fingers{phone: phone, to: "home"}
	h := handOverHarness(t, phone, balanceModel(false), f, false)
	r := &run{e: h.exec, cfg: &h.exec.cfg, a: Assignment{Task: event.AppTask{App: phone.pkg}}}
	scr, _, err := r.observe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	r.screen = scr
	i := 0
	for _, e := range scr.Elements {
		if e.Password {
			i = e.Index
		}
	}
	if i == 0 {
		t.Fatalf("no password field on %s", scr.Text())
	}
	batch, problems := r.screenCheck([]event.Action{{Type: event.Input, Index: i, Text: "hunter2"}})
	if len(batch) != 0 || len(problems) != 1 || !strings.Contains(said(t, problems[0]), "password field") {
		t.Errorf("Input into a password field: batch %+v, problems %q; want it rejected", batch, problems)
	}
	for _, ev := range find[event.ActionRejected](h) {
		if strings.Contains(ev.Action.Text, "hunter2") {
			t.Errorf("the rejected action carries the secret: %+v", ev)
		}
	}
}

// TestTypedCodeIsMasked: a one-time code the person typed and left on the screen (a wrong
// one, given back) is in no event — not the screen's text — and is painted over on the
// picture the models and the trace get.
func TestTypedCodeIsMasked(t *testing.T) {
	const code = "731905"
	phone := loginPhone("code")
	phone.screens["code"][1].text = code
	f := &fingers{phone: phone, to: "home"}
	h := handOverHarness(t, phone, balanceModel(false), f, false)
	if res := h.run(t, "Read my bank balance"); res.Outcome != event.OutcomeDone {
		t.Fatalf("outcome = %s (%s)", res.Outcome, res.Reason)
	}
	if len(f.given) != 1 || strings.Contains(f.given[0].Screen, code) {
		t.Errorf("hand-overs %+v: want one, the code in none", f.given)
	}
	for _, e := range h.events {
		if s := fmt.Sprintf("%+v", e); strings.Contains(s, code) {
			t.Errorf("the code is in a %T event: %s", e, s)
		}
	}

	// The picture: the field's place painted over, the rest as it was.
	img := image.NewRGBA(image.Rect(0, 0, 540, 1200)) // half the dump's size
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	s := &perception.Screen{Width: 1080, Height: 2400, Elements: []perception.Element{{Index: 1, Role: "input", Label: code, Text: code,
		ResourceID: "com.fairy.bank:id/otp_code", Editable: true, Bounds: perception.Bounds{X1: 100, Y1: 400, X2: 500, Y2: 520}}}}
	rects := secretFields(s)
	if len(rects) != 1 || strings.Contains(s.Text(), code) {
		t.Fatalf("secretFields = %v, text %q", rects, s.Text())
	}
	out, err := png.Decode(bytes.NewReader(paintOver(buf.Bytes(), s, rects)))
	if err != nil {
		t.Fatal(err)
	}
	inside, outside := out.At(100, 230), out.At(300, 600)
	if r, _, _, _ := inside.RGBA(); r>>8 == 0xff {
		t.Errorf("inside the field the picture is %v: not painted over", inside)
	}
	if r, _, _, _ := outside.RGBA(); r>>8 != 0xff {
		t.Errorf("outside the field the picture is %v: painted", outside)
	}
}

// TestSecretNeedWords: what counts as a screen for the person, and what does not (a
// settings row named Fingerprint, a sign-in page without the logins policy).
func TestSecretNeedWords(t *testing.T) {
	el := func(e perception.Element) *perception.Screen {
		e.Index = 1
		return &perception.Screen{Elements: []perception.Element{e}}
	}
	ctx := func(texts ...string) *perception.Screen { return &perception.Screen{Context: texts} }
	for _, tc := range []struct {
		name   string
		s      *perception.Screen
		logins bool
		want   string
	}{
		{"password field", el(perception.Element{Role: "input", Editable: true, Password: true}), false, "a password"},
		{"otp by id", el(perception.Element{Role: "input", Editable: true, ResourceID: "x:id/otp_input"}), false, "a one-time code"},
		{"code by hint", el(perception.Element{Role: "input", Editable: true, Hint: "Verification code"}), false, "a one-time code"},
		{"验证码", el(perception.Element{Role: "input", Editable: true, Hint: "请输入验证码"}), false, "a one-time code"},
		{"PIN field", el(perception.Element{Role: "input", Editable: true, Hint: "PIN"}), false, "a one-time code"},
		{"fingerprint prompt", ctx("Touch the fingerprint sensor"), false, "a fingerprint or face check"},
		{"指纹", ctx("请验证指纹"), false, "a fingerprint or face check"},
		{"captcha", ctx("Verify you are human"), false, "a CAPTCHA"},
		{"settings row", el(perception.Element{Role: "item", Label: "Fingerprint", Clickable: true}), false, ""},
		{"pin a place", el(perception.Element{Role: "button", Label: "Drop a pin", Clickable: true}), false, ""},
		{"search field", el(perception.Element{Role: "input", Editable: true, Hint: "Search"}), false, ""},
		{"a note about a code", el(perception.Element{Role: "input", Editable: true, Label: "The verification code is on the fridge", Text: "The verification code is on the fridge", Hint: "Note"}), false, ""},
		{"sign-in without policy", &perception.Screen{Context: []string{"Sign in"}, Elements: []perception.Element{{Index: 1, Role: "input", Editable: true, Hint: "Email"}}}, false, ""},
		{"sign-in with policy", &perception.Screen{Context: []string{"Sign in"}, Elements: []perception.Element{{Index: 1, Role: "input", Editable: true, Hint: "Email"}}}, true, "a login (your policy: always hand over logins)"},
		{"تسجيل الدخول with policy", &perception.Screen{Context: []string{"تسجيل الدخول"}, Elements: []perception.Element{{Index: 1, Role: "input", Editable: true}}}, true, "a login (your policy: always hand over logins)"},
	} {
		if got, _ := secretNeed(tc.s, tc.logins); got != tc.want {
			t.Errorf("%s: need %q, want %q", tc.name, got, tc.want)
		}
	}
}
