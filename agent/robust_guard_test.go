package agent

import (
	"strings"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/interaction"
)

// The guard on the vault app: buttons it must hold whatever their label's script, and an
// Enter that sends. The rig is robust_test.go's.

// guardRules log in, then tap the button labelled by the case (twice: once held back, once
// after a yes), then finish.
func guardRules(label string) string {
	return `
  - name: log in
    role: replanner
    match: ['\[\d+\] button "Log in"']
    answer: '{"result":"","reflection":"","progress":"","plan":["Log in","Press it"],"subgoal":"Log in","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
  - name: press
    role: replanner
    answer: '{"result":"B","reflection":"","progress":"","plan":["Press it"],"subgoal":"Press it","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
  - name: tap log in
    role: decider
    match: ['Current sub-goal: Log in']
    answer: '{"thought":"","actions":[{"type":"Tap","index":{{index "Log in"}}}],"expect":""}'
  - name: press it
    role: decider
    times: 2
    answer: '{"thought":"","actions":[{"type":"Tap","index":{{index "` + label + `"}}}],"expect":""}'
  - name: finish
    role: decider
    answer: '{"thought":"","actions":[{"type":"Finish","text":"pressed"}],"expect":""}'
  - name: consent given
    role: interactor
    match: ['Interaction type: [12]', 'Why the agent asks: ([^\n]*)', '(?m)^Person: (?i:y|yes)']
    answer: '{"status":"A","question":"","options":[],"summary":"agreed","consent":"granted"}'
  - name: ask consent
    role: interactor
    match: ['Interaction type: [12]', 'Why the agent asks: ([^\n]*)']
    answer: '{"status":"B","question":{{json (printf "May I %s?" (match 1))}},"options":[],"summary":"","consent":""}'
`
}

// TestGuardHoldsChineseAndDescOnlyButtons: buttons labelled 支付, 删除, 发送, 提交订单 and an
// icon known only by its content-desc are held for the person's consent (their resource
// ids say nothing); a "no" is obeyed — the button is never tapped and the run is refused —
// and a "yes" lets the tap through.
func TestGuardHoldsChineseAndDescOnlyButtons(t *testing.T) {
	tests := []struct {
		label    string
		tapped   string // the phone's record of the tap
		category string // "" not guarded
		reply    string
	}{
		{"支付", "支付", "payment", "no"},
		{"删除", "删除", "delete", "不要"},
		{"发送", "发送", "send", "no"},
		{"提交订单", "提交订单", "order", "no"},
		{"Delete everything", "icon", "delete", "no"},
		{"提交订单", "提交订单", "order", "yes"},
		{"Refresh", "Refresh", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.label+" "+tc.reply, func(t *testing.T) {
			user := []interaction.Rule{{Pattern: ".", Reply: tc.reply}}
			r := rig{rules: guardRules(tc.label), user: user}.run(t, "Press the button")
			got := r.phone.Var("com.fairy.vault", "tapped")
			var held []string
			for _, e := range r.events {
				if ev, _ := e["event"].(map[string]any); e["kind"] == "ActionGuarded" {
					held = append(held, ev["category"].(string)+":"+ev["target"].(string))
				}
			}
			switch {
			case tc.category == "":
				if len(held) > 0 || len(r.asked) > 0 || got != tc.tapped || r.res.Outcome != event.OutcomeDone {
					t.Errorf("held %q, asked %d, tapped %q, outcome %s: want a plain tap", held, len(r.asked), got, r.res.Outcome)
				}
				return
			case len(held) != 1 || held[0] != tc.category+":"+tc.label:
				t.Errorf("held %q, want %s:%s", held, tc.category, tc.label)
			}
			if len(r.asked) != 1 || !strings.Contains(r.asked[0].Question.Text, tc.label) {
				t.Errorf("asked %+v, want one question naming %q", r.asked, tc.label)
			}
			if tc.reply == "yes" {
				if got != tc.tapped || r.res.Outcome != event.OutcomeDone {
					t.Errorf("after yes: tapped %q, outcome %s (%s)", got, r.res.Outcome, r.res.Reason)
				}
				return
			}
			if got != "" {
				t.Errorf("the person said no, yet %q was tapped", got)
			}
			if r.res.Outcome != event.OutcomeRefused || r.sum(t).Outcome != event.OutcomeRefused {
				t.Errorf("outcome %s (summary %s), want refused", r.res.Outcome, r.sum(t).Outcome)
			}
		})
	}
}

