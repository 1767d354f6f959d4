package executor

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/fairy-go/fairy/memory"
	"github.com/fairy-go/fairy/perception"
)

// GuardRule marks actions of one category as needing consent.
type GuardRule struct {
	Category string `json:"category" yaml:"category"` // payment, order, delete, send, permission, …
	// Type is the interaction type asked: 1 sensitive or dangerous, 2 irreversible.
	Type int `json:"type" yaml:"type"`
	// Keywords match an element's label, text, description or resource id: ASCII words
	// match whole words, case-insensitive; other text (Chinese, …) matches as a substring.
	Keywords []string `json:"keywords" yaml:"keywords"`
	// IDs are regular expressions on the element's resource id.
	IDs []string `json:"ids,omitempty" yaml:"ids,omitempty"`
	// Commands are regular expressions on a Shell action's command.
	Commands []string `json:"commands,omitempty" yaml:"commands,omitempty"`
	// Except are keywords (matched like Keywords) that clear a hit of this rule: a
	// "Don't allow" button declines a permission and needs no consent.
	Except []string `json:"except,omitempty" yaml:"except,omitempty"`
}

// GuardPolicy is the configurable guard: the rules, checked in order.
type GuardPolicy struct {
	Rules []GuardRule `json:"rules" yaml:"rules"`
}

// DefaultGuardPolicy covers paying, placing orders, deleting, sending and granting
// permissions, in English and Chinese.
func DefaultGuardPolicy() GuardPolicy {
	return GuardPolicy{Rules: []GuardRule{
		// Going to a checkout page ("Checkout", "去结算") only shows the order: the page's own
		// submit and pay buttons are what the guard holds back.
		{Category: "payment", Type: 1, Keywords: []string{"pay", "pay now", "buy", "buy now", "purchase",
			"confirm payment", "支付", "付款", "立即支付", "确认支付", "去支付", "购买", "立即购买"}, IDs: []string{`(?i)(^|[/_:])pay(_|$|ment_confirm)`}},
		{Category: "order", Type: 2, Keywords: []string{"place order", "submit order", "confirm order", "order now",
			"提交订单", "下单", "确认订单", "立即下单"}, IDs: []string{`(?i)(place|submit)_order`}},
		{Category: "delete", Type: 2, Keywords: []string{"delete", "remove", "erase", "uninstall", "clear data", "clear all",
			"删除", "移除", "清空", "卸载"}, Commands: []string{`(^|\s)(rm|pm\s+(uninstall|clear))\s`}},
		{Category: "send", Type: 2, Keywords: []string{"send", "post", "publish", "share", "发送", "发布", "分享"}, IDs: []string{`(?i)send`}},
		{Category: "permission", Type: 1, Keywords: []string{"allow", "grant", "while using the app", "only this time",
			"允许", "授权", "始终允许", "仅在使用中允许"}, IDs: []string{`permission_allow`},
			Except: []string{"don't allow", "don’t allow", "do not allow", "deny", "decline", "不允许", "拒绝", "禁止"}},
	}}
}

// Verdict is what the guard says about one action.
type Verdict struct {
	Category string
	Type     int    // interaction type to ask
	Subject  string // e.g. `tap "Pay ¥18"`
	Target   string // what the action is on, plain: the element's label ("Pay ¥18") or the shell command
}

// Guard applies a GuardPolicy.
type Guard struct {
	rules []compiledRule
}

type compiledRule struct {
	GuardRule
	words  []*regexp.Regexp
	except []*regexp.Regexp
	ids    []*regexp.Regexp
	cmds   []*regexp.Regexp
}

// NewGuard compiles a policy.
func NewGuard(p GuardPolicy) (*Guard, error) {
	g := &Guard{}
	for i, r := range p.Rules {
		if r.Category == "" || (r.Type != 1 && r.Type != 2) {
			return nil, fmt.Errorf("%w: guard rule %d: needs a category and type 1 or 2", ErrConfig, i)
		}
		c := compiledRule{GuardRule: r}
		c.words = keywordPatterns(r.Keywords)
		c.except = keywordPatterns(r.Except)
		for _, lists := range []struct {
			src []string
			dst *[]*regexp.Regexp
		}{{r.IDs, &c.ids}, {r.Commands, &c.cmds}} {
			for _, s := range lists.src {
				re, err := regexp.Compile(s)
				if err != nil {
					return nil, fmt.Errorf("%w: guard rule %s pattern %q: %w", ErrConfig, r.Category, s, err)
				}
				*lists.dst = append(*lists.dst, re)
			}
		}
		g.rules = append(g.rules, c)
	}
	return g, nil
}

// keywordPatterns compiles keywords, case-insensitive: ASCII ones match whole words, others
// (Chinese, or with typographic quotes) as substrings.
func keywordPatterns(keywords []string) []*regexp.Regexp {
	var out []*regexp.Regexp
	for _, k := range keywords {
		k = strings.TrimSpace(k)
		if k == "" {
			continue
		}
		pat := `(?i)` + regexp.QuoteMeta(k)
		if isASCII(k) {
			pat = `(?i)(^|[^\pL\pN])` + regexp.QuoteMeta(k) + `($|[^\pL\pN])`
		}
		out = append(out, regexp.MustCompile(pat))
	}
	return out
}

