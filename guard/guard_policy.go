package guard

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// Rule marks actions of one category as needing consent.
type Rule struct {
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

// Precision are the words that tell a sensitive word used as a name from the action
// it names: "Transfer history", "Tip of the day", "View purchase history", "Remove filter".
type Precision struct {
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
	// Cancel are the words of a way out that also discard what is being written: with one
	// of Compose right beside it ("Cancel message", "إلغاء الرسالة") a Cancel is a delete;
	// alone, or beside anything else ("Cancel download"), it only leaves.
	Cancel []string `json:"cancel,omitempty" yaml:"cancel,omitempty"`
	// Compose are what a person writes: a message, an e-mail, a draft.
	Compose []string `json:"compose,omitempty" yaml:"compose,omitempty"`
	// Whole are words read only as themselves, never as an inflected form of a sensitive
	// word: English words that another language's stem would match (Public of Spanish
	// publicar, Subscribers of subscribe), which name things or states.
	Whole []string `json:"whole,omitempty" yaml:"whole,omitempty"`
	// Done are the markers of a finished or pending action written against its verb
	// (Chinese 已 or 待 before it, Japanese 済み after it, Vietnamese đã before it): the verb
	// then names a state or a folder (已发送, 送信済み, Đã gửi: Sent; 待支付: awaiting
	// payment), not the action.
	Done []string `json:"done,omitempty" yaml:"done,omitempty"`
	// Directions are a browser's Forward and Back; Browser its Reload and Stop. On a page
	// that has a browser's Reload, Stop or address bar and another direction, a Forward
	// goes to the next page: it sends nothing.
	Directions []string `json:"directions,omitempty" yaml:"directions,omitempty"`
	Browser    []string `json:"browser,omitempty" yaml:"browser,omitempty"`
}

// Policy is the configurable guard: the rules, checked in order, and the generic
// confirms that take the category of the page they are on.
type Policy struct {
	Rules []Rule `json:"rules" yaml:"rules"`
	// Confirm are generic confirm labels (OK, Confirm, Continue, Done, …), matched like
	// keywords against the whole label.
	Confirm []string `json:"confirm,omitempty" yaml:"confirm,omitempty"`
	// Dismiss are labels (and resource-id words) that never confirm anything: Cancel,
	// Close, Back.
	Dismiss []string `json:"dismiss,omitempty" yaml:"dismiss,omitempty"`
	// Precision tells names from actions.
	Precision Precision `json:"precision,omitempty" yaml:"precision,omitempty"`
	// Person are the person's own rules (person.go), applied to what the rules above hold.
	Person []PersonRule `json:"person,omitempty" yaml:"person,omitempty"`
}

//go:embed guard.yaml
var guardVocabulary []byte

// generatedVocabulary is guard_vocab.yaml, made by guard/internal/guardgen from the
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
	Precision Precision           `yaml:"precision"`
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

// DefaultPolicy covers paying, transferring money, placing orders, subscribing,
// deleting, sending, calling and granting permissions: guard/guard.yaml (written by
// hand: phrasings, resource ids, shell commands, page words) and guard/guard_vocab.yaml
// (generated from real apps' translated strings, over a hundred locales). Each call
// returns a copy of its own: the two files are read once per process.
func DefaultPolicy() Policy { return defaultPolicy().clone() }

// defaultPolicy is the default policy, built once: reading the YAML of over a hundred
// locales is most of what starting an executor costs.
var defaultPolicy = sync.OnceValue(buildDefaultPolicy)

// clone returns p with every list copied, so a change to one copy leaves the other as it was.
func (p Policy) clone() Policy {
	out := p
	out.Rules = slices.Clone(p.Rules)
	for i, r := range out.Rules {
		r.Keywords, r.IDs, r.Commands = slices.Clone(r.Keywords), slices.Clone(r.IDs), slices.Clone(r.Commands)
		r.Except, r.Page, r.Totals = slices.Clone(r.Except), slices.Clone(r.Page), slices.Clone(r.Totals)
		out.Rules[i] = r
	}
	out.Confirm, out.Dismiss, out.Person = slices.Clone(p.Confirm), slices.Clone(p.Dismiss), slices.Clone(p.Person)
	pr := &out.Precision
	for _, l := range []*[]string{&pr.Lead, &pr.Nounable, &pr.Nouns, &pr.Before, &pr.Objects, &pr.Clear, &pr.Data,
		&pr.Cancel, &pr.Compose, &pr.Whole, &pr.Done, &pr.Directions, &pr.Browser} {
		*l = slices.Clone(*l)
	}
	return out
}

// buildDefaultPolicy reads guard.yaml and guard_vocab.yaml into the default policy.
func buildDefaultPolicy() Policy {
	var f vocabularyFile
	if err := yaml.Unmarshal(guardVocabulary, &f); err != nil {
		// guard.yaml is compiled in and tested (TestGuardVocabularyLoads): this cannot
		// happen in a released binary.
		panic("guard: guard.yaml: " + err.Error())
	}
	var gen map[string]map[string][]string
	if err := yaml.Unmarshal(generatedVocabulary, &gen); err != nil {
		panic("guard: guard_vocab.yaml: " + err.Error()) // compiled in and tested, as above
	}
	var p Policy
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
		p.Rules = append(p.Rules, Rule{Category: r.Category, Type: r.Type,
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
	p.Precision.Cancel = append(slices.Clone(p.Precision.Cancel), flatVocabulary(gen["cancel"])...)
	p.Precision.Compose = append(slices.Clone(p.Precision.Compose), flatVocabulary(gen["compose"])...)
	p.Precision.Whole = append(slices.Clone(p.Precision.Whole), flatVocabulary(gen["whole"])...)
	p.Precision.Directions = append(slices.Clone(p.Precision.Directions), flatVocabulary(gen["direction"])...)
	p.Precision.Browser = append(slices.Clone(p.Precision.Browser), flatVocabulary(gen["browser"])...)
	return p
}

// Extension is what a person adds to the default policy in their config.
type Extension struct {
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
	Rules []Rule `json:"rules,omitempty" yaml:"rules,omitempty"`
	// Person are the person's own rules: what is always asked, what goes unasked, what
	// is never done.
	Person []PersonRule `json:"person,omitempty" yaml:"person,omitempty"`
}

// Extend returns p with x added; a keyword for a category p lacks is an error (a typo
// would silently guard nothing).
func (p Policy) Extend(x Extension) (Policy, error) {
	out := Policy{Confirm: append(slices.Clone(p.Confirm), x.Confirm...), Dismiss: append(slices.Clone(p.Dismiss), x.Dismiss...), Precision: p.Precision,
		Person: slices.Concat(p.Person, x.Person)}
	for _, r := range p.Rules {
		r.Keywords, r.Page = slices.Clone(r.Keywords), slices.Clone(r.Page)
		out.Rules = append(out.Rules, r)
	}
	for _, words := range []struct {
		m    map[string][]string
		what string
		add  func(r *Rule, w []string)
	}{
		{x.Keywords, "keywords", func(r *Rule, w []string) { r.Keywords = append(r.Keywords, w...) }},
		{x.Page, "page words", func(r *Rule, w []string) { r.Page = append(r.Page, w...) }},
	} {
		cats := make([]string, 0, len(words.m))
		for c := range words.m {
			cats = append(cats, c)
		}
		slices.Sort(cats)
		for _, c := range cats {
			i := slices.IndexFunc(out.Rules, func(r Rule) bool { return r.Category == c })
			if i < 0 {
				var known []string
				for _, r := range out.Rules {
					known = append(known, r.Category)
				}
				return Policy{}, fmt.Errorf("%w: guard %s for unknown category %q (known: %s; add a new one under guard.rules)", errPolicy, words.what, c, strings.Join(known, ", "))
			}
			words.add(&out.Rules[i], words.m[c])
		}
	}
	out.Rules = append(out.Rules, x.Rules...)
	return out, nil
}
