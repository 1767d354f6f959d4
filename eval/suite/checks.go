package suite

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/prompts"
	"github.com/fairy-go/fairy/sim"
)

// Check is one success check of a task. Exactly one kind is set. Text comparisons
// ("to", "contains", "title", …) are case-insensitive substrings unless named a pattern.
type Check struct {
	Name string `yaml:"name,omitempty"`

	// Outcome: the run's outcome must be this (done, failed, refused, stopped).
	Outcome string `yaml:"outcome,omitempty"`
	// Answer: the agent's final answer contains this.
	Answer string `yaml:"answer,omitempty"`

	// Virtual-phone state predicates.
	Message    *MessageCheck `yaml:"message,omitempty"`
	Order      *OrderCheck   `yaml:"order,omitempty"`
	Event      *EventCheck   `yaml:"event,omitempty"`
	Setting    *SettingCheck `yaml:"setting,omitempty"`
	Note       *NoteCheck    `yaml:"note,omitempty"`
	Records    *RecordsCheck `yaml:"records,omitempty"`
	Foreground string        `yaml:"foreground,omitempty"` // package in front at the end

	// Checks for any phone.
	Screen *ScreenCheck `yaml:"screen,omitempty"`
	Shell  *ShellCheck  `yaml:"shell,omitempty"`
	Judge  *JudgeCheck  `yaml:"judge,omitempty"`

	// Custom is a check a suite builder made in Go (eval/androidworld's state checks); a
	// YAML suite cannot set it.
	Custom CustomCheck `yaml:"-"`
}

// CustomCheck is a check written in Go. Kind names its kind in reports; Virtual says it
// needs the virtual phone's state (Probe.Phone).
type CustomCheck interface {
	Kind() string
	Describe() string
	Virtual() bool
	Evaluate(ctx context.Context, p Probe) (pass bool, evidence string, err error)
}

// MessageCheck: an outgoing message to a contact containing every text. With None, no
// such message may exist.
type MessageCheck struct {
	To       string   `yaml:"to,omitempty"`
	Contains []string `yaml:"contains,omitempty"`
	None     bool     `yaml:"none,omitempty"`
}

// OrderCheck: a shop order with the given properties. Items is the total quantity; Item
// and Paid narrow which orders count. With None, no such order may exist.
type OrderCheck struct {
	Items    int    `yaml:"items,omitempty"`
	Item     string `yaml:"item,omitempty"`
	Paid     *bool  `yaml:"paid,omitempty"`
	Delivery string `yaml:"delivery,omitempty"`
	None     bool   `yaml:"none,omitempty"`
}

// EventCheck: a calendar event. Time is "HH:MM". With None, no such event may exist.
type EventCheck struct {
	Title    string `yaml:"title,omitempty"`
	Time     string `yaml:"time,omitempty"`
	Date     string `yaml:"date,omitempty"`
	Location string `yaml:"location,omitempty"`
	None     bool   `yaml:"none,omitempty"`
}

// SettingCheck: a setting ("namespace/key" or a key) has a value.
type SettingCheck struct {
	Name   string `yaml:"name"`
	Equals string `yaml:"equals"`
}

// NoteCheck: a note exists (or, with Deleted, none with that title exists).
type NoteCheck struct {
	Title   string `yaml:"title,omitempty"`
	Body    string `yaml:"body,omitempty"`
	Deleted bool   `yaml:"deleted,omitempty"`
}

// RecordsCheck: records of an app collection ("name" or "package:name") whose fields
// match the Where patterns (regexps, case-insensitive); Count is the exact number wanted
// (default: at least one).
type RecordsCheck struct {
	Collection string            `yaml:"collection"`
	Where      map[string]string `yaml:"where,omitempty"`
	Count      *int              `yaml:"count,omitempty"`
}

// ScreenCheck: the final screen's text form contains a text or matches a pattern.
type ScreenCheck struct {
	Contains string `yaml:"contains,omitempty"`
	Pattern  string `yaml:"pattern,omitempty"`
}

// ShellCheck: a shell command's output matches a pattern.
type ShellCheck struct {
	Command string `yaml:"command"`
	Match   string `yaml:"match"`
}

// JudgeCheck: a model (role "judge") decides from the instruction, the final screen and
// the outcome whether Criteria holds.
type JudgeCheck struct {
	Criteria string `yaml:"criteria"`
}