func isASCII(s string) bool {
	for _, r := range s {
		if r > unicode.MaxASCII {
			return false
		}
	}
	return true
}

// Check says whether a needs consent on screen s. el is the element a targets; for Enter,
// the element that has the focus (nil: none is known). Taps and long presses are judged
// by their element, shell commands by the command. Enter in a text field submits it, and
// so may text typed into a field when it ends with a line break (ADB Keyboard commits the
// line break as text, and chat apps with "Enter to send" send on it): both are judged as
// the sensitive action the screen offers nearest the field, and need the consent a tap on
// that element needs. Enter on a focused element that is not a text field clicks it
// (Android's confirm key): it is judged as a tap on it.
func (g *Guard) Check(a memory.Action, el *perception.Element, s *perception.Screen) (Verdict, bool) {
	if g == nil {
		return Verdict{}, false
	}
	switch a.Type {
	case memory.Shell:
		for _, r := range g.rules {
			for _, re := range r.cmds {
				if re.MatchString(a.Command) {
					return Verdict{Category: r.Category, Type: r.Type, Subject: "run " + strconv.QuoteToGraphic(a.Command), Target: a.Command}, true
				}
			}
		}
	case memory.Tap, memory.LongPress:
		if r, ok := g.match(el); ok {
			name := label(el)
			return Verdict{Category: r.Category, Type: r.Type, Subject: fmt.Sprintf("%s %s", strings.ToLower(string(a.Type)), strconv.QuoteToGraphic(name)), Target: name}, true
		}
	case memory.Enter:
		if el != nil && !el.Editable {
			if r, ok := g.match(el); ok {
				name := label(el)
				return Verdict{Category: r.Category, Type: r.Type, Subject: "press Enter on " + strconv.QuoteToGraphic(name), Target: name}, true
			}
			return Verdict{}, false
		}
		if el == nil && (s == nil || !s.Keyboard) {
			return Verdict{}, false // no text field has the focus: Enter submits nothing
		}
		return g.submit("press Enter in "+fieldName(el), el, s)
	case memory.Input:
		if strings.HasSuffix(a.Text, "\n") {
			// The typed text is never part of the verdict: it may be a password.
			return g.submit("type text ending in a line break into "+fieldName(el), el, s)
		}
	}
	return Verdict{}, false
}

// submit judges submitting field (nil: a focused field whose place is unknown) on s: the
// sensitive element nearest the field is what the submission may do. Text fields
// themselves are not actions: what they hold is only text.
func (g *Guard) submit(what string, field *perception.Element, s *perception.Screen) (Verdict, bool) {
	if s == nil {
		return Verdict{}, false
	}
	var best *perception.Element
	var rule compiledRule
	bestDist := 0
	for i := range s.Elements {
		e := &s.Elements[i]
		if e.Editable || (field != nil && e.Index == field.Index) {
			continue
		}
		r, ok := g.match(e)
		if !ok {
			continue
		}
		dist := 0
		if field != nil {
			dx, dy := e.Center.X-field.Center.X, e.Center.Y-field.Center.Y
			dist = dx*dx + dy*dy
		}
		if best == nil || dist < bestDist {
			best, rule, bestDist = e, r, dist
		}
	}
	if best == nil {
		return Verdict{}, false
	}
	name := label(best)
	return Verdict{Category: rule.Category, Type: rule.Type, Target: name,
		Subject: fmt.Sprintf("%s, which may act like tapping %s", what, strconv.QuoteToGraphic(name))}, true
}

// match returns the first rule el trips, judged by its labels and resource id.
func (g *Guard) match(el *perception.Element) (compiledRule, bool) {
	if el == nil {
		return compiledRule{}, false
	}
	texts := []string{el.Label, el.Text, el.Desc}
	id := el.ResourceID
	if i := strings.LastIndex(id, "/"); i >= 0 {
		id = id[i+1:]
	}
	for _, r := range g.rules {
		hit := false
		for _, re := range r.words {
			for _, t := range texts {
				if t != "" && re.MatchString(t) {
					hit = true
				}
			}
			if id != "" && re.MatchString(strings.ReplaceAll(id, "_", " ")) {
				hit = true
			}
		}
		for _, re := range r.ids {
			if el.ResourceID != "" && re.MatchString(el.ResourceID) {
				hit = true
			}
		}
		for _, re := range r.except {
			for _, t := range texts {
				if hit && t != "" && re.MatchString(t) {
					hit = false
				}
			}
		}
		if hit {
			return r, true
		}
	}
	return compiledRule{}, false
}

// fieldName names a text field by what it is for, never by what it holds (a field's text
// may be a password or a message not yet sent).
func fieldName(el *perception.Element) string {
	switch {
	case el == nil:
		return "the focused field"
	case el.Hint != "":
		return strconv.QuoteToGraphic(el.Hint)
	case el.Desc != "":
		return strconv.QuoteToGraphic(el.Desc)
	case el.ResourceID != "":
		id := el.ResourceID
		if i := strings.LastIndex(id, "/"); i >= 0 {
			id = id[i+1:]
		}
		return "the field " + id
	}
	return "the " + el.Role
}

// label is the best human name of an element.
func label(el *perception.Element) string {
	for _, s := range []string{el.Label, el.Text, el.Desc} {
		if s != "" {
			return s
		}
	}
	if el.ResourceID != "" {
		return el.ResourceID
	}
	return el.Role
}
