package suite

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/fairy-go/fairy/eval/walkthrough"
	"github.com/fairy-go/fairy/llm/scripted"
	"github.com/fairy-go/fairy/sim"
	"gopkg.in/yaml.v3"
)

//go:embed suites/*.yaml
var builtinSuites embed.FS

// BuiltinPrefix names an embedded suite: "builtin:sim" is suites/sim.yaml.
const BuiltinPrefix = "builtin:"

// ErrSuite means a suite file cannot be read or is invalid.
var ErrSuite = errors.New("eval: invalid suite")

// Suite is a set of evaluation tasks, read from YAML. The format is documented in doc.go.
type Suite struct {
	Name        string `yaml:"name" json:"name"`
	Description string `yaml:"description,omitempty" json:"description,omitempty"`
	// Defaults fill what a task leaves out: phone, limits, user.
	Defaults Defaults `yaml:"defaults,omitempty" json:"-"`
	// Recover are scripted model rules tried before every task's own (e.g. dismissing an
	// unexpected dialog whatever the task).
	Recover []scripted.Rule `yaml:"recover,omitempty" json:"-"`
	// Model are scripted model rules shared by every task; they are tried after the task's own.
	Model []scripted.Rule `yaml:"model,omitempty" json:"-"`
	Tasks []*Task         `yaml:"tasks" json:"tasks"`
	// Apps is a directory of app declarations (YAML, docs/apps.md), relative to the suite
	// file, that the virtual phones install next to their built-in apps.
	Apps string `yaml:"apps,omitempty" json:"apps,omitempty"`
	// Source is where the suite was read from (a path or "builtin:NAME").
	Source string `yaml:"-" json:"source"`

	simApps []*sim.AppSpec
}

// SimApps is the virtual phones' app catalogue the suite needs: the built-in apps with the
// suite's Apps; nil when the suite adds none (the built-in apps alone).
func (s *Suite) SimApps() []*sim.AppSpec { return s.simApps }

// Defaults are the values a task inherits when it does not set them.
type Defaults struct {
	Phone  Phone    `yaml:"phone,omitempty"`
	Limits Limits   `yaml:"limits,omitempty"`
	User   UserSpec `yaml:"user,omitempty"`
}

// Task is one evaluation task.
type Task struct {
	ID          string    `yaml:"id" json:"id"`
	Instruction string    `yaml:"instruction" json:"instruction"`
	Tags        []string  `yaml:"tags,omitempty" json:"tags,omitempty"`
	Phone       Phone     `yaml:"phone,omitempty" json:"phone"`
	Limits      Limits    `yaml:"limits,omitempty" json:"limits"`
	User        UserSpec  `yaml:"user,omitempty" json:"-"`
	Checks      []Check   `yaml:"checks" json:"-"`
	Questions   Questions `yaml:"questions,omitempty" json:"-"`
	// Wants are the kinds of sensitive action the person asked for (guard categories:
	// payment, order, send, delete…) when the checks do not say it — a payment recorded in
	// an app's own records. The simulated person refuses a consent of another kind ("do
	// not pay yet", then "Pay ¥36?"), as they do for tasks whose checks name a message, an
	// order or a deletion.
	Wants []string `yaml:"wants,omitempty" json:"-"`
	// Intent is what the person behind the task wants, when a suite builder in Go knows it
	// (eval/androidworld reads it from the benchmark's checks): the simulated person judges
	// consents by it as by what the checks and Wants say. A YAML suite cannot set it.
	Intent *Intent `yaml:"-" json:"-"`
	// Model are scripted model rules for this task; tried before the suite's.
	Model []scripted.Rule `yaml:"model,omitempty" json:"-"`
	// Walk is a walkthrough compiled into scripted model rules (after Model).
	Walk []walkthrough.Task `yaml:"walk,omitempty" json:"-"`
}

// Intent is what the person behind a task asked for, as a suite builder in Go knows it
// (eval/androidworld reads it from the benchmark's checks): who gets a message and what it
// says, what is deleted, what is added, and the kinds of sensitive action asked for. A
// person with an Intent refuses a consent of a kind it does not name, also when it names
// none (asked a question about their calendar, they refuse a delete).
type Intent struct {
	// Who is the recipient, each entry one way the person knows them (a name, a number).
	Who     []string
	What    []string // texts the message must hold
	Deletes []string // what is to be deleted: a row's title or name
	// Keeps tell a look-alike the person keeps from a row they delete of the same name:
	// details only the look-alike shows (its amount, its note), so a delete whose page
	// shows one is refused.
	Keeps []string
	Adds  []string // what is to be added: a row's title or name
	Kinds []string // guard categories asked for (send, delete, …); none: nothing sensitive
}

