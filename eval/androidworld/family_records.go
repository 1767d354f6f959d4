package androidworld

import (
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/eval/walkthrough"
	"github.com/fairy-go/fairy/sim"
)

const expensesPkg = "com.fairy.expenses"

// expense is expense._generate_expense: a category (its id in the app's list), a name of
// that category, an amount of 10.00–500.00 dollars and a note.
type expense struct {
	name, note string
	categoryID string // "1" … "11", as the app stores it
	cents      int
}

func (g *gen) expense() expense {
	cats := expenseCategories()
	i := g.r.IntN(len(cats))
	return expense{name: pick(g.r, g.list("expense._EXPENSE_NAMES."+cats[i])), categoryID: strconv.Itoa(i + 1),
		note: pick(g.r, g.list("expense._NOTES")), cents: between(g.r, 1000, 50000)}
}

func (e expense) record(id string, seq int) sim.Record {
	return sim.Record{"id": id, "seq": strconv.Itoa(seq), "name": e.name, "amount": fmt.Sprintf("%.2f", float64(e.cents)/100), "category": e.categoryID, "note": e.note}
}

// expenses draws n expenses with distinct names (the delete families' generate_random_params).
func (g *gen) expenses(n int) []expense {
	var out []expense
	for len(out) < n {
		e := g.expense()
		if !slices.ContainsFunc(out, func(x expense) bool { return x.name == e.name }) {
			out = append(out, e)
		}
	}
	return out
}

// listEnd is a screen pattern for the last row of a list sorted by -seq, once the targets
// (ids t…) are gone; "" when none is left.
func listEnd(rows []sim.Record, field, rowID string) string {
	rows = slices.DeleteFunc(slices.Clone(rows), func(r sim.Record) bool { return strings.HasPrefix(r["id"], "t") })
	if len(rows) == 0 {
		return `\z.` // matches nothing: the empty list's text says it
	}
	last := slices.MinFunc(rows, func(a, b sim.Record) int {
		x, _ := strconv.Atoi(a["seq"])
		y, _ := strconv.Atoi(b["seq"])
		return x - y
	})
	return `item "` + q(last[field]) + `" id=` + rowID
}

// recordsApp names the screens of a records app (apps/*.yaml): a list of rows labelled by
// one field, a detail page with a delete button. The delete families of every such app
// are the same code; the app is data.
type recordsApp struct {
	pkg, collection string
	label           string // the field a row shows as its title
	list, row       string // the list's and a row's resource ids
	title           string // the list screen's title
	deleteID        string // the detail page's delete button: id and label
	deleteLabel     string
	empty           string // the empty list's text
	// lines are the texts a row shows under its title.
	lines func(r sim.Record) []string
}

var (
	expensesApp = recordsApp{pkg: expensesPkg, collection: "expenses", label: "name", list: "expense_recycler", row: "expense_row",
		title: "Expenses", deleteID: "delete_expense", deleteLabel: "Delete expense", empty: "No expenses yet",
		lines: func(r sim.Record) []string {
			return []string{"$" + r["amount"] + " · " + expenseCategoryName(r["category"])}
		}}
	recipesApp = recordsApp{pkg: recipesPkg, collection: "recipes", label: "title", list: "recipe_recycler", row: "recipe_row",
		title: "Recipes", deleteID: "delete_recipe", deleteLabel: "Delete recipe", empty: "No recipes yet",
		lines: func(r sim.Record) []string {
			return []string{r["description"], r["servings"] + " · " + r["preparationTime"]}
		}}
)

func (a recordsApp) coll() string { return a.pkg + ":" + a.collection }

// rowPattern is a screen pattern for one row of the list with the lines under its title:
// it tells a row from another of the same title (a near-duplicate).
func (a recordsApp) rowPattern(r sim.Record) string {
	p := `item "` + q(r[a.label]) + `" id=` + a.row
	for _, l := range a.lines(r) {
		p += `\n *- "` + q(l) + `"`
	}
	return p
}