// Kind names the check's kind.
func (c Check) Kind() string {
	switch {
	case c.Outcome != "":
		return "outcome"
	case c.Answer != "":
		return "answer"
	case c.Message != nil:
		return "message"
	case c.Order != nil:
		return "order"
	case c.Event != nil:
		return "event"
	case c.Setting != nil:
		return "setting"
	case c.Note != nil:
		return "note"
	case c.Records != nil:
		return "records"
	case c.Foreground != "":
		return "foreground"
	case c.Screen != nil:
		return "screen"
	case c.Shell != nil:
		return "shell"
	case c.Judge != nil:
		return "judge"
	case c.Custom != nil:
		return c.Custom.Kind()
	}
	return ""
}

func (c Check) kinds() int {
	n := 0
	for _, set := range []bool{c.Outcome != "", c.Answer != "", c.Message != nil, c.Order != nil, c.Event != nil,
		c.Setting != nil, c.Note != nil, c.Records != nil, c.Foreground != "", c.Screen != nil, c.Shell != nil, c.Judge != nil, c.Custom != nil} {
		if set {
			n++
		}
	}
	return n
}

func (c Check) validate(virtual bool) error {
	if n := c.kinds(); n != 1 {
		return fmt.Errorf("has %d kinds; set exactly one of outcome, answer, message, order, event, setting, note, records, foreground, screen, shell, judge", n)
	}
	if c.Custom != nil && c.Custom.Virtual() && !virtual {
		return fmt.Errorf("%s checks read the virtual phone's state", c.Kind())
	}
	switch c.Kind() {
	case "message", "order", "event", "setting", "note", "records", "foreground":
		if !virtual {
			return fmt.Errorf("%s checks read the virtual phone's state; on a real device use screen, shell or judge", c.Kind())
		}
	case "outcome":
		switch c.Outcome {
		case "done", "failed", "refused", "stopped":
		default:
			return fmt.Errorf("outcome %q is not done, failed, refused or stopped", c.Outcome)
		}
	}
	switch {
	case c.Setting != nil && c.Setting.Name == "":
		return fmt.Errorf("setting check needs a name")
	case c.Records != nil && c.Records.Collection == "":
		return fmt.Errorf("records check needs a collection")
	case c.Shell != nil && c.Shell.Command == "":
		return fmt.Errorf("shell check needs a command")
	case c.Judge != nil && strings.TrimSpace(c.Judge.Criteria) == "":
		return fmt.Errorf("judge check needs criteria")
	case c.Screen != nil && c.Screen.Contains == "" && c.Screen.Pattern == "":
		return fmt.Errorf("screen check needs contains or pattern")
	}
	var pats []string
	if c.Records != nil {
		for _, p := range c.Records.Where {
			pats = append(pats, "(?i)"+p)
		}
	}
	if c.Screen != nil {
		pats = append(pats, c.Screen.Pattern)
	}
	if c.Shell != nil {
		pats = append(pats, c.Shell.Match)
	}
	for _, p := range pats {
		if _, err := regexp.Compile(p); err != nil {
			return fmt.Errorf("pattern %q: %v", p, err)
		}
	}
	return nil
}

// CheckResult is a check's verdict with what it saw.
type CheckResult struct {
	Name     string `json:"name"`
	Kind     string `json:"kind"`
	Pass     bool   `json:"pass"`
	Evidence string `json:"evidence"`
	// Credit is the fraction of the check that held, for a check scored with partial
	// credit (a benchmark's composite task); nil for a check that only passes or fails.
	Credit *float64 `json:"credit,omitempty"`
	// Collateral marks a check that does not decide the task's success: a change beyond
	// what the benchmark checks (a noise row deleted, a duplicate added), reported apart.
	Collateral bool `json:"collateral,omitempty"`
}

// CreditCheck is a CustomCheck scored with partial credit: Evaluate's pass is whether
// all of it held, Credit the fraction that held in the last Evaluate.
type CreditCheck interface {
	CustomCheck
	EvaluateCredit(ctx context.Context, p Probe) (credit float64, evidence string, err error)
}

// CollateralCheck is a CustomCheck that reports a collateral change: it is shown and
// counted apart and never fails the task.
type CollateralCheck interface {
	CustomCheck
	Collateral() bool
}

// Model is the one model method the judge (and the model-played user) needs.
type Model interface {
	Generate(ctx context.Context, req llm.Request) (llm.Response, error)
}

// Probe is what checks may look at after a task: the virtual phone's state (nil on a real
// device), the device's shell and UI dump, a judge model, and how the run ended.
type Probe struct {
	Phone       *sim.Phone
	Shell       func(ctx context.Context, cmd string) (string, error)
	Dump        func(ctx context.Context) ([]byte, error)
	Judge       Model
	Prompts     *prompts.Set // the judge's prompt; required with Judge
	Instruction string
	Outcome     string
	Reason      string
	Answer      string
}