// HasTag reports whether the task carries a tag.
func (t *Task) HasTag(tag string) bool {
	for _, x := range t.Tags {
		if x == tag {
			return true
		}
	}
	return false
}

// RulesOption tweaks the scripted rules Rules compiles.
type RulesOption func(*rulesOptions)

type rulesOptions struct {
	noNavigate bool
}

// WithoutNavigate drops the walkthroughs' Navigate rules: the scripted model never takes
// a learned shortcut, also when a hint offers one, and acts step by step — what the
// executor saves then is saved whatever the model says (the model-independent figure).
func WithoutNavigate() RulesOption {
	return func(o *rulesOptions) { o.noNavigate = true }
}

// Rules returns the scripted model rules for t: the suite's recovery rules, the task's
// own, its walkthrough's, then the suite's shared rules.
func (s *Suite) Rules(t *Task, opts ...RulesOption) ([]scripted.Rule, error) {
	var o rulesOptions
	for _, f := range opts {
		f(&o)
	}
	walk, err := walkthrough.Rules(t.Instruction, t.Walk, o.noNavigate)
	if err != nil {
		return nil, fmt.Errorf("%w: task %q: %v", ErrSuite, t.ID, err)
	}
	out := make([]scripted.Rule, 0, len(s.Recover)+len(t.Model)+len(walk)+len(s.Model))
	out = append(out, s.Recover...)
	out = append(out, t.Model...)
	out = append(out, walk...)
	return append(out, s.Model...), nil
}

// Phone is the phone a task needs: a virtual phone or a real device.
type Phone struct {
	Sim    *SimPhone  `yaml:"sim,omitempty" json:"sim,omitempty"`
	Device *RealPhone `yaml:"device,omitempty" json:"device,omitempty"`
}

// Virtual reports whether the task runs on a virtual phone.
func (p Phone) Virtual() bool { return p.Sim != nil }

// SimPhone is a virtual phone's start state. Before the task the phone is factory-reset
// (same seed → same phone), its clock set, the faults are switched on, the setup commands
// run in its shell, and Launch (if set) is brought to the front.
type SimPhone struct {
	Seed   uint64 `yaml:"seed,omitempty" json:"seed,omitempty"`
	Faults string `yaml:"faults,omitempty" json:"faults,omitempty"` // sim.ParseFaults syntax
	// Clock is the time (RFC 3339) the phone's clock reads when the task starts; it runs on
	// from there. A task whose phone does not set it takes the suite default's. Empty: the
	// host's time, so what the task's screens show (the time of a message sent) depends on
	// the minute it runs in, and two passes of one evaluation may see different pages.
	Clock  string   `yaml:"clock,omitempty" json:"clock,omitempty"`
	Setup  []string `yaml:"setup,omitempty" json:"setup,omitempty"`
	Launch string   `yaml:"launch,omitempty" json:"launch,omitempty"`
}

// RealPhone is a real device: optionally pinned to a serial, with setup shell commands.
type RealPhone struct {
	Serial string   `yaml:"serial,omitempty" json:"serial,omitempty"`
	Setup  []string `yaml:"setup,omitempty" json:"setup,omitempty"`
}

// Limits bound one task run. Zero fields take the agent's defaults. Actions count the
// actions sent to the phone (a step may send several): a benchmark's step budget, where
// its agents take one action a step; zero is no action limit.
type Limits struct {
	Steps   int           `yaml:"steps,omitempty" json:"steps,omitempty"`
	Actions int           `yaml:"actions,omitempty" json:"actions,omitempty"`
	Time    time.Duration `yaml:"time,omitempty" json:"time,omitempty"`
	Cost    float64       `yaml:"cost,omitempty" json:"cost,omitempty"`
}

// UserSpec declares the simulated user of a task: scripted rules or a model-played persona.
type UserSpec struct {
	Scripted *RuleUserSpec  `yaml:"scripted,omitempty"`
	Model    *ModelUserSpec `yaml:"model,omitempty"`
	// Hands is what the person does on the virtual phone when the agent hands it over (a
	// password, a one-time code): the secrets they know, typed with their own hands.
	Hands []HandStep `yaml:"hands,omitempty"`
}

