package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestRoutinesListAndShow: after the demo, `fairy routines list` shows the routine it
// learned per app task (table and JSON with stable fields), `routines show` its names,
// parameter and steps, and an unknown id is a usage error.
func TestRoutinesListAndShow(t *testing.T) {
	kpath := filepath.Join(t.TempDir(), "knowledge.db")
	var out strings.Builder
	if _, err := runDemo(t.Context(), demoOptions{RunsDir: t.TempDir(), TextOnly: true, Out: &out, Knowledge: kpath}); err != nil {
		t.Fatalf("demo: %v\n%s", err, out.String())
	}
	code, stdout, stderr := execRoot(t, nil, "", "routines", "list", "--format", "json", "--knowledge", kpath)
	if code != 0 {
		t.Fatalf("routines list: exit %d\n%s", code, stderr)
	}
	var rows []routineJSON
	if err := json.Unmarshal([]byte(stdout), &rows); err != nil || len(rows) != 2 {
		t.Fatalf("routines list --format json = %d rows, %v:\n%s", len(rows), err, stdout)
	}
	_, keys := jsonKeys(t, "routines list", stdout)
	if got := strings.Join(keys, ","); got != "also,app,id,name,params,runs,steps,stops" {
		t.Errorf("fields %s", got)
	}
	var shop routineJSON
	for _, r := range rows {
		if r.App == "com.fairy.shop" {
			shop = r
		}
	}
	if shop.ID == "" || shop.Runs != 1 || shop.Steps < 5 || len(shop.Params) != 1 || !strings.Contains(shop.Params[0], "chose") {
		t.Errorf("shop routine = %+v, want one run with the chosen delivery time as its parameter", shop)
	}
	if code, stdout, _ := execRoot(t, nil, "", "routines", "list", "--knowledge", kpath); code != 0 || !strings.HasPrefix(stdout, "ID") || !strings.Contains(stdout, shop.ID) {
		t.Errorf("routines list: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = execRoot(t, nil, "", "routines", "show", shop.ID, "--knowledge", kpath)
	if code != 0 || !strings.Contains(stdout, "name: Order one bubble tea") || !strings.Contains(stdout, `"支付"`) || !strings.Contains(stdout, `learned with "18:00"`) {
		t.Errorf("routines show: exit %d\n%s", code, stdout)
	}
	if code, _, stderr := execRoot(t, nil, "", "routines", "show", "nope", "--knowledge", kpath); code != 2 || !strings.Contains(stderr, "no routine") {
		t.Errorf("routines show nope: exit %d, %s", code, stderr)
	}
	empty := filepath.Join(t.TempDir(), "none.db")
	if code, stdout, _ := execRoot(t, nil, "", "routines", "list", "--format", "json", "--knowledge", empty); code != 0 || strings.TrimSpace(stdout) != "[]" {
		t.Errorf("routines list, nothing learned: exit %d, %q", code, stdout)
	}
}
