package guard

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/perception"
)

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
	// Role is what the page is for when its structure, not its words, made the action
	// its primary one ("payment page", "share sheet"; role.go).
	Role string
	// Blocked is set when the person's own rule refuses the action outright: it is not
	// asked and not done. Rule is the person's rule that decided, as a sentence: the
	// never that blocks it, or — on a verdict Check returns as not held — the allow that
	// let it through.
	Blocked bool
	Rule    string
}

// Guard applies a Policy. What is on the screen is judged, never obeyed: no text
// on a screen changes the policy.
type Guard struct {
	*textReader
	rules   []compiledRule
	confirm *phraseSet
	dismiss *phraseSet
	search  *phraseSet // fields where Enter searches, not sends
	known   *phraseSet // every word the policy knows: a label with none of them is unknown

	nounable, nouns, before, objects, data, compose, done *phraseSet
	// objectStems, dataStems and composeStems find the inflected forms of objects, data
	// and compose words (gwiazdkę for gwiazdka, wiadomości for wiadomość).
	objectStems, dataStems, composeStems stemSet
	// wordStems find the inflected forms of the rules' single words of seven letters or
	// more (rule i's stand for i: Czech odstranit, odstraňte; Russian удалить, удалите),
	// and exceptStems those of their exceptions. A shorter word's stem would be another
	// language's word (Javanese deleng, to look, for delete).
	wordStems, exceptStems stemSet
	// directions are a browser's Forward and Back, browser its Reload and Stop
	// (browserPage).
	directions, browser *phraseSet
	// whole are the words read only as themselves (Precision.Whole), lower-cased.
	whole map[string]bool
	// deleteRule is the index of the delete rule (-1: none): a Clear with data trips it.
	deleteRule int

	// lexicon holds every rule's words, exceptions and page words, the lead words and the
	// slider words ("Slide to pay"), each standing for what it is (lexWord<<8|rule, …;
	// rule i's page words lexPage<<8|2i, its strong ones lexPage<<8|2i+1): a label is
	// looked up once for all of them.
	lexicon *phraseSet

	// person are the person's own rules (person.go).
	person []PersonRule

	mu       sync.Mutex // guards the page cache
	lastPage *perception.Screen
	lastInfo *pageInfo

	// pics are the screens' pictures, for judging an element with no words by what it
	// looks like (guard_icons.go).
	pics pictures
}

