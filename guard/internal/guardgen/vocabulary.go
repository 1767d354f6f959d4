package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

func writeVocabulary(path string, cats []*catalog) error {
	words := map[string]map[string][]string{} // category → locale → words
	shares := map[string]map[string]map[string]float64{}
	for _, c := range cats {
		learnVerbs(c, words, shares)
	}
	// A verb's word that another app's strings teach as a noun, in as large a share of
	// the noun's strings (Portuguese todas, all, of Remover todas), is that noun.
	for cat, byLoc := range words {
		if nounCategory(cat) || cat == "noun" {
			continue
		}
		for loc, ws := range byLoc {
			byLoc[loc] = slices.DeleteFunc(ws, func(w string) bool {
				verb := shares[cat][loc][w]
				return verb > 0 && shares["noun"][loc][w] >= nounShare*verb
			})
		}
	}
	// A word some app's strings teach as a noun that is neither data nor a view's state
	// (Arabic العناصر, the items) is no view's state in another's.
	for loc, ws := range words["object"] {
		words["object"][loc] = slices.DeleteFunc(ws, func(w string) bool { return slices.Contains(words["noun"][loc], w) })
	}
	delete(words, "noun")
	// A verb's word that is a data word of the locale with an ending (Finnish keskusteluun,
	// into the chat, of keskustelu, learned from "Send to chat") is the verb's object.
	for cat, byLoc := range words {
		if !slices.Contains(slices.Collect(maps.Values(verbs)), cat) {
			continue
		}
		for loc, ws := range byLoc {
			byLoc[loc] = slices.DeleteFunc(ws, func(w string) bool {
				return slices.ContainsFunc(words["data"][loc], func(d string) bool { return inflected(w, d) })
			})
		}
	}
	learned := map[string]map[string]map[string]bool{} // category → locale → words learnVerbs found
	for cat, byLoc := range words {
		learned[cat] = map[string]map[string]bool{}
		for loc, ws := range byLoc {
			learned[cat][loc] = map[string]bool{}
			for _, w := range ws {
				learned[cat][loc][w] = true
			}
		}
	}
	fromKey := map[string][]string{}         // category, locale and word of the vocabulary's keys → the apps that translate a key so
	deleters := map[string]map[string]bool{} // locale → the apps that translate a Delete key there
	for _, c := range cats {
		for _, r := range vocabulary[c.repo] {
			tr := c.strings[r.key]
			if len(tr) == 0 {
				return fmt.Errorf("%s has no string %s", c.repo, r.key)
			}
			for loc, v := range tr {
				v = strings.TrimRight(strings.TrimSpace(v), "…?.!:")
				if v == "" || placeholder.MatchString(v) || len([]rune(v)) > 40 {
					continue
				}
				if sensitiveCategory(r.category) && usedOtherwise(c, r.key, loc, v) {
					continue
				}
				if c.repo == thanksRepo && thankIsGratitude(cats, loc, v) {
					continue
				}
				if words[r.category] == nil {
					words[r.category] = map[string][]string{}
				}
				low := strings.ToLower(v)
				if !slices.Contains(words[r.category][loc], low) {
					words[r.category][loc] = append(words[r.category][loc], low)
				}
				if k := r.category + "\x00" + loc + "\x00" + low; !slices.Contains(fromKey[k], c.repo) {
					fromKey[k] = append(fromKey[k], c.repo)
				}
				if r.category == "delete" {
					if deleters[loc] == nil {
						deleters[loc] = map[string]bool{}
					}
					deleters[loc][c.repo] = true
				}
			}
		}
	}
	// Burmese writes a verb with its particles and no space (ဖျက်ရန်, to delete; ဖျက်မည်,
	// will delete; ဖျက်ပါ, please delete): where two of a language's words for one action
	// start alike and then part, the part they share is the verb (ဖျက်), which the guard
	// finds anywhere in a label, as it does every word of the script. Not Thai, Lao or
	// Khmer: their translators write the verb bare (ลบ, ส่ง), and the start two of their
	// words share is as often a noun (Thai ชำระเงิน, payment, of "Payment history").
	for cat, byLoc := range words {
		if !sensitiveCategory(cat) {
			continue
		}
		byLang := map[string][]string{}
		for loc, ws := range byLoc {
			lang, _, _ := strings.Cut(loc, "-")
			for _, w := range ws {
				if !strings.Contains(w, " ") && strings.ContainsFunc(w, func(r rune) bool {
					return unicode.Is(unicode.Myanmar, r)
				}) && !slices.Contains(byLang[lang], w) {
					byLang[lang] = append(byLang[lang], w)
				}
			}
		}
		for _, lang := range slices.Sorted(maps.Keys(byLang)) {
			ws := byLang[lang]
			for i, a := range ws {
				for _, b := range ws[i+1:] {
					if root := sharedRoot(a, b); root != "" && !slices.Contains(byLoc[lang], root) {
						byLoc[lang] = append(byLoc[lang], root)
					}
				}
			}
		}
	}
	// A learned Latin word of three letters or fewer is a particle or an auxiliary of the
	// strings more often than the verb (Dutch uit of "Verwijderen uit", Danish vil,
	// Norwegian fra, Turkish yap of "Bağış yap" and "Giriş yap"), unless it is the whole
	// translation of a string that is the bare verb, in some app (Swedish köp, Buy; Polish
	// kup) or a key's. Other scripts keep theirs: Hebrew and Arabic write a verb's three
	// root letters alone (הסר, أزل), Indic scripts count vowel signs as letters.
	bareVerb := map[string]bool{} // category, locale and the whole translation of a string that is one English verb
	for _, c := range cats {
		for _, tr := range c.strings {
			cat, ok := verbs[strings.ToLower(strings.Trim(tr["en"], " .…!"))]
			if !ok {
				continue
			}
			for loc, v := range tr {
				bareVerb[cat+"\x00"+loc+"\x00"+strings.ToLower(strings.Trim(v, " .…!"))] = true
			}
		}
	}
	for cat, byLoc := range words {
		if !sensitiveCategory(cat) {
			continue
		}
		for loc, ws := range byLoc {
			byLoc[loc] = slices.DeleteFunc(ws, func(w string) bool {
				return learned[cat][loc][w] && len(fromKey[cat+"\x00"+loc+"\x00"+w]) == 0 && !bareVerb[cat+"\x00"+loc+"\x00"+w] && utf8.RuneCountInString(w) <= 3 &&
					!strings.Contains(w, " ") && !strings.ContainsFunc(w, func(r rune) bool { return unicode.IsLetter(r) && !unicode.Is(unicode.Latin, r) })
			})
		}
	}
	harmless := map[string]map[string]bool{} // locale → normalised harmless strings
	harmlessWords := map[string]map[string]bool{}
	// The guard does not know a label's language: a whole harmless translation in one
	// locale (Indonesian simpan, Save) is left out of every locale's sensitive words
	// (Wikipedia's Malay translators use simpan for Publish).
	harmlessAnywhere := map[string]bool{}
	for _, c := range cats {
		for _, k := range harmlessKeys[c.repo] {
			for loc, v := range c.strings[k] {
				if harmless[loc] == nil {
					harmless[loc], harmlessWords[loc] = map[string]bool{}, map[string]bool{}
				}
				v = strings.ToLower(strings.TrimRight(v, "…."))
				harmless[loc][v], harmlessAnywhere[v] = true, true
				for w := range grams(v) {
					harmlessWords[loc][w] = true
				}
			}
		}
	}
	for cat, byLoc := range words {
		if cat == "confirm" || cat == "dismiss" || cat == "cancel" || cat == "object" || strings.Contains(cat, ":") {
			continue
		}
		for loc, ws := range byLoc {
			byLoc[loc] = slices.DeleteFunc(ws, func(w string) bool {
				return harmless[loc][w] || harmlessAnywhere[w] || learned[cat][loc][w] && harmlessWords[loc][w]
			})
		}
	}
	directions := map[string]map[string]bool{} // language → a browser's Forward and Back
	for _, c := range cats {
		for _, k := range directionKeys[c.repo] {
			for loc, v := range c.strings[k] {
				lang, _, _ := strings.Cut(loc, "-") // Firefox's pa-IN is the other apps' pa
				if directions[lang] == nil {
					directions[lang] = map[string]bool{}
				}
				directions[lang][strings.ToLower(strings.TrimSpace(v))] = true
			}
		}
	}
	// The guard reads a browser's page by its Reload or Stop, and its Forward and Back there
	// as directions, in every locale a browser translates them into.
	for cat, keys := range map[string]map[string][]string{"direction": directionKeys, "browser": browserKeys} {
		byLoc := map[string][]string{}
		for _, c := range cats {
			for _, k := range keys[c.repo] {
				for loc, v := range c.strings[k] {
					if v = strings.ToLower(strings.TrimSpace(v)); v != "" && !slices.Contains(byLoc[loc], v) {
						byLoc[loc] = append(byLoc[loc], v)
					}
				}
			}
		}
		words[cat] = byLoc
	}
	for loc, ws := range words["send"] {
		words["send"][loc] = slices.DeleteFunc(ws, func(w string) bool {
			if lang, _, _ := strings.Cut(loc, "-"); !directions[lang][w] {
				return false
			}
			repos := fromKey["send\x00"+loc+"\x00"+w]
			if len(repos) < 2 {
				return true // learned, or one app's word: the browser's reading is as likely
			}
			return slices.ContainsFunc(cats, func(c *catalog) bool { return slices.Contains(repos, c.repo) && notForwarding(c, loc, w) })
		})
	}
	// A name in one locale (English sender, a Danish verb form too) is no sensitive word
	// of its category in another: the guard drops a word that is also one of the names.
	// In its own locale, a name learned as a verb, or the translation of a key that only
	// one app gives, is the name (Indonesian terkirim, Sent, is one app's Send); a key's
	// translation that several apps give stays (Japanese 削除 is Delete and Deleted).
	for cat, byLoc := range words {
		names := map[string][]string{} // name → the locales it is one in
		for loc, ws := range words["except:"+cat] {
			for _, w := range ws {
				names[w] = append(names[w], loc)
			}
		}
		for loc, ws := range byLoc {
			byLoc[loc] = slices.DeleteFunc(ws, func(w string) bool {
				lang, _, _ := strings.Cut(loc, "-")
				return slices.ContainsFunc(names[w], func(l string) bool { return !strings.HasPrefix(l+"-", lang+"-") }) ||
					slices.Contains(names[w], loc) && len(fromKey[cat+"\x00"+loc+"\x00"+w]) < 2
			})
		}
	}
	// A wallet's "Send now" is a transfer, but where its translation is just the language's
	// send, the word stays a send (the guard names a send with an amount a transfer).
	// In any locale: Bitcoin Wallet's zh 发送 is the send of zh-CN.
	sendAnywhere := map[string]bool{}
	for _, ws := range words["send"] {
		for _, w := range ws {
			sendAnywhere[w] = true
		}
	}
	for loc, ws := range words["transfer"] {
		words["transfer"][loc] = slices.DeleteFunc(ws, func(w string) bool { return sendAnywhere[w] })
	}
	// A Delete that is also the locale's Clear and that fewer than a third of the apps
	// with a Delete there give as it (Italian cancella: Nuke's and the Commons app's, where
	// the others say elimina) is read as the Clear: it deletes only with a person's data
	// beside it ("Cancella cache" keeps the cache's clearing free). The locale's usual
	// Delete (Vietnamese xóa) stays one; a learned form is left as it is.
	for loc, ws := range words["delete"] {
		words["delete"][loc] = slices.DeleteFunc(ws, func(w string) bool {
			n := len(fromKey["delete\x00"+loc+"\x00"+w])
			return slices.Contains(words["clear"][loc], w) && n > 0 && 3*n < len(deleters[loc])
		})
	}
	var b bytes.Buffer
	b.WriteString("# GENERATED by `go run ./guard/internal/guardgen`; do not edit (extend guard.yaml or the config).\n")
	b.WriteString("# Translations of app strings that name a sensitive action, a generic confirm, a way out or a\n# page's purpose, by category and locale; and the words that recur in the translations of every\n# string starting with delete, remove, erase, empty, discard, send, forward, publish, donate,\n# subscribe, clear, buy, purchase or refund, or sending thanks, or holding a data noun (messages,\n# contacts, e-mails, …; those of messages, e-mails and drafts also as compose, what a Cancel\n# discards) or a view's state (star, favourite, filter) (and rarely elsewhere in the\n# locale), none of them a corpus string; a word that also translates Move, Archive, Copy, Reply,\n# Next, Back, Done, Mark as read, Cancel, Edit, Add or Save there is left out, and so is one that\n# another language uses as a name (English Sender). whole: the English words of the catalogs that\n# a sensitive word's stem would reach, read only as themselves (Public, Subscribers). Sources:\n")
	for _, c := range cats {
		fmt.Fprintf(&b, "#   github.com/%s @ %s (%s): strings", c.repo, c.commit, c.licence)
		for _, r := range vocabulary[c.repo] {
			fmt.Fprintf(&b, " %s=%s", r.key, r.category)
		}
		b.WriteString("\n")
	}
	words["whole"] = map[string][]string{"en": wholeEnglish(words, cats, filepath.Join(filepath.Dir(path), "guard.yaml"))}
	cs := make([]string, 0, len(words))
	for c := range words {
		cs = append(cs, c)
	}
	sort.Strings(cs)
	for _, c := range cs {
		fmt.Fprintf(&b, "%s:\n", c)
		locs := make([]string, 0, len(words[c]))
		for l := range words[c] {
			locs = append(locs, l)
		}
		sort.Strings(locs)
		for _, l := range locs {
			ws := words[c][l]
			sort.Strings(ws)
			q, _ := json.Marshal(ws)
			fmt.Fprintf(&b, "  %s: %s\n", l, q)
		}
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}
