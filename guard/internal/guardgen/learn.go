package main

import (
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// verbs are English verbs whose translations are learned from every string of a catalog
// that starts with them (but no corpus string): "Delete list", "Delete tag", "Remove from
// queue" teach the word a language uses for delete.
var verbs = map[string]string{"delete": "delete", "remove": "delete", "erase": "delete", "empty": "clear", "discard": "delete",
	"send": "send", "forward": "send", "publish": "send", "donate": "payment", "subscribe": "subscription",
	// Empty is a Clear: it deletes what the emptied thing holds when that is data ("Empty
	// trash"), not a cache.
	// Clear empties a thing: a delete only when the thing is data ("Clear messages"), not
	// a view's state or a cache ("Clear search", "Clear cache"); the guard pairs it with
	// the data words below.
	"clear": "clear", "buy": "payment", "purchase": "payment", "refund": "transfer",
	"thank": "send"} // sendThanks

var leadingVerb = regexp.MustCompile(`^(?i)(delete|remove|erase|empty|discard|send|forward|publish|donate|subscribe|clear|buy|purchase|refund)\b`)

// dataNouns are English nouns for a person's data: their translations are learned, like
// the verbs', from every string of a catalog (but no corpus string) that holds them, as
// the "data" a Clear deletes ("Wyczyść wiadomości", "Berichten wissen"); a trash or a
// spam folder holds a person's messages or files, so emptying it deletes them ("Vider la
// corbeille"), as emptying a cache deletes nothing ("Vider le cache").
var dataNouns = regexp.MustCompile(`(?i)\b(messages?|conversations?|chats?|contacts?|photos?|files?|recordings?|data|e-?mails?|drafts?|trash|recycle bin|spam|junk|selected)\b`)

// composed are the data nouns for what a person writes (a message, an e-mail, a draft):
// their words are also written as "compose", what cancelling discards ("إلغاء الرسالة",
// Cancel the message).
var composed = map[string]bool{"message": true, "e-mail": true, "email": true, "mail": true, "draft": true}

// nounCategory reports whether cat names things, not actions: data, what is composed, a
// view's state.
func nounCategory(cat string) bool { return cat == "data" || cat == "compose" || cat == "object" }

// viewNouns are English nouns for the state of a view — a mark, a favourite, a filter —
// that removing or clearing changes without deleting anything ("Remove star", "Remove
// from favorites", "Clear filter"): their translations are learned like the data nouns'
// and written as objects.
var viewNouns = regexp.MustCompile(`(?i)\b(stars?|starred|favou?rites?|filters?)\b`)

// otherNouns are English nouns that often follow the verbs but are neither data nor a
// view's state (Clear search history, Clear call history, Clear frequents, Clear cache):
// their translations are learned only to be kept out of the verbs — a word that recurs
// with a noun is that noun ("historique", "түүхийг"), not the verb.
var otherNouns = regexp.MustCompile(`(?i)\b(history|search|searches|cache|logs?|frequents?|frequently|contacted|watched|duplicates|bookmarks?|reports?|items?|elements?|entries|selected|all|everything)\b`)

// sendThanks are English strings that send someone thanks ("Send thanks", "Sending
// thanks to %s", "Thank the author"): a public notice on the user's behalf, learned as a
// send. The words of the strings that only say thank you ("Thank you for uploading",
// "Thanks received") are kept out of it, so a "Thanks!" or "Vielen Dank" that closes a
// tip stays free.
var (
	sendThanks = regexp.MustCompile(`(?i)\b(send|sending|sent) thanks\b|\bthank (the|this) (author|contributor|uploader|user|editor)\b`)
	gratitude  = regexp.MustCompile(`(?i)\bthank|\bthanks\b`)
)

// learnVerbs finds, per locale, the words that recur in the translations of the strings
// that start with one of the verbs, and not in the locale's other strings: the verb's
// forms in that language. Scripts written without spaces contribute the character
// sequences that recur the same way.
//
// shares, when not nil, gets the share of its topic's strings each learned word is in, at
// most, by category and locale ("noun" for the nouns that are neither data nor a view's
// state), for writeVocabulary to weigh a word across apps.
func learnVerbs(c *catalog, words map[string]map[string][]string, shares map[string]map[string]map[string]float64) {
	held := map[string]bool{}
	for _, r := range corpusKeys[c.repo] {
		held[r.key] = true
	}
	type doc struct {
		verbs []string // the verb it starts with, the data nouns it holds
		grams map[string]bool
	}
	byLocale := map[string][]doc{}
	for key, tr := range c.strings {
		en := tr["en"]
		if held[key] || en == "" {
			continue
		}
		var topics []string
		if m := leadingVerb.FindString(en); m != "" {
			topics = append(topics, strings.ToLower(m))
		}
		for _, m := range dataNouns.FindAllString(en, -1) {
			if m = strings.TrimSuffix(strings.ToLower(m), "s"); !slices.Contains(topics, m) {
				topics = append(topics, m) // a noun is learned the same way
			}
		}
		for _, m := range viewNouns.FindAllString(en, -1) {
			if m = "view:" + strings.TrimSuffix(strings.TrimSuffix(strings.ToLower(m), "s"), "red"); !slices.Contains(topics, m) {
				topics = append(topics, m)
			}
		}
		switch {
		case sendThanks.MatchString(en):
			topics = append(topics, "thank")
		case gratitude.MatchString(en):
			topics = append(topics, "noun:thanks")
		}
		for _, m := range otherNouns.FindAllString(en, -1) {
			if m = "noun:" + strings.ToLower(m); !slices.Contains(topics, m) {
				topics = append(topics, m)
			}
		}
		english := grams(strings.ToLower(en))
		for loc, v := range tr {
			if loc == "en" || strings.HasPrefix(loc, "en-") {
				continue
			}
			// Format characters are dropped, as the guard drops them: a zero-width non-joiner
			// inside a Malayalam word (അയയ്\u200cക്കുക) does not cut it in two.
			text := strings.Map(dropFormat, placeholder.ReplaceAllString(strings.ToLower(v), " "))
			gs := grams(text)
			for g := range english {
				delete(gs, g) // a brand or a word left in English (Google Pay) is no translation
			}
			for _, p := range pairs(text) {
				if a, b, _ := strings.Cut(p, " "); gs[a] && gs[b] {
					gs[p] = true
				}
			}
			for _, r := range runs(text) {
				if !strings.Contains(strings.ToLower(en), r) {
					gs[r] = true
				}
			}
			byLocale[loc] = append(byLocale[loc], doc{topics, gs})
		}
	}
	// The words of the catalog's English strings: a verb's word learned in another locale
	// that is also an English word (French don, a gift, is the don of Don't allow) would be
	// read in English labels too, since the guard does not know a label's language.
	englishWords := map[string]bool{}
	for _, tr := range c.strings {
		for g := range grams(strings.ToLower(tr["en"])) {
			englishWords[g] = true
		}
	}
	// The words of thank-you strings in any locale ("merci", "grasie") only say thanks:
	// the guard does not know a label's language, so none of them is learned as a send.
	gratitudeWords := map[string]bool{}
	for _, docs := range byLocale {
		for _, d := range docs {
			if slices.Contains(d.verbs, "noun:thanks") {
				for g := range d.grams {
					gratitudeWords[g] = true
				}
			}
		}
	}
	for loc, docs := range byLocale {
		learned := map[string]map[string]float64{} // category → word → the share of a topic's strings it is in
		all := map[string]int{}
		per := map[string]map[string]int{}
		n := map[string]int{}
		for _, d := range docs {
			for g := range d.grams {
				all[g]++
			}
			for _, v := range d.verbs {
				n[v]++
				if per[v] == nil {
					per[v] = map[string]int{}
				}
				for g := range d.grams {
					per[v][g]++
				}
			}
		}
		var otherTopics []string
		for v := range per {
			if strings.HasPrefix(v, "noun:") && v != "noun:thanks" {
				otherTopics = append(otherTopics, v)
			}
		}
		for verb, counts := range per {
			if c.learn != nil && !strings.HasPrefix(verb, "noun:") && !slices.Contains(c.learn, verb) {
				continue
			}
			cat, ok := verbs[verb]
			switch {
			case strings.HasPrefix(verb, "view:"):
				cat = "object"
			case strings.HasPrefix(verb, "noun:"):
				cat = "noun"
			case !ok:
				cat = "data"
			}
			if learned[cat] == nil {
				learned[cat] = map[string]float64{}
			}
			for g, k := range counts {
				if cat == "object" && slices.ContainsFunc(otherTopics, func(v string) bool { return per[v][g] >= 2 }) {
					continue // "Remove items from favourites": the items are no view's state
				}
				if verb == "thank" && (gratitudeWords[g] || all[g] > k || utf8.RuneCountInString(g) < 4) {
					// A word of thank you says thanks and sends nothing; the thanks strings are
					// few, so a word they share with any other string, or a short one
					// (Vietnamese tới, to), is no word of thanking.
					continue
				}
				// Recurs in the verb's strings, and is rare elsewhere in the locale.
				if k < 2 || float64(k) < 0.3*float64(n[verb]) || float64(all[g]-k) > 0.005*float64(len(docs)) || float64(all[g]) > 1.5*float64(k) {
					continue
				}
				learned[cat][g] = max(learned[cat][g], float64(k)/float64(n[verb]))
				if composed[verb] {
					if learned["compose"] == nil {
						learned["compose"] = map[string]float64{}
					}
					learned["compose"][g] = max(learned["compose"][g], float64(k)/float64(n[verb]))
				}
			}
		}
		for cat, ws := range learned {
			if shares != nil {
				if shares[cat] == nil {
					shares[cat] = map[string]map[string]float64{}
				}
				if shares[cat][loc] == nil {
					shares[cat][loc] = map[string]float64{}
				}
				for g, share := range ws {
					shares[cat][loc][g] = max(shares[cat][loc][g], share)
				}
			}
			if cat == "noun" {
				// Kept only to keep them out of the objects (writeVocabulary), not written.
				for g := range ws {
					if words["noun"] == nil {
						words["noun"] = map[string][]string{}
					}
					if !slices.Contains(words["noun"][loc], g) {
						words["noun"][loc] = append(words["noun"][loc], g)
					}
				}
				continue
			}
			for g, share := range ws {
				if a, b, pair := strings.Cut(g, " "); pair && !(all[g] >= minPaired && (ws[a] > 0 && all[a] == all[g] || ws[b] > 0 && all[b] == all[g])) {
					continue // a pair is learned only in place of a word that never occurs without it
				}
				if mixed(g) {
					continue // an English name with a particle (Korean mms로, by MMS): the particle is no word
				}
				if utf8.RuneCountInString(g) < 3 && !strings.ContainsFunc(g, func(r rune) bool { return unicode.Is(unicode.Hangul, r) }) {
					continue // a particle or an article (Turkish mi, French la); Korean 삭제 is a word
				}
				if ideographic(g) && (!nounCategory(cat) || all[g] < minRun || longerRun(g, ws, all)) {
					// A run of characters: only the longest that recurs as often (メッセージ, not
					// ッセージ), and only for a noun — a verb's runs hold its objects and
					// particles (フラインから of Remove from offline); the verbs of Chinese and
					// Japanese come from the strings that are just the verb (削除, 送信).
					continue
				}
				if !strings.Contains(g, " ") && pairedAlways(g, ws, all) {
					continue // a syllable of a word of two (Vietnamese loại of loại bỏ): the pair is the word
				}
				if !nounCategory(cat) && englishWords[g] {
					continue
				}
				if cat == "object" && !strings.HasPrefix(loc, "en") && englishWords[g] && !viewNouns.MatchString(g) {
					// A view's state in one language that is another English word (Sardinian
					// note, the night of night mode) would make "Delete note" a view's state.
					continue
				}
				if cat == "data" && !strings.HasPrefix(loc, "en") && englishWords[g] && !dataNouns.MatchString(g) && g != "mail" {
					// Likewise a data word that is another English word (the selection of a
					// translator who left "Clear selection" in English), unless it names data
					// in English too (mail, as several languages write it).
					continue
				}
				if !nounCategory(cat) && max(learned["noun"][g], learned["object"][g]) >= nounShare*share {
					continue // the verb's usual object ("historique" in Effacer l'historique), as common with the noun as with the verb
				}
				if words[cat] == nil {
					words[cat] = map[string][]string{}
				}
				if !slices.Contains(words[cat][loc], g) {
					words[cat][loc] = append(words[cat][loc], g)
				}
			}
		}
	}
}

// inflected reports whether w is the single word d of five letters or more with an
// ending of at most four letters.
func inflected(w, d string) bool {
	n := utf8.RuneCountInString(d)
	return w != d && n >= 5 && !strings.Contains(d, " ") && !strings.Contains(w, " ") && strings.HasPrefix(w, d) &&
		utf8.RuneCountInString(w)-n <= 4
}

// sharedRoot is the start two words share, of three characters or more and shorter than
// both, ending where a character (not a vowel sign or another combining mark) begins in
// each; "" when they share none.
func sharedRoot(a, b string) string {
	ra, rb := []rune(a), []rune(b)
	n := 0
	for n < len(ra) && n < len(rb) && ra[n] == rb[n] {
		n++
	}
	for n > 0 && (n < len(ra) && unicode.Is(unicode.M, ra[n]) || n < len(rb) && unicode.Is(unicode.M, rb[n])) {
		n-- // not inside a syllable: its vowel signs and marks stay with it
	}
	if n < 3 || n == len(ra) || n == len(rb) {
		return ""
	}
	return string(ra[:n])
}

// dropFormat drops Unicode's format characters (zero-width joiners, direction marks).
func dropFormat(r rune) rune {
	if unicode.Is(unicode.Cf, r) {
		return -1
	}
	return r
}

// sensitiveCategory reports whether cat is a category of sensitive actions (not a confirm,
// a way out, a page's word, a name or a noun).
func sensitiveCategory(cat string) bool {
	switch cat {
	case "confirm", "dismiss", "cancel", "data", "compose", "object", "clear":
		return false
	}
	return !strings.Contains(cat, ":")
}

// usedOtherwise reports whether v, the translation of key in locale loc, is one word of
// three letters at most that the app's translators use mostly in strings that are not
// about the key's English verb: Russian нет and Bulgarian не (no), one app's Discard in a
// dialog, are in every No. Such a word is no verb of the language.
func usedOtherwise(c *catalog, key, loc, v string) bool {
	v = strings.ToLower(v)
	if utf8.RuneCountInString(v) > 3 || strings.ContainsFunc(v, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.Is(unicode.M, r) }) ||
		strings.ContainsFunc(v, func(r rune) bool {
			return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
		}) {
		return false
	}
	verb, _, _ := strings.Cut(strings.ToLower(c.strings[key]["en"]), " ")
	if rs := []rune(verb); len(rs) > 5 {
		verb = string(rs[:len(rs)-2]) // disca of discarded, dona of donation
	}
	all, about := 0, 0
	for k, tr := range c.strings {
		if k == key || tr[loc] == "" || !grams(strings.ToLower(tr[loc]))[v] {
			continue
		}
		all++
		if strings.Contains(strings.ToLower(tr["en"]), verb) {
			about++
		}
	}
	return all >= 3 && 2*about < all
}

