package androidworld

import (
	"embed"
	"encoding/json"
	"fmt"
	"math"
	"sync"
)

// The benchmark's facts, read from google-research/android_world (Apache-2.0) at the
// commit named in each file's "source": every family's template, difficulty, optimal
// steps, tags, complexity and apps (families.json) and the parameter lists the families
// draw from (params.json), and the information-retrieval tasks (data_irtasks.go).
// testdata/README.md says how they were read.
//
//go:embed testdata/families.json testdata/params.json
var dataFS embed.FS

// Source names where the data was read from.
type Source struct {
	Repository string `json:"repository"`
	Commit     string `json:"commit"`
	License    string `json:"license"`
	Note       string `json:"note"`
}

// Family is one AndroidWorld task family as the benchmark describes it (its
// metadata: families.json).
type Family struct {
	Family       string   `json:"family"`
	Template     string   `json:"template"`
	Difficulty   string   `json:"difficulty"` // easy, medium, hard
	OptimalSteps int      `json:"optimal_steps"`
	Tags         []string `json:"tags"`
	Complexity   float64  `json:"complexity"`
	Apps         []string `json:"apps"`   // the benchmark's app names
	Origin       string   `json:"source"` // the file of the benchmark it is defined in
}

// StepBudget is the benchmark's step budget: 10 × complexity.
func (m Family) StepBudget() int {
	n := int(math.Round(m.Complexity * 10))
	return max(n, 1)
}

type data struct {
	Source   Source
	Families map[string]Family
	Order    []string
	Lists    map[string][]string
	IR       map[string]*irTask // the information-retrieval tasks, by name
}

var loadData = sync.OnceValues(func() (*data, error) {
	var fam struct {
		Source   Source   `json:"source"`
		Families []Family `json:"families"`
	}
	var par struct {
		Source Source              `json:"source"`
		Lists  map[string][]string `json:"lists"`
	}
	for name, v := range map[string]any{"testdata/families.json": &fam, "testdata/params.json": &par} {
		b, err := dataFS.ReadFile(name)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, v); err != nil {
			return nil, fmt.Errorf("androidworld: %s: %w", name, err)
		}
	}
	d := &data{Source: fam.Source, Families: map[string]Family{}, Lists: par.Lists, IR: map[string]*irTask{}}
	tasks, err := parseIRTasks()
	if err != nil {
		return nil, err
	}
	for name, l := range irLists(tasks) {
		if _, dup := d.Lists[name]; dup {
			return nil, fmt.Errorf("androidworld: list %s is both in params.json and tasks.textproto", name)
		}
		d.Lists[name] = l
	}
	for i := range tasks {
		d.IR[tasks[i].Name] = &tasks[i]
	}
	for _, m := range fam.Families {
		d.Families[m.Family] = m
		d.Order = append(d.Order, m.Family)
	}
	return d, nil
})

// Families returns the benchmark's 116 families in its metadata's order, built or not,
// and where their metadata was read from.
func Families() ([]Family, Source, error) {
	d, err := loadData()
	if err != nil {
		return nil, Source{}, err
	}
	out := make([]Family, 0, len(d.Order))
	for _, n := range d.Order {
		out = append(out, d.Families[n])
	}
	return out, d.Source, nil
}

// list returns a parameter list of the benchmark ("module.NAME"); a missing one is a
// programming error caught by the tests.
func list(d *data, name string) []string {
	l, ok := d.Lists[name]
	if !ok || len(l) == 0 {
		panic("androidworld: no parameter list " + name)
	}
	return l
}
