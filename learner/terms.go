package learner

import "github.com/fairy-go/fairy/knowledge"

// Matching a sub-goal against pages. Text becomes terms the way the knowledge store's
// trick search makes them (knowledge.Terms), so English and Chinese both work, with two
// additions for pages: camelCase resource ids split into words, and the words every page
// and sub-goal share ("button", "screen", "tap", ...) dropped as well.

// terms returns the distinct terms of text.
func terms(text string) map[string]bool {
	ts := knowledge.Tokenizer{Stop: stopWords, Camel: true}.Terms(text)
	out := make(map[string]bool, len(ts))
	for _, t := range ts {
		out[t] = true
	}
	return out
}

// stopWords are the words that say nothing about one page, on top of the English stop
// words knowledge.Terms drops.
var stopWords = map[string]bool{
	"page": true, "screen": true, "app": true, "go": true, "open": true, "tap": true, "click": true,
	"btn": true, "button": true, "id": true, "view": true, "layout": true, "com": true, "android": true,
	"widget": true, "find": true, "get": true, "navigate": true,
}