// topPattern is a screen pattern for the list's first rows, in order (the newest first);
// a list longer than the screen is a scrolling element holding the rows.
func (a recordsApp) topPattern(rows ...sim.Record) string {
	p := `- "` + q(a.title) + `"(?:\n- \[\d+\] list id=` + a.list + `[^\n]*)?`
	for _, r := range rows {
		p += `\n *- \[\d+\] ` + a.rowPattern(r)
	}
	return p
}

// recordsDelete is the DeleteMultipleRows family of a records app: nTargets rows to
// delete among nNoise others (draw gives distinct rows), named in goal's %s.
func recordsDelete(a recordsApp, draw func(g *gen, n int) []sim.Record, nTargets, nNoise int, goal string) func(g *gen) (*instance, error) {
	return func(g *gen) (*instance, error) {
		all := draw(g, nTargets+nNoise)
		for i := range all {
			if i < nTargets {
				all[i]["id"] = fmt.Sprintf("t%d", i+1)
			} else {
				all[i]["id"] = fmt.Sprintf("n%d", i-nTargets+1)
			}
		}
		var names, ids, alt []string
		for _, t := range all[:nTargets] {
			names = append(names, t[a.label])
			ids = append(ids, t["id"])
			alt = append(alt, q(t[a.label]))
		}
		rows := shuffleRows(g, lastIsNoise(g, all), true)
		setup, err := seed(a.coll(), rows)
		if err != nil {
			return nil, err
		}
		anyTarget := `item "(?:` + strings.Join(alt, "|") + `)" id=` + a.row
		steps := []walkthrough.Step{{Screen: `id=` + a.list, Without: anyTarget, Subgoal: "Scroll to the rows to delete", Loop: true, Do: []string{`Swipe "` + a.list + `" up`}}}
		for _, n := range names {
			steps = append(steps, walkthrough.Step{Screen: `item "` + q(n) + `" id=` + a.row, Subgoal: "Open " + n, Loop: true, Do: []string{`Tap ` + label(n)}})
		}
		steps = append(steps, walkthrough.Step{Screen: `id=` + a.deleteID, Subgoal: "Delete it", Do: []string{`Tap ` + label(a.deleteLabel)}})
		return &instance{
			instruction: appNames.Replace(fmt.Sprintf(goal, strings.Join(names, ", "))),
			setup:       []string{setup},
			checks:      []suite.CustomCheck{&rowsCheck{Collection: a.coll(), Before: rows, Removed: ids}},
			walk: []walkthrough.Task{{App: a.pkg, Done: listEnd(rows, a.label, a.row) + `|` + q(a.empty), Unless: anyTarget + `|id=` + a.deleteID,
				Steps: steps}},
		}, nil
	}
}

// recordsDeleteDuplicates is the DeleteDuplicateRows family: one row twice among nNoise
// others, drawn as the benchmark draws them (no two equal, so a noise row may share the
// target's title: a near-duplicate); either copy may go, nothing else. The walk opens a
// row whose lines are the twin's, by its number.
func recordsDeleteDuplicates(a recordsApp, draw func(g *gen, n int) ([]sim.Record, error), nNoise int, goal string) func(g *gen) (*instance, error) {
	return func(g *gen) (*instance, error) {
		all, err := draw(g, nNoise+1)
		if err != nil {
			return nil, err
		}
		target, noise := all[len(all)-1], all[:len(all)-1] // the benchmark pops the last
		twin := maps.Clone(target)
		target["id"], twin["id"] = "t1", "t2"
		for i, r := range noise {
			r["id"] = fmt.Sprintf("n%d", i+1)
		}
		rows := shuffleRows(g, append(noise, target, twin))
		setup, err := seed(a.coll(), rows)
		if err != nil {
			return nil, err
		}
		row := a.rowPattern(target)
		return &instance{
			instruction: appNames.Replace(goal),
			setup:       []string{setup},
			checks:      []suite.CustomCheck{&rowsCheck{Collection: a.coll(), Before: rows, OneOf: []string{"t1", "t2"}}},
			walk: []walkthrough.Task{{App: a.pkg, Done: `"` + q(a.title) + `"\n`, Unless: row + `[\s\S]*` + row + `|id=` + a.deleteID,
				Steps: []walkthrough.Step{
					{Screen: `\[(?P<n>\d+)\] ` + row + `[\s\S]*` + row, Subgoal: "Open one of the two identical rows", Do: []string{`Tap "#${n}"`}},
					{Screen: `id=` + a.deleteID, Subgoal: "Delete the duplicate", Do: []string{`Tap "` + a.deleteLabel + `"`}},
				}}},
		}, nil
	}
}

