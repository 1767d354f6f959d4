package executor

import (
	_ "embed"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/perception"
)

// GuardRule marks actions of one category as needing consent.
type GuardRule struct {
	Category string `json:"category" yaml:"category"` // payment, order, delete, send, permission, …
	// Type is the interaction type asked: 1 sensitive or dangerous, 2 irreversible.
	Type int `json:"type" yaml:"type"`
	// Keywords match an element's label, text, description or resource id. Words written
	// with spaces between words (Latin, Cyrillic, …) match whole words, case-insensitive;
	// Chinese, Japanese and Korean words match as substrings.
	Keywords []string `json:"keywords" yaml:"keywords"`
	// IDs are regular expressions on the element's resource id.
	IDs []string `json:"ids,omitempty" yaml:"ids,omitempty"`
	// Commands are regular expressions on a Shell action's command.
	Commands []string `json:"commands,omitempty" yaml:"commands,omitempty"`
	// Except are keywords (matched like Keywords) that clear a hit of this rule when no
	// keyword trips outside them: "Don't allow" declines a permission and needs no consent,
	// "Allow — don't allow later" still grants one.
	Except []string `json:"except,omitempty" yaml:"except,omitempty"`
	// Page are words that, in a page's own text, make a generic confirm (Confirm.Words, or
	// a label-less button or icon) an action of this category; with Amount the page must
	// also show an amount of money.
	Page []string `json:"page,omitempty" yaml:"page,omitempty"`
	// Totals are page words that name a sum ("Total", 合计): with an amount they make a
	// generic confirm an action of this category, but on their own they do not make the
	// page one where every primary action is held (a cart shows a total too).
	Totals []string `json:"totals,omitempty" yaml:"totals,omitempty"`
	Amount bool     `json:"amount,omitempty" yaml:"amount,omitempty"`
}

// GuardPrecision are the words that tell a sensitive word used as a name from the action
// it names: "Transfer history", "Tip of the day", "View purchase history", "Remove filter".
type GuardPrecision struct {
	// Lead words open a label that only shows something ("View …", "See …").
	Lead []string `json:"lead,omitempty" yaml:"lead,omitempty"`
	// Nounable are sensitive words that are also nouns (transfer, order, tip, post).
	Nounable []string `json:"nounable,omitempty" yaml:"nounable,omitempty"`
	// Nouns after a nounable word make it a name ("Transfer history", "Tip of the day").
	Nouns []string `json:"nouns,omitempty" yaml:"nouns,omitempty"`
	// Before are words that, before a nounable word, make it a name ("this tip").
	Before []string `json:"before,omitempty" yaml:"before,omitempty"`
	// Objects after a sensitive word are a view's state, not data ("Remove filter",
	// "Reset zoom", "Clear all filters").
	Objects []string `json:"objects,omitempty" yaml:"objects,omitempty"`
	// Clear are verbs that empty something ("Clear", "Wyczyść", "Berichten wissen"): a
	// delete only with one of Data in the label ("Clear messages"); "Clear cache" and
	// "Clear search" delete nothing.
	Clear []string `json:"clear,omitempty" yaml:"clear,omitempty"`
	// Data are what a person keeps: messages, contacts, photos, files…
	Data []string `json:"data,omitempty" yaml:"data,omitempty"`
}

// GuardPolicy is the configurable guard: the rules, checked in order, and the generic
// confirms that take the category of the page they are on.
type GuardPolicy struct {
	Rules []GuardRule `json:"rules" yaml:"rules"`
	// Confirm are generic confirm labels (OK, Confirm, Continue, Done, …), matched like
	// keywords against the whole label.
	Confirm []string `json:"confirm,omitempty" yaml:"confirm,omitempty"`
	// Dismiss are labels (and resource-id words) that never confirm anything: Cancel,
	// Close, Back.
	Dismiss []string `json:"dismiss,omitempty" yaml:"dismiss,omitempty"`
	// Precision tells names from actions.
	Precision GuardPrecision `json:"precision,omitempty" yaml:"precision,omitempty"`
}

