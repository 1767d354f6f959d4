package interaction

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"regexp"
	"strings"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/memory"
	"github.com/fairy-go/fairy/prompts"
)

// Model is the one model method the interactor needs.
type Model interface {
	Generate(ctx context.Context, req llm.Request) (llm.Response, error)
}

// Memory is what the interactor reads from the short-term memory manager.
type Memory interface {
	Overall() string
	Task() event.AppTask
	Instructions() []memory.Instruction
	Turns() []memory.Turn
}

// defaultMaxTurns is how many questions one interaction may ask when Config.MaxTurns is 0.
const defaultMaxTurns = 3

// Config holds an Interactor's parts.
type Config struct {
	Model    Model        // required; called with role "interactor"
	Dialoger Dialoger     // required
	Memory   Memory       // required
	Prompts  *prompts.Set // required
	Bus      *event.Bus   // events go here; nil drops them
	MaxTurns int          // questions per interaction; 0: DefaultMaxTurns
	Logger   *slog.Logger // nil: discard
}

// Interactor is the User Interactor.
type Interactor struct {
	cfg Config
	log *slog.Logger
}

// New checks cfg and returns an Interactor.
func New(cfg Config) (*Interactor, error) {
	switch {
	case cfg.Model == nil:
		return nil, fmt.Errorf("%w: no model", errConfig)
	case cfg.Dialoger == nil:
		return nil, fmt.Errorf("%w: no dialoger", errConfig)
	case cfg.Memory == nil:
		return nil, fmt.Errorf("%w: no memory", errConfig)
	case cfg.Prompts == nil:
		return nil, fmt.Errorf("%w: no prompts", errConfig)
	}
	if cfg.MaxTurns <= 0 {
		cfg.MaxTurns = defaultMaxTurns
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Interactor{cfg: cfg, log: log}, nil
}

// Need is why the agent must ask.
type Need struct {
	Step     int
	Type     int    // 1 sensitive, 2 irreversible, 3 choice, 4 ambiguous
	Reason   string // in words, for the question
	Subgoal  string
	Screen   string // the screen's text form
	Category string // the guard category a consent covers ("": the consent covers nothing sensitive)
	Action   string // the identity of the one action a consent covers (the guard's Verdict.Action)
	Subject  string // what the consent is for, e.g. `tap "Pay ¥18"`
	// Specifics are what a person needs to judge the consent, read from the screen
	// (to Bob Smith, text "…"); the question always shows them, and carries them.
	Specifics event.Specifics
}

// Result is how an interaction ended.
type Result struct {
	Settled bool           // the answers settled the need
	Summary string         // pushed onto the instruction stack
	Consent *event.Consent // for types 1 and 2: granted or refused
	Turns   int
	Answer  string // the person's last answer
}

// Refused reports whether the person refused consent.
func (r Result) Refused() bool { return r.Consent != nil && !r.Consent.Granted }

// Resolve runs one interaction loop: question, answer, judgement, until the need is
// settled or the turns run out. It publishes InteractionAsked, InteractionAnswered and
// InteractionEnded.
func (it *Interactor) Resolve(ctx context.Context, need Need) (Result, error) {
	if need.Type < 1 || need.Type > 4 {
		return Result{}, fmt.Errorf("%w: interaction type %d is not 1–4", errConfig, need.Type)
	}
	kind := KindFor(need.Type)
	turns := 0
	var lastAnswer string
	for {
		a, err := it.ask(ctx, need, kind)
		if err != nil {
			return Result{}, err
		}
		switch {
		case a.Status == "A" && turns > 0:
			res, settled := it.settle(need, a, lastAnswer, turns)
			if settled {
				it.end(need, res)
				return res, nil
			}
			// The model settled a consent question without a verdict: ask plainly.
			a = prompts.InteractorAnswer{Status: "B", Question: fmt.Sprintf("Do you allow this: %s? Please answer yes or no.", need.Reason)}
		case turns >= it.cfg.MaxTurns:
			res := Result{Settled: false, Turns: turns}
			it.end(need, res)
			return res, nil
		}
		q := Question{Type: need.Type, Kind: kind, Text: strings.TrimSpace(a.Question), Options: a.Options, Reason: need.Reason}
		if q.Text == "" {
			q.Text = defaultQuestion(need)
		}
		if kind == YesNo {
			q.Options = nil
			if need.Subject != "" && need.Category != "" && need.Action != "" {
				q.Covers = fmt.Sprintf("%s (%s)", need.Subject, need.Category)
			}
			if sp := need.Specifics; !sp.IsZero() {
				// Whatever the interactor model wrote, the person sees the specifics: those
				// its question does not name already are added to it.
				if miss := missingSpecifics(q.Text, sp); miss != "" {
					q.Text = strings.TrimRight(q.Text, " ") + " — " + miss
				}
				if q.Covers != "" {
					q.Covers += " — " + sp.String()
				}
				q.Specifics = sp
			}
		}
		it.cfg.Bus.Publish(event.InteractionAsked{Step: need.Step, Type: need.Type, Question: q.Text, Options: q.Options})
		reply, err := it.cfg.Dialoger.Ask(ctx, q)
		if err != nil {
			it.end(need, Result{Turns: turns})
			return Result{}, fmt.Errorf("interaction: ask the person: %w", err)
		}
		turns++
		lastAnswer = reply
		it.cfg.Bus.Publish(event.InteractionAnswered{Step: need.Step, Answer: reply})
		// A plain "no" to a consent question ends it at once, whatever a model would make of it.
		if need.Type <= 2 {
			if granted, clear := ReadYesNo(reply); clear && !granted {
				res := Result{Settled: true, Turns: turns, Answer: reply, Summary: fmt.Sprintf("The person refused: %s.", need.Reason),
					Consent: &event.Consent{Granted: false, Category: need.Category, Action: need.Action, Subject: need.Subject, Specifics: need.Specifics}}
				it.end(need, res)
				return res, nil
			}
		}
	}
}

// missingSpecifics are the parts of sp whose value the question does not name, as a
// question shows them (`to: Bob; text: "hi"`); "" when it names them all.
func missingSpecifics(question string, sp event.Specifics) string {
	var miss []string
	for _, p := range sp.Parts() {
		if !strings.Contains(question, p.Value) {
			miss = append(miss, p.Key+": "+p.Shown)
		}
	}
	return strings.Join(miss, "; ")
}

// settle builds the result of a settled interaction; false when a consent question has no
// clear verdict and turns remain to ask again.
func (it *Interactor) settle(need Need, a prompts.InteractorAnswer, lastAnswer string, turns int) (Result, bool) {
	res := Result{Settled: true, Summary: strings.TrimSpace(a.Summary), Turns: turns, Answer: lastAnswer}
	if res.Summary == "" {
		res.Summary = fmt.Sprintf("About %q the person answered: %s", need.Reason, lastAnswer)
	}
	if need.Type <= 2 {
		granted, ok := consentOf(a.Consent, lastAnswer)
		if !ok {
			if turns < it.cfg.MaxTurns {
				return Result{}, false
			}
			granted = false // no clear yes is no consent
		}
		res.Consent = &event.Consent{Granted: granted, Category: need.Category, Action: need.Action, Subject: need.Subject, Specifics: need.Specifics}
	}
	return res, true
}

func (it *Interactor) end(need Need, r Result) {
	it.cfg.Bus.Publish(event.InteractionEnded{Step: need.Step, Settled: r.Settled, Summary: r.Summary, Consent: r.Consent,
		Turns: r.Turns, Subgoal: need.Subgoal, Category: need.Category})
}

// ask calls the interactor model once.
func (it *Interactor) ask(ctx context.Context, need Need, kind Kind) (prompts.InteractorAnswer, error) {
	m := it.cfg.Memory
	p, err := it.cfg.Prompts.Interact(prompts.InteractorData{
		Instruction: m.Overall(), Task: m.Task(), Instructions: m.Instructions(), Subgoal: need.Subgoal,
		Type: need.Type, Kind: string(kind), Reason: need.Reason, Screen: need.Screen, Turns: m.Turns(), MaxTurns: it.cfg.MaxTurns,
	})
	if err != nil {
		return prompts.InteractorAnswer{}, err
	}
	resp, err := it.cfg.Model.Generate(ctx, llm.Request{Role: llm.RoleInteractor, System: p.System,
		Messages: []llm.Message{{Role: "user", Text: p.User}}, Schema: &p.Schema})
	if err != nil {
		return prompts.InteractorAnswer{}, fmt.Errorf("interaction: interactor model: %w", err)
	}
	text, err := llm.ExtractJSON(resp.Text)
	if err != nil {
		return prompts.InteractorAnswer{}, fmt.Errorf("%w: %w", errBadAnswer, err)
	}
	var a prompts.InteractorAnswer
	if err := json.Unmarshal([]byte(text), &a); err != nil {
		return prompts.InteractorAnswer{}, fmt.Errorf("%w: %w", errBadAnswer, err)
	}
	a.Status = strings.ToUpper(strings.TrimSpace(a.Status))
	return a, nil
}

func defaultQuestion(n Need) string {
	switch n.Type {
	case 1, 2:
		return fmt.Sprintf("May I go ahead: %s?", n.Reason)
	case 3:
		return fmt.Sprintf("Which one do you want? (%s)", n.Reason)
	}
	return fmt.Sprintf("Could you clarify: %s?", n.Reason)
}

// consentOf turns the model's verdict, or failing that the plain answer, into a consent.
func consentOf(verdict, reply string) (granted, ok bool) {
	v := strings.ToLower(strings.TrimSpace(verdict))
	g, clear := ReadYesNo(reply)
	switch {
	case clear && !g:
		return false, true // a plain no wins over any reading
	case v == "refused" || v == "denied":
		return false, true // a model that heard a no is never overruled by a yes-looking start
	case clear && g:
		return true, true
	case v == "granted":
		return true, true
	}
	return false, false
}

var (
	// yesRE is a whole reply that only agrees: yes words, an optional sensitive verb
	// ("确认支付", "yes, pay"), politeness and punctuation — nothing else.
	yesRE = regexp.MustCompile(`(?i)^(?:(?:y|yes|yeah|yep|ok|okay|sure|go ahead|confirm|confirmed|approve|approved|allow|do it|please|pay|send|delete|order|proceed|是|是的|好|好的|可以|确认|同意|行|支付|付款|购买|删除|发送|下单|吧|的|啊|呀|了)[\s,.!。！，、]*)+$`)
	noRE  = regexp.MustCompile(`(?i)^\s*(?:(?:n|no|nope|don'?t|do not|stop|cancel|refuse|deny|never)\b|不|否|取消|拒绝|别|算了)`)
	// doubtRE is anything that takes a yes back or leaves it open.
	doubtRE = regexp.MustCompile(`(?i)\b(?:no|not|nope|don'?t|never|cancel|stop|wait|later|hold|mind|actually|but|unless|maybe)\b|n't\b|[?？]|不|别|否|取消|拒绝|算了|等等|再说|吗|先不|贵`)
)

// ReadYesNo reads a plain yes or no; clear is false for anything else. A no is a reply that
// starts with a no word; a yes is a whole reply of agreeing words with no doubt in it
// ("好贵，算了", "Sure... actually no" and "Do it later" are neither).
func ReadYesNo(s string) (yes, clear bool) {
	s = strings.TrimSpace(s)
	if noRE.MatchString(s) {
		return false, true
	}
	if yesRE.MatchString(s) && !doubtRE.MatchString(s) {
		return true, true
	}
	return false, false
}
