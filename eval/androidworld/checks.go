package androidworld

import (
	"context"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/sim"
	"github.com/pmezard/go-difflib/difflib"
)

// The checks of the benchmark (android_world/task_evals/common_validators), as
// eval.CustomCheck values. What AndroidWorld reads through adb (settings, files, the app
// in front) is read through the device's shell; app databases are read from the virtual
// phone behind State, so the same checks could read an emulator's databases instead.

// state reads an app's rows ("package:collection").
type state interface {
	Records(collection string) ([]sim.Record, error)
}

func phoneState(p eval.Probe) (state, error) {
	if p.Phone == nil {
		return nil, fmt.Errorf("no app database to read (the virtual phone's state)")
	}
	return p.Phone, nil
}

// fuzzyMatch is the benchmark's fuzzy_match: difflib's ratio ≥ 0.9, case ignored.
func fuzzyMatch(a, b string) bool {
	a, b = strings.ToLower(strings.TrimSpace(a)), strings.ToLower(strings.TrimSpace(b))
	m := difflib.NewMatcher(splitChars(a), splitChars(b))
	return m.Ratio() >= 0.9
}

func splitChars(s string) []string {
	out := make([]string, 0, len(s))
	for _, r := range s {
		out = append(out, string(r))
	}
	return out
}