// HandStep is one thing the simulated person does on the phone they were handed: touch the
// element with resource id ID ("password" or "com.fairy.bank:id/password") and, when Text
// is set, type it there. A step whose element is not on the screen waits for a later
// hand-over.
type HandStep struct {
	ID   string `yaml:"id"`
	Text string `yaml:"text,omitempty"`
}

// RuleUserSpec declares a RuleUser: the suite's `scripted:` user.
type RuleUserSpec struct {
	// Rules are tried in order; the first whose pattern matches the question answers.
	Rules []UserRule `yaml:"rules,omitempty"`
	// Default answers a question no rule matches ("" makes it an error: ErrNoAnswer).
	Default string `yaml:"default,omitempty"`
	// Consent answers a yes/no (consent) question no rule matches: "approve" or "refuse".
	Consent string `yaml:"consent,omitempty"`
}

// Validate checks a scripted user: its consent keyword, and every rule's pattern and
// reply.
func (spec RuleUserSpec) Validate() error {
	switch strings.ToLower(spec.Consent) {
	case "", "approve", "refuse":
	default:
		return fmt.Errorf("%w: consent %q: use approve or refuse", ErrSuite, spec.Consent)
	}
	for i, r := range spec.Rules {
		if _, err := regexp.Compile("(?i)" + r.Pattern); err != nil {
			return fmt.Errorf("%w: user rule %d pattern %q: %v", ErrSuite, i+1, r.Pattern, err)
		}
		if r.Reply == "" {
			return fmt.Errorf("%w: user rule %d has no reply", ErrSuite, i+1)
		}
	}
	return nil
}

// UserRule is one scripted reply. Reply "approve" or "refuse" gives consent or refuses it.
type UserRule struct {
	Pattern string `yaml:"pattern"` // a regular expression, case-insensitive, on the question and its options
	Reply   string `yaml:"reply"`
	Times   int    `yaml:"times,omitempty"` // > 0: answers at most this often
}

// ModelUserSpec declares a ModelUser: a persona and a hidden intent given to a model.
type ModelUserSpec struct {
	Persona string `yaml:"persona"`
	Intent  string `yaml:"intent"`
}

// Questions are assertions on the questions the agent asked.
type Questions struct {
	// MustAsk: each pattern matches at least one question (text or options).
	MustAsk []string `yaml:"must_ask,omitempty"`
	// MustNotAsk: the agent asks nothing.
	MustNotAsk bool `yaml:"must_not_ask,omitempty"`
	// Consent: every executed action on an element matching Consent.Action comes after a
	// yes/no question matching Consent.Question, and at least one such question is asked.
	Consent *ConsentAssertion `yaml:"consent,omitempty"`
}

// ConsentAssertion says consent must be asked before an action.
type ConsentAssertion struct {
	Action   string `yaml:"action"`             // regexp on the element label of the action (e.g. "(?i)^pay|支付")
	Question string `yaml:"question,omitempty"` // regexp on the question; default any yes/no question
}

// ForeignKinds are the guard categories a person judges by what they asked for: asked to
// send a message, they refuse a call or a payment they never asked for. A task's wants
// name some of them.
var ForeignKinds = []string{"payment", "transfer", "order", "subscription", "delete", "send", "call"}

// Load reads a suite: "builtin:NAME" for an embedded suite, otherwise a file path.
func Load(ref string) (*Suite, error) {
	if name, ok := strings.CutPrefix(ref, BuiltinPrefix); ok {
		data, err := builtinSuites.ReadFile("suites/" + name + ".yaml")
		if err != nil {
			return nil, fmt.Errorf("%w: no built-in suite %q (known: %s)", ErrSuite, name, strings.Join(builtinNames(), ", "))
		}
		return Parse(data, ref)
	}
	data, err := readSuiteFile(ref)
	if err != nil {
		return nil, err
	}
	return Parse(data, ref)
}

// builtinNames lists the embedded suites as "builtin:NAME".
func builtinNames() []string {
	ents, _ := builtinSuites.ReadDir("suites")
	var out []string
	for _, e := range ents {
		if n, ok := strings.CutSuffix(e.Name(), ".yaml"); ok {
			out = append(out, BuiltinPrefix+n)
		}
	}
	return out
}

