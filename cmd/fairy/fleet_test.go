package main

import (
	"bytes"
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

// TestFleetOnEtcd is the fleet of the README on one machine: two evaluations learn
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
