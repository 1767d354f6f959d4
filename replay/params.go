package replay

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A routine's name and the labels of its steps hold its parameters as {1}, {2}, …: the
// values it was learned with, replaced by a placeholder (Template), filled again with the
// arguments of a replay (Fill).

// placeholder is a parameter in a routine's name or label.
var placeholder = regexp.MustCompile(`\{(\d+)\}`)

// Placeholder is parameter n's placeholder: {n}.
func Placeholder(n int) string { return "{" + strconv.Itoa(n) + "}" }

// Template replaces each value in text, as whole words, by its parameter's placeholder
// (values[i] is parameter i+1; a blank value is none), longest values first.
func Template(text string, values []string) string {
	order := make([]int, 0, len(values))
	for i, v := range values {
		if v != "" {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return len(values[b]) - len(values[a]) })
	for _, i := range order {
		text = replaceWords(text, values[i], Placeholder(i+1))
	}
	return text
}

// Fill replaces each placeholder of text by its argument (args[n-1] for {n}); a
// placeholder with no argument stays.
func Fill(text string, args []string) string {
	return placeholder.ReplaceAllStringFunc(text, func(p string) string {
		n, _ := strconv.Atoi(p[1 : len(p)-1])
		if n < 1 || n > len(args) {
			return p
		}
		return args[n-1]
	})
}

// Bare is name with its placeholders blanked out: the words that say what the routine
// does, to match against a task.
func Bare(name string) string { return placeholder.ReplaceAllString(name, " ") }

// Blank reports a step that needs an argument not known yet: its target label holds the
// placeholder of a blank argument, or it types parameter text (0: none) and that argument
// is blank. A replay pauses before such a step.
func Blank(label string, text int, args []string) bool {
	for _, m := range placeholder.FindAllStringSubmatch(label, -1) {
		if n, _ := strconv.Atoi(m[1]); n >= 1 && n <= len(args) && args[n-1] == "" {
			return true
		}
	}
	return text > 0 && text <= len(args) && args[text-1] == ""
}

// Fit matches a routine's name (its parameters as placeholders) against task and returns
// one argument per parameter when the task's words give every one — and, when one
// parameter is a row the person chose (chosen[i]), the one label of the current screen
// (labels) whose first word their latest answer (the last of answers) names; nil
// otherwise. A blank argument is a row the person has not chosen yet: the replay pauses
// there. A routine without parameters fits only the task it is named for.
func Fit(name, task string, chosen []bool, answers, labels []string) []string {
	if len(chosen) == 0 {
		if strings.EqualFold(strings.TrimSpace(name), strings.TrimSpace(task)) {
			return []string{}
		}
		return nil
	}
	var b strings.Builder
	b.WriteString(`(?i)^\s*`)
	var order []int
	last := 0
	for _, m := range placeholder.FindAllStringSubmatchIndex(name, -1) {
		b.WriteString(regexp.QuoteMeta(name[last:m[0]]))
		n, _ := strconv.Atoi(name[m[2]:m[3]])
		order = append(order, n)
		b.WriteString(`(.+?)`)
		last = m[1]
	}
	b.WriteString(regexp.QuoteMeta(name[last:]))
	b.WriteString(`\s*$`)
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil
	}
	m := re.FindStringSubmatch(task)
	if m == nil {
		return nil
	}
	args := make([]string, len(chosen))
	n := 0
	for i, c := range chosen {
		if c {
			n++
			if k := len(answers); k > 0 {
				args[i] = chosenLabel(answers[k-1], labels)
			}
		}
	}
	if n > 1 {
		return nil // which answer is which row is the model's to say
	}
	for i, n := range order {
		if n < 1 || n > len(args) || chosen[n-1] || (args[n-1] != "" && args[n-1] != m[i+1]) {
			return nil
		}
		args[n-1] = m[i+1]
	}
	for i, a := range args {
		if a == "" && !chosen[i] {
			return nil // a parameter the name does not hold (a typed text)
		}
	}
	return args
}

// chosenLabel is the one label whose first word answer names, or "".
func chosenLabel(answer string, labels []string) string {
	found := ""
	for _, l := range labels {
		w, _, _ := strings.Cut(strings.TrimSpace(l), " ")
		if utf8.RuneCountInString(w) < 2 || !HasWords(answer, w) {
			continue
		}
		if found != "" && found != l {
			return ""
		}
		found = l
	}
	return found
}
