package androidworld

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"sync"

	"github.com/fairy-go/fairy/sim"
)

// The records families' facts the parameter lists of params.json leave out: each recipe's
// base directions (recipe._RECIPES.directions, beside recipe._RECIPES.title) and the Pro
// Expense app's categories in id order (sqlite_schema_utils.Expense.category_id_to_name: a
// category is stored as its id, 1 for the first). testdata/README.md says how they were read.
//
//go:embed testdata/records.json
var recordsJSON []byte

var loadRecordLists = sync.OnceValues(func() (map[string][]string, error) {
	var f struct {
		Lists map[string][]string `json:"lists"`
	}
	if err := json.Unmarshal(recordsJSON, &f); err != nil {
		return nil, fmt.Errorf("androidworld: testdata/records.json: %w", err)
	}
	return f.Lists, nil
})

// recordList returns a list of testdata/records.json; a missing one is a programming
// error caught by the tests.
func recordList(name string) []string {
	lists, err := loadRecordLists()
	if err != nil {
		panic(err)
	}
	l, ok := lists[name]
	if !ok || len(l) == 0 {
		panic("androidworld: no list " + name + " in testdata/records.json")
	}
	return l
}

// expenseCategories are the Pro Expense app's categories; category i+1 is the i-th.
func expenseCategories() []string {
	return recordList("sqlite_schema_utils.Expense.category_id_to_name")
}

// expenseCategoryName is the name of a category id ("3" → "Food"), "" for no category.
func expenseCategoryName(id string) string {
	cats := expenseCategories()
	i, err := strconv.Atoi(id)
	if err != nil || i < 1 || i > len(cats) {
		return ""
	}
	return cats[i-1]
}

// sameRow reports whether two rows hold the same values, their id and list order aside
// (the benchmark's dataclass equality, its auto-incremented key aside).
func sameRow(a, b sim.Record) bool {
	for k, v := range a {
		if k != "id" && k != "seq" && b[k] != v {
			return false
		}
	}
	for k, v := range b {
		if k != "id" && k != "seq" && a[k] != v {
			return false
		}
	}
	return true
}

// randomDraws is sqlite_schema_utils.get_random_items without replacement: n values of
// draw that keep passes (nil: all), none the same as another (two rows of one title but
// another description are both kept: the benchmark's near-duplicates). It gives up, as the
// benchmark does, after 10,000 draws.
func randomDraws[T any](n int, draw func() T, same func(a, b T) bool, keep func(T) bool) ([]T, error) {
	var out []T
	for i := 0; len(out) < n; i++ {
		if i >= 10_000 {
			return nil, fmt.Errorf("androidworld: drew 10000 rows and kept %d of %d: the filter keeps too few", len(out), n)
		}
		v := draw()
		if keep != nil && !keep(v) {
			continue
		}
		if !slices.ContainsFunc(out, func(o T) bool { return same(o, v) }) {
			out = append(out, v)
		}
	}
	return out, nil
}
