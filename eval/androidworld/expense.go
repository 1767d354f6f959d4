package androidworld

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/eval/walkthrough"
	"github.com/fairy-go/fairy/sim"
)

const expensesPkg = "com.fairy.expenses"

// expense is expense._generate_expense: a category, a name of that category, an amount
// of 10.00–500.00 dollars and a note.
type expense struct {
	name, category, note string
	cents                int
}

func (g *gen) expense() expense {
	cat := pick(g.r, g.list("expense._EXPENSE_NAMES.keys"))
	return expense{name: pick(g.r, g.list("expense._EXPENSE_NAMES."+cat)), category: cat, note: pick(g.r, g.list("expense._NOTES")), cents: between(g.r, 1000, 50000)}
}

// dollars is the benchmark's amount_dollars: f'${amount / 100}' (Python's float text).
func (e expense) dollars() string {
	s := strconv.FormatFloat(float64(e.cents)/100, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return "$" + s
}

func (e expense) record(id string, seq int) sim.Record {
	return sim.Record{"id": id, "seq": strconv.Itoa(seq), "name": e.name, "amount": fmt.Sprintf("%.2f", float64(e.cents)/100), "category": e.category, "note": e.note}
}

// expenses draws n expenses with distinct names (the benchmark's generate_random_params).
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

// expenseList seeds the rows in a random order (seq numbers the list's order).
func expenseList(g *gen, targets, noise []expense) []sim.Record {
	var rows []sim.Record
	for i, e := range targets {
		rows = append(rows, e.record(fmt.Sprintf("t%d", i+1), 0))
	}
	for i, e := range noise {
		rows = append(rows, e.record(fmt.Sprintf("n%d", i+1), 0))
	}
	g.r.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	for i := range rows {
		rows[i]["seq"] = strconv.Itoa(i + 1)
	}
	return rows
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
}

var (
	expensesApp = recordsApp{pkg: expensesPkg, collection: "expenses", label: "name", list: "expense_recycler", row: "expense_row",
		title: "Expenses", deleteID: "delete_expense", deleteLabel: "Delete expense", empty: "No expenses yet"}
	recipesApp = recordsApp{pkg: recipesPkg, collection: "recipes", label: "title", list: "recipe_recycler", row: "recipe_row",
		title: "Recipes", deleteID: "delete_recipe", deleteLabel: "Delete recipe", empty: "No recipes yet"}
)

func (a recordsApp) coll() string { return a.pkg + ":" + a.collection }

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
			checks:      []eval.CustomCheck{&rowsCheck{Collection: a.coll(), Before: rows, Removed: ids}},
			walk: []walkthrough.Task{{App: a.pkg, Done: listEnd(rows, a.label, a.row) + `|` + q(a.empty), Unless: anyTarget + `|id=` + a.deleteID,
				Steps: steps}},
		}, nil
	}
}

