package androidworld

import (
	"encoding/base64"
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/sim"
)

// The person's intent. AndroidWorld's tasks say in their checks what the person asked for:
// the number a text goes to and what it says (sms_validators), the rows a delete removes
// and the rows an add creates (sqlite_validators). The simulated person reads it there,
// as builtin:sim's person reads it from its checks and wants:, and judges each consent by
// it: a text to another conversation or the delete of a noise row is refused, saying what
// the person meant; a consent that hides what it does is one they could not judge.

// intender is a check that says what the person asked for. The benchmark's checks of
// this package implement it here; a check without it (a setting, the app in front, an
// answer) asks for nothing sensitive.
type intender interface {
	intend(in *suite.Intent, book addressBook)
}

// addressBook maps a phone number's digits to the names the phone shows for it (its
// contacts, its conversations' names), read from the task's setup.
type addressBook map[string][]string

// names are the ways the person knows the owner of number: the number itself and every
// name the phone gives it.
func (b addressBook) names(number string) []string {
	out := []string{number}
	for _, n := range b[digits(number)] {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// bookOf reads the contacts and conversations a task's setup seeds ("fairy-sim seed
// COLLECTION BASE64-JSON", sim.SeedCommand).
func bookOf(setup []string) addressBook {
	b := addressBook{}
	for _, cmd := range setup {
		f := strings.Fields(cmd)
		if len(f) != 4 || f[0] != "fairy-sim" || f[1] != "seed" || (f[2] != contactsPkg+":contacts" && f[2] != messagesPkg+":messages") {
			continue
		}
		raw, err := base64.StdEncoding.DecodeString(f[3])
		if err != nil {
			continue
		}
		var rows []sim.Record
		if json.Unmarshal(raw, &rows) != nil {
			continue
		}
		for _, r := range rows {
			name := r["name"]
			if name == "" {
				name = r["to"]
			}
			if d := digits(r["phone"]); d != "" && name != "" && digits(name) != d && !slices.Contains(b[d], name) {
				b[d] = append(b[d], name)
			}
		}
	}
	return b
}

// intentOf is what the person asked for in an instance: read from its checks, with the
// names the phone gives the numbers they text.
func intentOf(in *instance) *suite.Intent {
	book := bookOf(in.setup)
	out := &suite.Intent{}
	for _, c := range in.checks {
		if i, ok := c.(intender); ok {
			i.intend(out, book)
		}
	}
	out.Kinds = slices.Compact(slices.Sorted(slices.Values(out.Kinds)))
	return out
}

// intend: a text to Number saying Text.
func (c *smsCheck) intend(in *suite.Intent, book addressBook) {
	in.Who = appendNew(in.Who, book.names(c.Number)...)
	in.What = append(in.What, c.Text)
	in.Kinds = append(in.Kinds, "send")
}

// intend: every part's.
func (c *allCheck) intend(in *suite.Intent, book addressBook) {
	for _, p := range c.Parts {
		if i, ok := p.(intender); ok {
			i.intend(in, book)
		}
	}
}

// intend: the rows removed are deleted (any of OneOf: the copies share their fields);
// the rows added are added — in the messages collection, an outgoing row is a text sent.
// All the rows of a collection removed (more than one, or All: the task asks for every
// row to go, also when there is one: "Delete 1 notes?" names none) is a "delete all": any
// delete in it is meant.
func (c *rowsCheck) intend(in *suite.Intent, book addressBook) {
	removed := slices.Clone(c.Removed)
	if len(c.OneOf) > 0 {
		removed = append(removed, c.OneOf[0])
	}
	if len(removed) > 0 {
		in.Kinds = append(in.Kinds, "delete")
		if !c.All && (len(c.OneOf) > 0 || len(removed) < len(c.Before) || len(removed) == 1) {
			for _, r := range c.Before {
				if slices.Contains(removed, r["id"]) {
					in.Deletes = appendNew(in.Deletes, rowName(r))
				}
			}
			in.Keeps = appendNew(in.Keeps, c.lookAlikeDetails(removed)...)
		}
	}
	for _, a := range c.Added {
		if strings.HasSuffix(c.Collection, ":messages") && a["dir"] == "out" {
			in.Who = appendNew(in.Who, book.names(a["phone"])...)
			in.What = append(in.What, a["text"])
			in.Kinds = append(in.Kinds, "send")
			continue
		}
		if n := rowName(a); n != "" {
			in.Adds = appendNew(in.Adds, n)
		}
	}
}

// lookAlikeDetails are what tells a row kept from a row of the same name that goes (a
// same-title near-duplicate beside ExpenseDeleteDuplicates' twins): the values of the
// kept row that no row going holds in any field. Short values (a category's id, "2")
// are left out: they read as parts of other texts.
func (c *rowsCheck) lookAlikeDetails(removed []string) []string {
	var out []string
	for _, keep := range c.Before {
		if slices.Contains(removed, keep["id"]) || slices.Contains(c.OneOf, keep["id"]) {
			continue
		}
		var gone []sim.Record
		for _, r := range c.Before {
			if slices.Contains(removed, r["id"]) && strings.EqualFold(rowName(r), rowName(keep)) {
				gone = append(gone, r)
			}
		}
		if len(gone) == 0 {
			continue
		}
		for _, k := range slices.Sorted(maps.Keys(keep)) {
			v := strings.TrimSpace(keep[k])
			if k == "id" || k == "seq" || len([]rune(v)) < 4 {
				continue
			}
			held := slices.ContainsFunc(gone, func(r sim.Record) bool {
				return slices.ContainsFunc(slices.Collect(maps.Values(r)), func(x string) bool { return strings.Contains(strings.ToLower(x), strings.ToLower(v)) })
			})
			if !held {
				out = append(out, v)
			}
		}
	}
	return out
}

// rowName is what a row is called on the phone: its title or its name.
func rowName(r map[string]string) string {
	for _, k := range []string{"title", "name"} {
		if v := strings.TrimSpace(r[k]); v != "" {
			return v
		}
	}
	return ""
}

func appendNew(s []string, vs ...string) []string {
	for _, v := range vs {
		if v != "" && !slices.Contains(s, v) {
			s = append(s, v)
		}
	}
	return s
}
