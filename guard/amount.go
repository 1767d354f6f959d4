package guard

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/currency"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Amount is an amount of money a text shows, read once for everyone who names one: the
// guard (a page that shows one pays), the consent question (the amount a yes pays) and the
// evaluation's judging person (whether a question named it).
type Amount struct {
	// Text is the amount as the text shows it, read the guard's way (compatibility forms
	// folded, invisible characters dropped): "R$ 36,00", "150.000₫".
	Text string
	// Value is its number in ASCII digits, with a '.' before its decimals and no grouping:
	// "36.00", "150000".
	Value string
	// Currency is its ISO 4217 code (BRL), or a crypto-asset's ticker (USDT); "" when the
	// text names none ("Total 18.00") or a symbol the locale does not settle ("kr").
	Currency string
}

// cryptoTickers are crypto-assets' tickers and signs, written after (or before) an amount
// like a currency's code: "300 USDT", "0.5 ETH", "₿0.01". CLDR and ISO 4217, where every
// other currency symbol comes from (guard_currency.txt), have none of them, so they are
// listed here: the most traded assets and the stablecoins payments are made in.
var cryptoTickers = []string{"BTC", "ETH", "USDT", "USDC", "BNB", "SOL", "XRP", "ADA", "DOGE", "TRX", "TON", "DAI", "LTC", "MATIC", "DOT", "AVAX", "SHIB", "XLM", "₿", "Ξ"}

// cryptoSigns are the tickers of the signs in cryptoTickers.
var cryptoSigns = map[string]string{"₿": "BTC", "Ξ": "ETH"}

// localSymbols are currency abbreviations written with a full stop that CLDR gives without
// one: South Asia's rupee "Rs." ("Rs. 300", "Rs.300/-"), Indonesia's "Rp.". The full stop
// is kept in the set (a symbol without it is in guard_currency.txt already).
var localSymbols = []string{"Rs.", "Re.", "Rp."}

// reader is the text reader ReadAmounts shares (the guard's tables, built once on first
// use: about 8 ms).
var reader = sync.OnceValue(newTextReader)

// ReadAmounts returns the amounts of money text shows, in order: a number in any script's
// digits and any locale's grouping with a currency symbol or code before or after it
// (CLDR's, through golang.org/x/text, and crypto-assets' tickers), or a number with
// exactly two decimals. locale (a BCP 47 tag; "" when unknown) is the language of the
// text: it settles a symbol several currencies share ("¥" is CNY in Chinese, JPY
// otherwise; "Rs" is INR in en-IN, PKR in ur-PK).
func ReadAmounts(text, locale string) []Amount {
	rd := reader()
	n := rd.normLabel(text)
	spans := rd.findAmounts(n)
	if len(spans) == 0 {
		return nil
	}
	out := make([]Amount, 0, len(spans))
	for _, sp := range spans {
		out = append(out, readAmount(n[sp.start:sp.end], locale))
	}
	return out
}

// FirstAmount is the text of the first amount of money text shows ("" when none), as
// ReadAmounts reads it.
func FirstAmount(text string) string {
	rd := reader()
	n := rd.normLabel(text)
	var buf [1]span
	if as := rd.appendAmounts(buf[:0], n, true); len(as) > 0 {
		return n[as[0].start:as[0].end]
	}
	return ""
}

// readAmount reads one amount found by findAmounts: its number and its symbol.
func readAmount(s, locale string) Amount {
	first := strings.IndexFunc(s, unicode.IsDigit)
	last := strings.LastIndexFunc(s, unicode.IsDigit)
	if first < 0 {
		return Amount{Text: s}
	}
	_, n := utf8.DecodeRuneInString(s[last:])
	num := s[first : last+n]
	sym := strings.TrimSpace(s[:first] + s[last+n:])
	a := Amount{Text: s, Currency: currencyOf(sym, locale)}
	a.Value = plainNumber(num, scaleOf(a.Currency))
	return a
}