// recordsDeleteDuplicates is the DeleteDuplicateRows family: one row twice among nNoise
// others; either copy may go, nothing else.
func recordsDeleteDuplicates(a recordsApp, draw func(g *gen, n int) []sim.Record, nNoise int, goal string) func(g *gen) (*instance, error) {
	return func(g *gen) (*instance, error) {
		all := draw(g, nNoise+1)
		target := all[0]
		twin := maps.Clone(target)
		target["id"], twin["id"] = "t1", "t2"
		for i := 1; i < len(all); i++ {
			all[i]["id"] = fmt.Sprintf("n%d", i)
		}
		rows := shuffleRows(g, append(all, twin))
		setup, err := seed(a.coll(), rows)
		if err != nil {
			return nil, err
		}
		row := `item "` + q(target[a.label]) + `" id=` + a.row
		return &instance{
			instruction: appNames.Replace(goal),
			setup:       []string{setup},
			checks:      []eval.CustomCheck{&rowsCheck{Collection: a.coll(), Before: rows, OneOf: []string{"t1", "t2"}}},
			walk: []walkthrough.Task{{App: a.pkg, Done: `"` + q(a.title) + `"\n`, Unless: row + `[\s\S]*` + row + `|id=` + a.deleteID,
				Steps: []walkthrough.Step{
					{Screen: row + `[\s\S]*` + row, Subgoal: "Open one of the two identical rows", Do: []string{`Tap ` + label(target[a.label])}},
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

// expenseRows draws n expenses with distinct names as rows.
func expenseRows(g *gen, n int) []sim.Record {
	var out []sim.Record
	for _, e := range g.expenses(n) {
		out = append(out, e.record("", 0))
	}
	return out
}

func expenseAddSingle(g *gen) (*instance, error) {
	all := g.expenses(11)
	target, noise := all[0], all[1:]
	rows := expenseList(g, nil, noise)
	setup, err := seed(expensesPkg+":expenses", rows)
	if err != nil {
		return nil, err
	}
	var text string
	if g.r.IntN(2) == 0 { // the benchmark's two text representations
		text = fmt.Sprintf("name|amount_dollars|category_name|note\n%s|%s|%s|%s", target.name, target.dollars(), target.category, target.note)
	} else {
		text = fmt.Sprintf("Expense: %s\n amount_dollars: %s\n category_name: %s\n note: %s\n", target.name, target.dollars(), target.category, target.note)
	}
	fill := []string{`Input "expense_name" "${name}"`, `Input "expense_amount" "${amount}"`, `Input "expense_category" "${category}"`, `Input "expense_note" "${note}"`}
	return &instance{
		instruction: appNames.Replace("Add the following expenses into the arduia pro expense:\n" + text),
		setup:       []string{setup},
		checks: []eval.CustomCheck{&rowsCheck{Collection: expensesPkg + ":expenses", Before: rows,
			Added: []map[string]string{{"name": target.name, "amount": target.dollars(), "category": target.category, "note": target.note}}}},
		walk: []walkthrough.Task{walk(expensesPkg, `item "`+q(target.name)+`" id=expense_row`,
			walkthrough.Step{Screen: `"Add expense" id=add_expense`, Subgoal: "Start a new expense", Do: []string{`Tap "Add expense"`}},
			walkthrough.Step{Screen: `id=expense_name`, When: `\nname\|amount_dollars\|category_name\|note\n(?P<name>[^|\n]+)\|\$(?P<amount>[\d.]+)\|(?P<category>[^|\n]+)\|(?P<note>[^\n]*)`,
				Subgoal: "Fill in the expense", Do: fill},
			walkthrough.Step{Screen: `id=expense_name`, When: `Expense: (?P<name>[^\n]+)\n amount_dollars: \$(?P<amount>[\d.]+)\n category_name: (?P<category>[^\n]+)\n note: (?P<note>[^\n]*)`,
				Subgoal: "Fill in the expense", Do: fill},
			walkthrough.Step{Screen: `"` + q(target.name) + `" id=expense_name`, Subgoal: "Save the expense", Do: []string{`Tap "Save"`}},
		)},
	}, nil
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

// addForm is a records app's add form: its add button, its inputs (one a field, in the
// benchmark's csv column order) and how a row of the instruction's csv names them.
type addForm struct {
	app      recordsApp
	add      string   // the add button's label
	columns  []string // the csv header's columns
	inputs   []string // the input of each column
	fields   []string // the record field of each column
	noun     string   // "expense", "recipe"
	goal     string   // the goal before the csv
	nameIn   string   // the input holding the row's label
	rowsFunc func(g *gen, n int) []sim.Record
}

// recordsAddMultiple is AddMultipleRows: n rows given as csv, added among nNoise others.
// The walk adds them in order; which row the form is for is the current sub-goal.
func recordsAddMultiple(f addForm, n, nNoise int) func(g *gen) (*instance, error) {
	return func(g *gen) (*instance, error) {
		all := f.rowsFunc(g, n+nNoise)
		targets, noise := all[:n], all[n:]
		for i, r := range noise {
			r["id"] = fmt.Sprintf("n%d", i+1)
		}
		rows := shuffleRows(g, noise)
		setup, err := seed(f.app.coll(), rows)
		if err != nil {
			return nil, err
		}
		lines := []string{strings.Join(f.columns, "|")}
		var added []map[string]string
		for _, t := range targets {
			var vals []string
			want := map[string]string{}
			for _, fld := range f.fields {
				v := t[fld]
				if fld == "amount" {
					v = "$" + strings.TrimSuffix(strings.TrimSuffix(v, "0"), ".") // as amount_dollars writes it
				}
				vals = append(vals, v)
				want[fld] = t[fld]
			}
			lines = append(lines, strings.Join(vals, "|"))
			added = append(added, want)
		}
		item := func(t sim.Record) string { return `item "` + q(t[f.app.label]) + `" id=` + f.app.row }
		var steps []walkthrough.Step
		for i, t := range targets {
			k := strconv.Itoa(i + 1)
			sub := `(?m)^Current sub-goal: (?:Add|Fill in) ` + f.noun + ` ` + k + `$`
			// The i-th csv row of the instruction, its columns as named groups.
			var cols []string
			for j := range f.columns {
				cols = append(cols, `(?P<c`+strconv.Itoa(j)+`>[^|\n]*)`)
			}
			row := `(?s)` + regexp.QuoteMeta(lines[0]) + `\n(?:[^\n]*\n){` + strconv.Itoa(i) + `}` + strings.Join(cols, `\|`) + `\n.*` + sub
			var fill []string
			for j, in := range f.inputs {
				v := "${c" + strconv.Itoa(j) + "}"
				if f.fields[j] == "amount" {
					v = "${c" + strconv.Itoa(j) + "}"
				}
				fill = append(fill, `Input "`+in+`" "`+v+`"`)
			}
			list := `id=` + f.app.list + `|"` + q(f.add) + `"`
			addStep := walkthrough.Step{Screen: list, Subgoal: "Add " + f.noun + " " + k, Do: []string{`Tap ` + label(f.add)}}
			if i == 0 {
				addStep.Without = item(t)
			} else {
				addStep.Screen = item(targets[i-1])
				addStep.Without = item(t)
			}
			// Saved once the form shows the row's first and last fields (a model reads the
			// whole form before saving).
			last := len(f.inputs) - 1
			filled := `"` + q(t[f.app.label]) + `" id=` + f.nameIn + `(?s:.*)"` + q(t[f.fields[last]]) + `" id=` + f.inputs[last]
			steps = append(steps, addStep,
				walkthrough.Step{Screen: `id=` + f.nameIn, Without: filled, When: row, Subgoal: "Fill in " + f.noun + " " + k, Do: fill},
				walkthrough.Step{Screen: filled, Subgoal: "Save " + f.noun + " " + k, Do: []string{`Tap "Save"`}},
			)
		}
		var done []string
		for i := len(targets) - 1; i >= 0; i-- {
			done = append(done, item(targets[i]))
		}
		return &instance{
			instruction: appNames.Replace(f.goal + "\n" + strings.Join(lines, "\n")),
			setup:       []string{setup},
			checks:      []eval.CustomCheck{&rowsCheck{Collection: f.app.coll(), Before: rows, Added: added}},
			walk:        []walkthrough.Task{walk(f.app.pkg, strings.Join(done, `[\s\S]*`), steps...)},
		}, nil
	}
}

var (
	expenseForm = addForm{app: expensesApp, add: "Add expense", noun: "expense", nameIn: "expense_name",
		columns: []string{"name", "amount_dollars", "category_name", "note"}, fields: []string{"name", "amount", "category", "note"},
		inputs: []string{"expense_name", "expense_amount", "expense_category", "expense_note"},
		goal:   "Add the following expenses into the arduia pro expense:", rowsFunc: expenseRows}
	recipeForm = addForm{app: recipesApp, add: "Add recipe", noun: "recipe", nameIn: "recipe_title",
		columns: []string{"title", "description", "servings", "preparationTime", "ingredients", "directions"},
		fields:  []string{"title", "description", "servings", "preparationTime", "ingredients", "directions"},
		inputs:  []string{"recipe_title", "recipe_description", "recipe_servings", "recipe_prep", "recipe_ingredients", "recipe_directions"},
		goal:    "Add the following recipes into the Broccoli app:", rowsFunc: recipeRows}
)
