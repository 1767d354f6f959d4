package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// ExtractJSON finds the JSON object in a model's answer: the whole answer, the content of a
// Markdown code fence, or the first balanced {...} that parses, with prose around it. The
// returned text is the object exactly as the model wrote it (whitespace trimmed).
func ExtractJSON(answer string) (string, error) {
	s := strings.TrimSpace(answer)
	if isObject(s) {
		return s, nil
	}
	// Code fences: ```json ... ``` or ``` ... ```; try each fenced block in order.
	rest := s
	for {
		i := strings.Index(rest, "```")
		if i < 0 {
			break
		}
		body := rest[i+3:]
		if nl := strings.IndexByte(body, '\n'); nl >= 0 && !strings.ContainsAny(body[:nl], "{[") {
			body = body[nl+1:] // drop the info string ("json")
		}
		end := strings.Index(body, "```")
		if end < 0 {
			end = len(body)
		}
		if c := strings.TrimSpace(body[:end]); isObject(c) {
			return c, nil
		}
		if end == len(body) {
			break
		}
		rest = body[end+3:]
	}
	// Prose around the object: try each '{' as a start and take its balanced end.
	for i := 0; i < len(s); i++ {
		if s[i] != '{' {
			continue
		}
		if end := balancedEnd(s[i:]); end > 0 && isObject(s[i:i+end]) {
			return s[i : i+end], nil
		}
	}
	return "", fmt.Errorf("%w (answer starts %q)", ErrNoJSON, head(s, 80))
}

// isObject reports whether s is exactly one JSON object.
func isObject(s string) bool {
	if !strings.HasPrefix(s, "{") {
		return false
	}
	var m map[string]json.RawMessage
	dec := json.NewDecoder(strings.NewReader(s))
	if err := dec.Decode(&m); err != nil {
		return false
	}
	return strings.TrimSpace(s[dec.InputOffset():]) == ""
}

// balancedEnd returns the length of the brace-balanced prefix of s (which starts with '{'),
// skipping braces inside JSON strings, or 0 when it never closes.
func balancedEnd(s string) int {
	depth, inStr, esc := 0, false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inStr:
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '{':
			depth++
		case c == '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return 0
}

// CheckJSON verifies that text is one JSON object holding every top-level key the schema
// lists as required. The error says what is wrong in words a model can act on.
func CheckJSON(text string, schema json.RawMessage) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text), &obj); err != nil {
		return fmt.Errorf("%w: not a JSON object: %v", ErrSchema, err)
	}
	if obj == nil {
		return fmt.Errorf("%w: null is not a JSON object", ErrSchema)
	}
	if len(bytes.TrimSpace(schema)) == 0 {
		return nil
	}
	var s struct {
		Required []string `json:"required"`
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		return fmt.Errorf("llm: read schema: %w", err)
	}
	var missing []string
	for _, k := range s.Required {
		if _, ok := obj[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		have := make([]string, 0, len(obj))
		for k := range obj {
			have = append(have, k)
		}
		slices.Sort(have)
		return fmt.Errorf("%w: missing required key(s) %s (present: %s)", ErrSchema,
			quoteAll(missing), quoteAll(have))
	}
	return nil
}

func quoteAll(ss []string) string {
	if len(ss) == 0 {
		return "none"
	}
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// head returns at most n bytes of s, cut on a rune boundary.
func head(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// Head returns at most n bytes of s cut on a rune boundary, with "…" when cut; for quoting
// prompts and answers in errors and logs.
func Head(s string, n int) string { return head(s, n) }