// Evaluate runs one check.
func Evaluate(ctx context.Context, c Check, p Probe) CheckResult {
	r := CheckResult{Name: c.Name, Kind: c.Kind()}
	if r.Name == "" {
		r.Name = describeCheck(c)
	}
	var err error
	switch cc := c.Custom.(type) {
	case nil:
		r.Pass, r.Evidence, err = evaluate(ctx, c, p)
	case CreditCheck:
		var credit float64
		credit, r.Evidence, err = cc.EvaluateCredit(ctx, p)
		if err == nil {
			credit = min(max(credit, 0), 1)
			r.Credit = &credit
			r.Pass = credit == 1
		}
	default:
		r.Pass, r.Evidence, err = cc.Evaluate(ctx, p)
	}
	if cc, ok := c.Custom.(CollateralCheck); ok {
		r.Collateral = cc.Collateral()
	}
	if err != nil {
		r.Pass, r.Credit = false, nil
		r.Evidence = "error: " + err.Error()
	}
	return r
}

func has(s, sub string) bool { return strings.Contains(strings.ToLower(s), strings.ToLower(sub)) }

func evaluate(ctx context.Context, c Check, p Probe) (bool, string, error) {
	needPhone := func() error {
		if p.Phone == nil {
			return fmt.Errorf("%s check needs the virtual phone's state", c.Kind())
		}
		return nil
	}
	switch c.Kind() {
	case "outcome":
		return p.Outcome == c.Outcome, fmt.Sprintf("outcome %s (%s)", p.Outcome, clip(p.Reason, 200)), nil
	case "answer":
		return has(p.Answer, c.Answer), fmt.Sprintf("answer %q", clip(p.Answer, 200)), nil
	case "message":
		if err := needPhone(); err != nil {
			return false, "", err
		}
		return checkMessages(*c.Message, p.Phone.Messages())
	case "order":
		if err := needPhone(); err != nil {
			return false, "", err
		}
		return checkOrders(*c.Order, p.Phone.Orders())
	case "event":
		if err := needPhone(); err != nil {
			return false, "", err
		}
		return checkEvents(*c.Event, p.Phone.Events())
	case "setting":
		if err := needPhone(); err != nil {
			return false, "", err
		}
		v := p.Phone.Setting(c.Setting.Name)
		return v == c.Setting.Equals, fmt.Sprintf("%s = %s", c.Setting.Name, v), nil
	case "note":
		if err := needPhone(); err != nil {
			return false, "", err
		}
		return checkNotes(*c.Note, p.Phone.Notes())
	case "records":
		if err := needPhone(); err != nil {
			return false, "", err
		}
		return checkRecords(*c.Records, p.Phone)
	case "foreground":
		if err := needPhone(); err != nil {
			return false, "", err
		}
		pkg, act := p.Phone.Foreground()
		return pkg == c.Foreground, "foreground " + pkg + "/" + act, nil
	case "screen":
		text, err := screenText(ctx, p)
		if err != nil {
			return false, "", err
		}
		ok := c.Screen.Contains == "" || has(text, c.Screen.Contains)
		if c.Screen.Pattern != "" {
			ok = ok && regexp.MustCompile(c.Screen.Pattern).MatchString(text)
		}
		return ok, "final screen:\n" + clip(text, 1500), nil
	case "shell":
		if p.Shell == nil {
			return false, "", fmt.Errorf("no device shell")
		}
		out, err := p.Shell(ctx, c.Shell.Command)
		if err != nil {
			return false, "", fmt.Errorf("shell %q: %w", c.Shell.Command, err)
		}
		return regexp.MustCompile(c.Shell.Match).MatchString(out), fmt.Sprintf("$ %s\n%s", c.Shell.Command, clip(out, 1000)), nil
	case "judge":
		return judge(ctx, *c.Judge, p)
	}
	return false, "", fmt.Errorf("unknown check")
}

func screenText(ctx context.Context, p Probe) (string, error) {
	var dump []byte
	switch {
	case p.Phone != nil:
		dump = p.Phone.Dump()
	case p.Dump != nil:
		var err error
		if dump, err = p.Dump(ctx); err != nil {
			return "", fmt.Errorf("dump final screen: %w", err)
		}
	default:
		return "", fmt.Errorf("no way to read the final screen")
	}
	s, err := perception.Parse(dump)
	if err != nil {
		return "", fmt.Errorf("parse final screen: %w", err)
	}
	return s.Text(), nil
}

