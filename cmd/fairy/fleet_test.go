package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/knowledge/etcdstore/etcdtest"
)

// fairyCmd runs one fairy command line and returns its stdout.
func fairyCmd(t *testing.T, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	root := newRootCmd(strings.NewReader(""), &stdout, &stderr, envMap(nil))
	root.SetArgs(append(args, "--runs", t.TempDir()))
	if err := root.ExecuteContext(t.Context()); err != nil {
		t.Errorf("fairy %s: %v\n%s\n%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// evalCalls runs `fairy eval builtin:sim` on tasks against knowledge and returns the
// report's model calls; every task must pass.
func evalCalls(t *testing.T, tasks, knowledge string) int {
	t.Helper()
	out := t.TempDir()
	fairyCmd(t, "eval", "builtin:sim", "--sim", "1", "--tasks", tasks, "--knowledge", knowledge, "--out", out)
	rep, err := eval.ReadReport(filepath.Join(out, eval.ReportJSON))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Totals.Passed != len(strings.Split(tasks, ",")) {
		t.Errorf("eval %s with %s: %d passed", tasks, knowledge, rep.Totals.Passed)
	}
	return rep.Totals.ModelCalls
}

// TestFleetOnEtcd is the fleet of docs/evaluation.md on one machine: two evaluations learn
// different tasks into one etcd at the same time; a third command lists the union of
// their maps; a later evaluation of other tasks on the same paths gains from etcd exactly
// what it gains from a knowledge file both learned into the same way.
func TestFleetOnEtcd(t *testing.T) {
	srv := etcdtest.Start(t)
	shared := srv.URL("fleet")
	file := filepath.Join(t.TempDir(), "k.db")
	learnA, learnB := "settings-dark-theme,settings-maps-notifications-off", "settings-messages-clear-cache"
	var wg sync.WaitGroup
	for _, k := range []string{shared, file} {
		for _, tasks := range []string{learnA, learnB} {
			wg.Go(func() { evalCalls(t, tasks, k) })
		}
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	fromEtcd, fromFile := fairyCmd(t, "map", "list", "--knowledge", shared), fairyCmd(t, "map", "list", "--knowledge", file)
	if fromEtcd != fromFile || !strings.Contains(fromEtcd, "com.android.settings") {
		t.Errorf("map list on etcd:\n%s\nwant the same as on the file:\n%s", fromEtcd, fromFile)
	}
	others := "settings-messages-notifications-off,settings-shop-notifications-off,settings-calendar-notifications-off,settings-maps-clear-cache,settings-screen-timeout"
	onEtcd, onFile, fresh := evalCalls(t, others, shared), evalCalls(t, others, file), evalCalls(t, others, eval.KnowledgeFresh)
	t.Logf("model calls of the later evaluation: %d with etcd, %d with the file, %d fresh\nmap list:\n%s", onEtcd, onFile, fresh, fromEtcd)
	if onEtcd != onFile || onEtcd >= fresh {
		t.Errorf("model calls: %d with etcd, %d with the file, %d fresh: want etcd = file < fresh", onEtcd, onFile, fresh)
	}
}

// TestKnowledgeExportImportAcrossBackends: `fairy knowledge export` of a file, imported
// into etcd, exported from etcd and imported into a new file, gives the same maps.
func TestKnowledgeExportImportAcrossBackends(t *testing.T) {
	srv := etcdtest.Start(t)
	dir := t.TempDir()
	file, back := filepath.Join(dir, "k.db"), filepath.Join(dir, "back.db")
	fairyCmd(t, "tricks", "add", "--knowledge", file, "--app", "com.tea", "--kind", "action", "在菜单里搜索珍珠奶茶")
	evalCalls(t, "settings-dark-theme", file)
	one, two := filepath.Join(dir, "one.json"), filepath.Join(dir, "two.json")
	fairyCmd(t, "knowledge", "export", "--knowledge", file, one)
	if out := fairyCmd(t, "knowledge", "import", "--knowledge", srv.URL("copy"), one); !strings.Contains(out, "Imported") {
		t.Errorf("import into etcd: %q", out)
	}
	fairyCmd(t, "knowledge", "export", "--knowledge", srv.URL("copy"), two)
	fairyCmd(t, "knowledge", "import", "--knowledge", back, two)
	fromFile, fromBack := fairyCmd(t, "map", "list", "--knowledge", file), fairyCmd(t, "map", "list", "--knowledge", back)
	fromEtcd := fairyCmd(t, "map", "list", "--knowledge", srv.URL("copy"))
	if fromFile != fromEtcd || fromFile != fromBack || !strings.Contains(fromFile, "com.android.settings") {
		t.Errorf("map list of the file:\n%s\nof etcd:\n%s\nof the file imported back:\n%s", fromFile, fromEtcd, fromBack)
	}
	if tricks := fairyCmd(t, "tricks", "list", "--knowledge", back); !strings.Contains(tricks, "珍珠奶茶") {
		t.Errorf("tricks after file → etcd → file:\n%s", tricks)
	}
}

// TestEvalWithEtcdUnreachable: an evaluation whose shared knowledge cannot be reached
// runs its task without knowledge (the summary says why) instead of failing it.
func TestEvalWithEtcdUnreachable(t *testing.T) {
	srv := etcdtest.Start(t)
	loc := srv.URL("gone")
	srv.Kill()
	out := t.TempDir()
	fairyCmd(t, "eval", "builtin:sim", "--sim", "1", "--tasks", "settings-dark-theme", "--knowledge", loc, "--out", out)
	rep, err := eval.ReadReport(filepath.Join(out, eval.ReportJSON))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Totals.Passed != 1 {
		t.Errorf("passed %d of 1 with etcd unreachable", rep.Totals.Passed)
	}
	sums, _ := filepath.Glob(filepath.Join(out, "runs", "*", "summary.json"))
	if len(sums) != 1 {
		t.Fatalf("summaries: %v", sums)
	}
	data, err := os.ReadFile(sums[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"off": "open shared knowledge`) && !strings.Contains(string(data), `"off":"open shared knowledge`) {
		t.Errorf("summary does not say the knowledge was off:\n%s", data)
	}
}