// Parse reads a suite document (unknown keys are errors, each named with its line
// and the key meant), checks its counts, fills defaults and validates it.
func Parse(data []byte, source string) (*Suite, error) {
	if len(data) > MaxSuiteBytes {
		return nil, errTooLarge(source)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%w: %s", ErrSuite, plainTypeError(source, strings.TrimPrefix(err.Error(), "yaml: ")))
	}
	if len(doc.Content) == 0 {
		return nil, fmt.Errorf("%w: %s: empty document", ErrSuite, source)
	}
	if probs := unknownKeys(source, &doc); len(probs) > 0 {
		return nil, fmt.Errorf("%w:\n  %s", ErrSuite, strings.Join(probs, "\n  "))
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true) // a backstop: unknownKeys has named every unknown key
	var s Suite
	if err := dec.Decode(&s); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%w: %s: empty document", ErrSuite, source)
		}
		var te *yaml.TypeError
		if errors.As(err, &te) {
			msgs := make([]string, len(te.Errors))
			for i, m := range te.Errors {
				msgs[i] = plainTypeError(source, m)
			}
			return nil, fmt.Errorf("%w:\n  %s", ErrSuite, strings.Join(msgs, "\n  "))
		}
		return nil, fmt.Errorf("%w: %s: %v", ErrSuite, source, err)
	}
	// A second document (after a "---") would be dropped without a word: a suite is one.
	// An empty one (a trailing "---") holds nothing to lose.
	for {
		var more yaml.Node
		err := dec.Decode(&more)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %s: a suite file holds one YAML document; after the first: %v", ErrSuite, source, err)
		}
		if len(more.Content) == 0 || more.Content[0].Kind == yaml.ScalarNode && more.Content[0].Tag == "!!null" {
			continue
		}
		return nil, fmt.Errorf("%w: %s line %d: a second YAML document; a suite file holds one (merge its tasks into the first, or make it a suite file of its own)", ErrSuite, source, more.Content[0].Line)
	}
	if err := s.countProblems(); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrSuite, source, err)
	}
	s.Source = source
	if s.Name == "" {
		s.Name = strings.TrimPrefix(source, BuiltinPrefix)
	}
	s.fill()
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	if s.Apps != "" {
		if err := s.loadApps(); err != nil {
			return nil, fmt.Errorf("%w: %s: apps: %w", ErrSuite, source, err)
		}
	}
	return &s, nil
}

// SetSimApps installs extra apps on the suite's virtual phones, next to the built-in apps:
// how a suite built in Go (androidworld:sim) declares the apps its tasks need.
func (s *Suite) SetSimApps(extra []*sim.AppSpec) error {
	base, err := sim.DefaultApps()
	if err != nil {
		return err
	}
	s.simApps, err = sim.MergeApps(base, extra)
	return err
}

// fill gives every task the defaults it does not set.
func (s *Suite) fill() {
	d := s.Defaults
	for _, t := range s.Tasks {
		if t == nil {
			continue
		}
		if t.Phone.Sim == nil && t.Phone.Device == nil {
			if d.Phone.Sim != nil {
				c := *d.Phone.Sim
				t.Phone.Sim = &c
			}
			if d.Phone.Device != nil {
				c := *d.Phone.Device
				t.Phone.Device = &c
			}
		}
		if t.Phone.Sim != nil && t.Phone.Sim.Clock == "" && d.Phone.Sim != nil {
			t.Phone.Sim.Clock = d.Phone.Sim.Clock
		}
		if t.Limits.Steps == 0 {
			t.Limits.Steps = d.Limits.Steps
		}
		if t.Limits.Time == 0 {
			t.Limits.Time = d.Limits.Time
		}
		if t.Limits.Actions == 0 {
			t.Limits.Actions = d.Limits.Actions
		}
		if t.Limits.Cost == 0 {
			t.Limits.Cost = d.Limits.Cost
		}
		if t.User.Scripted == nil && t.User.Model == nil {
			t.User = d.User
		}
	}
}

