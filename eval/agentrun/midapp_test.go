package agentrun

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/rundir"
	"github.com/fairy-go/fairy/sim"
)

const shopApp = "com.fairy.shop"

// onlyTask returns a copy of the built-in suite holding only task id, as the suite
// declares it.
func onlyTask(t *testing.T, s *suite.Suite, id string) (*suite.Suite, *suite.Task) {
	t.Helper()
	for _, x := range s.Tasks {
		if x.ID == id {
			c := *x
			one := *s
			one.Tasks = []*suite.Task{&c}
			return &one, &c
		}
	}
	t.Fatalf("no task %s in the suite", id)
	return nil, nil
}

// rowTap is the `input tap` that opens the shop's menu row label on a fresh phone.
func rowTap(t *testing.T, label string) string {
	t.Helper()
	ph, err := sim.New(sim.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, c := range []string{"monkey -p " + shopApp + " -c android.intent.category.LAUNCHER 1", "uiautomator dump /sdcard/d.xml", "cat /sdcard/d.xml"} {
		out.Reset()
		if st, err := ph.Shell(t.Context(), c, &out); err != nil || st != 0 {
			t.Fatalf("%s: %d %v", c, st, err)
		}
	}
	s, err := perception.Parse([]byte(out.String()))
	if err != nil {
		t.Fatal(err)
	}
	for _, el := range s.Elements {
		if strings.HasPrefix(el.Label, label) {
			return fmt.Sprintf("input tap %d %d", el.Center.X, el.Center.Y)
		}
	}
	t.Fatalf("no row %q on the shop's menu:\n%s", label, s.Text())
	return ""
}

// TestLearnedInsideAppNoLoop (issue 21): a run that starts inside the shop, on an item
// someone opened, learns "加入购物车" there without knowing the page the item was opened
// from. That tap adds to the cart; the map must never offer it as a way to a page. With
// what that run learned, shop-fries-refuse-pay passes, adding fries to the cart once: no
// Navigate to the checkout taps an item and 加入购物车 again and again.
func TestLearnedInsideAppNoLoop(t *testing.T) {
	t.Parallel()
	s := loadSuite(t)
	learnSuite, learn := onlyTask(t, s, "shop-bubble-tea-pay")
	learn.ID = "shop-bubble-tea-from-item"
	learn.Phone = suite.Phone{Sim: &suite.SimPhone{Setup: []string{
		"monkey -p " + shopApp + " -c android.intent.category.LAUNCHER 1", rowTap(t, "珍珠奶茶")}}}
	evalSuite, fries := onlyTask(t, s, "shop-fries-refuse-pay")

	f := serveFarm(t, 1)
	a, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	kpath := filepath.Join(dir, "knowledge.db")
	run := func(suite *suite.Suite, out string) eval.TaskResult {
		t.Helper()
		rep, err := eval.Run(t.Context(), eval.Config{Suite: suite, Agent: a, Devices: f.Devices(), Parallel: 1,
			Knowledge: kpath, Merge: Merge, Out: filepath.Join(dir, out)})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Tasks) != 1 {
			t.Fatalf("%d results, want 1", len(rep.Tasks))
		}
		return rep.Tasks[0]
	}

	first := run(learnSuite, "learn")
	if !first.Pass {
		t.Fatalf("%s, started on the item: %s — %s", learn.ID, first.Outcome, first.Reason)
	}
	st, err := knowledge.Open(kpath, knowledge.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	m, err := st.Map(shopApp)
	if err != nil {
		t.Fatal(err)
	}
	var ways []string
	for _, tr := range m.Transitions {
		if tr.Action.Target.Text == "加入购物车" && tr.From != tr.To {
			from, _ := m.Page(tr.From)
			to, _ := m.Page(tr.To)
			t.Logf("%s → %s: %s", from.Description, to.Description, tr.Action)
			if tr.Action.Args[knowledge.ArgSideEffect] == "" {
				ways = append(ways, tr.Action.String())
			}
			for _, p := range m.Pages {
				if path, err := st.Path(shopApp, tr.From, p.Key); err == nil {
					for _, step := range path {
						if step.Action.Target.Text == "加入购物车" {
							t.Errorf("the way from %q to %q taps 加入购物车", from.Description, p.Description)
						}
					}
				}
			}
		}
	}
	if len(ways) > 0 {
		t.Errorf("加入购物车 learned as navigation: %v", ways)
	}
	st.Close()

	res := run(evalSuite, "eval")
	tr, err := rundir.ReadTrajectory(filepath.Join(dir, "eval", res.RunDir))
	if err != nil {
		t.Fatal(err)
	}
	adds := 0
	for _, e := range tr.Events {
		if e.Kind == "ActionExecuted" && strings.Contains(string(e.Raw), "加入购物车") {
			adds++
		}
	}
	if !res.Pass || adds != 1 {
		t.Errorf("%s with that knowledge: %s — %s; 加入购物车 tapped %d times, want once", fries.ID, res.Outcome, res.Reason, adds)
	}
}
