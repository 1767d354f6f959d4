package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/prompts"
)

// user is a simulated user: it answers the agent's questions (interaction.Dialoger) and
// keeps a record of every question.
type user interface {
	interaction.Dialoger
	Questions() []Question
}

// Question is one question the agent asked the simulated user, with the answer given.
type Question struct {
	Time    time.Time        `json:"time"`
	Type    int              `json:"type"` // 1 sensitive, 2 irreversible, 3 choice, 4 ambiguous
	Kind    interaction.Kind `json:"kind"`
	Text    string           `json:"text"`
	Options []string         `json:"options,omitempty"`
	Answer  string           `json:"answer"`
	By      string           `json:"by"` // "rule N", "default", "consent", "model", "intent", or "none"
	// Refused: a consent question the user refused; Unjudgeable: a consent question that
	// hid the specifics (recipient, items, amount) the user needed to judge it.
	Refused     bool `json:"refused,omitempty"`
	Unjudgeable bool `json:"unjudgeable,omitempty"`
}

var timeNow = time.Now

// The replies a scripted user gives for the consent keywords.
const (
	approveReply = "Yes, go ahead."
	refuseReply  = "No, do not do that."
)

// ruleUser answers from ordered rules (pattern → reply), then the consent reply for
// yes/no questions, then the default. Safe for concurrent use.
type ruleUser struct {
	mu      sync.Mutex
	rules   []userRule
	def     string
	consent string
	now     func() time.Time
	asked   []Question
}

type userRule struct {
	re    *regexp.Regexp
	reply string
	left  int // -1 unlimited
}

// newRuleUser compiles spec.
func newRuleUser(spec suite.RuleUserSpec) (*ruleUser, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	u := &ruleUser{def: spec.Default, now: time.Now}
	switch strings.ToLower(spec.Consent) {
	case "approve":
		u.consent = approveReply
	case "refuse":
		u.consent = refuseReply
	}
	for _, r := range spec.Rules {
		re := regexp.MustCompile("(?i)" + r.Pattern) // Validate compiled it
		left := -1
		if r.Times > 0 {
			left = r.Times
		}
		u.rules = append(u.rules, userRule{re: re, reply: keywordReply(r.Reply), left: left})
	}
	return u, nil
}

// keywordReply turns the consent keywords into sentences a person would say.
func keywordReply(s string) string {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "approve":
		return approveReply
	case "refuse":
		return refuseReply
	}
	return s
}

// Ask implements interaction.Dialoger.
func (u *ruleUser) Ask(ctx context.Context, q interaction.Question) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	rec := Question{Time: u.now(), Type: q.Type, Kind: q.Kind, Text: q.Text, Options: append([]string(nil), q.Options...)}
	subject := q.Text + "\n" + strings.Join(q.Options, "\n")
	for i := range u.rules {
		r := &u.rules[i]
		if r.left == 0 || !r.re.MatchString(subject) {
			continue
		}
		if r.left > 0 {
			r.left--
		}
		rec.Answer, rec.By = r.reply, fmt.Sprintf("rule %d", i+1)
		u.asked = append(u.asked, rec)
		return r.reply, nil
	}
	switch {
	case u.consent != "" && (q.Kind == interaction.YesNo || q.Type == 1 || q.Type == 2):
		rec.Answer, rec.By = u.consent, "consent"
	case u.def != "":
		rec.Answer, rec.By = u.def, "default"
	default:
		rec.By = "none"
		u.asked = append(u.asked, rec)
		return "", fmt.Errorf("%w: no rule matches %q", errNoAnswer, q.Text)
	}
	u.asked = append(u.asked, rec)
	return rec.Answer, nil
}

// Questions returns every question asked so far.
func (u *ruleUser) Questions() []Question {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]Question(nil), u.asked...)
}

