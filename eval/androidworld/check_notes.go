package androidworld

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/sim"
)

// Checks: notes as Markor's files.

// noteCheck is the benchmark's check of Markor's files (file_validators and markor.py) on
// the Notes app, whose notes stand for the files: a note's title is the file's name and
// its text the file's content. Names are compared exactly, as
// file_utils.check_file_or_folder_exists finds a path: "happy_cat.md" is not
// "Happy_cat.md". The text is read as `cat` reads it with "\r" removed, then compared as
// the family does: fuzzy 0.9 after strip() (file_validators.CreateFile, MarkorEditNote,
// check_file_content), or exactly (MarkorAddNoteHeader).
type noteCheck struct {
	Name  string   // a note of this name must be there ("" checks none)
	Gone  []string // notes of these names must not be there
	Empty bool     // no note at all may be left (MarkorDeleteAllNotes)
	// Text is what Name's text must be; "" checks no text.
	Text  string
	Exact bool // Text compared exactly, not fuzzy after strip()
}

func (c *noteCheck) Kind() string  { return "note" }
func (c *noteCheck) Virtual() bool { return true }

func (c *noteCheck) Describe() string {
	var parts []string
	if c.Empty {
		parts = append(parts, "no note left")
	}
	for _, g := range c.Gone {
		parts = append(parts, "no note named "+strconv.Quote(g))
	}
	switch {
	case c.Name != "" && c.Text != "" && c.Exact:
		parts = append(parts, fmt.Sprintf("a note named %q whose text is exactly %q", c.Name, c.Text))
	case c.Name != "" && c.Text != "":
		parts = append(parts, fmt.Sprintf("a note named %q whose text is like %q", c.Name, c.Text))
	case c.Name != "":
		parts = append(parts, "a note named "+strconv.Quote(c.Name))
	}
	return strings.Join(parts, ", ")
}

func (c *noteCheck) Evaluate(_ context.Context, p suite.Probe) (bool, string, error) {
	st, err := phoneState(p)
	if err != nil {
		return false, "", err
	}
	rows, err := st.Records(notesPkg + ":notes")
	if err != nil {
		return false, "", err
	}
	ok, ev := c.judge(rows)
	return ok, ev, nil
}

func (c *noteCheck) judge(rows []sim.Record) (bool, string) {
	var names []string
	for _, r := range rows {
		names = append(names, strconv.Quote(r["title"]))
	}
	if c.Empty && len(rows) > 0 {
		return false, fmt.Sprintf("%d notes left: %s", len(rows), strings.Join(lastN(names, 6), ", "))
	}
	for _, g := range c.Gone {
		if slices.ContainsFunc(rows, func(r sim.Record) bool { return r["title"] == g }) {
			return false, fmt.Sprintf("a note named %q is still there", g)
		}
	}
	if c.Name == "" {
		return true, fmt.Sprintf("%d notes: %s", len(rows), strings.Join(lastN(names, 6), ", "))
	}
	var texts []string
	for _, r := range rows {
		if r["title"] != c.Name {
			continue
		}
		got := strings.ReplaceAll(r["body"], "\r", "")
		if c.Text == "" || (c.Exact && got == c.Text) || (!c.Exact && fuzzyMatch(strings.TrimSpace(got), c.Text)) {
			return true, fmt.Sprintf("a note named %q: %q", c.Name, got)
		}
		texts = append(texts, strconv.Quote(got))
	}
	if len(texts) > 0 {
		how := "like"
		if c.Exact {
			how = "exactly"
		}
		return false, fmt.Sprintf("the note named %q holds %s, not %s %q", c.Name, strings.Join(texts, ", "), how, c.Text)
	}
	return false, fmt.Sprintf("no note named %q (names are compared exactly) among %d: %s", c.Name, len(rows), strings.Join(lastN(names, 6), ", "))
}

// contactCheck is contacts_validators.AddContact: a contact whose display name is exactly
// Name and whose number, with every character but the digits removed
// (contacts_utils.clean_phone_number, on both sides), is Number's.
type contactCheck struct {
	Name, Number string
}

func (c *contactCheck) Kind() string  { return "contact" }
func (c *contactCheck) Virtual() bool { return true }
func (c *contactCheck) Describe() string {
	return fmt.Sprintf("a contact named exactly %q with the number %s", c.Name, c.Number)
}

func (c *contactCheck) Evaluate(_ context.Context, p suite.Probe) (bool, string, error) {
	st, err := phoneState(p)
	if err != nil {
		return false, "", err
	}
	rows, err := st.Records(contactsPkg + ":contacts")
	if err != nil {
		return false, "", err
	}
	var seen []string
	for _, r := range rows {
		if r["name"] == c.Name && onlyDigits(r["phone"]) == onlyDigits(c.Number) {
			return true, fmt.Sprintf("contact %q, %s", r["name"], r["phone"]), nil
		}
		seen = append(seen, fmt.Sprintf("%q %s", r["name"], r["phone"]))
	}
	return false, fmt.Sprintf("no such contact among %d: %s", len(rows), strings.Join(lastN(seen, 4), "; ")), nil
}

// onlyDigits is contacts_utils.clean_phone_number: every character but the digits removed
// (Python's \D: every rune but Unicode's decimal digits).
func onlyDigits(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) {
			return r
		}
		return -1
	}, s)
}