// chatRules log in, open the vault's chat and send "hello" with the decider's batch of
// the case (twice at most: once held back, once after a yes), then finish.
func chatRules(batch string) string {
	return `
  - name: log in
    role: replanner
    match: ['\[\d+\] button "Log in"']
    answer: '{"result":"","reflection":"","progress":"","plan":["Log in","Open the chat","Send hello"],"subgoal":"Log in","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
  - name: open the chat
    role: replanner
    match: ['\[\d+\] button "Chat"']
    answer: '{"result":"A","reflection":"","progress":"","plan":["Open the chat","Send hello"],"subgoal":"Open the chat","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
  - name: send
    role: replanner
    answer: '{"result":"B","reflection":"","progress":"","plan":["Send hello"],"subgoal":"Send hello","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
  - name: tap log in
    role: decider
    match: ['Current sub-goal: Log in']
    answer: '{"thought":"","actions":[{"type":"Tap","index":{{index "Log in"}}}],"expect":""}'
  - name: tap chat
    role: decider
    match: ['Current sub-goal: Open the chat']
    answer: '{"thought":"","actions":[{"type":"Tap","index":{{index "Chat"}}}],"expect":""}'
  - name: send it
    role: decider
    times: 2
    answer: ` + yamlQuote(batch) + `
  - name: finish
    role: decider
    answer: '{"thought":"","actions":[{"type":"Finish","text":"sent"}],"expect":""}'
  - name: consent given
    role: interactor
    match: ['Interaction type: [12]', 'Why the agent asks: ([^\n]*)', '(?m)^Person: (?i:y|yes)']
    answer: '{"status":"A","question":"","options":[],"summary":"agreed","consent":"granted"}'
  - name: ask consent
    role: interactor
    match: ['Interaction type: [12]', 'Why the agent asks: ([^\n]*)']
    answer: '{"status":"B","question":{{json (printf "May I %s?" (match 1))}},"options":[],"summary":"","consent":""}'
`
}

// TestGuardHoldsEnterThatSubmits: the vault's chat sends on Enter in its compose field as
// on its 发送 button. Enter in the field — also when the batch typed into the field just
// before, so the field had no focus when the batch was decided — and text typed with a
// trailing line break are held like a tap on 发送: the person is asked, a "no" is obeyed
// (nothing is sent; the line break is not even typed) and a "yes" sends once.
func TestGuardHoldsEnterThatSubmits(t *testing.T) {
	const (
		enter   = `{"thought":"","actions":[{"type":"Input","index":{{index "field_b"}},"text":"hello"},{"type":"Enter"}],"expect":""}`
		newline = `{"thought":"","actions":[{"type":"Input","index":{{index "field_b"}},"text":"hello\n"}],"expect":""}`
	)
	tests := []struct {
		name  string
		batch string
		reply string
		sent  string // the chat's record of what was sent
		draft string // what the compose field holds at the end
	}{
		{"enter no", enter, "no", "", "hello"},
		{"enter 不要", enter, "不要", "", "hello"},
		{"enter yes", enter, "yes", "|hello", ""},
		{"line break no", newline, "no", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			user := []interaction.Rule{{Pattern: ".", Reply: tc.reply}}
			r := rig{rules: chatRules(tc.batch), user: user}.run(t, "Send hello in the vault chat")
			var held []string
			for _, e := range r.events {
				if ev, _ := e["event"].(map[string]any); e["kind"] == "ActionGuarded" {
					held = append(held, ev["category"].(string)+":"+ev["target"].(string))
				}
			}
			if len(held) != 1 || held[0] != "send:发送" {
				t.Errorf("held %q, want send:发送", held)
			}
			if len(r.asked) != 1 || !strings.Contains(r.asked[0].Question.Text, "发送") {
				t.Errorf("asked %+v, want one question naming 发送", r.asked)
			}
			if got := r.phone.Var("com.fairy.vault", "sent"); got != tc.sent {
				t.Errorf("sent %q, want %q", got, tc.sent)
			}
			if got := r.phone.Var("com.fairy.vault", "draft"); got != tc.draft {
				t.Errorf("the compose field holds %q, want %q", got, tc.draft)
			}
			want := event.OutcomeRefused
			if tc.reply == "yes" {
				want = event.OutcomeDone
			}
			if r.res.Outcome != want || r.sum(t).Outcome != want {
				t.Errorf("outcome %s (summary %s), want %s; reason %q", r.res.Outcome, r.sum(t).Outcome, want, r.res.Reason)
			}
		})
	}
}
