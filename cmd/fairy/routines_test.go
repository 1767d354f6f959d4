package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/knowledge"
)

// TestRoutinesListAndShow: after the demo, `fairy routines list` shows the routine it
// learned per app task (table and JSON with stable fields), `routines show` its names,
// parameter and steps — by its ID or a unique prefix of it — and an unknown id or an
// ambiguous prefix is a usage error.
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
	if got := strings.Join(keys, ","); got != "also,app,demoted,id,name,params,runs,steps,stops,trusted" {
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
	// Like `runs show`, an ID prefix names the routine.
	if code, byPrefix, _ := execRoot(t, nil, "", "routines", "show", shop.ID[:6], "--knowledge", kpath); code != 0 || byPrefix != stdout {
		t.Errorf("routines show %s (a prefix): exit %d\n%s", shop.ID[:6], code, byPrefix)
	}
	if code, _, stderr := execRoot(t, nil, "", "routines", "show", "nope", "--knowledge", kpath); code != 2 || !strings.Contains(stderr, "no routine") {
		t.Errorf("routines show nope: exit %d, %s", code, stderr)
	}
	if _, err := findRoutine([]knowledge.Routine{{ID: "ab12"}, {ID: "ab34"}}, "ab"); err == nil || !strings.Contains(err.Error(), `routine "ab" matches 2 routines (ab12, ab34): give more of its ID`) {
		t.Errorf("an ambiguous prefix: %v", err)
	}
	empty := filepath.Join(t.TempDir(), "none.db")
	if code, stdout, _ := execRoot(t, nil, "", "routines", "list", "--format", "json", "--knowledge", empty); code != 0 || strings.TrimSpace(stdout) != "[]" {
		t.Errorf("routines list, nothing learned: exit %d, %q", code, stdout)
	}
}