// modelUserConfig is what a model-played user needs.
type modelUserConfig struct {
	Model       suite.Model         // required: answers the role "user"
	Prompts     *prompts.Set        // required: the simulated user's prompt
	Instruction string              // what the person told the agent (the task's instruction)
	Spec        suite.ModelUserSpec // the persona and the hidden intent; the intent is required
}

// modelUser is a simulated user played by a model (role "user"): a persona and a hidden
// intent, answering only what the intent settles. Safe for concurrent use.
type modelUser struct {
	cfg   modelUserConfig
	now   func() time.Time
	mu    sync.Mutex
	asked []Question
}

// newModelUser returns a model-played user.
func newModelUser(cfg modelUserConfig) (*modelUser, error) {
	switch {
	case cfg.Model == nil:
		return nil, fmt.Errorf("%w: model user without a model", ErrConfig)
	case cfg.Prompts == nil:
		return nil, fmt.Errorf("%w: model user without prompts", ErrConfig)
	case strings.TrimSpace(cfg.Spec.Intent) == "":
		return nil, fmt.Errorf("%w: model user without an intent", ErrConfig)
	}
	if cfg.Spec.Persona == "" {
		cfg.Spec.Persona = "a busy person"
	}
	return &modelUser{cfg: cfg, now: time.Now}, nil
}

// Ask implements interaction.Dialoger.
func (u *modelUser) Ask(ctx context.Context, q interaction.Question) (string, error) {
	rec := Question{Time: u.now(), Type: q.Type, Kind: q.Kind, Text: q.Text, Options: append([]string(nil), q.Options...), By: "model"}
	ans, err := u.answer(ctx, q)
	rec.Answer = ans.Answer
	u.mu.Lock()
	u.asked = append(u.asked, rec)
	u.mu.Unlock()
	if err != nil {
		return "", fmt.Errorf("eval: model user: %w", err)
	}
	return rec.Answer, nil
}

// answer asks the model once.
func (u *modelUser) answer(ctx context.Context, q interaction.Question) (prompts.UserAnswer, error) {
	var ans prompts.UserAnswer
	p, err := u.cfg.Prompts.Play(prompts.UserData{Persona: u.cfg.Spec.Persona, Intent: u.cfg.Spec.Intent,
		Instruction: u.cfg.Instruction, Kind: string(q.Kind), Question: q.Text, Options: q.Options})
	if err != nil {
		return ans, err
	}
	resp, err := u.cfg.Model.Generate(ctx, llm.Request{Role: llm.RoleUser, System: p.System, Schema: &p.Schema,
		Messages: []llm.Message{{Role: "user", Text: p.User}}})
	if err != nil {
		return ans, err
	}
	text, err := llm.ExtractJSON(resp.Text)
	if err == nil {
		err = json.Unmarshal([]byte(text), &ans)
	}
	if err != nil {
		return ans, err
	}
	if err := ans.Validate(); err != nil {
		return ans, fmt.Errorf("%w: %w", errNoAnswer, err)
	}
	return ans, nil
}

// Questions returns every question asked so far.
func (u *modelUser) Questions() []Question {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]Question(nil), u.asked...)
}

// newUser builds the simulated user a task declares; model with ps plays a ModelUser
// (both may be nil when the task's user is scripted). A task with no user gets one that
// answers nothing, so any question fails the interaction.
func newUser(task *suite.Task, model suite.Model, ps *prompts.Set) (user, error) {
	spec := task.User
	switch {
	case spec.Model != nil:
		u, err := newModelUser(modelUserConfig{Model: model, Prompts: ps, Instruction: task.Instruction, Spec: *spec.Model})
		if err != nil {
			return nil, err
		}
		return judging(u, intentOf(task)), nil
	case spec.Scripted != nil:
		u, err := newRuleUser(*spec.Scripted)
		if err != nil {
			return nil, err
		}
		return judging(u, intentOf(task)), nil
	}
	return newRuleUser(suite.RuleUserSpec{})
}