// scaleOf is how many decimals code's amounts have (ISO 4217's minor unit: 2 for EUR, 0
// for VND and JPY, 3 for BHD); 2 when the currency is unknown, 8 for a crypto-asset.
func scaleOf(code string) int {
	if code == "" {
		return 2
	}
	u, err := currency.ParseISO(code)
	if err != nil {
		return 8
	}
	scale, _ := currency.Standard.Rounding(u)
	return scale
}

// plainNumber writes a number as shown (1.234,50 · 1,234.50 · 1 234,50 · 12'345 ·
// ١٬٢٣٤٫٥٠ · १२३) in ASCII digits with a '.' before its decimals. Which of '.' and ','
// is the decimal mark depends on the text's locale, which a phone's screen does not tell
// (a Polish shop shows "36,00 zł" on a phone set to English): the last of two different
// marks is the decimal one; a mark that appears once is a grouping when three digits
// follow it and the currency has no three decimals, or a decimal mark otherwise ("36,00",
// "0.500"). (bojanz/currency's Formatter.Parse, the locale-aware parser, was tried and
// needs the text's locale and currency given: with the phone's "en" it reads "36,00 €" as
// 3600 and "R$ 36,00" as 3600, and fails on "36,00 zł" and "₺120".)
func plainNumber(num string, scale int) string {
	type mark struct {
		r   rune
		at  int // index in digits where the mark stands (digits before it)
		cnt int // digits after it, up to the next mark
	}
	var digits []byte
	var marks []mark
	for _, r := range num {
		switch {
		case unicode.IsDigit(r):
			digits = append(digits, byte('0'+digitValue(r)))
			if len(marks) > 0 {
				marks[len(marks)-1].cnt++
			}
		case r == '.' || r == ',' || r == '٫' || r == '٬' || r == '\'' || r == '’' || isSpace(r):
			marks = append(marks, mark{r: r, at: len(digits)})
		}
	}
	decimal := -1 // the index in marks of the decimal mark
	if len(marks) > 0 {
		lastMark := marks[len(marks)-1]
		same := 0
		for _, m := range marks {
			if m.r == lastMark.r {
				same++
			}
		}
		switch {
		case lastMark.r == '٫':
			decimal = len(marks) - 1
		case lastMark.r != '.' && lastMark.r != ',':
			// spaces, apostrophes and the Arabic thousands separator only group
		case same < len(marks):
			decimal = len(marks) - 1 // "1.234,50", "1,234.50"
		case same > 1:
			// "1.234.567": a mark used twice groups
		case lastMark.cnt != 3 || scale == 3 || lastMark.at == 1 && digits[0] == '0':
			decimal = len(marks) - 1 // "36,00", "0.500", "1.5"
		}
	}
	if decimal < 0 {
		return string(digits)
	}
	at := marks[decimal].at
	return string(digits[:at]) + "." + string(digits[at:])
}

// digitValue is the value of a decimal digit of any script: Unicode writes each script's
// digits as a run of ten code points from zero, and runs of several (the mathematical
// digits) one after another.
func digitValue(r rune) int {
	if r >= '0' && r <= '9' {
		return int(r - '0')
	}
	k := 0
	for unicode.IsDigit(r - rune(k) - 1) {
		k++
	}
	return k % 10
}

