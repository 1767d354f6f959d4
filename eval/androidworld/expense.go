package androidworld

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fairy-go/fairy/eval"
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

// expenseRows seeds the rows in a random order (seq numbers the list's order).
func expenseRows(g *gen, targets, noise []expense) []sim.Record {
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

// listEnd is a screen pattern for the last row of a list sorted by -seq.
func listEnd(rows []sim.Record, field, rowID string) string {
	last := slices.MinFunc(rows, func(a, b sim.Record) int {
		x, _ := strconv.Atoi(a["seq"])
		y, _ := strconv.Atoi(b["seq"])
		return x - y
	})
	return `item "` + q(last[field]) + `" id=` + rowID
}

func expenseDelete(nTargets, nNoise int) func(g *gen) (*instance, error) {
	return func(g *gen) (*instance, error) {
		all := g.expenses(nTargets + nNoise)
		targets, noise := all[:nTargets], all[nTargets:]
		rows := expenseRows(g, targets, noise)
		setup, err := seed(expensesPkg+":expenses", rows)
		if err != nil {
			return nil, err
		}
		var names, ids []string
		for i, t := range targets {
			names = append(names, t.name)
			ids = append(ids, fmt.Sprintf("t%d", i+1))
		}
		var alt []string
		for _, n := range names {
			alt = append(alt, q(n))
		}
		anyTarget := `item "(?:` + strings.Join(alt, "|") + `)" id=expense_row`
		return &instance{
			instruction: appNames.Replace(fmt.Sprintf("Delete the following expenses from arduia pro expense: %s.", strings.Join(names, ", "))),
			setup:       []string{setup},
			checks:      []eval.CustomCheck{&RowsCheck{Collection: expensesPkg + ":expenses", Before: rows, Removed: ids}},
			walk: []eval.WalkTask{{App: expensesPkg, Done: listEnd(rows, "name", "expense_row") + `|No expenses yet`, Unless: anyTarget + `|id=delete_expense`,
				Steps: []eval.WalkStep{
					{Screen: `id=expense_recycler`, Without: anyTarget, Subgoal: "Scroll to the expenses to delete", Loop: true, Do: []string{`Swipe "expense_recycler" up`}},
					{Screen: `item "(?P<name>` + strings.Join(alt, "|") + `)" id=expense_row`, Subgoal: "Open an expense to delete", Loop: true, Do: []string{`Tap "${name}"`}},
					{Screen: `id=delete_expense`, Subgoal: "Delete the expense", Do: []string{`Tap "Delete expense"`}},
				}}},
		}, nil
	}
}

func expenseAddSingle(g *gen) (*instance, error) {
	all := g.expenses(11)
	target, noise := all[0], all[1:]
	rows := expenseRows(g, nil, noise)
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
		checks: []eval.CustomCheck{&RowsCheck{Collection: expensesPkg + ":expenses", Before: rows,
			Added: []map[string]string{{"name": target.name, "amount": target.dollars(), "category": target.category, "note": target.note}}}},
		walk: []eval.WalkTask{walk(expensesPkg, `item "`+q(target.name)+`" id=expense_row`,
			eval.WalkStep{Screen: `"Add expense" id=add_expense`, Subgoal: "Start a new expense", Do: []string{`Tap "Add expense"`}},
			eval.WalkStep{Screen: `id=expense_name`, When: `\nname\|amount_dollars\|category_name\|note\n(?P<name>[^|\n]+)\|\$(?P<amount>[\d.]+)\|(?P<category>[^|\n]+)\|(?P<note>[^\n]*)`,
				Subgoal: "Fill in the expense", Do: fill},
			eval.WalkStep{Screen: `id=expense_name`, When: `Expense: (?P<name>[^\n]+)\n amount_dollars: \$(?P<amount>[\d.]+)\n category_name: (?P<category>[^\n]+)\n note: (?P<note>[^\n]*)`,
				Subgoal: "Fill in the expense", Do: fill},
			eval.WalkStep{Screen: `"` + q(target.name) + `" id=expense_name`, Subgoal: "Save the expense", Do: []string{`Tap "Save"`}},
		)},
	}, nil
}

func expenseDeleteDuplicates(g *gen) (*instance, error) {
	all := g.expenses(6)
	target, noise := all[0], all[1:]
	rows := expenseRows(g, []expense{target, target}, noise)
	setup, err := seed(expensesPkg+":expenses", rows)
	if err != nil {
		return nil, err
	}
	row := `item "` + q(target.name) + `" id=expense_row`
	return &instance{
		instruction: appNames.Replace("Delete all but one of any expenses in arduia pro expense that are exact duplicates, ensuring at least one instance of each unique expense remains"),
		setup:       []string{setup},
		checks:      []eval.CustomCheck{&RowsCheck{Collection: expensesPkg + ":expenses", Before: rows, OneOf: []string{"t1", "t2"}}},
		walk: []eval.WalkTask{{App: expensesPkg, Done: `"Expenses"\n`, Unless: row + `[\s\S]*` + row + `|id=delete_expense`,
			Steps: []eval.WalkStep{
				{Screen: row + `[\s\S]*` + row, Subgoal: "Open one of the two identical expenses", Do: []string{`Tap "` + target.name + `"`}},
				{Screen: `id=delete_expense`, Subgoal: "Delete the duplicate", Do: []string{`Tap "Delete expense"`}},
			}}},
	}, nil
}
