package prompts

import (
	"regexp"
	"strings"
	"time"
	"unicode"
)

// clockText is the phone's clock as the prompts say it: weekday, date, time and the zone
// the phone names ("Saturday, November 28, 2026, 21:14 (UTC)"); "next week", "today" and
// "the next meeting" are settled against it.
func clockText(t time.Time) string { return t.Format("Monday, January 2, 2006, 15:04 (MST)") }

// askedFormat finds the answer format a person asks for: "Express your answer in the
// format <month name> <day> <year>", "Give the answer as a single integer", "Answer in
// the format …". Group 1 is the format, from its "in" or "as" to the sentence's end.
// A bare "answer" counts only where a sentence starts or after "and" (a planner's "Read
// the meeting and answer in the format …"): "Text Bob the answer as a single integer"
// asks for a message, not for a Finish answer of that form.
var askedFormat = regexp.MustCompile(`(?im)(?:\b(?:express|give|write|provide|state|return|format)\s+(?:your|the)\s+answer|(?:^|[.?!:]\s+|\band\s+)(?:please\s+|kindly\s+)?answer)\s+((?:in|as)\s[^\n]*?)\s*(?:\.(?:\s|$)|\?|$)`)

// AnswerFormat returns the answer format an instruction or a task asks for ("in the
// format <month name> <day> <year>", "as a single integer"), or "" when it asks for none.
// The format travels with the task to the role that writes the answer (the decider's
// Finish) and to the finish check, which holds an answer of another form (FitsFormat).
func AnswerFormat(text string) string {
	m := askedFormat.FindStringSubmatch(text)
	if m == nil {
		return ""
	}
	return strings.TrimSpace(m[1])
}

// placeholder is a <…> slot of an asked format.
var placeholder = regexp.MustCompile(`<([^<>]{1,60})>`)

// months are the month names an answer may use for <month name>: the full names, as the
// benchmark's strptime "%B" reads them ("Oct" is no month name there, and the task fails).
const months = `January|February|March|April|May|June|July|August|September|October|November|December`

// slotPattern is what fills one <…> slot, by the words that name it.
func slotPattern(name string) string {
	n := strings.ToLower(name)
	switch {
	case strings.Contains(n, "amount"), strings.Contains(n, "number"), strings.Contains(n, "quantity"):
		// First: "<number of minutes>" is a count, not a clock's two-digit minutes.
		// \p{No} holds the vulgar fractions ("½ cup").
		return `(?:[\d\p{No}][\d\p{No}.,/ ]*|[\p{L}-]+)`
	case strings.Contains(n, "month name"):
		return `(?i:` + months + `)`
	case strings.Contains(n, "year"):
		return `\d{4}`
	case strings.Contains(n, "month"), strings.Contains(n, "hour"):
		return `\d{1,2}`
	case strings.Contains(n, "day"):
		return `\d{1,2}` // no "5th": the benchmark's "%d" reads digits only
	case strings.Contains(n, "minute"), strings.Contains(n, "second"):
		return `\d{2}`
	case strings.Contains(n, "unit"):
		return `[\p{L}][\p{L}. -]*`
	}
	return `.+?`
}

// formatPattern compiles an asked format into a pattern of the whole answer; ok is false
// for a format whose form cannot be told from its words (then the model judges it).
func formatPattern(format string) (*regexp.Regexp, bool) {
	f := strings.ToLower(format)
	var one string
	switch {
	case placeholder.MatchString(format):
		locs := placeholder.FindAllStringSubmatchIndex(format, -1)
		var b strings.Builder
		for i, l := range locs {
			if i > 0 {
				b.WriteString(literal(format[locs[i-1][1]:l[0]]))
			}
			b.WriteString(slotPattern(format[l[2]:l[3]]))
		}
		one = b.String()
	case strings.Contains(f, "integer"):
		one = `[-+]?\d+`
	case strings.Contains(f, "single number") || strings.Contains(f, "as a number") || strings.Contains(f, "as just a number"):
		one = `[-+]?\d+(?:\.\d+)?`
	default:
		return nil, false
	}
	if strings.Contains(f, "single") {
		// "as a single integer": one answer; "1,234" is no integer to the benchmark's float().
		return regexp.MustCompile(`^(?:` + one + `)$`), true
	}
	// Several answers (several events on one day) are listed with commas.
	return regexp.MustCompile(`^(?:` + one + `)(?:\s*,\s*(?:` + one + `))*$`), true
}

// literal is the text between two slots as a pattern: its punctuation kept, any run of
// spaces as any run of spaces, or none ("<amount> <unit>" holds a recipe's "200g").
func literal(s string) string {
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return `\s*`
	}
	parts := make([]string, len(fields))
	for i, w := range fields {
		parts[i] = regexp.QuoteMeta(w)
	}
	// Spaces around it only where the format has them: "<hour>:<minutes>" is "09:45" (the
	// benchmark's strptime "%H:%M" refuses "09 : 45").
	lead, trail := "", ""
	if strings.TrimLeftFunc(s, unicode.IsSpace) != s {
		lead = `\s*`
	}
	if strings.TrimRightFunc(s, unicode.IsSpace) != s {
		trail = `\s*`
	}
	return lead + strings.Join(parts, `\s+`) + trail
}

// FitsFormat reports whether answer has the form format asks for. known is false when
// the form cannot be told from the format's words; the finish check's model judges it
// then. A trailing full stop is no part of the form.
func FitsFormat(format, answer string) (fits, known bool) {
	re, ok := formatPattern(format)
	if !ok {
		return true, false
	}
	a := strings.TrimSuffix(strings.TrimSpace(answer), ".")
	return re.MatchString(strings.TrimSpace(a)), true
}
