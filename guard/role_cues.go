package guard

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fairy-go/fairy/perception"
)

// moneyRole reads the role of a page that shows money: a checkout (a masked card, a
// wallet, or a delivery address: a postcode and a house number) or a booking (a time or
// date with a seat or two addresses, and one to three prices). Each text is scanned once
// for its cues; the few that may be cues are read again with their amounts blanked.
func (g *Guard) moneyRole(s *perception.Screen, info *pageInfo) roleInfo {
	// First the cues as each text shows them, allocating nothing: most pages that show
	// money (a shop's list) show none.
	var seen textCues
	each := func(fn func(raw string, rt *readLabel)) {
		for _, t := range s.Context {
			fn(t, nil)
		}
		for raw, rt := range info.texts {
			if !strings.HasPrefix(raw, idKey) {
				fn(raw, rt)
			}
		}
	}
	each(func(raw string, _ *readLabel) {
		if mayCue(raw) {
			seen = seen.or(scanCues(raw))
		}
	})
	if !seen.card && !(seen.post && seen.streets > 0) && !(seen.times && (seen.seat || seen.streets >= 2)) {
		return roleInfo{}
	}
	// Then again without the amounts' digits (₹10000 is no postcode), with the prices
	// shown in their currency (a bare 17.10 may be a date).
	var c textCues
	var cues []string
	prices := map[string]bool{}
	each(func(raw string, rt *readLabel) {
		digits := mayCue(raw)
		if !digits && rt != nil && !rt.money {
			return
		}
		n := g.normLabel(raw)
		if rt == nil || rt.money {
			for _, a := range g.findAmounts(n) {
				if p := n[a.start:a.end]; strings.ContainsFunc(p, currencyRune) {
					prices[strings.TrimSpace(p)] = true
				}
			}
		}
		if !digits {
			return
		}
		ci := scanCues(g.withoutAmounts(n))
		if ci.card {
			cues = append(cues, strings.TrimSpace(raw))
		}
		c = c.or(ci)
	})
	if len(prices) == 0 {
		return roleInfo{}
	}
	if c.card || (c.post && c.streets >= 1) {
		return roleInfo{role: roleCheckout, primary: g.prominent(s, info), cues: cues}
	}
	// A booking shows one price or two (a fare and a total), not a list of offers.
	if c.times && (c.seat || c.streets >= 2) && len(prices) <= 3 {
		return roleInfo{role: roleBooking, primary: g.prominent(s, info)}
	}
	return roleInfo{}
}

// currencyRune reports whether r is part of an amount's currency, not of its number.
func currencyRune(r rune) bool {
	return !unicode.IsDigit(r) && !strings.ContainsRune(".,'٬٫ \u00a0\u202f", r)
}

// textCues are the language-free cues one text shows.
type textCues struct {
	card, times, seat, post bool
	streets                 int // texts with a house number beside words
}

func (c textCues) any() bool { return c.card || c.times || c.seat || c.post || c.streets > 0 }

func (c textCues) or(d textCues) textCues {
	return textCues{c.card || d.card, c.times || d.times, c.seat || d.seat, c.post || d.post, c.streets + d.streets}
}

// maskRune reports whether r hides a card's digits: •••• 4242, **** 4242.
func maskRune(r rune) bool {
	switch r {
	case '•', '·', '∙', '●', '◦', '*', '✱':
		return true
	}
	return false
}

// mayCue reports whether s holds a digit or a 〒: no text without one shows a cue.
func mayCue(s string) bool {
	for i := 0; i < len(s); i++ {
		if b := s[i]; '0' <= b && b <= '9' || b == 0xe3 && strings.HasPrefix(s[i:], "〒") {
			return true
		}
	}
	return false
}

