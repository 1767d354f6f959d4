package guard

import (
	"cmp"
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/fairy-go/fairy/perception"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// The person's own rules: what is always asked and what is not, per app and category. They
// come from the person's config file, read by fairy's command (cmd/fairy) and handed to
// the guard as values: no model, MCP client or text on a screen reaches them. A rule only
// changes the verdict of an action the guard already holds (a category it names); nothing
// the guard lets through is held by a person's "allow", and a "never" refuses an action
// outright instead of asking.

// Verdicts of a person's rule.
const (
	// personAllow lets the action through unasked: within an amount (UpTo) or to one
	// recipient (To) when the rule names them.
	personAllow = "allow"
	// personAsk always asks, whatever an allow rule says.
	personAsk = "ask"
	// personNever refuses the action outright: it is blocked, not asked.
	personNever = "never"
)

// PersonVerdicts are the verdicts a person's rule may give.
var PersonVerdicts = []string{personAllow, personAsk, personNever}

// CategoryLogin is the person's category for submitting a sign-in form (its Log in or
// Next, which the guard holds as a send): a page with a password field, or a text field and
// sign-in words, and no amount of money.
const CategoryLogin = "login"

// amountCategories are the categories whose actions move money: an UpTo applies to them.
var amountCategories = []string{"payment", "transfer", "order", "subscription"}

// recipientCategories are the categories whose actions reach someone: a To applies to them.
var recipientCategories = []string{"send", "transfer", "call"}

// PersonRule is one of the person's rules, as the config file's guard.person list holds it.
type PersonRule struct {
	// App is the app's package the rule is for; empty: every app.
	App string `json:"app,omitempty" yaml:"app,omitempty" mapstructure:"app"`
	// Category is one of the guard's categories (payment, delete, send, …) or login.
	Category string `json:"category" yaml:"category" mapstructure:"category"`
	// Verdict is allow, ask or never.
	Verdict string `json:"verdict" yaml:"verdict" mapstructure:"verdict"`
	// To narrows the rule to one recipient, compared exactly with the one the page names
	// (case, spacing and compatibility forms aside; a look-alike letter is another name).
	To string `json:"to,omitempty" yaml:"to,omitempty" mapstructure:"to"`
	// UpTo is the largest amount an allow lets through unasked ("20", "¥20", "20 EUR");
	// a page showing more, in another currency, or no amount it can read is asked.
	UpTo string `json:"up-to,omitempty" yaml:"up-to,omitempty" mapstructure:"up-to"`
}

// String says the rule as a sentence: `never delete in com.fairy.notes`,
// `allow payment up to ¥20 in every app`.
func (r PersonRule) String() string {
	var b strings.Builder
	b.WriteString(r.Verdict + " " + r.Category)
	if r.To != "" {
		b.WriteString(" to " + strconv.QuoteToGraphic(r.To))
	}
	if r.UpTo != "" {
		b.WriteString(" up to " + r.UpTo)
	}
	if r.App != "" {
		b.WriteString(" in " + r.App)
	} else {
		b.WriteString(" in every app")
	}
	return b.String()
}

// errPersonRule means a person's rule cannot be applied as written.
var errPersonRule = errors.New("guard: bad rule of yours")

// CheckPersonRule says what is wrong with r, given the categories the guard knows; nil
// when it can be applied.
func CheckPersonRule(r PersonRule, categories []string) error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w %q: %s", errPersonRule, r.String(), fmt.Sprintf(format, a...))
	}
	if !slices.Contains(PersonVerdicts, r.Verdict) {
		return bad("the verdict must be one of %s", strings.Join(PersonVerdicts, ", "))
	}
	known := append(slices.Clone(categories), CategoryLogin)
	if !slices.Contains(known, r.Category) {
		return bad("unknown category %q: use one of %s", r.Category, strings.Join(known, ", "))
	}
	if strings.ContainsAny(r.App, " \t\n/") {
		return bad("the app is a package name such as com.example.app")
	}
	if r.To != "" {
		if !slices.Contains(recipientCategories, r.Category) {
			return bad("a recipient (to) goes with %s", strings.Join(recipientCategories, ", "))
		}
		if personName(r.To) == "" {
			return bad("the recipient is empty")
		}
	}
	if r.UpTo != "" {
		if r.Verdict != personAllow {
			return bad("an amount (up-to) goes with allow: amounts up to it go unasked, more is asked")
		}
		if !slices.Contains(amountCategories, r.Category) {
			return bad("an amount (up-to) goes with %s", strings.Join(amountCategories, ", "))
		}
		if _, err := parseMoney(r.UpTo); err != nil {
			return bad("up-to %q: %v", r.UpTo, err)
		}
	}
	return nil
}

