package executor

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/prompts"
)

// What a run must show before it may say done, told without the model (the finish check's
// model-independent half): the answer a question asks for, every value an add task
// names, and every consented deed reconciled with the screen (deeds.go).

// noteDone keeps what an action that ran did: the text it typed, the label it tapped.
func (r *run) noteDone(a event.ActionExecuted) {
	if a.Err != "" {
		return
	}
	switch a.Action.Type {
	case event.Input:
		if t := strings.TrimSpace(a.Action.Text); t != "" {
			r.typed = append(r.typed, t)
		}
	case event.Tap, event.LongPress:
		if a.Element != nil && strings.TrimSpace(a.Element.Label) != "" {
			r.tapped = append(r.tapped, strings.TrimSpace(a.Element.Label))
		}
	}
}

// questionWords start a sentence that asks something ("What is …", "Which event …").
var questionWords = regexp.MustCompile(`(?i)^(?:what|which|when|where|who|whom|whose|how many|how much|how long|why)\b`)

// sentenceEnd splits a task into its sentences.
var sentenceEnd = regexp.MustCompile(`[.!;\n]+`)

// asksQuestion reports whether an app task asks a question the run must answer: it asks
// for an answer's form, or a sentence of it asks (a question mark, or a question word
// first). "Can you turn off Wi-Fi?" is a request, not a question, and words after a colon
// or in quotes are what the task types or sends ("… saying: what time is it?").
func asksQuestion(task string) bool {
	if prompts.AnswerFormat(task) != "" {
		return true
	}
	head, _, _ := strings.Cut(task, ":")
	head = quotedValue.ReplaceAllString(quotedText.ReplaceAllString(head, " "), " ")
	for _, s := range sentenceEnd.Split(head, -1) {
		s = strings.TrimSpace(s)
		switch {
		case politeRequest.MatchString(s):
		case questionWords.MatchString(s), strings.ContainsAny(s, "?？"):
			return true
		}
	}
	return false
}

// quotedText is a double-quoted span.
var quotedText = regexp.MustCompile(`"[^"\n]*"|“[^”\n]*”`)

// politeRequest is a request phrased as a question: "Could you please send …?".
var politeRequest = regexp.MustCompile(`(?i)^(?:please\s+)?(?:can|could|would|will)\s+you\b`)

// answerMiss says why a task that asks a question cannot end with the run's answer: there
// is none. "" when the task asks none or an answer is given (its form is formatMiss's).
func (r *run) answerMiss() string {
	if !asksQuestion(r.a.Task.Task) || strings.TrimSpace(r.answer) != "" {
		return ""
	}
	return "the task asks a question and the run gives no answer"
}

// namedField is a "key: value" line of a task ("Expense: Bakery Items", " amount_dollars:
// $169.09"): a value an add task names for a record's field.
var namedField = regexp.MustCompile(`(?m)^\s*([\p{L}_][\p{L}\p{N}_]*)\s*:\s*(\S[^\n]*?)\s*$`)

// addVerb marks, in a task's first sentence, a task that adds records.
var addVerb = regexp.MustCompile(`(?i)\b(?:add|create)\b`)

// quotedValue is a value a task quotes: "with the title 'Review session' and the
// description '…'" (an apostrophe inside a word opens none).
var quotedValue = regexp.MustCompile(`(?:^|\s)'([^'\n]+)'(?:[\s.,;:!?]|$)`)