// scanCues reads s's cues in one pass: a masked card (•••• 4242, **** 4242, xxxx 4242),
// a time or date (14:35, 7h30, 29.11.2026, 2026-11-29, 11月29日), a seat (12A, F12), a
// postcode (five or six digits, 00-590, 100-0005, 01310-100, 〒) and a house number (up
// to four digits beside words: 221B Baker Street, ul. Tverskaya 7, 丸の内1-1).
func scanCues(s string) textCues {
	var c textCues
	if strings.Contains(s, "〒") {
		c.post = true
	}
	letters, street := false, false
	masks := 0 // mask runes in a row (spaces between allowed)
	prev := rune(-1)
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf && b != '*' && b != 'x' && b != 'X' && b != ' ' && (b < '0' || b > '9') {
			// ASCII that is no mask and no digit: the common case, read without decoding.
			if 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' {
				letters = true
			}
			masks = 0
			prev = rune(b)
			i++
			continue
		}
		if b := s[i]; letters && b >= utf8.RuneSelf && b != 0xC2 && b != 0xE2 {
			// Letters of other scripts once a letter is seen: no mask (those start with C2 or
			// E2), no digit, no space; only the last of them is kept, as prev.
			j := i + 1
			for j < len(s) && s[j] >= utf8.RuneSelf && s[j] != 0xC2 && s[j] != 0xE2 {
				j++
			}
			prev, _ = utf8.DecodeLastRuneInString(s[i:j])
			masks = 0
			i = j
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case maskRune(r), (r == 'x' || r == 'X') && masks > 0 || (r == 'x' || r == 'X') && strings.HasPrefix(strings.ToLower(s[i:]), "xxxx"):
			masks++
			prev = r
			i += n
			continue
		case r == ' ' && masks > 0:
			i += n
			continue
		case isASCIIDigit(r):
			j := i
			for j < len(s) && isASCIIDigit(rune(s[j])) {
				j++
			}
			run := j - i
			next := rune(-1)
			if j < len(s) {
				next, _ = utf8.DecodeRuneInString(s[j:])
			}
			if masks >= 2 && run >= 2 && run <= 4 {
				c.card = true
			}
			digitsAt := func(k, lo, hi int) int { // the digits at s[k:], if lo..hi of them and no more
				m := k
				for m < len(s) && isASCIIDigit(rune(s[m])) {
					m++
				}
				if m-k < lo || m-k > hi {
					return -1
				}
				return m
			}
			joined := (prev == '.' || prev == ',' || prev == ':') || isASCIIDigit(prev)
			switch {
			case run <= 2 && (next == ':' || next == 'h') && !joined:
				if m := digitsAt(j+1, 2, 2); m > 0 && s[j+1] <= '5' {
					c.times = true
				}
			case run <= 2 && (next == '.' || next == '/') && !joined:
				if m := digitsAt(j+1, 1, 2); m > 0 && m < len(s) && (s[m] == '.' || s[m] == '/') && digitsAt(m+1, 2, 4) > 0 {
					c.times = true
				}
			case run == 4 && next == '-':
				if m := digitsAt(j+1, 2, 2); m > 0 && m < len(s) && s[m] == '-' && digitsAt(m+1, 2, 2) > 0 {
					c.times = true
				}
			case run <= 2 && next == '月':
				c.times = true
			}
			if !joined {
				switch {
				case (run == 5 || run == 6) && !(next == '.' || next == ',' || next == ':') && next != '-':
					c.post = true
				case next == '-' && (run == 2 && digitsAt(j+1, 3, 3) > 0 || run == 3 && digitsAt(j+1, 4, 4) > 0 || run == 5 && digitsAt(j+1, 3, 3) > 0):
					c.post = true
				}
				if run <= 4 && !(next == '.' || next == ',' || next == ':' || next == '%') {
					street = true
				}
				if run <= 2 && (next >= 'A' && next <= 'K') && !letterAt(s, j+1) && !unicode.IsLetter(prev) ||
					run <= 2 && prev >= 'A' && prev <= 'Z' && i >= 2 && !unicode.IsLetter(runeBefore(s, i-1)) && !unicode.IsLetter(next) && !isASCIIDigit(next) {
					c.seat = true
				}
			}
			prev = rune(s[j-1])
			masks = 0
			i = j
			continue
		}
		if !letters && unicode.IsLetter(r) {
			letters = true
		}
		masks = 0
		prev = r
		i += n
	}
	if street && letters {
		c.streets = 1
	}
	return c
}

func isASCIIDigit(r rune) bool { return r >= '0' && r <= '9' }

// letterAt reports whether a letter starts at s[i:].
func letterAt(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsLetter(r)
}

// runeBefore is the rune that ends s[:i] (-1: none).
func runeBefore(s string, i int) rune {
	if i <= 0 {
		return -1
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return r
}