type compiledRule struct {
	Rule
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

// minStemWord is the fewest letters of a rule's word whose inflected forms count.
const minStemWord = 7

// New compiles a policy.
func New(p Policy) (*Guard, error) {
	pr := p.Precision
	g := &Guard{textReader: newTextReader()}
	g.confirm, g.dismiss, g.search = g.phrases(p.Confirm), g.phrases(p.Dismiss), g.phrases(searchWords)
	g.nounable, g.nouns, g.before, g.objects = g.phrases(pr.Nounable), g.phrases(pr.Nouns), g.phrases(pr.Before), g.phrases(pr.Objects)
	g.data, g.compose, g.done = g.phrases(pr.Data), g.phrases(pr.Compose), g.phrases(pr.Done)
	g.composeStems = g.stems(pr.Compose)
	g.directions, g.browser = g.phrases(pr.Directions), g.phrases(pr.Browser)
	g.whole = make(map[string]bool, len(pr.Whole))
	for _, w := range pr.Whole {
		g.whole[g.newGuardText(w).s] = true
	}
	g.objectStems, g.dataStems, g.wordStems, g.exceptStems = g.stems(pr.Objects), g.stems(pr.Data), stemSet{}, stemSet{}
	g.deleteRule = slices.IndexFunc(p.Rules, func(r Rule) bool { return r.Category == "delete" })
	g.known = g.phrases(p.Confirm, p.Dismiss, pr.Lead, pr.Nouns, pr.Objects)
	g.lexicon = newPhraseSet(g.textReader)
	for _, w := range pr.Lead {
		g.lexicon.add(w, lexLead<<8)
	}
	for _, w := range sliderWords {
		g.lexicon.add(w, lexSlide<<8)
	}
	for _, w := range pr.Clear {
		g.lexicon.add(w, lexClear<<8)
	}
	for _, w := range pr.Cancel {
		g.lexicon.add(w, lexCancel<<8)
	}
	if len(p.Rules) > maxGuardRules {
		return nil, fmt.Errorf("%w: the guard has %d rules; at most %d", errPolicy, len(p.Rules), maxGuardRules)
	}
	for i, r := range p.Rules {
		if r.Category == "" || (r.Type != 1 && r.Type != 2) {
			return nil, fmt.Errorf("%w: guard rule %d: needs a category and type 1 or 2", errPolicy, i)
		}
		c := compiledRule{Rule: r, index: i}
		c.words = g.phrases(r.Keywords)
		for _, k := range r.Keywords {
			g.lexicon.add(k, lexWord<<8|i)
			g.addStem(g.wordStems, k, i, minStemWord)
		}
		for _, k := range r.Except {
			g.lexicon.add(k, lexExcept<<8|i)
			g.addStem(g.exceptStems, k, i, minStemWord)
		}
		c.page = g.phrases(r.Page, r.Totals)
		c.strong = g.phrases(r.Page)
		if r.Amount {
			// With an amount of money, the category's own words in the page's text ("Confirm
			// payment", "Place your order") say what the page is for.
			c.strong = g.phrases(r.Page, r.Keywords)
		}
		for _, k := range slices.Concat(r.Page, r.Totals) {
			g.lexicon.add(k, lexPage<<8|2*i)
		}
		for _, k := range r.Page {
			g.lexicon.add(k, lexPage<<8|(2*i+1))
		}
		if r.Amount {
			for _, k := range r.Keywords {
				g.lexicon.add(k, lexPage<<8|(2*i+1))
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
					return nil, fmt.Errorf("%w: guard rule %s pattern %q: %w", errPolicy, r.Category, s, err)
				}
				*lists.dst = append(*lists.dst, re)
			}
		}
		g.rules = append(g.rules, c)
	}
	cats := make([]string, 0, len(g.rules))
	for _, r := range g.rules {
		cats = append(cats, r.Category)
	}
	for _, r := range p.Person {
		if err := CheckPersonRule(r, cats); err != nil {
			return nil, err
		}
	}
	g.person = slices.Clone(p.Person)
	sets := []*phraseSet{g.lexicon, g.known, g.confirm, g.dismiss}
	for _, r := range g.rules {
		sets = append(sets, r.words, r.page)
	}
	g.vocab = vocabulary(sets...) // from here on, labels are read past accents (guardtext_accents.go)
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
//
// What the guard holds is then judged by the person's own rules (person.go): an allow
// lets it through, a never sets Blocked.
func (g *Guard) Check(a event.Action, el *perception.Element, s *perception.Screen) (Verdict, bool) {
	v, held := g.check(a, el, s)
	if !held {
		return v, false
	}
	return g.withPerson(v, el, s, a.Type != event.Shell)
}

// check is Check by the guard's own judgement, before the person's rules.
func (g *Guard) check(a event.Action, el *perception.Element, s *perception.Screen) (Verdict, bool) {
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
			x1, y1, _, _ := perception.SwipePath(perception.Bounds{X2: s.Width, Y2: s.Height}, a.Direction)
			if at := s.ElementAt(x1, y1); at != nil && g.isSlider(at, nil) {
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
		if v, ok := g.element(verb, el, s); ok || el.FromPicture || !inDeep(s, el.Center.X, el.Center.Y) {
			return v, ok
		}
		return g.unplaced(verb, el.Center.X, el.Center.Y, s) // it lands on what the tree cannot place (guard_deep.go)
	case event.Enter:
		if el != nil && !el.Editable {
			return g.element("press Enter on", el, s)
		}
		if el == nil && (s == nil || !s.Keyboard) {
			return Verdict{}, false // no text field has the focus: Enter submits nothing
		}
		return g.submit("press Enter in "+el.FieldName(), el, s)
	case event.Input:
		if strings.ContainsAny(a.Text, "\n\r") {
			// The typed text is never part of the verdict: it may be a password.
			return g.submit("type text with a line break into "+el.FieldName(), el, s)
		}
	}
	return Verdict{}, false
}

// element judges an action on el: its own words first; then, by the page it is on, a
// generic confirm, and on a page that pays, sends or deletes its primary action whatever
// its label says.
func (g *Guard) element(verb string, el *perception.Element, s *perception.Screen) (Verdict, bool) {
	var texts labelCache
	var info *pageInfo
	if s != nil {
		info = g.page(s)
		texts = info.texts
	}
	r, ok := g.matchOn(el, s, info)
	if ok && r.Category == "send" && s != nil && g.direction(el) && g.browserPage(s) {
		return Verdict{}, false // a browser's Forward: to the next page
	}
	if ok && r.Category == "send" && picksRecipient(el, s) {
		return Verdict{}, false // "Send to +1 415…" opens the conversation (guard_recipient.go)
	}
	if !ok {
		r, ok = g.iconWord(el) // an icon described by one word or glyph (guard_iconwords.go)
	}
	if !ok {
		// No words: what it looks like (a bin, a paper plane) is its word.
		if word, picture := g.pictured(el, s); word != "" {
			if r, ok = g.ruleOf(g.read(texts, word).hits, false); ok {
				v := g.verdictOf(verb, el, s, r, false)
				v.Target += " (drawn as " + picture + ")"
				v.Subject += " (drawn as " + picture + ")"
				return v, true
			}
		}
	}
	page := false
	if !ok {
		r, ok = g.byPage(el, s)
		page = ok
	}
	if !ok && s != nil {
		// The tap lands on whatever is drawn at the element's centre: a card whose middle
		// is its own Pay button pays.
		if at := g.page(s).at(s, el.Center.X, el.Center.Y); at != nil && at != el && at.Index != el.Index {
			if r, ok = g.matchOn(at, s, info); ok {
				// Judged by its own words, it is named apart from the page.
				return g.verdictOf(verb, at, nil, r, false), true
			}
			if r, ok = g.byPage(at, s); ok {
				el, page = at, true
			}
		}
	}
	if !ok {
		return Verdict{}, false
	}
	return g.verdictOf(verb, el, s, r, page), true
}

// verdictOf is the verdict that verb on el, on s, needs rule r's consent.
func (g *Guard) verdictOf(verb string, el *perception.Element, s *perception.Screen, r compiledRule, page bool) Verdict {
	name := el.Name()
	v := Verdict{Category: r.Category, Type: r.Type, Subject: fmt.Sprintf("%s %s", verb, strconv.QuoteToGraphic(name)),
		Target: name, Action: g.elementIdentity(el, s), Page: page}
	if page && s != nil {
		g.nameRole(&v, el, s)
	}
	return v
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
	if g.generic(el, &info.rule) || g.byRole(el, s, info) {
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
		if field == nil || !field.Editable || g.searchField(field) || g.formField(field, s) {
			return Verdict{}, false // guard_form.go: a form's field takes a line break as a line
		}
		for _, r := range g.rules {
			if r.Category == "send" {
				return Verdict{Category: r.Category, Type: r.Type, Target: field.FieldName(), Action: "submit " + g.elementIdentity(field, s),
					Subject: what + ", which may send what it holds"}, true
			}
		}
		return Verdict{}, false
	}
	bestV.Subject = fmt.Sprintf("%s, which may act like tapping %s", what, strconv.QuoteToGraphic(bestV.Target))
	if bestV.Role != "" {
		// Held as its page's primary action: the question names the page's role and
		// what it shows (the total, the card), as a tap on it does.
		bestV.Role = ""
		g.nameRole(&bestV, best, s)
	}
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
			if v, ok = g.withPerson(v, &s.Elements[i], s, true); ok {
				out = append(out, v)
			}
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
	id := fmt.Sprintf("page %s: %s %s", sig, el.Class, strconv.QuoteToGraphic(el.Name()))
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