// digits keeps a phone number's digits (and a leading +): the benchmark removes spaces
// and dashes before comparing numbers.
func digits(s string) string {
	var b strings.Builder
	for i, r := range strings.TrimSpace(s) {
		if r >= '0' && r <= '9' || (r == '+' && i == 0) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ---- rows: addition and removal integrity ----

// rowsCheck holds the rows of a collection as the setup seeded them. After the task,
// the rows whose ids are in Removed must be gone, exactly len(Added) new rows must be
// there, each matching one Added (fields compared with fuzzy match; "phone" fields by
// digits), and every other row must be unchanged (sqlite_validators' integrity checks).
//
// With OneOf, exactly one of those rows must be gone, any of them (the benchmark's
// duplicate removal: either copy may go).
type rowsCheck struct {
	Collection string
	Before     []sim.Record
	Removed    []string
	OneOf      []string
	Added      []map[string]string
	// Updated are rows that must have changed: their id → the fields they must now have
	// (fuzzy, as Added); their other fields must be unchanged.
	Updated map[string]map[string]string
}

func (c *rowsCheck) Kind() string  { return "rows" }
func (c *rowsCheck) Virtual() bool { return true }
func (c *rowsCheck) Describe() string {
	return fmt.Sprintf("%s: %d rows removed, %d added, the other %d unchanged", c.Collection, len(c.Removed), len(c.Added), len(c.Before)-len(c.Removed))
}

func (c *rowsCheck) Evaluate(_ context.Context, p eval.Probe) (bool, string, error) {
	st, err := phoneState(p)
	if err != nil {
		return false, "", err
	}
	after, err := st.Records(c.Collection)
	if err != nil {
		return false, "", err
	}
	if len(c.OneOf) == 0 {
		return c.compare(after)
	}
	var ev []string
	for _, id := range c.OneOf {
		one := *c
		one.OneOf, one.Removed = nil, append(slices.Clone(c.Removed), id)
		ok, e, err := one.compare(after)
		if ok || err != nil {
			return ok, e, err
		}
		ev = append(ev, fmt.Sprintf("without %s: %s", id, e))
	}
	return false, strings.Join(ev, " | "), nil
}

func (c *rowsCheck) compare(after []sim.Record) (bool, string, error) {
	before := map[string]sim.Record{}
	for _, r := range c.Before {
		before[r["id"]] = r
	}
	var probs []string
	now := map[string]sim.Record{}
	var added []sim.Record
	for _, r := range after {
		if _, ok := before[r["id"]]; ok {
			now[r["id"]] = r
		} else {
			added = append(added, r)
		}
	}
	for _, id := range c.Removed {
		if r, ok := now[id]; ok {
			probs = append(probs, fmt.Sprintf("row %s (%s) is still there", id, rowText(r)))
		}
	}
	for _, r := range c.Before {
		id := r["id"]
		if slices.Contains(c.Removed, id) {
			continue
		}
		a, ok := now[id]
		want, updated := c.Updated[id]
		if updated && ok {
			r = maps.Clone(r)
			for k, v := range want {
				if !rowMatches(sim.Record{k: a[k]}, map[string]string{k: v}) {
					probs = append(probs, fmt.Sprintf("row %s: %s is %q, want %q", id, k, a[k], v))
				}
				r[k] = a[k]
			}
		}
		switch {
		case !ok:
			probs = append(probs, fmt.Sprintf("row %s (%s) was removed", id, rowText(r)))
		case !maps.Equal(a, r):
			probs = append(probs, fmt.Sprintf("row %s changed: %s → %s", id, rowText(r), rowText(a)))
		}
	}
	if len(added) != len(c.Added) {
		probs = append(probs, fmt.Sprintf("%d rows added, want %d", len(added), len(c.Added)))
	}
	used := make([]bool, len(added))
	for _, want := range c.Added {
		found := false
		for i, a := range added {
			if !used[i] && rowMatches(a, want) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			probs = append(probs, fmt.Sprintf("no added row like %s", rowText(want)))
		}
	}
	ev := fmt.Sprintf("%s: %d rows before, %d after", c.Collection, len(c.Before), len(after))
	if len(probs) > 0 {
		if len(probs) > 6 {
			probs = append(probs[:6], fmt.Sprintf("… %d more", len(probs)-6))
		}
		return false, ev + "; " + strings.Join(probs, "; "), nil
	}
	return true, ev, nil
}

func rowMatches(r sim.Record, want map[string]string) bool {
	for k, v := range want {
		got := r[k]
		if k == "phone" || k == "number" {
			if digits(got) != digits(v) {
				return false
			}
			continue
		}
		if k == "time" || k == "date" { // compared as times and dates, not as text
			if !sameWhen(k, got, v) {
				return false
			}
			continue
		}
		if k == "amount" {
			g, err1 := parseNumber(got)
			w, err2 := parseNumber(v)
			if err1 != nil || err2 != nil || math.Abs(g-w) > 0.005 {
				return false
			}
			continue
		}
		if !fuzzyMatch(got, v) {
			return false
		}
	}
	return true
}

func rowText(r map[string]string) string {
	keys := slices.Sorted(maps.Keys(r))
	var parts []string
	for _, k := range keys {
		if k != "id" {
			parts = append(parts, fmt.Sprintf("%s=%q", k, r[k]))
		}
	}
	return strings.Join(parts, " ")
}

// ---- a text sent to a number ----

// smsCheck: an outgoing message to Number (digits compared) whose text fuzzy-matches
// Text, as sms_validators.was_sent; with App set, that app must be in front too.
type smsCheck struct {
	Number, Text string
	App          string
}

func (c *smsCheck) Kind() string  { return "sms" }
func (c *smsCheck) Virtual() bool { return true }
func (c *smsCheck) Describe() string {
	return fmt.Sprintf("a text to %s saying %q", c.Number, c.Text)
}

func (c *smsCheck) Evaluate(ctx context.Context, p eval.Probe) (bool, string, error) {
	st, err := phoneState(p)
	if err != nil {
		return false, "", err
	}
	rows, err := st.Records(messagesPkg + ":messages")
	if err != nil {
		return false, "", err
	}
	ok, ev := c.sent(rows)
	if ok && c.App != "" {
		fg, err := foreground(ctx, p)
		if err != nil {
			return false, "", err
		}
		if fg != c.App {
			return false, ev + "; but " + fg + " is in front, not " + c.App, nil
		}
	}
	return ok, ev, nil
}

func (c *smsCheck) sent(rows []sim.Record) (bool, string) {
	var seen []string
	for _, r := range rows {
		if r["dir"] != "out" {
			continue
		}
		seen = append(seen, fmt.Sprintf("to %s: %q", r["phone"], r["text"]))
		if digits(r["phone"]) == digits(c.Number) && fuzzyMatch(r["text"], c.Text) {
			return true, "sent to " + r["phone"] + ": " + strconv.Quote(r["text"])
		}
	}
	return false, fmt.Sprintf("no such text among %d sent: %s", len(seen), strings.Join(lastN(seen, 4), "; "))
}

// ---- a setting, through `settings get` ----

// settingCheck reads `settings get NS KEY` in the device's shell (as the benchmark does)
// and wants one of Want.
type settingCheck struct {
	Namespace, Key string
	Want           []string
}

func (c *settingCheck) Kind() string  { return "setting" }
func (c *settingCheck) Virtual() bool { return false }
func (c *settingCheck) Describe() string {
	return fmt.Sprintf("settings get %s %s is %s", c.Namespace, c.Key, strings.Join(c.Want, " or "))
}

func (c *settingCheck) Evaluate(ctx context.Context, p eval.Probe) (bool, string, error) {
	out, err := shell(ctx, p, "settings get "+c.Namespace+" "+c.Key)
	if err != nil {
		return false, "", err
	}
	v := strings.TrimSpace(out)
	return slices.Contains(c.Want, v), fmt.Sprintf("settings get %s %s → %s", c.Namespace, c.Key, v), nil
}

func shell(ctx context.Context, p eval.Probe, cmd string) (string, error) {
	if p.Shell != nil {
		return p.Shell(ctx, cmd)
	}
	if p.Phone != nil {
		var b strings.Builder
		if _, err := p.Phone.Shell(ctx, cmd, &b); err != nil {
			return "", err
		}
		return b.String(), nil
	}
	return "", fmt.Errorf("no device shell")
}

// ---- the app in front ----

var resumedRE = regexp.MustCompile(`mResumedActivity: ActivityRecord\{\S+ \S+ ([^/\s]+)/`)

func foreground(ctx context.Context, p eval.Probe) (string, error) {
	out, err := shell(ctx, p, "dumpsys activity activities")
	if err != nil {
		return "", err
	}
	m := resumedRE.FindStringSubmatch(out)
	if m == nil {
		return "", fmt.Errorf("dumpsys activity names no resumed activity")
	}
	return m[1], nil
}

// foregroundCheck: the package in front, read from `dumpsys activity` as the benchmark
// reads the current activity.
type foregroundCheck struct{ Package string }

func (c *foregroundCheck) Kind() string     { return "foreground" }
func (c *foregroundCheck) Virtual() bool    { return false }
func (c *foregroundCheck) Describe() string { return c.Package + " in front" }
func (c *foregroundCheck) Evaluate(ctx context.Context, p eval.Probe) (bool, string, error) {
	fg, err := foreground(ctx, p)
	if err != nil {
		return false, "", err
	}
	return fg == c.Package, "in front: " + fg, nil
}

// ---- answers ----

// answerKind says how answer parts compare.
type answerKind string

const (
	answerString answerKind = "string" // fuzzy 0.9
	answerNumber answerKind = "number" // within Tolerance
	answerDate   answerKind = "date"   // parsed; the same instant
)

// answerCheck is the information-retrieval check: the agent's answer split on commas,
// each part matched against one wanted part (in any order), as many parts as wanted.
type answerCheck struct {
	Want      []string
	As        answerKind
	Tolerance float64
}

func (c *answerCheck) Kind() string  { return "answer" }
func (c *answerCheck) Virtual() bool { return false }
func (c *answerCheck) Describe() string {
	return fmt.Sprintf("answer is %q (%s, part by part)", strings.Join(c.Want, ", "), c.As)
}

func (c *answerCheck) Evaluate(_ context.Context, p eval.Probe) (bool, string, error) {
	ok, why := c.match(p.Answer)
	return ok, fmt.Sprintf("answer %q: %s", p.Answer, why), nil
}

func splitAnswer(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if t := strings.TrimSpace(part); t != "" {
			out = append(out, t)
		}
	}
	return out
}

func (c *answerCheck) match(answer string) (bool, string) {
	got := splitAnswer(answer)
	want := c.Want
	if len(got) != len(want) {
		return false, fmt.Sprintf("%d parts, want %d", len(got), len(want))
	}
	used := make([]bool, len(got))
	for _, w := range want {
		found := false
		for i, g := range got {
			if !used[i] && c.partEqual(g, w) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			return false, fmt.Sprintf("no part matches %q", w)
		}
	}
	return true, "every part matches"
}

func (c *answerCheck) partEqual(got, want string) bool {
	switch c.As {
	case answerNumber:
		g, err1 := parseNumber(got)
		w, err2 := parseNumber(want)
		return err1 == nil && err2 == nil && math.Abs(g-w) <= c.Tolerance
	case answerDate:
		g, ok1 := parseDate(got)
		w, ok2 := parseDate(want)
		return ok1 && ok2 && g.Equal(w)
	}
	return fuzzyMatch(got, want)
}

var numberRE = regexp.MustCompile(`-?\d+(?:\.\d+)?`)

func parseNumber(s string) (float64, error) {
	m := numberRE.FindString(strings.ReplaceAll(s, ",", ""))
	if m == "" {
		return 0, fmt.Errorf("no number in %q", s)
	}
	return strconv.ParseFloat(m, 64)
}

var dateLayouts = []string{"January 2 2006 15:04", "January 2 2006", "2006-01-02 15:04", "2006-01-02", "Jan 2 2006 15:04", "Jan 2 2006", "01/02/2006"}

func parseDate(s string) (time.Time, bool) {
	s = strings.Join(strings.Fields(strings.ReplaceAll(s, ",", " ")), " ")
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// ---- composite tasks: partial credit ----

// allCheck is a composite task's check: every part must hold to pass; the evidence gives
// the benchmark's partial credit (the fraction of parts that held).
type allCheck struct {
	Parts []eval.CustomCheck
}

func (c *allCheck) Kind() string { return "composite" }
func (c *allCheck) Virtual() bool {
	for _, p := range c.Parts {
		if p.Virtual() {
			return true
		}
	}
	return false
}

func (c *allCheck) Describe() string {
	var d []string
	for _, p := range c.Parts {
		d = append(d, p.Describe())
	}
	return "all of: " + strings.Join(d, "; ")
}

func (c *allCheck) Evaluate(ctx context.Context, p eval.Probe) (bool, string, error) {
	held := 0
	var ev []string
	for _, part := range c.Parts {
		ok, e, err := part.Evaluate(ctx, p)
		if err != nil {
			e = "error: " + err.Error()
		}
		if ok && err == nil {
			held++
		}
		ev = append(ev, fmt.Sprintf("[%t] %s", ok && err == nil, e))
	}
	score := float64(held) / float64(max(len(c.Parts), 1))
	return held == len(c.Parts), fmt.Sprintf("partial credit %.2f (%d of %d): %s", score, held, len(c.Parts), strings.Join(ev, "; ")), nil
}

var creditRE = regexp.MustCompile(`^partial credit [\d.]+ \((\d+) of (\d+)\)`)

// partialCredit reads the score an AllCheck wrote into its evidence (1 or 0 for others).
func partialCredit(r eval.CheckResult) float64 {
	if m := creditRE.FindStringSubmatch(r.Evidence); m != nil {
		held, _ := strconv.Atoi(m[1])
		total, _ := strconv.Atoi(m[2])
		if total > 0 {
			return float64(held) / float64(total)
		}
	}
	if r.Pass {
		return 1
	}
	return 0
}

func lastN(s []string, n int) []string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// sameWhen compares two times of day (H:MM) or two dates (YYYY-M-D) by value.
func sameWhen(kind, a, b string) bool {
	layouts := []string{"15:04", "3:04"}
	if kind == "date" {
		layouts = []string{"2006-01-02", "2006-1-2"}
	}
	parse := func(s string) (time.Time, bool) {
		for _, l := range layouts {
			if t, err := time.Parse(l, strings.TrimSpace(s)); err == nil {
				return t, true
			}
		}
		return time.Time{}, false
	}
	x, ok1 := parse(a)
	y, ok2 := parse(b)
	return ok1 && ok2 && x.Equal(y)
}
