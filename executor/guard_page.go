package executor

import (
	"regexp"
	"strings"

	"github.com/fairy-go/fairy/perception"
)

// sliderWords mark a control that acts when dragged.
var sliderWords = regexp.MustCompile(`(?i)\b(slide|swipe)\b|滑动|滑块|スライド|deslizar|wischen|schieben|glisser|сдвиньте|밀어`)

// isSlider reports whether el acts when dragged: a seek bar or slider, or a control that
// says to slide or swipe.
func isSlider(el *perception.Element) bool {
	c := strings.ToLower(el.Class)
	return strings.Contains(c, "seekbar") || strings.Contains(c, "slider") || sliderWords.MatchString(normLabel(label(el)))
}

// elementAt is the smallest element of s whose bounds hold (x, y).
func elementAt(s *perception.Screen, x, y int) *perception.Element {
	var best *perception.Element
	for i := range s.Elements {
		e := &s.Elements[i]
		b := e.Bounds
		if x < b.X1 || x >= b.X2 || y < b.Y1 || y >= b.Y2 {
			continue
		}
		if best == nil || (b.X2-b.X1)*(b.Y2-b.Y1) < (best.Bounds.X2-best.Bounds.X1)*(best.Bounds.Y2-best.Bounds.Y1) {
			best = e
		}
	}
	if best == nil {
		return readNear(s, x, y)
	}
	return best
}

// amountPattern finds an amount of money: a currency sign or code before or after a
// number, or a number with two decimals ("Total 18.00").
var amountPattern = regexp.MustCompile(`(?i)([$€£¥￥₽₩₹₺₫฿]|\b(?:US\$|R\$|CHF|USD|EUR|GBP|JPY|CNY|RMB|RUB|KRW|BRL|MXN)\s?)\s?\d[\d.,\s]*|\d[\d.,]*\s?([€£₽₩円元원]|руб|\b(?:EUR|USD|CHF|GBP|BRL)\b)|\b\d{1,3}(?:[.,\s]\d{3})*[.,]\d{2}\b`)

// pageCategory is the first rule whose page words are in s's own text (static texts and
// the texts inside elements, never the labels of buttons), with an amount of money on
// the page where the rule needs one.
func (g *Guard) pageCategory(s *perception.Screen) (compiledRule, bool) {
	if s == nil {
		return compiledRule{}, false
	}
	// A screen is judged many times (every element of it for Offers and submit): its
	// category is worked out once.
	g.mu.Lock()
	if g.lastPage == s {
		r, ok := g.lastRule, g.lastOK
		g.mu.Unlock()
		return r, ok
	}
	g.mu.Unlock()
	r, ok := g.pageCategoryOf(s)
	g.mu.Lock()
	g.lastPage, g.lastRule, g.lastOK = s, r, ok
	g.mu.Unlock()
	return r, ok
}

func (g *Guard) pageCategoryOf(s *perception.Screen) (compiledRule, bool) {
	var texts, all []string
	for _, t := range s.Context {
		texts = append(texts, normLabel(t))
		all = append(all, normLabel(t))
	}
	password := false
	for i := range s.Elements {
		e := &s.Elements[i]
		for _, t := range e.Texts {
			texts = append(texts, normLabel(t))
			all = append(all, normLabel(t))
		}
		all = append(all, normLabel(e.Label))
		if e.FromPicture {
			texts = append(texts, normLabel(e.Label)) // read text is the page's text too
		}
		password = password || e.Password
	}
	money := false
	for _, t := range all {
		if amountPattern.MatchString(t) {
			money = true
			break
		}
	}
	for _, r := range g.rules {
		if r.Amount && !money {
			continue
		}
		if r.Amount && password {
			return r, true // a password or PIN asked on a page that shows an amount
		}
		for _, re := range r.page {
			for _, t := range texts {
				if re.MatchString(t) {
					return r, true
				}
			}
		}
	}
	return compiledRule{}, false
}

// pageAmounts lists the amounts of money s shows, in reading order.
func pageAmounts(s *perception.Screen) string {
	var out []string
	add := func(t string) {
		for _, m := range amountPattern.FindAllString(t, -1) {
			out = append(out, strings.TrimSpace(m))
		}
	}
	for _, t := range s.Context {
		add(t)
	}
	for i := range s.Elements {
		add(s.Elements[i].Label)
		for _, t := range s.Elements[i].Texts {
			add(t)
		}
	}
	return strings.Join(out, " ")
}
