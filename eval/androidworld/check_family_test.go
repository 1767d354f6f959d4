package androidworld

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/sim"
)

// Every family the mirror builds is checked here the way the benchmark checks it: a run
// that did nothing, or did the wrong row, recipient or value, or fell just short in a way
// the benchmark's own check rejects (android_world/task_evals: an exact name, exactly one
// more sent text, the right app in front, a table read whole, …), leaves a phone the
// family's checks reject; a correct run's phone (and, for the ones that differ only in
// what the benchmark forgives — case, dashes in a number, a trailing line break) passes.
// The families come from builders, so a family added without a case here fails.

// afterRun is the phone one instance's run left, and the run's answer.
type afterRun struct {
	t      *testing.T
	in     *instance
	p      *sim.Phone
	answer string
	// moot: the outcome cannot happen on this instance (no noise row to delete by mistake,
	// one target only), so it is not judged.
	moot bool
}

// outcome is a state a run leaves, made on a phone the instance's setup prepared.
type outcome func(r *afterRun)

// familyCase is how a family's runs end.
type familyCase struct {
	// startPasses: the phone as set up already holds what is asked (the benchmark's
	// Verify families), so a run that does nothing passes.
	startPasses bool
	right       map[string]outcome // states correct runs leave
	wrong       map[string]outcome // states of runs the benchmark fails
	// instances is how many instances are tried (default 1): enough to meet a family's
	// variants (an edit's header, footer or replacement; a place by name or coordinates).
	instances int
	// answerOnly: the runs differ in their answer alone, so they share one phone.
	answerOnly bool
	// variant names an instance's variant (an edit's header, footer or replacement; a
	// place by name or by coordinates); instances are drawn until each of the variants
	// is met, and each is tried once.
	variant  func(in *instance) string
	variants int
}

// phoneApps are the virtual phone's apps with the mirror's, read once: reading them is
// most of the cost of a phone, and the test makes hundreds.
var phoneApps = sync.OnceValues(func() ([]*sim.AppSpec, error) {
	extra, err := apps()
	if err != nil {
		return nil, err
	}
	base, err := sim.DefaultApps()
	if err != nil {
		return nil, err
	}
	return sim.MergeApps(base, extra)
})