// symbols maps each currency symbol (read the guard's way) to the currencies CLDR writes
// it for: every region's currency, by its symbol and narrow symbol in the region's own
// language and in English, and its ISO code. Built on first use (about 4 ms).
var symbols = sync.OnceValue(func() map[string][]currency.Unit {
	rd := reader()
	out := map[string][]currency.Unit{}
	add := func(sym string, u currency.Unit) {
		sym = strings.TrimSpace(strings.Map(func(r rune) rune {
			if r == '\u200f' || r == '\u200e' || r == '\u061c' {
				return -1
			}
			return r
		}, sym))
		if sym == "" {
			return
		}
		for _, s := range []string{rd.normLabel(sym), strings.TrimRight(rd.normLabel(sym), ".")} {
			if s != "" && !containsUnit(out[s], u) {
				out[s] = append(out[s], u)
			}
		}
	}
	en := message.NewPrinter(language.English)
	for a := 'A'; a <= 'Z'; a++ {
		for z := 'A'; z <= 'Z'; z++ {
			r, err := language.ParseRegion(string([]rune{a, z}))
			if err != nil {
				continue
			}
			u, ok := currency.FromRegion(r)
			if !ok {
				continue
			}
			base, _ := language.Make("und-" + r.String()).Base()
			tag, err := language.Compose(base, r)
			if err != nil {
				continue
			}
			p := message.NewPrinter(tag)
			for _, f := range []currency.Formatter{currency.Symbol, currency.NarrowSymbol} {
				add(p.Sprint(f(u)), u)
				add(en.Sprint(f(u)), u)
			}
			add(u.String(), u)
		}
	}
	return out
})

// containsUnit reports whether us holds u.
func containsUnit(us []currency.Unit, u currency.Unit) bool {
	for _, x := range us {
		if x == u {
			return true
		}
	}
	return false
}

// localCodes are the currencies of localSymbols and of the unit words findAmounts knows
// that CLDR records as names, not symbols (or, for "Rs", in one language only): the rupees
// of South Asia and the Indian Ocean, and the words of unitWords.
var localCodes = map[string][]string{"Rs": {"INR", "PKR", "LKR", "NPR", "MUR", "SCR"}, "Re": {"INR", "PKR", "LKR", "NPR", "MUR", "SCR"},
	"Rp": {"IDR"}, "元": {"CNY"}, "円": {"JPY"}, "원": {"KRW"}, "руб": {"RUB"}, "р": {"RUB", "BYN"}, "грн": {"UAH"}, "тг": {"KZT"}, "₸": {"KZT"},
	"Kč": {"CZK"}, "Ft": {"HUF"}, "zł": {"PLN"}, "TL": {"TRY"}}

// currencyOf is the currency a symbol written beside a number names ("" when none or not
// settled): its only currency, else the one of locale's region, else the one English
// writes with that very symbol ("$" is USD, "¥" JPY, "£" GBP).
func currencyOf(sym, locale string) string {
	if sym == "" {
		return ""
	}
	if t, ok := cryptoSigns[sym]; ok {
		return t
	}
	for _, t := range cryptoTickers {
		if strings.EqualFold(sym, t) {
			return t
		}
	}
	us := slices.Clone(symbols()[sym])
	if len(us) == 0 {
		us = slices.Clone(symbols()[strings.TrimRight(sym, ".")])
	}
	for _, c := range localCodes[strings.TrimRight(sym, ".")] {
		if u, err := currency.ParseISO(c); err == nil && !containsUnit(us, u) {
			us = append(us, u)
		}
	}
	switch len(us) {
	case 0:
		return ""
	case 1:
		return us[0].String()
	}
	if locale != "" {
		if t, err := language.Parse(locale); err == nil {
			if u, conf := currency.FromTag(t); conf != language.No && containsUnit(us, u) {
				return u.String()
			}
		}
	}
	en := message.NewPrinter(language.English)
	found := ""
	for _, u := range us {
		if en.Sprint(currency.Symbol(u)) == sym {
			if found != "" {
				return ""
			}
			found = u.String()
		}
	}
	return found
}

// OnlyAmount reports whether text shows an amount of money and nothing else ("¥24", "36,00 €"):
// a price beside a row, not the row's name.
func OnlyAmount(text string) bool {
	rd := reader()
	n := strings.TrimSpace(rd.normLabel(text))
	var buf [1]span
	as := rd.appendAmounts(buf[:0], n, true)
	return len(as) == 1 && as[0].start == 0 && as[0].end == len(n)
}
