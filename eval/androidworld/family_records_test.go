package androidworld

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/sim"
)

// drawnInstance is instance i of family drawn with seed, as the suite draws it.
func drawnInstance(t *testing.T, family string, seed int64, i int) *instance {
	t.Helper()
	d, err := loadData()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range builders {
		if b.name == family {
			in, err := b.draw(&gen{r: instanceRand(seed, family, i), d: d})
			if err != nil {
				t.Fatalf("%s-%d: %v", family, i, err)
			}
			return in
		}
	}
	t.Fatalf("no family %s", family)
	return nil
}

func rowsCheckOf(t *testing.T, in *instance) *rowsCheck {
	t.Helper()
	for _, c := range in.checks {
		if rc, ok := c.(*rowsCheck); ok {
			return rc
		}
	}
	t.Fatalf("no rows check in %T", in.checks)
	return nil
}

// ui drives the virtual phone's screen as a person would: taps and typing by label.
type ui struct {
	t *testing.T
	p *sim.Phone
}

func (u ui) screen() *perception.Screen {
	u.t.Helper()
	s, err := perception.Parse(u.p.Dump())
	if err != nil {
		u.t.Fatal(err)
	}
	return s
}

func (u ui) find(label string) *perception.Element {
	u.t.Helper()
	s := u.screen()
	for i := range s.Elements {
		if e := &s.Elements[i]; e.Label == label || strings.HasSuffix(e.ResourceID, "/"+label) {
			return e
		}
	}
	u.t.Fatalf("no %q on the screen:\n%s", label, s.Text())
	return nil
}

func (u ui) tap(label string) {
	u.t.Helper()
	e := u.find(label)
	run(u.t, u.p, fmt.Sprintf("input tap %d %d", e.Center.X, e.Center.Y))
}

func (u ui) typeInto(id, text string) {
	u.t.Helper()
	u.tap(id)
	run(u.t, u.p, "input text '"+strings.ReplaceAll(text, " ", "%s")+"'")
}

// TestExpenseCategoryFromList: the Expenses app's category is picked from its list of
// the real app's categories and stored as the category's id (Food is 3), the way Pro
// Expense's database holds it; the list shows its name.
func TestExpenseCategoryFromList(t *testing.T) {
	p := phoneWith(t, "", nil)
	u := ui{t, p}
	run(t, p, "monkey -p "+expensesPkg+" -c android.intent.category.LAUNCHER 1")
	u.tap("Add expense")
	u.typeInto("expense_name", "Groceries")
	u.typeInto("expense_amount", "12.50")
	u.tap("expense_category")
	var shown []string
	for _, e := range u.screen().Elements {
		if strings.HasSuffix(e.ResourceID, "/category_row") {
			shown = append(shown, e.Label)
		}
	}
	if !slices.Equal(shown, expenseCategories()) {
		t.Fatalf("the category list shows %q, want the app's %q", shown, expenseCategories())
	}
	u.tap("Food")
	if u.find("expense_category").Label != "Food" {
		t.Fatalf("the form shows category %q after picking Food", u.find("expense_category").Label)
	}
	u.tap("Save")
	rows, err := p.Records(expensesPkg + ":expenses")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0]["category"] != "3" || rows[0]["name"] != "Groceries" {
		t.Fatalf("saved %v, want Groceries with category 3 (Food)", rows)
	}
	if u.find("Groceries") == nil || !strings.Contains(u.screen().Text(), "$12.50 · Food") {
		t.Errorf("the list does not show the category's name:\n%s", u.screen().Text())
	}
}

// TestExpenseCategoryExact: ExpenseAddSingle's check wants the category's id: the right
// id passes; another category, or the name typed as text, fails.
func TestExpenseCategoryExact(t *testing.T) {
	in := drawnInstance(t, "ExpenseAddSingle", 1, 0)
	check := rowsCheckOf(t, in)
	want := check.Added[0]
	if expenseCategoryName(want["category"]) == "" || !strings.Contains(in.instruction, expenseCategoryName(want["category"])) {
		t.Fatalf("the check wants category %q; instruction %q", want["category"], in.instruction)
	}
	row := func(cat string) []sim.Record {
		r := sim.Record{"id": "new", "seq": "99", "name": want["name"], "amount": strings.TrimPrefix(want["amount"], "$"), "category": cat, "note": want["note"]}
		return append(slices.Clone(check.Before), r)
	}
	other := "1"
	if want["category"] == "1" {
		other = "2"
	}
	for _, tc := range []struct {
		name, cat string
		pass      bool
	}{
		{"the id of the instruction's category", want["category"], true},
		{"another category", other, false},
		{"the name as text", expenseCategoryName(want["category"]), false},
		{"no category", "", false},
	} {
		ok, ev := evaluate(t, check, suite.Probe{Phone: phoneWith(t, check.Collection, row(tc.cat))})
		if ok != tc.pass {
			t.Errorf("%s (%q): pass=%t (%s), want %t", tc.name, tc.cat, ok, ev, tc.pass)
		}
	}
}