func checkMessages(c MessageCheck, msgs []sim.Message) (bool, string, error) {
	var seen []string
	found := 0
	for _, m := range msgs {
		if !m.Outgoing {
			continue
		}
		seen = append(seen, fmt.Sprintf("to %s: %q", m.To, m.Text))
		if c.To != "" && !has(m.To, c.To) && !has(m.Phone, c.To) {
			continue
		}
		ok := true
		for _, s := range c.Contains {
			ok = ok && has(m.Text, s)
		}
		if ok {
			found++
		}
	}
	ev := fmt.Sprintf("%d matching of %d outgoing messages", found, len(seen))
	if len(seen) > 0 {
		ev += ": " + strings.Join(lastN(seen, 5), "; ")
	}
	return (found > 0) != c.None, ev, nil
}

func checkOrders(c OrderCheck, orders []sim.Order) (bool, string, error) {
	var seen []string
	found := 0
	for _, o := range orders {
		qty := 0
		var names []string
		itemOK := c.Item == ""
		for _, it := range o.Items {
			qty += it.Quantity
			names = append(names, fmt.Sprintf("%d× %s", it.Quantity, it.Name))
			itemOK = itemOK || has(it.Name, c.Item)
		}
		seen = append(seen, fmt.Sprintf("order %s [%s] total %.2f paid=%t delivery=%s", o.ID, strings.Join(names, ", "), o.Total, o.Paid, o.DeliveryTime))
		switch {
		case !itemOK,
			c.Items > 0 && qty != c.Items,
			c.Paid != nil && o.Paid != *c.Paid,
			c.Delivery != "" && !has(o.DeliveryTime, c.Delivery):
			continue
		}
		found++
	}
	ev := fmt.Sprintf("%d matching of %d orders", found, len(orders))
	if len(seen) > 0 {
		ev += ": " + strings.Join(lastN(seen, 5), "; ")
	}
	return (found > 0) != c.None, ev, nil
}

func checkEvents(c EventCheck, events []sim.Event) (bool, string, error) {
	var seen []string
	found := 0
	for _, e := range events {
		seen = append(seen, fmt.Sprintf("%q %s %s @%s", e.Title, e.Date, e.Time, e.Location))
		switch {
		case c.Title != "" && !has(e.Title, c.Title),
			c.Time != "" && normTime(e.Time) != normTime(c.Time),
			c.Date != "" && !has(e.Date, c.Date),
			c.Location != "" && !has(e.Location, c.Location):
			continue
		}
		found++
	}
	ev := fmt.Sprintf("%d matching of %d events", found, len(events))
	if len(seen) > 0 {
		ev += ": " + strings.Join(lastN(seen, 5), "; ")
	}
	return (found > 0) != c.None, ev, nil
}

// normTime makes "7:00" and "07:00" compare equal.
func normTime(s string) string {
	s = strings.TrimSpace(s)
	if h, m, ok := strings.Cut(s, ":"); ok {
		if n, err := strconv.Atoi(h); err == nil {
			return fmt.Sprintf("%02d:%s", n, m)
		}
	}
	return s
}

func checkNotes(c NoteCheck, notes []sim.Note) (bool, string, error) {
	var seen []string
	found := 0
	for _, n := range notes {
		seen = append(seen, fmt.Sprintf("%q", n.Title))
		if (c.Title == "" || has(n.Title, c.Title)) && (c.Body == "" || has(n.Body, c.Body)) {
			found++
		}
	}
	ev := fmt.Sprintf("%d matching of %d notes: %s", found, len(notes), strings.Join(lastN(seen, 8), ", "))
	return (found > 0) != c.Deleted, ev, nil
}

func checkRecords(c RecordsCheck, ph *sim.Phone) (bool, string, error) {
	recs, err := ph.Records(c.Collection)
	if err != nil {
		return false, "", err
	}
	found := 0
	var sample []string
	for _, r := range recs {
		ok := true
		for field, pat := range c.Where {
			ok = ok && regexp.MustCompile("(?i)"+pat).MatchString(r[field])
		}
		if ok {
			found++
			if len(sample) < 3 {
				b, _ := json.Marshal(r)
				sample = append(sample, string(b))
			}
		}
	}
	ev := fmt.Sprintf("%d matching of %d records in %s", found, len(recs), c.Collection)
	if len(sample) > 0 {
		ev += ": " + strings.Join(sample, "; ")
	} else if len(recs) > 0 {
		// None matched: the last records show the author why.
		for _, r := range recs[max(0, len(recs)-3):] {
			b, _ := json.Marshal(r)
			sample = append(sample, string(b))
		}
		ev += ": none matched; the last: " + strings.Join(sample, "; ")
	}
	if c.Count != nil {
		return found == *c.Count, ev, nil
	}
	return found > 0, ev, nil
}