//go:embed guard.yaml
var guardVocabulary []byte

// generatedVocabulary is guard_vocab.yaml, made by executor/internal/guardgen from the
// translated string catalogs of real apps: category (or confirm, dismiss, page:CATEGORY,
// except:CATEGORY, object) → locale → words.
//
//go:embed guard_vocab.yaml
var generatedVocabulary []byte

// vocabularyFile is guard.yaml: word lists grouped by language.
type vocabularyFile struct {
	Rules []struct {
		Category string              `yaml:"category"`
		Type     int                 `yaml:"type"`
		Keywords map[string][]string `yaml:"keywords"`
		IDs      []string            `yaml:"ids"`
		Commands []string            `yaml:"commands"`
		Except   map[string][]string `yaml:"except"`
		Page     map[string][]string `yaml:"page"`
		Totals   map[string][]string `yaml:"totals"`
		Amount   bool                `yaml:"amount"`
	} `yaml:"rules"`
	Confirm   map[string][]string `yaml:"confirm"`
	Dismiss   map[string][]string `yaml:"dismiss"`
	Precision GuardPrecision      `yaml:"precision"`
}

// flatVocabulary lists the words of every language, languages in a stable order.
func flatVocabulary(m map[string][]string) []string {
	langs := make([]string, 0, len(m))
	for l := range m {
		langs = append(langs, l)
	}
	slices.Sort(langs)
	var out []string
	for _, l := range langs {
		out = append(out, m[l]...)
	}
	return out
}

// DefaultGuardPolicy covers paying, transferring money, placing orders, subscribing,
// deleting, sending, calling and granting permissions: executor/guard.yaml (written by
// hand: phrasings, resource ids, shell commands, page words) and executor/guard_vocab.yaml
// (generated from real apps' translated strings, over a hundred locales).
func DefaultGuardPolicy() GuardPolicy {
	var f vocabularyFile
	if err := yaml.Unmarshal(guardVocabulary, &f); err != nil {
		// guard.yaml is compiled in and tested (TestGuardVocabularyLoads): this cannot
		// happen in a released binary.
		panic("executor: guard.yaml: " + err.Error())
	}
	var gen map[string]map[string][]string
	if err := yaml.Unmarshal(generatedVocabulary, &gen); err != nil {
		panic("executor: guard_vocab.yaml: " + err.Error()) // compiled in and tested, as above
	}
	var p GuardPolicy
	rd := newTextReader()
	for _, r := range f.Rules {
		keywords := append(flatVocabulary(r.Keywords), flatVocabulary(gen[r.Category])...)
		// A generated name that is itself one of the words ("Deleted" is 削除 in Japanese)
		// would clear every use of the word: it is left out.
		var except []string
		if names := flatVocabulary(gen["except:"+r.Category]); len(names) > 0 {
			words := make(map[string]bool, len(keywords))
			for _, k := range keywords {
				words[rd.newGuardText(k).s] = true
			}
			for _, e := range names {
				if !words[rd.newGuardText(e).s] {
					except = append(except, e)
				}
			}
		}
		p.Rules = append(p.Rules, GuardRule{Category: r.Category, Type: r.Type,
			Keywords: keywords, IDs: r.IDs,
			Commands: r.Commands, Except: append(flatVocabulary(r.Except), except...), Page: append(flatVocabulary(r.Page), flatVocabulary(gen["page:"+r.Category])...),
			Totals: flatVocabulary(r.Totals), Amount: r.Amount})
	}
	p.Confirm = append(flatVocabulary(f.Confirm), flatVocabulary(gen["confirm"])...)
	p.Dismiss = append(flatVocabulary(f.Dismiss), flatVocabulary(gen["dismiss"])...)
	p.Precision = f.Precision
	p.Precision.Objects = append(slices.Clone(p.Precision.Objects), flatVocabulary(gen["object"])...)
	p.Precision.Clear = append(slices.Clone(p.Precision.Clear), flatVocabulary(gen["clear"])...)
	p.Precision.Data = append(slices.Clone(p.Precision.Data), flatVocabulary(gen["data"])...)
	return p
}