// namedValues are the values an add task names, field by field (its "key: value" lines
// and quoted values); none for another task, or one that names fewer than two (a task in
// prose is the model's to judge).
func namedValues(task string) []string {
	first, _, _ := strings.Cut(task, "\n")
	if !addVerb.MatchString(first) {
		return nil
	}
	var out []string
	add := func(v string) {
		if v = strings.TrimSpace(v); v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	for _, m := range namedField.FindAllStringSubmatch(task, -1) {
		add(m[2])
	}
	for _, m := range quotedValue.FindAllStringSubmatch(task, -1) {
		add(m[1])
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// recordTitles are the values that open an add task's records: the first "key: value"
// line of each block ("Expense: Bakery Items" after a blank line). A saved record shows
// its title in the app's list.
func recordTitles(task string) []string {
	if namedValues(task) == nil {
		return nil
	}
	var out []string
	opens := true
	for _, line := range strings.Split(task, "\n") {
		if strings.TrimSpace(line) == "" {
			opens = true
			continue
		}
		m := namedField.FindStringSubmatch(line)
		if m != nil && opens {
			out = append(out, strings.TrimSpace(m[2]))
		}
		opens = m == nil // the task's own sentence before the first record opens one too
	}
	return out
}

// seeSaved notes the record titles that screen s shows outside a field once they were
// typed: the record was saved.
func (r *run) seeSaved(s *perception.Screen) {
	for _, v := range recordTitles(r.a.Task.Task) {
		if r.saved[v] || !r.entered(v) || !shownStatic(s, v) {
			continue
		}
		if r.saved == nil {
			r.saved = map[string]bool{}
		}
		r.saved[v] = true
	}
}

// savedTitles are the titles of the records an add task adds, each as many times as the
// task adds it: its records' titles ("Expense: Bakery Items" blocks), or, for a task in one
// sentence, the first value it quotes ("with the title 'Review session' and …").
func savedTitles(task string) []string {
	if ts := recordTitles(task); len(ts) > 0 {
		return ts
	}
	if vs := namedValues(task); len(vs) > 0 && quotedValue.MatchString(task) {
		return vs[:1]
	}
	return nil
}

// rowsTitled counts the elements of screen s, outside a field, whose label is title: the
// rows of a list that shows records by their titles.
func rowsTitled(s *perception.Screen, title string) int {
	n := 0
	for _, e := range s.Elements {
		if !e.Editable && strings.EqualFold(strings.TrimSpace(e.Label), title) {
			n++
		}
	}
	return n
}

// rowsKey is a page and a title, as rowsBefore keeps them.
func rowsKey(s *perception.Screen, title string) string {
	return s.Package + "/" + s.Activity + "\x00" + title
}

// seeRows keeps, for every page seen before an add task's title was first entered, how many
// rows bear that title: the records there were before the run added any.
func (r *run) seeRows(s *perception.Screen) {
	for _, v := range savedTitles(r.a.Task.Task) {
		if r.entered(v) {
			continue
		}
		if r.rowsBefore == nil {
			r.rowsBefore = map[string]int{}
		}
		r.rowsBefore[rowsKey(s, v)] = rowsTitled(s, v)
	}
}

// extraSaved says why an add task cannot be done on this screen: a page whose rows were
// counted before the run entered a title now shows more rows of it than the task adds (a
// Save tapped before the form was filled stored a record, and the form was filled and saved
// again). A capable model does this too; the benchmark counts the rows. "" otherwise.
func (r *run) extraSaved() string {
	s := r.screen
	if s == nil {
		return ""
	}
	titles := savedTitles(r.a.Task.Task)
	for _, v := range titles {
		before, seen := r.rowsBefore[rowsKey(s, v)]
		if !seen {
			continue
		}
		want := 0
		for _, t := range titles {
			if strings.EqualFold(t, v) {
				want++
			}
		}
		if now := rowsTitled(s, v); now-before > want {
			return fmt.Sprintf("the screen shows %d records titled %q where there were %d: the task adds %d, so a record was saved twice (delete the one that is wrong)", now, v, before, want)
		}
	}
	return ""
}

// isoDate is a date as a task or a row writes it (2023-10-23); taskHour is the hour a task
// names ("at 13h").
var (
	isoDate  = regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}\b`)
	taskHour = regexp.MustCompile(`(?i)\bat (\d{1,2})h\b`)
	rowTime  = regexp.MustCompile(`\b(\d{2}):\d{2}\b`)
)

// savedAmiss says why an add task cannot be done on this screen: the record it saved shows,
// in its row, another date or hour than the task names (a wrong day picked in a date
// picker, a wrong hour typed): the list shows what was stored, and the benchmark checks it.
// Only a task that names a date (2023-10-23) or an hour ("at 13h") in its first sentence,
// and a row that shows one, are compared. "" otherwise.
func (r *run) savedAmiss() string {
	s := r.screen
	titles := savedTitles(r.a.Task.Task)
	if s == nil || len(titles) != 1 {
		return ""
	}
	first, _, _ := strings.Cut(r.a.Task.Task, "\n")
	first = quotedValue.ReplaceAllString(first, " ")
	date, hour := isoDate.FindString(first), ""
	if m := taskHour.FindStringSubmatch(first); m != nil {
		if h, err := strconv.Atoi(m[1]); err == nil {
			hour = fmt.Sprintf("%02d", h)
		}
	}
	if date == "" && hour == "" {
		return ""
	}
	var shown []string
	for _, e := range s.Elements {
		if e.Editable || !strings.EqualFold(strings.TrimSpace(e.Label), titles[0]) {
			continue
		}
		for _, t := range e.Texts {
			d := isoDate.FindString(t)
			m := rowTime.FindStringSubmatch(t)
			if d == "" && m == nil {
				continue
			}
			if (date == "" || d == "" || d == date) && (hour == "" || m == nil || m[1] == hour) {
				return "" // a row of the title shows what the task names
			}
			shown = append(shown, strings.TrimSpace(t))
		}
	}
	if len(shown) == 0 {
		return ""
	}
	want := date
	if hour != "" {
		want = strings.TrimSpace(date + " at " + hour + "h")
	}
	return fmt.Sprintf("the record titled %q shows %q, and the task names %s: open it and set what the task names", titles[0], shown[0], want)
}

// unsaved says which value an add task names was never typed nor picked (tapped) in the
// app task: a task that stopped half-way. "" when every one was.
func (r *run) unsaved() string {
	var missing []string
	for _, v := range namedValues(r.a.Task.Task) {
		if !r.entered(v) {
			missing = append(missing, v)
		}
	}
	if len(missing) == 0 {
		for _, v := range recordTitles(r.a.Task.Task) {
			if !r.saved[v] {
				return fmt.Sprintf("the record %q was typed and never shows saved", v)
			}
		}
	}
	switch len(missing) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("the value %q the task names was never entered", missing[0])
	}
	return fmt.Sprintf("%d values the task names were never entered (%q, …)", len(missing), missing[0])
}

// entered reports whether v was typed (a text that holds it) or tapped (a label that is
// it: a category picked from a list).
func (r *run) entered(v string) bool {
	want := valueKey(v)
	for _, t := range r.typed {
		if strings.Contains(valueKey(t), want) {
			return true
		}
	}
	for _, l := range r.tapped {
		if valueKey(l) == want {
			return true
		}
	}
	return false
}

// valueKey is a value as compared: lower case, spaces folded, currency signs dropped
// ("$169.09" typed as "169.09" is the same amount).
func valueKey(v string) string {
	v = strings.Map(func(c rune) rune {
		if strings.ContainsRune("$€£¥₩₹", c) {
			return -1
		}
		return c
	}, v)
	return strings.ToLower(strings.Join(strings.Fields(v), " "))
}

// unsettled is the first reason, told without the model, that the run may not say done:
// a question without an answer, a value the add task names never entered, a consented
// deed the screen did not show. "" when there is none.
func (r *run) unsettled() string {
	if why := r.answerMiss(); why != "" {
		return why
	}
	if why := r.unsaved(); why != "" {
		return why
	}
	if why := r.extraSaved(); why != "" {
		return why
	}
	if why := r.savedAmiss(); why != "" {
		return why
	}
	for _, c := range slices.Sorted(maps.Keys(r.unreconciled)) {
		return r.unreconciled[c]
	}
	if why := r.deedUndone(); why != "" {
		return why
	}
	if s := r.screen; s != nil && s.Package != "" && r.a.Task.App != "" && s.Package != r.a.Task.App {
		// The app task's result shows in its app: another app's screen (the launcher after a
		// Back too many) shows nothing of it, whatever the model reads there.
		return fmt.Sprintf("the screen is %s, not the task's app %s: its result cannot show here", s.Package, r.a.Task.App)
	}
	return ""
}

// deedVerbs are, in an app task's first sentence, the words of a task whose result is a
// deed the person consents to: it deletes, or it sends.
var deedVerbs = map[string]*regexp.Regexp{
	"delete": regexp.MustCompile(`(?i)\b(?:delete|remove|erase)\b`),
	"send":   regexp.MustCompile(`(?i)\b(?:send|resend|reply|forward)\b|^\s*text\b`),
}

// deedUndone says why a task that asks for a deed (a delete, a send) cannot be done: no
// deed of that category (for a send, any but a delete: money is sent too) ran under the person's consent in the app task — the guard holds
// every one, so a run that never asked never did it. "" otherwise.
func (r *run) deedUndone() string {
	first, _, _ := strings.Cut(r.a.Task.Task, "\n")
	first = quotedValue.ReplaceAllString(quotedText.ReplaceAllString(first, " "), " ")
	if i := strings.Index(first, ":"); i >= 0 {
		first = first[:i] // what follows a colon is what is typed or named, not the deed
	}
	for _, c := range slices.Sorted(maps.Keys(deedVerbs)) {
		done := r.didDeed[c]
		if c == "send" {
			// "Send Bob 20 yuan" pays or transfers: any consented deed but a delete sends.
			for k, n := range r.didDeed {
				if k != "delete" && k != "send" {
					done += n
				}
			}
		}
		if deedVerbs[c].MatchString(first) && done == 0 {
			return fmt.Sprintf("the task asks to %s and nothing was %s with the person's consent", c, map[string]string{"delete": "deleted", "send": "sent"}[c])
		}
	}
	return ""
}