// TestRecipeSourceFavorite: a recipe is added with Broccoli's source and favourite as an
// untouched form leaves them ("" and 0); a source typed or the recipe marked favourite
// fails the benchmark's check. The form has both fields.
func TestRecipeSourceFavorite(t *testing.T) {
	in := drawnInstance(t, "RecipeAddSingleRecipe", 1, 0)
	check := rowsCheckOf(t, in)
	want := check.Added[0]
	if want["source"] != "" || want["favorite"] != "0" || len(want) != 8 {
		t.Fatalf("the check wants %v: every field the benchmark compares, source \"\" and favorite 0", want)
	}
	row := func(f map[string]string) []sim.Record {
		r := sim.Record{"id": "new", "seq": "99"}
		maps.Copy(r, want)
		maps.Copy(r, f)
		return append(slices.Clone(check.Before), r)
	}
	for _, tc := range []struct {
		name string
		f    map[string]string
		pass bool
	}{
		{"as given", nil, true},
		{"marked favourite", map[string]string{"favorite": "1"}, false},
		{"a source typed", map[string]string{"source": "grandma's notebook"}, false},
	} {
		ok, ev := evaluate(t, check, suite.Probe{Phone: phoneWith(t, check.Collection, row(tc.f))})
		if ok != tc.pass {
			t.Errorf("%s: pass=%t (%s), want %t", tc.name, ok, ev, tc.pass)
		}
	}
	p := phoneWith(t, "", nil)
	u := ui{t, p}
	run(t, p, "monkey -p "+recipesPkg+" -c android.intent.category.LAUNCHER 1")
	u.tap("Add recipe")
	u.typeInto("recipe_title", "Toast")
	u.typeInto("recipe_source", "grandma")
	run(t, p, "input swipe 540 1500 540 500 300") // the form scrolls to its last fields
	u.tap("recipe_favorite")
	u.tap("Save")
	rows, err := p.Records(recipesPkg + ":recipes")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0]["source"] != "grandma" || rows[0]["favorite"] != "1" {
		t.Errorf("saved %v, want source grandma and favorite 1", rows)
	}
}

// TestRecipeBaseDirections: every recipe drawn (targets and noise) has its recipe's base
// directions, then one of the benchmark's additions.
func TestRecipeBaseDirections(t *testing.T) {
	titles, dirs := recordList("recipe._RECIPES.title"), recordList("recipe._RECIPES.directions")
	if len(titles) != len(dirs) || len(titles) != len(list(mustData(t), "recipe._RECIPES.title")) {
		t.Fatalf("%d titles, %d directions", len(titles), len(dirs))
	}
	base := map[string]string{}
	for i, title := range titles {
		base[title] = dirs[i]
	}
	if !strings.HasPrefix(base["Spicy Tuna Wraps"], "Mix canned tuna with mayo and sriracha.") {
		t.Fatalf("Spicy Tuna Wraps: base directions %q", base["Spicy Tuna Wraps"])
	}
	adds := list(mustData(t), "recipe.directions_additions")
	for _, fam := range []string{"RecipeAddSingleRecipe", "RecipeAddMultipleRecipes", "RecipeDeleteMultipleRecipesWithNoise", "RecipeDeleteDuplicateRecipes"} {
		in := drawnInstance(t, fam, 3, 0)
		c := rowsCheckOf(t, in)
		rows := slices.Clone(c.Before)
		for _, a := range c.Added {
			rows = append(rows, a)
		}
		for _, r := range rows {
			d, ok := strings.CutPrefix(r["directions"], base[r["title"]]+" ")
			if !ok || !slices.Contains(adds, d) {
				t.Errorf("%s: %q's directions %q: want its base directions, then an addition", fam, r["title"], r["directions"])
			}
		}
		if fam == "RecipeAddSingleRecipe" && !strings.Contains(in.instruction, base[c.Added[0]["title"]]) {
			t.Errorf("the instruction does not give the base directions: %q", in.instruction)
		}
	}
}