// money is an amount as written: its currency (a symbol or code as the page writes it,
// "" when none) and its value.
type money struct {
	currency string
	value    *big.Rat
	text     string
}

// parseMoney reads an amount written with an optional currency symbol or code before or
// after the number, in either decimal separator: "20", "¥20", "20 EUR", "CHF 36.00",
// "36,00 €", "R$ 36,00", "150.000₫", "1,234.50". A separator followed by exactly three
// digits, or one that recurs, groups thousands; otherwise it is the decimal point (when
// both are written, the last one is).
func parseMoney(s string) (money, error) {
	s = norm.NFKC.String(strings.TrimSpace(s))
	start, end := -1, -1
	for i, r := range s {
		if unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
			end = i + len(string(r))
		}
	}
	if start < 0 {
		return money{}, errors.New("no number in it")
	}
	number := s[start:end]
	currency := strings.TrimSpace(strings.TrimSpace(s[:start]) + " " + strings.TrimSpace(s[end:]))
	if strings.ContainsFunc(currency, unicode.IsDigit) {
		return money{}, errors.New("more than one number in it")
	}
	if strings.HasPrefix(currency, "-") || strings.HasPrefix(currency, "−") {
		return money{}, errors.New("a negative amount")
	}
	for _, r := range number {
		if !unicode.IsDigit(r) && !strings.ContainsRune(".,'’٬٫", r) && !isSpace(r) {
			return money{}, fmt.Errorf("%q is not a number", number)
		}
	}
	// The amount reader's reading of the number (amount.go): one reader for the guard,
	// the consent text, the person's limits and the judging person.
	digits := plainNumber(number, scaleOf(currencyOf(currency, "")))
	v, ok := new(big.Rat).SetString(digits)
	if !ok {
		return money{}, fmt.Errorf("%q is not a number", number)
	}
	return money{currency: strings.ToUpper(strings.TrimRight(currency, ".")), value: v, text: s}, nil
}

// sameCurrency compares currencies as written ("¥" and "¥", "EUR" and "eur").
func sameCurrency(a, b string) bool {
	return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
}

// foldCase folds case for comparing names.
var foldCase = cases.Fold()

// personName is how a recipient's name is compared: compatibility forms folded (NFKC),
// invisible format characters dropped, case folded, runs of spaces made one. Look-alike
// letters are NOT read as the letters they imitate (as the guard does for words): a
// Cyrillic "Аlice" is someone other than "Alice".
func personName(s string) string {
	s = norm.NFKC.String(s)
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case unicode.Is(unicode.Cf, r):
			continue
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return foldCase.String(b.String())
}

// personFacts are what the guard read off the page for an action it holds: what the
// person's rules are judged on.
type personFacts struct {
	app      string
	category string // the guard's category of the hold
	login    bool   // the page is a sign-in form
	// recipient is whom a send, transfer or call reaches, as the page names it ("": unread).
	recipient string
	// amounts are every amount of money the page and the element show, as written.
	amounts []string
	// element is set when the action is on one of the page's elements (a tap, a press, a
	// swipe, Enter in a field): an allow is for those only, never for a shell command.
	element bool
}

// PersonDecision is what the person's rules made of an action the guard holds.
type PersonDecision struct {
	// Verdict is allow (let through unasked), ask (held, as the guard would), never
	// (refused outright), or "" when no rule of the person's is about this action.
	Verdict string
	// Rule is the rule that decided; for "" or ask, the allow rule that did not apply, if
	// one was about the action (see Why).
	Rule *PersonRule
	// Why says what decided, in words: "the largest amount shown, ¥18, is within ¥20".
	Why string
}