// wholeEnglish are the English words of the catalogs' strings that the guard would read as
// an inflected form of a sensitive word of seven letters or more, its stem (the word less
// its last two letters) and up to four more letters: Public of Spanish publicar, Ignore of
// Swedish ignorera, Subscribers of subscribe. The guard reads them only as themselves: in
// English they name things or states, and a label's words are often English whatever its
// language. handYAML is guard.yaml, whose keywords are stemmed too (absent: none).
func wholeEnglish(words map[string]map[string][]string, cats []*catalog, handYAML string) []string {
	var sensitive []string
	for cat, byLoc := range words {
		if sensitiveCategory(cat) {
			for _, ws := range byLoc {
				sensitive = append(sensitive, ws...)
			}
		}
	}
	if data, err := os.ReadFile(handYAML); err == nil {
		var f struct {
			Rules []struct {
				Keywords map[string][]string `yaml:"keywords"`
			} `yaml:"rules"`
		}
		if yaml.Unmarshal(data, &f) == nil {
			for _, r := range f.Rules {
				for _, ws := range r.Keywords {
					sensitive = append(sensitive, ws...)
				}
			}
		}
	}
	exact := map[string]bool{}
	stems := map[string]bool{}
	for _, w := range sensitive {
		w = strings.ToLower(w)
		exact[w] = true
		if rs := []rune(w); len(rs) >= 7 && !strings.ContainsFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) {
			stems[string(rs[:len(rs)-2])] = true
		}
	}
	english := map[string]bool{}
	for _, c := range cats {
		for _, tr := range c.strings {
			for g := range grams(strings.ToLower(tr["en"])) {
				if len(g) >= 5 && !exact[g] && !strings.ContainsFunc(g, func(r rune) bool { return r >= utf8.RuneSelf || !unicode.IsLetter(r) }) {
					english[g] = true
				}
			}
		}
	}
	var out []string
	for e := range english {
		for n := len(e) - 4; n <= len(e); n++ {
			if n >= 5 && stems[e[:n]] {
				out = append(out, e)
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

// runs are the character sequences of two to five characters of a text's Chinese and
// Japanese, which are written without spaces: the nouns of those languages are learned
// as the runs that recur in a noun's strings (メッセージ, 聯絡人).
func runs(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		for i := range cur {
			for n := 2; n <= 5 && i+n <= len(cur); n++ {
				out = append(out, string(cur[i:i+n]))
			}
		}
		cur = cur[:0]
	}
	for _, r := range s {
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) || r == 'ー' {
			cur = append(cur, r)
			continue
		}
		flush()
	}
	flush()
	return out
}

// mixed reports whether g holds ASCII letters and letters of a script written without
// spaces or agglutinating (Hangul, Han, Kana).
func mixed(g string) bool {
	return strings.ContainsFunc(g, func(r rune) bool { return r < utf8.RuneSelf && unicode.IsLetter(r) }) &&
		strings.ContainsFunc(g, func(r rune) bool {
			return unicode.In(r, unicode.Hangul, unicode.Han, unicode.Hiragana, unicode.Katakana)
		})
}

// ideographic reports whether g is a run of Chinese or Japanese characters.
func ideographic(g string) bool {
	r, _ := utf8.DecodeRuneInString(g)
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) || r == 'ー'
}