// GuardExtension is what a person adds to the default policy in their config.
type GuardExtension struct {
	// Keywords are extra sensitive words per existing category (payment, delete, …).
	Keywords map[string][]string `json:"keywords,omitempty" yaml:"keywords,omitempty"`
	// Page are extra page words per existing category: the words a language or an app uses
	// on its payment, send or delete pages ("Zahlungsübersicht", "Betaalverzoek").
	Page map[string][]string `json:"page,omitempty" yaml:"page,omitempty"`
	// Confirm are extra generic confirm labels.
	Confirm []string `json:"confirm,omitempty" yaml:"confirm,omitempty"`
	// Dismiss are extra ways out: labels that never confirm anything.
	Dismiss []string `json:"dismiss,omitempty" yaml:"dismiss,omitempty"`
	// Rules are whole new categories, checked after the built-in ones.
	Rules []GuardRule `json:"rules,omitempty" yaml:"rules,omitempty"`
}

// Extend returns p with x added; a keyword for a category p lacks is an error (a typo
// would silently guard nothing).
func (p GuardPolicy) Extend(x GuardExtension) (GuardPolicy, error) {
	out := GuardPolicy{Confirm: append(slices.Clone(p.Confirm), x.Confirm...), Dismiss: append(slices.Clone(p.Dismiss), x.Dismiss...), Precision: p.Precision}
	for _, r := range p.Rules {
		r.Keywords, r.Page = slices.Clone(r.Keywords), slices.Clone(r.Page)
		out.Rules = append(out.Rules, r)
	}
	for _, words := range []struct {
		m    map[string][]string
		what string
		add  func(r *GuardRule, w []string)
	}{
		{x.Keywords, "keywords", func(r *GuardRule, w []string) { r.Keywords = append(r.Keywords, w...) }},
		{x.Page, "page words", func(r *GuardRule, w []string) { r.Page = append(r.Page, w...) }},
	} {
		cats := make([]string, 0, len(words.m))
		for c := range words.m {
			cats = append(cats, c)
		}
		slices.Sort(cats)
		for _, c := range cats {
			i := slices.IndexFunc(out.Rules, func(r GuardRule) bool { return r.Category == c })
			if i < 0 {
				var known []string
				for _, r := range out.Rules {
					known = append(known, r.Category)
				}
				return GuardPolicy{}, fmt.Errorf("%w: guard %s for unknown category %q (known: %s; add a new one under guard.rules)", ErrConfig, words.what, c, strings.Join(known, ", "))
			}
			words.add(&out.Rules[i], words.m[c])
		}
	}
	out.Rules = append(out.Rules, x.Rules...)
	return out, nil
}

// Verdict is what the guard says about one action.
type Verdict struct {
	Category string
	Type     int    // interaction type to ask
	Subject  string // e.g. `tap "Pay ¥18"`
	Target   string // what the action is on, plain: the element's label ("Pay ¥18") or the shell command
	// Action identifies the action a consent must name to cover it: the sensitive element
	// on its page (the same element whatever gesture reaches it), or the shell command.
	Action string
	// Page is set when the category comes from the page (a generic confirm on a payment
	// sheet), not from the element's own words.
	Page bool
}

// Guard applies a GuardPolicy. What is on the screen is judged, never obeyed: no text
// on a screen changes the policy.
type Guard struct {
	*textReader
	rules   []compiledRule
	confirm *phraseSet
	dismiss *phraseSet
	search  *phraseSet // fields where Enter searches, not sends
	known   *phraseSet // every word the policy knows: a label with none of them is unknown

	nounable, nouns, before, objects, data *phraseSet
	// objectStems and dataStems find the inflected forms of objects and data words
	// (gwiazdkę for gwiazdka, wiadomości for wiadomość).
	objectStems, dataStems stemSet
	// deleteRule is the index of the delete rule (-1: none): a Clear with data trips it.
	deleteRule int

	// lexicon holds every rule's words and exceptions, the lead words and the slider
	// words ("Slide to pay"), each standing for what it is (lexWord<<8|rule, …): a label
	// is looked up once for all of them.
	lexicon *phraseSet
	// pageWords are every rule's page words: rule i's (page and totals) stand for 2i, its
	// strong ones for 2i+1.
	pageWords *phraseSet

	mu       sync.Mutex // guards the page cache
	lastPage *perception.Screen
	lastInfo pageInfo
}