func judge(ctx context.Context, c JudgeCheck, p Probe) (bool, string, error) {
	if p.Judge == nil {
		return false, "", fmt.Errorf("no judge model configured")
	}
	if p.Prompts == nil {
		return false, "", fmt.Errorf("no prompts for the judge")
	}
	text, err := screenText(ctx, p)
	if err != nil {
		text = "" // the prompt says the final screen could not be read
	}
	pr, err := p.Prompts.Judge(prompts.JudgeData{Instruction: p.Instruction, Criteria: c.Criteria,
		Outcome: p.Outcome, Reason: p.Reason, Answer: p.Answer, Screen: text})
	if err != nil {
		return false, "", err
	}
	resp, err := p.Judge.Generate(ctx, llm.Request{Role: llm.RoleJudge, System: pr.System, Schema: &pr.Schema,
		Messages: []llm.Message{{Role: "user", Text: pr.User}}})
	if err != nil {
		return false, "", fmt.Errorf("judge model: %w", err)
	}
	var v prompts.JudgeAnswer
	js, err := llm.ExtractJSON(resp.Text)
	if err == nil {
		err = json.Unmarshal([]byte(js), &v)
	}
	if err == nil {
		err = v.Validate()
	}
	if err != nil {
		return false, "", fmt.Errorf("judge answer: %w", err)
	}
	return v.Pass, "judge: " + v.Reason, nil
}

func describeCheck(c Check) string {
	if c.Custom != nil {
		return c.Custom.Describe()
	}
	switch c.Kind() {
	case "outcome":
		return "outcome " + c.Outcome
	case "answer":
		return fmt.Sprintf("answer contains %q", c.Answer)
	case "message":
		m := c.Message
		s := "message"
		if m.To != "" {
			s += " to " + m.To
		}
		if len(m.Contains) > 0 {
			s += fmt.Sprintf(" containing %q", strings.Join(m.Contains, `", "`))
		}
		if m.None {
			s = "no " + s
		}
		return s
	case "order":
		o := c.Order
		s := "order"
		if o.Items > 0 {
			s += fmt.Sprintf(" with %d items", o.Items)
		}
		if o.Item != "" {
			s += fmt.Sprintf(" of %q", o.Item)
		}
		if o.Paid != nil {
			s += fmt.Sprintf(" paid=%t", *o.Paid)
		}
		if o.Delivery != "" {
			s += " delivered " + o.Delivery
		}
		if o.None {
			s = "no " + s
		}
		return s
	case "event":
		e := c.Event
		s := "calendar event"
		if e.Title != "" {
			s += fmt.Sprintf(" %q", e.Title)
		}
		if e.Date != "" {
			s += " on " + e.Date
		}
		if e.Time != "" {
			s += " at " + e.Time
		}
		if e.None {
			s = "no " + s
		}
		return s
	case "setting":
		return fmt.Sprintf("setting %s = %s", c.Setting.Name, c.Setting.Equals)
	case "note":
		if c.Note.Deleted {
			return fmt.Sprintf("note %q deleted", c.Note.Title)
		}
		return fmt.Sprintf("note %q exists", c.Note.Title+c.Note.Body)
	case "records":
		r := c.Records
		s := "records in " + r.Collection
		if r.Count != nil {
			s = fmt.Sprintf("%d record(s) in %s", *r.Count, r.Collection)
		}
		var where []string
		for _, f := range slices.Sorted(maps.Keys(r.Where)) {
			where = append(where, fmt.Sprintf("%s ~ %q", f, r.Where[f]))
		}
		if len(where) > 0 {
			s += " where " + strings.Join(where, ", ")
		}
		return s
	case "foreground":
		return c.Foreground + " in front"
	case "screen":
		if c.Screen.Contains != "" {
			return fmt.Sprintf("final screen shows %q", c.Screen.Contains)
		}
		return fmt.Sprintf("final screen matches %q", c.Screen.Pattern)
	case "shell":
		return fmt.Sprintf("`%s` matches %q", c.Shell.Command, c.Shell.Match)
	case "judge":
		return "judge: " + clip(c.Judge.Criteria, 80)
	}
	return "check"
}

func lastN(ss []string, n int) []string {
	if len(ss) > n {
		return ss[len(ss)-n:]
	}
	return ss
}

// clip shortens s to at most n bytes on a rune boundary.
func clip(s string, n int) string { return llm.Head(s, n) }