// shuffleRows puts rows in a random order (unless ordered) and numbers the list's order
// (seq: the list shows the highest first).
func shuffleRows(g *gen, rows []sim.Record, ordered ...bool) []sim.Record {
	if len(ordered) == 0 {
		g.r.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	}
	for i := range rows {
		rows[i]["seq"] = strconv.Itoa(i + 1)
	}
	return rows
}

// expenseRows draws n expenses with distinct names as rows (the delete families' draw).
func expenseRows(g *gen, n int) []sim.Record {
	var out []sim.Record
	for _, e := range g.expenses(n) {
		out = append(out, e.record("", 0))
	}
	return out
}

// expenseDraws is get_random_items(n, _generate_expense): n expenses none equal to another,
// each kept by keep (nil: all); two of one name may both be drawn.
func expenseDraws(g *gen, n int, keep func(sim.Record) bool) ([]sim.Record, error) {
	return randomDraws(n, func() sim.Record { return g.expense().record("", 0) }, sameRow, keep)
}

// expenseDraw is expenseDraws with no filter (the duplicate family's draw).
func expenseDraw(g *gen, n int) ([]sim.Record, error) { return expenseDraws(g, n, nil) }

// expenseAddSingle is ExpenseAddSingle: one expense, in one of the benchmark's two text
// forms, added among 10 others.
var expenseAddSingle = recordsAddMultiple(expenseForm, 1, 10)

// pyDollars is an amount ("136.60") as the benchmark's amount_dollars writes it:
// f'${cents / 100}', Python's float text ("$136.6", "$100.0").
func pyDollars(amount string) string {
	v, err := strconv.ParseFloat(amount, 64)
	if err != nil {
		return "$" + amount
	}
	s := strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return "$" + s
}

// lastIsNoise shuffles rows so that the list's last row (the first in rows: the lowest
// seq) is not a target, when there is noise: a walk knows the list's end by that row.
func lastIsNoise(g *gen, rows []sim.Record) []sim.Record {
	g.r.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	if i := slices.IndexFunc(rows, func(r sim.Record) bool { return !strings.HasPrefix(r["id"], "t") }); i > 0 {
		rows[0], rows[i] = rows[i], rows[0]
	}
	return rows
}

// addForm is a records app's add form: its add button, the benchmark's text columns of a
// row, the input (or the button of a picker) of each and how the rows are drawn.
type addForm struct {
	app     recordsApp
	add     string // the add button's label
	noun    string // "expense", "recipe"
	block   string // a text block's name (the benchmark's dataclass): "Expense", "Recipe"
	goal    string // the goal before the rows
	columns []string
	inputs  []string
	// pickers are the columns whose button opens a page listing the app's choices (the id
	// of a choice's row): the walk picks the column's text there.
	pickers map[int]string
	show    func(r sim.Record, column string) string // a column's text in the instruction
	want    func(r sim.Record) map[string]string     // the added row the check looks for
	draw    func(g *gen, n int, keep func(sim.Record) bool) ([]sim.Record, error)
	// noise keeps a noise row given the targets (the benchmark's filter_fn).
	noise func(targets []sim.Record) func(sim.Record) bool
}