// minRun is the fewest strings of a locale a run of characters must occur in.
const minRun = 3

// longerRun reports whether a longer learned run holds run g and occurs in as many strings:
// g is then only a piece of that word.
func longerRun(g string, ws map[string]float64, all map[string]int) bool {
	for w := range ws {
		if len(w) > len(g) && strings.Contains(w, g) && all[w] == all[g] {
			return true
		}
	}
	return false
}

// pairs are every two neighbouring words of a text as one ("loại bỏ"): languages that
// write a word as syllables with spaces between them (Vietnamese) are learned by the pair.
func pairs(s string) []string {
	ws := strings.Fields(strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.M, r) {
			return r
		}
		return ' '
	}, s))
	var out []string
	for i := 1; i < len(ws); i++ {
		out = append(out, ws[i-1]+" "+ws[i])
	}
	return out
}

// nounShare: a word learned for a verb is the verb's usual object instead when it is in
// at least this share, relative to the verb's, of the strings of a noun that is not data
// (Mongolian түүхийг, history, is in most strings of Clear and of History alike).
const nounShare = 0.7

// minPaired is the fewest strings a word must occur in, always beside the same other
// word, to be learned as the pair: a word seen once or twice beside the same neighbour
// ("Καθαρισμός τοπικών μηνυμάτων") is no syllable of a longer word.
const minPaired = 4

// pairedAlways reports whether the single word w occurs in a learned pair of words, and
// every time it occurs in the locale the pair does too (all counts in how many strings a
// word or a pair occurs).
func pairedAlways(w string, ws map[string]float64, all map[string]int) bool {
	if all[w] < minPaired {
		return false
	}
	for g := range ws {
		if !strings.Contains(g, " ") || all[g] != all[w] {
			continue
		}
		if a, b, _ := strings.Cut(g, " "); a == w || b == w {
			return true
		}
	}
	return false
}

// grams are a text's words; scripts written without spaces give none (their recurring
// character runs are too often parts of other words).
func grams(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !(unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.M, r)) }) {
		rs := []rune(w)
		if len(rs) < 2 {
			continue
		}
		if !unicode.In(rs[0], unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar) {
			out[w] = true
		}
	}
	return out
}