// Validate checks the suite: unique ids, one phone kind, one user kind, compilable
// patterns and rules, and checks that fit the phone. The error lists every problem.
func (s *Suite) Validate() error {
	var probs []string
	add := func(format string, a ...any) { probs = append(probs, fmt.Sprintf(format, a...)) }
	if len(s.Tasks) == 0 {
		add("no tasks (the document needs a top-level \"tasks:\" list)")
	}
	for name, rs := range map[string][]scripted.Rule{"model": s.Model, "recover": s.Recover} {
		if len(rs) > 0 {
			if _, err := scripted.NewServer(rs, scripted.Options{}); err != nil {
				add("suite %s rules: %v", name, err)
			}
		}
	}
	ids := map[string]bool{}
	for i, t := range s.Tasks {
		if t == nil {
			add("task %d is empty", i+1)
			continue
		}
		where := fmt.Sprintf("task %d", i+1)
		if t.ID != "" {
			where = fmt.Sprintf("task %q", t.ID)
		}
		for _, p := range t.problems(s) {
			add("%s: %s", where, p)
		}
		if t.ID != "" && ids[t.ID] {
			add("%s: id used twice", where)
		}
		ids[t.ID] = true
	}
	if len(probs) > 0 {
		return fmt.Errorf("%w:\n  %s", ErrSuite, strings.Join(probs, "\n  "))
	}
	return nil
}

var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

func (t *Task) problems(s *Suite) []string {
	var probs []string
	add := func(format string, a ...any) { probs = append(probs, fmt.Sprintf(format, a...)) }
	switch {
	case t.ID == "":
		add("no id")
	case !idPattern.MatchString(t.ID):
		add("id %q: use letters, digits, '.', '_' and '-' (it names the run directory)", t.ID)
	}
	if strings.TrimSpace(t.Instruction) == "" {
		add("no instruction")
	}
	switch {
	case t.Phone.Sim == nil && t.Phone.Device == nil:
		add("no phone (sim: or device:)")
	case t.Phone.Sim != nil && t.Phone.Device != nil:
		add("phone has both sim: and device:; choose one")
	case t.Phone.Sim != nil:
		if _, err := sim.ParseFaults(t.Phone.Sim.Faults); err != nil {
			add("faults: %v", err)
		}
		if c := t.Phone.Sim.Clock; c != "" {
			if _, err := time.Parse(time.RFC3339, c); err != nil {
				add("clock: %v (want RFC 3339, e.g. 2023-10-15T15:34:00Z)", err)
			}
		}
	}
	if t.Limits.Steps < 0 || t.Limits.Actions < 0 || t.Limits.Time < 0 || t.Limits.Cost < 0 {
		add("limits must not be negative")
	}
	switch u := t.User; {
	case u.Scripted != nil && u.Model != nil:
		add("user has both scripted: and model:; choose one")
	case u.Scripted != nil:
		if err := u.Scripted.Validate(); err != nil {
			add("user: %v", err)
		}
	case u.Model != nil:
		if strings.TrimSpace(u.Model.Intent) == "" {
			add("model user needs an intent")
		}
	}
	for i, h := range t.User.Hands {
		if strings.TrimSpace(h.ID) == "" {
			add("user hands[%d] has no id: name the element to touch by its resource id", i)
		}
	}
	if len(t.User.Hands) > 0 && t.Phone.Sim == nil {
		add("user hands: work on the virtual phone only (phone: {sim: {}}); on a real phone the person is there")
	}
	if len(t.Checks) == 0 {
		add("no checks: a task needs at least one success check")
	}
	for _, w := range t.Wants {
		if !slices.Contains(ForeignKinds, w) {
			add("wants %q: use one of %s", w, strings.Join(ForeignKinds, ", "))
		}
	}
	for i, c := range t.Checks {
		if err := c.validate(t.Phone.Virtual()); err != nil {
			add("check %d: %v", i+1, err)
		}
	}
	q := t.Questions
	for _, p := range q.MustAsk {
		if _, err := regexp.Compile("(?i)" + p); err != nil {
			add("questions.must_ask %q: %v", p, err)
		}
	}
	if q.MustNotAsk && (len(q.MustAsk) > 0 || q.Consent != nil) {
		add("questions: must_not_ask contradicts must_ask/consent")
	}
	if c := q.Consent; c != nil {
		if c.Action == "" {
			add("questions.consent needs an action pattern")
		}
		for _, p := range []string{c.Action, c.Question} {
			if _, err := regexp.Compile(p); err != nil {
				add("questions.consent %q: %v", p, err)
			}
		}
	}
	if len(t.Model) > 0 || len(t.Walk) > 0 {
		rules, err := s.Rules(t)
		if err == nil {
			_, err = scripted.NewServer(rules, scripted.Options{})
		}
		if err != nil {
			add("model rules: %v", err)
		}
	}
	return probs
}