// decidePerson applies rules to a held action. The strictest rule that applies wins: a
// never before an ask before an allow, so an allow never outweighs a never or an ask.
func decidePerson(rules []PersonRule, f personFacts) PersonDecision {
	var allow, ask, never *PersonRule
	allowWhy := ""
	var unmet PersonDecision // an allow rule about the action whose condition was not met
	for i := range rules {
		r := &rules[i]
		if r.App != "" && r.App != f.app {
			continue
		}
		switch {
		case r.Category == f.category:
		case r.Category == CategoryLogin && f.login && f.category == "send":
		default:
			continue
		}
		if r.To != "" && personName(r.To) != personName(f.recipient) {
			if r.Verdict == personAllow && unmet.Rule == nil {
				unmet = PersonDecision{Rule: r, Why: recipientWhy(r.To, f.recipient)}
			}
			continue
		}
		switch r.Verdict {
		case personNever:
			never = cmp.Or(never, r)
		case personAsk:
			ask = cmp.Or(ask, r)
		case personAllow:
			why := ""
			switch {
			case !f.element:
				if unmet.Rule == nil {
					unmet = PersonDecision{Rule: r, Why: "an allow is for actions on the page's elements, not for a shell command"}
				}
				continue
			case r.UpTo != "":
				ok := false
				if ok, why = withinLimit(r.UpTo, f.amounts); !ok {
					if unmet.Rule == nil {
						unmet = PersonDecision{Rule: r, Why: why}
					}
					continue
				}
			case r.To != "":
				why = fmt.Sprintf("the page's recipient is %s", strconv.QuoteToGraphic(f.recipient))
			case r.Category == CategoryLogin:
				why = "the page is a sign-in form"
			}
			if allow == nil {
				allow, allowWhy = r, why
			}
		}
	}
	switch {
	case never != nil:
		return PersonDecision{Verdict: personNever, Rule: never, Why: "your rule refuses it: " + never.String()}
	case ask != nil:
		return PersonDecision{Verdict: personAsk, Rule: ask, Why: "your rule always asks: " + ask.String()}
	case allow != nil:
		why := "your rule allows it: " + allow.String()
		if allowWhy != "" {
			why += " (" + allowWhy + ")"
		}
		return PersonDecision{Verdict: personAllow, Rule: allow, Why: why}
	case unmet.Rule != nil:
		unmet.Why = "your rule " + unmet.Rule.String() + " does not apply: " + unmet.Why
		return unmet
	}
	return PersonDecision{}
}

// recipientWhy says why a recipient is not the named one.
func recipientWhy(named, read string) string {
	if strings.TrimSpace(read) == "" {
		return fmt.Sprintf("the page names no recipient to compare with %s", strconv.QuoteToGraphic(named))
	}
	return fmt.Sprintf("the page's recipient %s is not %s", strconv.QuoteToGraphic(read), strconv.QuoteToGraphic(named))
}

// withinLimit judges the amounts shown against limit: the largest must be within it, in
// its currency when it names one; a page with no amount it can read is not within it.
func withinLimit(limit string, amounts []string) (bool, string) {
	lim, err := parseMoney(limit)
	if err != nil {
		return false, fmt.Sprintf("its amount %q cannot be read", limit)
	}
	var largest *money
	for _, a := range amounts {
		m, err := parseMoney(a)
		if err != nil {
			return false, fmt.Sprintf("the amount %s on the page cannot be read", strconv.QuoteToGraphic(a))
		}
		if lim.currency != "" && !sameCurrency(m.currency, lim.currency) {
			return false, fmt.Sprintf("the page shows %s, not an amount in %s", strconv.QuoteToGraphic(a), lim.currency)
		}
		if largest == nil || m.value.Cmp(largest.value) > 0 {
			largest = &m
		}
	}
	if largest == nil {
		return false, "the page shows no amount of money"
	}
	if largest.value.Cmp(lim.value) > 0 {
		return false, fmt.Sprintf("the largest amount shown, %s, is more than %s", largest.text, limit)
	}
	return true, fmt.Sprintf("the largest amount shown, %s, is within %s", largest.text, limit)
}