// text is get_text_representation_of_rows: csv (a header, a row a line, "|" between
// columns) or text blocks ("Expense: NAME\n amount_dollars: …\n" each, a blank line between).
func (f addForm) text(rows []sim.Record, csv bool) string {
	var b strings.Builder
	if csv {
		b.WriteString(strings.Join(f.columns, "|"))
		for _, r := range rows {
			var vals []string
			for _, c := range f.columns {
				vals = append(vals, f.show(r, c))
			}
			b.WriteString("\n" + strings.Join(vals, "|"))
		}
		return b.String()
	}
	for i, r := range rows {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(f.block + ": " + f.show(r, f.columns[0]) + "\n")
		for _, c := range f.columns[1:] {
			b.WriteString(" " + c + ": " + f.show(r, c) + "\n")
		}
	}
	return b.String()
}

// rowReaders are patterns on the prompt reading the i-th row of the instruction's text into
// groups c0, c1, … (one for each text form), then the current sub-goal's row number.
func (f addForm) rowReaders(first string, i int, sub string) []string {
	var cols []string
	for j := range f.columns {
		cols = append(cols, `(?P<c`+strconv.Itoa(j)+`>[^|\n]*)`)
	}
	csv := `(?s)` + regexp.QuoteMeta(first) + `\n` + regexp.QuoteMeta(strings.Join(f.columns, "|")) + `\n(?:[^\n]*\n){` + strconv.Itoa(i) + `}` +
		strings.Join(cols, `\|`) + `\n.*` + sub
	block := `(?s)` + regexp.QuoteMeta(first) + `\n(?:` + f.block + `: [^\n]*\n(?: [^\n]*\n)*\n){` + strconv.Itoa(i) + `}` +
		f.block + `: (?P<c0>[^\n]*)\n`
	for j, c := range f.columns[1:] {
		block += ` ` + regexp.QuoteMeta(c) + `: (?P<c` + strconv.Itoa(j+1) + `>[^\n]*)\n`
	}
	return []string{csv, block + `.*` + sub}
}

// recordsAddMultiple is AddMultipleRows: n rows given as csv or text blocks (drawn as the
// benchmark draws them), added among nNoise others. The walk adds them in order (which row
// the form is for is the current sub-goal) and knows a row added when it heads the list.
func recordsAddMultiple(f addForm, n, nNoise int) func(g *gen) (*instance, error) {
	return func(g *gen) (*instance, error) {
		targets, err := f.draw(g, n, nil)
		if err != nil {
			return nil, err
		}
		noise, err := f.draw(g, nNoise, f.noise(targets))
		if err != nil {
			return nil, err
		}
		for i, r := range noise {
			r["id"] = fmt.Sprintf("n%d", i+1)
		}
		rows := shuffleRows(g, noise)
		setup, err := seed(f.app.coll(), rows)
		if err != nil {
			return nil, err
		}
		csv := g.r.IntN(2) == 0 // random.choice(['csv', 'text_block'])
		instruction := appNames.Replace(f.goal + "\n" + f.text(targets, csv))
		first, _, _ := strings.Cut(instruction, "\n")
		var added []map[string]string
		for _, t := range targets {
			added = append(added, f.want(t))
		}
		var steps []walkthrough.Step
		for i, t := range targets {
			k := strconv.Itoa(i + 1)
			sub := `(?m)^Current sub-goal: [^\n]* ` + f.noun + ` ` + k + `$`
			addStep := walkthrough.Step{Screen: `id=` + f.app.list + `|"` + q(f.add) + `"`, Without: f.app.topPattern(t), Subgoal: "Add " + f.noun + " " + k, Do: []string{`Tap ` + label(f.add)}}
			if i > 0 {
				addStep.Screen = f.app.topPattern(targets[i-1])
			}
			// The form once filled: every column's text at its input.
			var filled []string
			var fill []string
			var picks []walkthrough.Step
			for j, in := range f.inputs {
				filled = append(filled, shown(f.show(t, f.columns[j]))+` id=`+in)
				v := "${c" + strconv.Itoa(j) + "}"
				if list, ok := f.pickers[j]; ok {
					for _, read := range f.rowReaders(first, i, sub) {
						picks = append(picks, walkthrough.Step{Screen: `id=` + list, When: read, Subgoal: "Pick the " + f.columns[j] + " of " + f.noun + " " + k, Do: []string{`Tap "` + v + `"`}})
					}
					continue
				}
				fill = append(fill, `Input "`+in+`" "`+v+`"`)
			}
			for j, in := range f.inputs { // a picker's button last: it opens a dialog
				if _, ok := f.pickers[j]; ok {
					fill = append(fill, `Tap "`+in+`"`)
				}
			}
			done := strings.Join(filled, `(?s:.*)`)
			steps = append(steps, addStep)
			for _, read := range f.rowReaders(first, i, sub) {
				steps = append(steps, walkthrough.Step{Screen: `id=` + f.inputs[0], Without: done, When: read, Subgoal: "Fill in " + f.noun + " " + k, Do: fill})
			}
			steps = append(steps, picks...)
			steps = append(steps, walkthrough.Step{Screen: done, Subgoal: "Save " + f.noun + " " + k, Do: []string{`Tap "Save"`}})
		}
		newest := slices.Clone(targets)
		slices.Reverse(newest)
		return &instance{
			instruction: instruction,
			setup:       []string{setup},
			checks:      []suite.CustomCheck{&rowsCheck{Collection: f.app.coll(), Before: rows, Added: added}},
			walk:        []walkthrough.Task{walk(f.app.pkg, f.app.topPattern(newest...), steps...)},
		}, nil
	}
}

