package interaction

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/internal/table"
)

// Kind is the form of a question.
type Kind string

// The question forms: yes/no for consent (types 1 and 2), options for a choice (type 3),
// open for an ambiguous instruction (type 4).
const (
	YesNo   Kind = "yes/no"
	Options Kind = "options"
	open    Kind = "open"
)

// KindFor returns the question form for an interaction type 1–4.
func KindFor(typ int) Kind {
	switch typ {
	case 1, 2:
		return YesNo
	case 3:
		return Options
	}
	return open
}

// Question is what the agent asks the person.
type Question struct {
	Type    int      `json:"type"` // 1 sensitive, 2 irreversible, 3 choice, 4 ambiguous
	Kind    Kind     `json:"kind"`
	Text    string   `json:"text"`
	Options []string `json:"options,omitempty"`
	Reason  string   `json:"reason,omitempty"` // why the agent asks
	// Covers is, for a consent question, the one action a yes allows, e.g.
	// `tap "Pay ¥18" (payment)`; "" when the question names no action (a yes to it
	// authorises nothing the guard holds back).
	Covers string `json:"covers,omitempty"`
	// Specifics are, for a consent question, what it names (the recipient and text of a
	// send, the amount of a payment, …) as the executor read them off the screen: the
	// Text shows them too, and whoever answers may read them here without parsing it.
	Specifics event.Specifics `json:"specifics,omitzero"`
}

// Dialoger shows a question to the person and returns the answer.
type Dialoger interface {
	Ask(ctx context.Context, q Question) (string, error)
}

// Terminal is a Dialoger on a terminal or on pipes: it writes the question to out and reads
// one line from in. A number answers an options question with that option.
type Terminal struct {
	mu      sync.Mutex
	in      *bufio.Reader
	out     io.Writer
	pending chan lineResult // a read left over by a cancelled Ask
}

type lineResult struct {
	line string
	err  error
}

// NewTerminal returns a Terminal reading answers from in and writing questions to out.
func NewTerminal(in io.Reader, out io.Writer) *Terminal {
	return &Terminal{in: bufio.NewReader(in), out: out}
}

// Ask implements Dialoger. When ctx ends first it returns ctx's error; the line being read
// is kept for the next Ask.
func (t *Terminal) Ask(ctx context.Context, q Question) (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "\n? %s\n", q.Text)
	for i, o := range q.Options {
		fmt.Fprintf(&b, "  %d) %s\n", i+1, o)
	}
	if q.Covers != "" {
		fmt.Fprintf(&b, "  (a yes allows this once: %s)\n", q.Covers)
	}
	switch q.Kind {
	case YesNo:
		b.WriteString("  [y/n] > ")
	default:
		b.WriteString("  > ")
	}
	if _, err := io.WriteString(t.out, table.EscapeLines(b.String())); err != nil { // a model's question, a phone's words
		return "", fmt.Errorf("interaction: write question: %w", err)
	}
	for {
		if t.pending == nil {
			ch := make(chan lineResult, 1)
			t.pending = ch
			go func() {
				line, err := t.in.ReadString('\n')
				ch <- lineResult{line, err}
			}()
		}
		var r lineResult
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case r = <-t.pending:
			t.pending = nil
		}
		line := strings.TrimSpace(r.line)
		if line == "" && r.err != nil {
			if r.err == io.EOF {
				return "", ErrNoAnswer
			}
			return "", fmt.Errorf("interaction: read answer: %w", r.err)
		}
		if line == "" {
			io.WriteString(t.out, "  > ")
			continue
		}
		if n, err := strconv.Atoi(line); err == nil && n >= 1 && n <= len(q.Options) {
			return q.Options[n-1], nil
		}
		return line, nil
	}
}

// Rule is one scripted reply: when Pattern (a regular expression, case-insensitive) matches
// the question text or one of its options, Reply is the answer. Times > 0 limits how often
// the rule answers.
type Rule struct {
	Pattern string `json:"pattern" yaml:"pattern"`
	Reply   string `json:"reply" yaml:"reply"`
	Times   int    `json:"times,omitempty" yaml:"times,omitempty"`
}

// Canned is a Dialoger that answers from ordered rules and records every question asked.
// It stands in for a person in tests, the demo and evaluations.
type Canned struct {
	mu    sync.Mutex
	rules []scriptedRule
	def   string
	asked []Asked
}

type scriptedRule struct {
	re    *regexp.Regexp
	reply string
	left  int // -1: unlimited
}

// Asked is one question a Canned dialoger answered.
type Asked struct {
	Question Question `json:"question"`
	Answer   string   `json:"answer"`
	Rule     int      `json:"rule"` // index of the rule that answered, -1 for the default
}

// NewCanned compiles rules; def answers questions no rule matches ("" makes such a
// question an error, ErrNoAnswer).
func NewCanned(rules []Rule, def string) (*Canned, error) {
	s := &Canned{def: def}
	for i, r := range rules {
		re, err := regexp.Compile("(?i)" + r.Pattern)
		if err != nil {
			return nil, fmt.Errorf("%w: scripted rule %d pattern %q: %w", errConfig, i, r.Pattern, err)
		}
		left := -1
		if r.Times > 0 {
			left = r.Times
		}
		s.rules = append(s.rules, scriptedRule{re: re, reply: r.Reply, left: left})
	}
	return s, nil
}

// Ask implements Dialoger.
func (s *Canned) Ask(ctx context.Context, q Question) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	subject := q.Text + "\n" + strings.Join(q.Options, "\n")
	for i := range s.rules {
		r := &s.rules[i]
		if r.left == 0 || !r.re.MatchString(subject) {
			continue
		}
		if r.left > 0 {
			r.left--
		}
		s.asked = append(s.asked, Asked{Question: q, Answer: r.reply, Rule: i})
		return r.reply, nil
	}
	if s.def == "" {
		s.asked = append(s.asked, Asked{Question: q, Rule: -1})
		return "", fmt.Errorf("%w: no scripted rule matches %q", ErrNoAnswer, q.Text)
	}
	s.asked = append(s.asked, Asked{Question: q, Answer: s.def, Rule: -1})
	return s.def, nil
}

// Asked returns every question asked so far with its answer.
func (s *Canned) Asked() []Asked {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Asked(nil), s.asked...)
}