func mustData(t *testing.T) *data {
	t.Helper()
	d, err := loadData()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestDuplicateNearDuplicates: the duplicate families draw their rows as the benchmark
// does (no two equal), so some instances hold a row of the target's title that is not
// its twin; the twins are the only equal rows.
func TestDuplicateNearDuplicates(t *testing.T) {
	for _, fam := range []struct {
		name, label string
		min         int // of 300 instances (expected: recipes ~36, expenses ~13)
	}{{"RecipeDeleteDuplicateRecipes", "title", 10}, {"ExpenseDeleteDuplicates", "name", 3}} {
		near := 0
		for i := range 300 {
			c := rowsCheckOf(t, drawnInstance(t, fam.name, 1, i))
			if len(c.Before) != 7 {
				t.Fatalf("%s-%d: %d rows, want 7 (the twins and 5 noise rows)", fam.name, i, len(c.Before))
			}
			var twin sim.Record
			for _, r := range c.Before {
				if r["id"] == "t1" {
					twin = r
				}
			}
			for j, r := range c.Before {
				for _, o := range c.Before[j+1:] {
					if sameRow(r, o) && !(slices.Contains(c.OneOf, r["id"]) && slices.Contains(c.OneOf, o["id"])) {
						t.Errorf("%s-%d: rows %s and %s are equal", fam.name, i, r["id"], o["id"])
					}
				}
				if strings.HasPrefix(r["id"], "n") && r[fam.label] == twin[fam.label] {
					near++
					break
				}
			}
		}
		if near < fam.min {
			t.Errorf("%s: %d of 300 instances with a near-duplicate of the target, want at least %d", fam.name, near, fam.min)
		}
		t.Logf("%s: %d of 300 instances with a near-duplicate", fam.name, near)
	}
}

// TestMapsCoordinates: OsmAnd's location is a place's name half of the time and its
// coordinates the other half; the check finds a marker at the place either way, and not
// one at another place.
func TestMapsCoordinates(t *testing.T) {
	coords := 0
	const n = 400
	d := mustData(t)
	b := builders[slices.IndexFunc(builders, func(b builder) bool { return b.name == "OsmAndMarker" })]
	for i := range n {
		task, err := b.task(d, d.Families[b.name], 1, i, true)
		if err != nil {
			t.Fatal(err)
		}
		loc := drawnInstance(t, "OsmAndMarker", 1, i).params["location"]
		if !strings.Contains(task.Instruction, loc) {
			t.Fatalf("instruction %q does not give %q", task.Instruction, loc)
		}
		if _, ok := parseCoords(loc); ok {
			coords++
		}
	}
	if coords < n*4/10 || coords > n*6/10 {
		t.Errorf("%d of %d locations as coordinates, want about half", coords, n)
	}
	places, err := mapsPlaces(&gen{r: instanceRand(1, "x", 0), d: mustData(t)})
	if err != nil {
		t.Fatal(err)
	}
	p := phoneWith(t, mapsPkg+":places", places)
	for _, fam := range []string{"OsmAndMarker", "OsmAndFavorite"} {
		for i := range 6 {
			in := drawnInstance(t, fam, 2, i)
			c, ok := in.checks[0].(*mapsCheck)
			if !ok {
				t.Fatalf("%s: check %T", fam, in.checks[0])
			}
			// The place the location names, and another.
			var at, other sim.Record
			for _, p := range places {
				if p["name"] == c.Location || p["address"] == c.Location {
					at = p
				} else if other == nil {
					other = p
				}
			}
			if at == nil {
				t.Fatalf("%s: location %q is no place of the map", fam, c.Location)
			}
			for _, tc := range []struct {
				place sim.Record
				pass  bool
			}{{at, true}, {other, false}} {
				run(t, p, mustSeed(t, c.Collection, []sim.Record{{"id": "m1", "name": tc.place["name"], "place": tc.place["id"]}}))
				ok, ev := evaluate(t, c, suite.Probe{Phone: p})
				if ok != tc.pass {
					t.Errorf("%s at %q, %s: pass=%t (%s), want %t", fam, c.Location, tc.place["name"], ok, ev, tc.pass)
				}
			}
		}
	}
}

// TestRecordsSeeding: the records families' rows are drawn from the instance's seed (the
// same seed, the same rows; another, others) in the benchmark's counts.
func TestRecordsSeeding(t *testing.T) {
	counts := map[string]int{ // rows seeded before the task: targets to delete and noise
		"ExpenseDeleteSingle": 1, "ExpenseDeleteMultiple": 3, "ExpenseDeleteMultiple2": 53, "ExpenseAddSingle": 10,
		"ExpenseDeleteDuplicates": 7, "ExpenseAddMultiple": 10, "RecipeAddSingleRecipe": 10, "RecipeAddMultipleRecipes": 10,
		"RecipeDeleteSingleRecipe": 1, "RecipeDeleteSingleWithRecipeWithNoise": 30, "RecipeDeleteMultipleRecipes": 3,
		"RecipeDeleteMultipleRecipesWithNoise": 32, "RecipeDeleteDuplicateRecipes": 7,
	}
	for fam, n := range counts {
		a, b, other := drawnInstance(t, fam, 5, 0), drawnInstance(t, fam, 5, 0), drawnInstance(t, fam, 6, 0)
		if got := len(rowsCheckOf(t, a).Before); got != n {
			t.Errorf("%s: %d rows seeded, want %d", fam, got, n)
		}
		if a.instruction+strings.Join(a.setup, "") != b.instruction+strings.Join(b.setup, "") {
			t.Errorf("%s: seed 5 drew two different instances", fam)
		}
		if a.instruction+strings.Join(a.setup, "") == other.instruction+strings.Join(other.setup, "") {
			t.Errorf("%s: seeds 5 and 6 drew the same instance", fam)
		}
	}
	// The add families give their rows as csv or as text blocks, as the benchmark picks.
	forms := map[bool]int{}
	for i := range 40 {
		forms[strings.Contains(drawnInstance(t, "ExpenseAddMultiple", 5, i).instruction, "name|amount_dollars|category_name|note")]++
	}
	if forms[true] == 0 || forms[false] == 0 {
		t.Errorf("ExpenseAddMultiple: csv %d, text blocks %d of 40", forms[true], forms[false])
	}
}
