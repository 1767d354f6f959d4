package grounding

import (
	"strings"
	"unicode"
)

// call is one Python-style call of an answer: name(key=value, …). UI-TARS and AutoGLM
// answer in this form.
type call struct {
	name string
	args map[string]string // values unquoted; lists and tuples as written
	pos  []string          // positional arguments
}

// calls finds the calls in text, in order. Text between calls (a thought, tags) is skipped;
// a call whose parentheses never close ends the scan.
func calls(text string) []call {
	var out []call
	rs := []rune(text)
	for i := 0; i < len(rs); i++ {
		if !isIdent(rs[i]) || (i > 0 && (isIdent(rs[i-1]) || rs[i-1] == '.')) {
			continue
		}
		j := i
		for j < len(rs) && isIdent(rs[j]) {
			j++
		}
		if j >= len(rs) || rs[j] != '(' {
			i = j - 1
			continue
		}
		c, end, ok := readCall(string(rs[i:j]), rs, j+1)
		if !ok {
			i = j
			continue
		}
		out = append(out, c)
		i = end
	}
	return out
}

func isIdent(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// readCall reads the arguments after "name(" at rs[i:]; end is the index of ")".
func readCall(name string, rs []rune, i int) (call, int, bool) {
	c := call{name: name, args: map[string]string{}}
	skip := func() {
		for i < len(rs) && unicode.IsSpace(rs[i]) {
			i++
		}
	}
	for {
		skip()
		if i >= len(rs) {
			return call{}, 0, false
		}
		if rs[i] == ')' {
			return c, i, true
		}
		key := ""
		k := i
		for k < len(rs) && isIdent(rs[k]) {
			k++
		}
		if k < len(rs) && rs[k] == '=' && k > i {
			key, i = string(rs[i:k]), k+1
			skip()
		}
		val, next, ok := readValue(rs, i)
		if !ok {
			return call{}, 0, false
		}
		if key == "" {
			c.pos = append(c.pos, val)
		} else {
			c.args[key] = val
		}
		i = next
		skip()
		if i < len(rs) && rs[i] == ',' {
			i++
			continue
		}
		if i < len(rs) && rs[i] == ')' {
			return c, i, true
		}
		return call{}, 0, false
	}
}

// readValue reads a quoted string (unescaped), a bracketed list or tuple (as written), or
// a bare word.
func readValue(rs []rune, i int) (string, int, bool) {
	if i >= len(rs) {
		return "", 0, false
	}
	switch q := rs[i]; q {
	case '\'', '"':
		var b strings.Builder
		for j := i + 1; j < len(rs); j++ {
			switch rs[j] {
			case '\\':
				if j+1 < len(rs) {
					j++
					switch rs[j] {
					case 'n':
						b.WriteRune('\n')
					case 't':
						b.WriteRune('\t')
					default:
						b.WriteRune(rs[j])
					}
				}
			case q:
				return b.String(), j + 1, true
			default:
				b.WriteRune(rs[j])
			}
		}
		return "", 0, false
	case '[', '(':
		closer := map[rune]rune{'[': ']', '(': ')'}[q]
		depth := 0
		for j := i; j < len(rs); j++ {
			switch rs[j] {
			case q:
				depth++
			case closer:
				depth--
				if depth == 0 {
					return string(rs[i : j+1]), j + 1, true
				}
			}
		}
		return "", 0, false
	}
	j := i
	for j < len(rs) && rs[j] != ',' && rs[j] != ')' {
		j++
	}
	return strings.TrimSpace(string(rs[i:j])), j, true
}

// pyQuote writes s as a Python string literal in quote q, the way the models write theirs.
func pyQuote(s string, q rune) string {
	var b strings.Builder
	b.WriteRune(q)
	for _, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case q:
			b.WriteRune('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteRune(q)
	return b.String()
}