var (
	expenseForm = addForm{app: expensesApp, add: "Add expense", noun: "expense", block: "Expense",
		goal:    "Add the following expenses into the arduia pro expense:",
		columns: []string{"name", "amount_dollars", "category_name", "note"},
		inputs:  []string{"expense_name", "expense_amount", "expense_category", "expense_note"},
		pickers: map[int]string{2: "category_row"},
		show: func(r sim.Record, c string) string {
			switch c {
			case "amount_dollars":
				return pyDollars(r["amount"])
			case "category_name":
				return expenseCategoryName(r["category"])
			}
			return r[c]
		},
		// name and note fuzzy, the amount and the category (its id) exact.
		want: func(r sim.Record) map[string]string {
			return map[string]string{"name": r["name"], "amount": pyDollars(r["amount"]), "category": r["category"], "note": r["note"]}
		},
		draw: expenseDraws,
		noise: func(targets []sim.Record) func(sim.Record) bool { // all(r.name != t.name for t in targets)
			return func(r sim.Record) bool {
				return !slices.ContainsFunc(targets, func(t sim.Record) bool { return t["name"] == r["name"] })
			}
		}}
	recipeForm = addForm{app: recipesApp, add: "Add recipe", noun: "recipe", block: "Recipe",
		goal:    "Add the following recipes into the Broccoli app:",
		columns: []string{"title", "description", "servings", "preparationTime", "ingredients", "directions"},
		inputs:  []string{"recipe_title", "recipe_description", "recipe_servings", "recipe_prep", "recipe_ingredients", "recipe_directions"},
		show:    func(r sim.Record, c string) string { return r[c] },
		// Every field the benchmark compares: source and favourite as Broccoli stores an
		// untouched recipe ("" and 0).
		want: func(r sim.Record) map[string]string {
			w := maps.Clone(r)
			delete(w, "id")
			delete(w, "seq")
			return w
		},
		draw: recipeDraws,
		noise: func(targets []sim.Record) func(sim.Record) bool { // any(r.title != t.title for t in targets)
			return func(r sim.Record) bool {
				return slices.ContainsFunc(targets, func(t sim.Record) bool { return t["title"] != r["title"] })
			}
		}}
)

// shown is a screen pattern for a text as a field shows it: whole, or its start cut with
// "…" when long.
func shown(s string) string {
	r := []rune(s)
	if len(r) <= 40 {
		return `"` + q(s) + `"`
	}
	return `"` + q(string(r[:40])) + `[^"]*"`
}
