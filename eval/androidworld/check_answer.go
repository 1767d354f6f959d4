package androidworld

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/fairy-go/fairy/eval/suite"
)

// Checks: answers.

// answerKind is an Expectation's match type: how each part of the answer is cast before
// it is compared (proto_utils._cast_answers_to_type). A part that does not cast scores
// the task 0, as the benchmark's ValueError does.
type answerKind string

const (
	answerString   answerKind = "string"    // str(); fuzzy 0.9, case ignored
	answerNumber   answerKind = "number"    // Python float(); equal, or closer than Tolerance
	answerDate     answerKind = "date"      // strptime "%B %d %Y"; the same day
	answerTime     answerKind = "time"      // strptime "%H:%M"; the same minute
	answerDateTime answerKind = "date+time" // strptime "%B %d %Y %H:%M" (a DATE_MATCH with a TIME_MATCH)
)

// The benchmark's layouts (datetime_utils_ir.DATE_FORMAT and its time).
const (
	irDateLayout     = "%B %d %Y"
	irTimeLayout     = "%H:%M"
	irDateTimeLayout = irDateLayout + " " + irTimeLayout
)

// answerCheck is the information-retrieval check (proto_utils.check_agent_answer): the
// answer split on every comma, each part stripped (empty parts kept), cast as the match
// type says; as many parts as wanted, and every part matching some wanted value.
type answerCheck struct {
	Want []string // the expected values, written in the layout the kind casts
	As   answerKind
	// Tolerance, for numbers: |got − want| < Tolerance; nil compares them equal. The
	// benchmark's tolerance is a proto float, so it is read as a float32.
	Tolerance *float64
}

func (c *answerCheck) Kind() string  { return "answer" }
func (c *answerCheck) Virtual() bool { return false }
func (c *answerCheck) Describe() string {
	return fmt.Sprintf("answer is %q (%s, part by part)", strings.Join(c.Want, ", "), c.As)
}

func (c *answerCheck) Evaluate(_ context.Context, p suite.Probe) (bool, string, error) {
	want, err := c.cast(c.Want)
	if err != nil {
		return false, "", fmt.Errorf("androidworld: the expected answer %q: %w", c.Want, err)
	}
	ok, why := c.match(p.Answer, want)
	return ok, fmt.Sprintf("answer %q: %s", p.Answer, why), nil
}

// answerParts splits an answer as the benchmark does: on every comma, each part stripped
// of whitespace; "A, B," is three parts, the last empty.
func answerParts(s string) []string {
	parts := strings.Split(s, ",")
	for i, p := range parts {
		parts[i] = pyStrip(p)
	}
	return parts
}

func (c *answerCheck) match(answer string, want []any) (bool, string) {
	if answer == "" {
		return false, "no answer"
	}
	got, err := c.cast(answerParts(answer))
	if err != nil {
		return false, "answer given in the incorrect format: " + err.Error()
	}
	if len(got) != len(want) {
		return false, fmt.Sprintf("%d parts, want %d", len(got), len(want))
	}
	// all(any(...)): each part matches some wanted value; two parts may match the same.
	for i, g := range got {
		if !c.matchesAny(g, want) {
			return false, fmt.Sprintf("part %d (%q) matches none of %q", i+1, answerParts(answer)[i], c.Want)
		}
	}
	return true, "every part matches"
}

func (c *answerCheck) matchesAny(g any, want []any) bool {
	for _, w := range want {
		switch c.As {
		case answerString:
			if fuzzyMatch(g.(string), w.(string)) {
				return true
			}
		case answerNumber:
			x, y := g.(float64), w.(float64)
			if c.Tolerance != nil && math.Abs(x-y) < float64(float32(*c.Tolerance)) || c.Tolerance == nil && x == y {
				return true
			}
		default:
			if g.(time.Time).Equal(w.(time.Time)) {
				return true
			}
		}
	}
	return false
}