type compiledRule struct {
	GuardRule
	index  int
	words  *phraseSet
	page   *phraseSet // page words and totals
	strong *phraseSet // page words that are not totals (and, for money rules, the keywords)
	ids    []*regexp.Regexp
	cmds   []*regexp.Regexp
}

// phrases compiles a word list.
func (g *Guard) phrases(lists ...[]string) *phraseSet {
	p := newPhraseSet(g.textReader)
	for _, l := range lists {
		for _, w := range l {
			p.add(w, 0)
		}
	}
	return p
}

// NewGuard compiles a policy.
func NewGuard(p GuardPolicy) (*Guard, error) {
	pr := p.Precision
	g := &Guard{textReader: newTextReader()}
	g.confirm, g.dismiss, g.search = g.phrases(p.Confirm), g.phrases(p.Dismiss), g.phrases(searchWords)
	g.nounable, g.nouns, g.before, g.objects = g.phrases(pr.Nounable), g.phrases(pr.Nouns), g.phrases(pr.Before), g.phrases(pr.Objects)
	g.data = g.phrases(pr.Data)
	g.objectStems, g.dataStems = g.stems(pr.Objects), g.stems(pr.Data)
	g.deleteRule = slices.IndexFunc(p.Rules, func(r GuardRule) bool { return r.Category == "delete" })
	g.known = g.phrases(p.Confirm, p.Dismiss, pr.Lead, pr.Nouns, pr.Objects)
	g.lexicon, g.pageWords = newPhraseSet(g.textReader), newPhraseSet(g.textReader)
	for _, w := range pr.Lead {
		g.lexicon.add(w, lexLead<<8)
	}
	for _, w := range sliderWords {
		g.lexicon.add(w, lexSlide<<8)
	}
	for _, w := range pr.Clear {
		g.lexicon.add(w, lexClear<<8)
	}
	if len(p.Rules) > maxGuardRules {
		return nil, fmt.Errorf("%w: the guard has %d rules; at most %d", ErrConfig, len(p.Rules), maxGuardRules)
	}
	for i, r := range p.Rules {
		if r.Category == "" || (r.Type != 1 && r.Type != 2) {
			return nil, fmt.Errorf("%w: guard rule %d: needs a category and type 1 or 2", ErrConfig, i)
		}
		c := compiledRule{GuardRule: r, index: i}
		c.words = g.phrases(r.Keywords)
		for _, k := range r.Keywords {
			g.lexicon.add(k, lexWord<<8|i)
		}
		for _, k := range r.Except {
			g.lexicon.add(k, lexExcept<<8|i)
		}
		c.page = g.phrases(r.Page, r.Totals)
		c.strong = g.phrases(r.Page)
		if r.Amount {
			// With an amount of money, the category's own words in the page's text ("Confirm
			// payment", "Place your order") say what the page is for.
			c.strong = g.phrases(r.Page, r.Keywords)
		}
		for _, k := range slices.Concat(r.Page, r.Totals) {
			g.pageWords.add(k, 2*i)
		}
		for _, k := range r.Page {
			g.pageWords.add(k, 2*i+1)
		}
		if r.Amount {
			for _, k := range r.Keywords {
				g.pageWords.add(k, 2*i+1)
			}
		}
		for _, w := range [][]string{r.Keywords, r.Page, r.Totals} {
			for _, k := range w {
				g.known.add(k, 0)
			}
		}
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

// Check says whether a needs consent on screen s. el is the element a targets; for Enter,
// the element that has the focus (nil: none is known).
//
// Taps, long presses and swipes that start on an element are judged by the element: its
// own words, or — for a generic confirm or a label-less button — the page it is on.
// Shell commands are judged by the command, and `input tap|swipe|keyevent` typed into a
// shell by the element or key they reach. Enter in a text field submits it, and so may
// text typed into a field when it holds a line break (ADB Keyboard commits the line break
// as text, and chat apps with "Enter to send" send on it): both are judged as the
// sensitive action the screen offers nearest the field. Enter on a focused element that
// is not a text field clicks it (Android's confirm key): it is judged as a tap on it.
func (g *Guard) Check(a event.Action, el *perception.Element, s *perception.Screen) (Verdict, bool) {
	if g == nil {
		return Verdict{}, false
	}
	switch a.Type {
	case event.Shell:
		return g.shell(a.Command, s)
	case event.Tap, event.LongPress, event.Swipe:
		if el == nil && a.Type == event.Swipe && s != nil {
			// A swipe across the screen drags whatever is under its start: a "slide to
			// pay" slider.
			x1, y1, _, _ := swipePath(perception.Bounds{X2: s.Width, Y2: s.Height}, a.Direction)
			if at := elementAt(s, x1, y1); at != nil && g.isSlider(at, nil) {
				el = at
			}
		}
		if el == nil {
			return Verdict{}, false
		}
		verb := strings.ToLower(string(a.Type))
		if a.Type == event.Swipe {
			verb = "swipe on"
		}
		return g.element(verb, el, s)
	case event.Enter:
		if el != nil && !el.Editable {
			return g.element("press Enter on", el, s)
		}
		if el == nil && (s == nil || !s.Keyboard) {
			return Verdict{}, false // no text field has the focus: Enter submits nothing
		}
		return g.submit("press Enter in "+fieldName(el), el, s)
	case event.Input:
		if strings.ContainsAny(a.Text, "\n\r") {
			// The typed text is never part of the verdict: it may be a password.
			return g.submit("type text with a line break into "+fieldName(el), el, s)
		}
	}
	return Verdict{}, false
}

// element judges an action on el: its own words first; then, by the page it is on, a
// generic confirm, and on a page that pays, sends or deletes its primary action whatever
// its label says.
func (g *Guard) element(verb string, el *perception.Element, s *perception.Screen) (Verdict, bool) {
	var texts labelCache
	if s != nil {
		texts = g.page(s).texts
	}
	r, ok := g.match(el, texts)
	page := false
	if !ok {
		r, ok = g.byPage(el, s)
		page = ok
	}
	if !ok && s != nil {
		// The tap lands on whatever is drawn at the element's centre: a card whose middle
		// is its own Pay button pays.
		if at := g.page(s).at(s, el.Center.X, el.Center.Y); at != nil && at != el && at.Index != el.Index {
			if v, hit := g.element(verb, at, nil); hit {
				return v, true
			}
			if r, ok = g.byPage(at, s); ok {
				el, page = at, true
			}
		}
	}
	if !ok {
		return Verdict{}, false
	}
	name := label(el)
	return Verdict{Category: r.Category, Type: r.Type, Subject: fmt.Sprintf("%s %s", verb, strconv.QuoteToGraphic(name)),
		Target: name, Action: g.elementIdentity(el, s), Page: page}, true
}

// byPage judges el by the page s: a generic confirm takes the page's category; on a page
// whose structure says it pays, sends or deletes, so does its primary action — a slider,
// a floating action button, a label-less or symbol button, or the bottom button when its
// label is in no language the guard knows.
func (g *Guard) byPage(el *perception.Element, s *perception.Screen) (compiledRule, bool) {
	if s == nil || el == nil {
		return compiledRule{}, false
	}
	info := g.page(s)
	if !info.ok {
		if info.selection && g.iconAction(el) {
			if r, ok := g.rule("delete"); ok {
				return r, true // a label-less action over a list of selected items
			}
		}
		return compiledRule{}, false
	}
	if g.generic(el, &info.rule) {
		return info.rule, true
	}
	if info.strong && g.primary(el, s, info) {
		return info.rule, true
	}
	return compiledRule{}, false
}

// rule is the policy's rule of a category.
func (g *Guard) rule(category string) (compiledRule, bool) {
	for _, r := range g.rules {
		if r.Category == category {
			return r, true
		}
	}
	return compiledRule{}, false
}

// submit judges submitting field (nil: a focused field whose place is unknown) on s: the
// sensitive element nearest the field is what the submission may do. Text fields
// themselves are not actions: what they hold is only text.
func (g *Guard) submit(what string, field *perception.Element, s *perception.Screen) (Verdict, bool) {
	if s == nil {
		return Verdict{}, false
	}
	var best *perception.Element
	var bestV Verdict
	bestDist := 0
	for i := range s.Elements {
		e := &s.Elements[i]
		if e.Editable || (field != nil && e.Index == field.Index) {
			continue
		}
		v, ok := g.element("tap", e, s)
		if !ok {
			continue
		}
		dist := 0
		if field != nil {
			dx, dy := e.Center.X-field.Center.X, e.Center.Y-field.Center.Y
			dist = dx*dx + dy*dy
		}
		if best == nil || dist < bestDist {
			best, bestV, bestDist = e, v, dist
		}
	}
	if best == nil {
		// A field that sends on Enter may show its Send button only once it holds text:
		// with nothing sensitive in sight, Enter in a field that is not a search field
		// counts as sending what it holds.
		if field == nil || !field.Editable || g.searchField(field) {
			return Verdict{}, false
		}
		for _, r := range g.rules {
			if r.Category == "send" {
				return Verdict{Category: r.Category, Type: r.Type, Target: fieldName(field), Action: "submit " + g.elementIdentity(field, s),
					Subject: what + ", which may send what it holds"}, true
			}
		}
		return Verdict{}, false
	}
	bestV.Subject = fmt.Sprintf("%s, which may act like tapping %s", what, strconv.QuoteToGraphic(bestV.Target))
	return bestV, true
}

// searchWords name fields where Enter searches or goes to an address.
var searchWords = []string{"search", "find", "query", "url", "address bar", "搜索", "查找", "検索", "buscar", "suche", "suchen", "recherche", "rechercher", "pesquisar", "поиск", "검색"}

// searchField reports whether field is a search or address field.
func (g *Guard) searchField(field *perception.Element) bool {
	for _, t := range []string{field.Hint, field.Desc, idWords(field.ResourceID), field.Label} {
		if t != "" && g.search.has(g.newGuardText(t)) {
			return true
		}
	}
	return false
}

// Offers returns the verdicts of every element of s a tap on which needs consent.
func (g *Guard) Offers(s *perception.Screen) []Verdict {
	if g == nil || s == nil {
		return nil
	}
	var out []Verdict
	for i := range s.Elements {
		if s.Elements[i].Editable {
			continue
		}
		if v, ok := g.element("tap", &s.Elements[i], s); ok {
			out = append(out, v)
		}
	}
	return out
}

// elementIdentity names el on its page for a consent: the page's signature and the
// element's resource id, class and label (its bounds when it has no label).
func (g *Guard) elementIdentity(el *perception.Element, s *perception.Screen) string {
	sig := ""
	if s != nil {
		sig = s.Signature
	}
	id := fmt.Sprintf("page %s: %s %s", sig, el.Class, strconv.QuoteToGraphic(label(el)))
	if el.ResourceID != "" {
		id += " id=" + el.ResourceID
	}
	if len(el.Texts) > 0 {
		id += " texts=" + strconv.QuoteToGraphic(strings.Join(el.Texts, " | "))
	}
	if s != nil {
		// A yes to pay ¥18 is no yes to pay ¥1,800 on the same sheet: the amounts the
		// page shows are part of what was consented to.
		if amounts := g.pageAmounts(s); amounts != "" {
			id += " amounts=" + strconv.QuoteToGraphic(amounts)
		}
	}
	if el.Label == "" && el.Text == "" && el.Desc == "" {
		id += fmt.Sprintf(" at [%d,%d][%d,%d]", el.Bounds.X1, el.Bounds.Y1, el.Bounds.X2, el.Bounds.Y2)
	}
	return id
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