// signInWords are what a sign-in page says, in the languages of the guard's hand-written
// vocabulary.
var signInWords = regexp.MustCompile(`(?i)\b(?:sign|log) ?(?:in|on)\b|\blogin\b|登录|登入|ログイン|로그인|تسجيل الدخول|התחבר|iniciar sesión|connexion|se connecter|anmelden|einloggen|entrar|войти|вход`)

// signInPage reports whether s is a sign-in form: a text field, and a password field or
// sign-in words on the page.
func signInPage(s *perception.Screen) bool {
	field, password, words := false, false, false
	for i := range s.Elements {
		e := &s.Elements[i]
		field = field || e.Editable
		password = password || e.Password
		words = words || signInWords.MatchString(e.Label+" "+e.Hint+" "+e.Desc)
	}
	for _, c := range s.Context {
		words = words || signInWords.MatchString(c)
	}
	return field && (password || words)
}

// personOf is what the person's rules make of v, the guard's hold of an action on el (nil
// when none is known) on s; element is false for a shell command, which no allow lets
// through.
func (g *Guard) personOf(v Verdict, el *perception.Element, s *perception.Screen, element bool) PersonDecision {
	if g == nil || len(g.person) == 0 {
		return PersonDecision{}
	}
	f := personFacts{category: v.Category, element: element}
	if s != nil {
		f.app = s.Package
		f.amounts = g.amountsOn(s, el)
		f.login = len(f.amounts) == 0 && signInPage(s)
		f.recipient = g.recipientOn(s, el)
	}
	return decidePerson(g.person, f)
}

// withPerson applies the person's rules to v, a hold: an allow lets it through (held
// false, v.Rule the rule), a never refuses it outright (v.Blocked).
func (g *Guard) withPerson(v Verdict, el *perception.Element, s *perception.Screen, element bool) (Verdict, bool) {
	d := g.personOf(v, el, s, element)
	switch d.Verdict {
	case personAllow:
		// Not held; the verdict still says which rule let it through: the executor counts
		// the action as done with the person's standing consent.
		v.Rule = d.Rule.String()
		return v, false
	case personNever:
		v.Blocked, v.Rule = true, d.Rule.String()
	}
	return v, true
}

// amountsOn are the amounts of money s shows, in its texts, its elements' labels and
// what was read from its picture, and in el's label.
func (g *Guard) amountsOn(s *perception.Screen, el *perception.Element) []string {
	var out []string
	add := func(t string) {
		n := g.normLabel(t)
		for _, a := range g.findAmounts(n) {
			if m := n[a.start:a.end]; !slices.Contains(out, m) {
				out = append(out, m)
			}
		}
	}
	for _, c := range s.Context {
		add(c)
	}
	for _, r := range s.Read {
		add(r.Text)
	}
	for i := range s.Elements {
		e := &s.Elements[i]
		add(e.Label)
		for _, t := range e.Texts {
			add(t)
		}
	}
	if el != nil {
		add(el.Label)
	}
	return out
}

// recipientOn is whom a send, transfer or call on s reaches, as the consent question
// names it (executor's specifics): the page's first static text — a conversation's
// contact, a mail's To line — that is not the text being sent nor an amount.
func (g *Guard) recipientOn(s *perception.Screen, el *perception.Element) string {
	typed := ""
	for _, e := range s.Elements {
		if e.Editable && !e.Password && strings.TrimSpace(e.Text) != "" && e.Text != e.Hint {
			typed = strings.TrimSpace(e.Text)
			break
		}
	}
	texts := slices.Clone(s.Context)
	for _, r := range s.Read {
		if t := strings.TrimSpace(r.Text); t != "" && (el == nil || t != strings.TrimSpace(el.Label)) {
			texts = append(texts, t)
		}
	}
	for _, c := range texts {
		c = strings.TrimSpace(c)
		if c != "" && c != typed && !g.hasAmount(g.normLabel(c)) {
			return strings.TrimPrefix(strings.TrimPrefix(c, "To: "), "To ")
		}
	}
	return ""
}