// freshPhone is phoneWith's phone with nothing seeded.
func freshPhone(t *testing.T) *sim.Phone {
	t.Helper()
	all, err := phoneApps()
	if err != nil {
		t.Fatal(err)
	}
	p, err := sim.New(sim.Config{Seed: 1, Apps: all})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func (r *afterRun) param(name string) string { return param(r.t, r.in, name) }

func (r *afterRun) shell(line string) { run(r.t, r.p, line) }

func (r *afterRun) rows(coll string) []sim.Record { return records(r.t, r.p, coll) }

func (r *afterRun) reseed(coll string, rows []sim.Record) { r.shell(mustSeed(r.t, coll, rows)) }

// add adds rows as new ones (ids new1…, after the last seq), as an app adds them.
func (r *afterRun) add(coll string, rows ...sim.Record) {
	all := r.rows(coll)
	seq := 0
	for _, x := range all {
		if n, err := strconv.Atoi(x["seq"]); err == nil {
			seq = max(seq, n)
		}
	}
	for _, x := range rows {
		x = maps.Clone(x)
		x["id"] = fmt.Sprintf("new%d", len(all)+1)
		if _, ok := x["seq"]; ok || coll == messagesPkg+":messages" {
			seq++
			x["seq"] = strconv.Itoa(seq)
		}
		all = append(all, x)
	}
	r.reseed(coll, all)
}

// remove removes the rows gone reports.
func (r *afterRun) remove(coll string, gone func(sim.Record) bool) {
	all := r.rows(coll)
	n := len(all)
	all = slices.DeleteFunc(all, gone)
	if len(all) == n {
		r.t.Fatalf("%s: no row to remove", coll)
	}
	r.reseed(coll, all)
}

// edit changes the rows which reports with change.
func (r *afterRun) edit(coll string, which func(sim.Record) bool, change func(sim.Record)) {
	all := r.rows(coll)
	hit := false
	for _, x := range all {
		if which(x) {
			change(x)
			hit = true
		}
	}
	if !hit {
		r.t.Fatalf("%s: no row to change", coll)
	}
	r.reseed(coll, all)
}

func (r *afterRun) launch(pkg string) {
	r.shell("monkey -p " + pkg + " -c android.intent.category.LAUNCHER 1")
}

// text sends a text from the Messages app, as its Send button stores it.
func (r *afterRun) text(number, body string) {
	r.add(messagesPkg+":messages", message("", 0, number, number, body, "out", "15:40"))
	r.launch(messagesPkg)
}

func both(a, b outcome) outcome { return func(r *afterRun) { a(r); b(r) } }

func nothing(*afterRun) {}

// otherDigit is number with its last digit changed.
func otherDigit(number string) string {
	last := number[len(number)-1]
	return number[:len(number)-1] + string('0'+(last-'0'+1)%10)
}

// dashed writes a "+1" and ten digits number as people write it: "+1 555-010-2030".
func dashed(number string) string {
	return number[:2] + " " + number[2:5] + "-" + number[5:8] + "-" + number[8:]
}

func setting(ns, key, v string) outcome {
	return func(r *afterRun) { r.shell("settings put " + ns + " " + key + " " + v) }
}

func launchOutcome(pkg string) outcome { return func(r *afterRun) { r.launch(pkg) } }

// seeds are the seeds of the instances a case tries: the first instances, or the first
// instance of each variant.
func (c familyCase) seeds(t *testing.T, b builder) []int64 {
	t.Helper()
	if c.variant == nil {
		var out []int64
		for seed := range int64(max(c.instances, 1)) {
			out = append(out, seed)
		}
		return out
	}
	d, err := loadData()
	if err != nil {
		t.Fatal(err)
	}
	var out []int64
	seen := map[string]bool{}
	for seed := int64(0); seed < 200 && len(seen) < c.variants; seed++ {
		in, err := b.draw(&gen{r: instanceRand(seed, b.name, 0), d: d})
		if err != nil {
			t.Fatal(err)
		}
		if v := c.variant(in); !seen[v] {
			seen[v] = true
			out = append(out, seed)
		}
	}
	if len(seen) < c.variants {
		t.Fatalf("%d of the %d variants met in 200 instances: %v", len(seen), c.variants, seen)
	}
	return out
}

// verdict is whether every check of the instance passes on the run's phone and answer.
func (r *afterRun) verdict() (bool, string) {
	r.t.Helper()
	var ev []string
	for _, c := range r.in.checks {
		ok, e, err := c.Evaluate(context.Background(), suite.Probe{Phone: r.p, Answer: r.answer})
		if err != nil {
			r.t.Fatalf("%s: %v", c.Describe(), err)
		}
		ev = append(ev, fmt.Sprintf("[%t] %s", ok, e))
		if !ok {
			return false, strings.Join(ev, " | ")
		}
	}
	return true, strings.Join(ev, " | ")
}

// TestEveryFamilyCheckRejectsWhatTheBenchmarkRejects: for every family the mirror builds
// and a few instances of each, the phone a run leaves that did nothing (unless the task
// only verifies), did the wrong thing or fell just short fails the family's checks, and
// the phone a correct run leaves passes them.
func TestEveryFamilyCheckRejectsWhatTheBenchmarkRejects(t *testing.T) {
	cases := familyCases()
	for _, b := range builders {
		t.Run(b.name, func(t *testing.T) {
			c, ok := cases[b.name]
			if !ok {
				t.Fatalf("family %s has no case in familyCases: say what a correct run leaves and which runs the benchmark fails",
					b.name)
			}
			if len(c.right) == 0 || len(c.wrong) == 0 {
				t.Fatalf("family %s: a case needs a correct run and at least one the benchmark fails", b.name)
			}
			for _, seed := range c.seeds(t, b) {
				var shared *afterRun
				try := func(name string, o outcome, pass bool) {
					t.Helper()
					r := shared
					if r == nil {
						p := freshPhone(t)
						r = &afterRun{t: t, in: drawOn(t, p, b.name, seed), p: p}
						if c.answerOnly {
							shared = r
						}
					}
					r.answer, r.moot = "", false
					o(r)
					if r.moot {
						return
					}
					if ok, ev := r.verdict(); ok != pass {
						t.Errorf("seed %d, %s: pass=%t, want %t\nparams %v\n%s", seed, name, ok, pass, r.in.params, ev)
					}
				}
				try("nothing done", nothing, c.startPasses)
				for _, name := range slices.Sorted(maps.Keys(c.right)) {
					try(name, c.right[name], true)
				}
				for _, name := range slices.Sorted(maps.Keys(c.wrong)) {
					try(name, c.wrong[name], false)
				}
			}
		})
	}
	for name := range cases {
		if !slices.ContainsFunc(builders, func(b builder) bool { return b.name == name }) {
			t.Errorf("a case for %s, a family the mirror does not build", name)
		}
	}
}