// cast casts every part as the kind says, or says which part does not cast.
func (c *answerCheck) cast(parts []string) ([]any, error) {
	out := make([]any, 0, len(parts))
	for _, p := range parts {
		var v any
		var err error
		switch c.As {
		case answerString:
			v = p
		case answerNumber:
			v, err = pyFloat(p)
		case answerDate:
			v, err = strptime(p, irDateLayout)
		case answerTime:
			v, err = strptime(p, irTimeLayout)
		case answerDateTime:
			v, err = strptime(p, irDateTimeLayout)
		default:
			err = fmt.Errorf("unknown answer kind %q", c.As)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// pyIsSpace is Python's str.isspace for one character.
func pyIsSpace(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f }

// pyStrip is Python's str.strip().
func pyStrip(s string) string { return strings.TrimFunc(s, pyIsSpace) }

// pyFloatRE is the literal Python's float() accepts once stripped: decimal digits with
// single underscores between them, a point, an exponent; or inf, infinity, nan.
var pyFloatRE = regexp.MustCompile(`^[+-]?(?:(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?|(?i:inf|infinity|nan))$`)

// pyFloat is Python's float(s) on a string: "12.5", " 1e3 ", "1_000" and "inf" cast;
// "12.5 km", "1,000", "0x10" and "" do not.
func pyFloat(s string) (float64, error) {
	t := pyStrip(s)
	if !pyFloatRE.MatchString(t) {
		return 0, fmt.Errorf("could not convert string to float: %q", s)
	}
	return strconv.ParseFloat(strings.ReplaceAll(t, "_", ""), 64)
}

// strptimeDirectives are the regular expressions of Python's _strptime for the
// directives the benchmark's layouts use.
var strptimeDirectives = map[byte]string{
	'B': `(?P<B>(?i:september|february|november|december|january|october|august|march|april|july|june|may))`,
	'd': `(?P<d>3[01]|[12]\d|0[1-9]|[1-9]| [1-9])`,
	'Y': `(?P<Y>\d\d\d\d)`,
	'H': `(?P<H>2[0-3]|[0-1]\d|\d)`,
	'M': `(?P<M>[0-5]\d|\d)`,
}

// strptimeRE is the regular expression of a layout: directives as _strptime writes them,
// whitespace as any run of whitespace, other characters literal, the whole string.
func strptimeRE(layout string) (*regexp.Regexp, error) {
	var re strings.Builder
	re.WriteString("^")
	for i := 0; i < len(layout); i++ {
		switch ch := layout[i]; {
		case ch == '%' && i+1 < len(layout):
			d, ok := strptimeDirectives[layout[i+1]]
			if !ok {
				return nil, fmt.Errorf("strptime: unsupported directive %%%c", layout[i+1])
			}
			re.WriteString(d)
			i++
		case ch == ' ':
			re.WriteString(`[\s\v\x{1c}-\x{1f}\p{Z}\x{85}]+`)
		default:
			re.WriteString(regexp.QuoteMeta(string(ch)))
		}
	}
	re.WriteString("$")
	return regexp.Compile(re.String())
}

// strptimeLayouts are the benchmark's layouts, compiled once.
var strptimeLayouts = func() map[string]*regexp.Regexp {
	out := map[string]*regexp.Regexp{}
	for _, l := range []string{irDateLayout, irTimeLayout, irDateTimeLayout} {
		out[l] = must(strptimeRE(l))
	}
	return out
}()

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// strptime is datetime.strptime(s, layout) for the benchmark's layouts (%B %d %Y %H %M):
// whitespace in the layout matches any run of whitespace, the whole string must match,
// and the date must exist. Missing fields default as Python's do (1900-01-01 00:00).
func strptime(s, layout string) (time.Time, error) {
	r, ok := strptimeLayouts[layout]
	if !ok {
		return time.Time{}, fmt.Errorf("strptime: layout %q is not the benchmark's", layout)
	}
	m := r.FindStringSubmatch(s)
	if m == nil {
		return time.Time{}, fmt.Errorf("time data %q does not match format %q", s, layout)
	}
	year, month, day, hour, minute := 1900, time.January, 1, 0, 0
	for i, name := range r.SubexpNames() {
		if name == "" {
			continue
		}
		v := strings.TrimSpace(m[i])
		switch name {
		case "B":
			for mo := time.January; mo <= time.December; mo++ {
				if strings.EqualFold(mo.String(), v) {
					month = mo
				}
			}
		case "d":
			day, _ = strconv.Atoi(v)
		case "Y":
			year, _ = strconv.Atoi(v)
		case "H":
			hour, _ = strconv.Atoi(v)
		case "M":
			minute, _ = strconv.Atoi(v)
		}
	}
	t := time.Date(year, month, day, hour, minute, 0, 0, time.UTC)
	if t.Day() != day {
		return time.Time{}, fmt.Errorf("time data %q: day is out of range for month", s)
	}
	return t, nil
}

// twelveHourRE is "%I:%M%p" and "%I%p": %I is 1–12 (one or two digits), %p AM or PM in
// any case.
var twelveHourRE = regexp.MustCompile(`^(1[0-2]|0[1-9]|[1-9])(?::([0-5]\d|\d))?((?i:am|pm))$`)

// parseTime is datetime_utils_ir.parse_time: "%H:%M", "%I:%M%p" or "%I%p" ("21:45",
// "1:30pm", "12am").
func parseTime(s string) (time.Time, error) {
	if t, err := strptime(s, irTimeLayout); err == nil {
		return t, nil
	}
	m := twelveHourRE.FindStringSubmatch(s)
	if m == nil {
		return time.Time{}, fmt.Errorf("time string %q does not match any known format", s)
	}
	h, _ := strconv.Atoi(m[1])
	mi, _ := strconv.Atoi(m[2])
	h %= 12
	if strings.EqualFold(m[3], "pm") {
		h += 12
	}
	return time.Date(1900, 1, 1, h, mi, 0, 0, time.UTC), nil
}

// pyFormatTime writes t as Python's strftime would with the benchmark's layouts
// ("October 05 2023 20:00": %d is zero-padded).
func pyFormatTime(t time.Time, layout string) string {
	r := strings.NewReplacer("%B", t.Month().String(), "%d", fmt.Sprintf("%02d", t.Day()), "%Y", fmt.Sprintf("%04d", t.Year()),
		"%H", fmt.Sprintf("%02d", t.Hour()), "%M", fmt.Sprintf("%02d", t.Minute()), "%A", t.Weekday().String())
	return r.Replace(layout)
}

var numberRE = regexp.MustCompile(`-?\d+(?:\.\d+)?`)

// parseNumber reads the first number in a row's field (check_rows.go compares numeric
// fields with it); answers are cast with pyFloat.
func parseNumber(s string) (float64, error) {
	m := numberRE.FindString(strings.ReplaceAll(s, ",", ""))
	if m == "" {
		return 0, fmt.Errorf("no number in %q", s)
	}
	return strconv.ParseFloat(m, 64)
}

// answerPairing is the reading of an answer stricter than the benchmark's: each wanted
// value matched by a part of its own ("Concert, Concert" for Concert and Game night passes
// the benchmark's all(any(...))). The benchmark does not score it, so it is a collateral
// check: reported apart, never failing the task.
type answerPairing struct{ Answer *answerCheck }

func (c *answerPairing) Kind() string     { return "answer-pairing" }
func (c *answerPairing) Virtual() bool    { return false }
func (c *answerPairing) Collateral() bool { return true }
func (c *answerPairing) Describe() string {
	return fmt.Sprintf("each of %q is answered by a part of its own", c.Answer.Want)
}

func (c *answerPairing) Evaluate(_ context.Context, p suite.Probe) (bool, string, error) {
	want, err := c.Answer.cast(c.Answer.Want)
	if err != nil {
		return false, "", fmt.Errorf("androidworld: the expected answer %q: %w", c.Answer.Want, err)
	}
	if ok, _ := c.Answer.match(p.Answer, want); !ok {
		return true, "the answer fails as the benchmark scores it: nothing apart to report", nil
	}
	got, _ := c.Answer.cast(answerParts(p.Answer))
	// A matching of parts to wanted values (augmenting paths; a handful of parts).
	owner := make([]int, len(want))
	for i := range owner {
		owner[i] = -1
	}
	var assign func(g int, seen []bool) bool
	assign = func(g int, seen []bool) bool {
		for w := range want {
			if seen[w] || !c.Answer.matchesAny(got[g], want[w:w+1]) {
				continue
			}
			seen[w] = true
			if owner[w] < 0 || assign(owner[w], seen) {
				owner[w] = g
				return true
			}
		}
		return false
	}
	for g := range got {
		if !assign(g, make([]bool, len(want))) {
			return false, fmt.Sprintf("answer %q: the benchmark passes it, but a part repeats what another answers and a wanted value has none", p.Answer), nil
		}
	}
	return true, fmt.Sprintf("answer %q: every wanted value has a part of its own", p.Answer), nil
}
