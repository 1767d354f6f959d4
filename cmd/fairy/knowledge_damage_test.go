package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/llm/scripted"
)

// damageMarker is in the text of one of com.b's tricks; writeDamagedKnowledge overwrites
// the page that holds it.
const damageMarker = "DAMAGED-PAGE-MARKER"

// writeDamagedKnowledge writes a knowledge file — two apps, a map of three pages, twenty
// tricks of com.b, one of com.a, a run — in one transaction, so that each record is on one
// page only, then overwrites the page holding one of com.b's tricks with zeros, as a disk
// error would. It returns the damaged file's bytes.
func writeDamagedKnowledge(t *testing.T, path string) []byte {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	s, err := knowledge.Open(path, knowledge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	err = s.Update(func(tx *knowledge.Tx) error {
		for _, a := range []knowledge.App{{Package: "com.a", Label: "A"}, {Package: "com.b", Label: "B"}} {
			if _, err := tx.PutApp(a); err != nil {
				return err
			}
		}
		for _, tr := range []knowledge.Transition{
			{From: ".Home#a", To: ".Menu#b", Action: knowledge.Action{Kind: knowledge.ActionTap, Target: knowledge.Element{Text: "Menu"}}},
			{From: ".Menu#b", To: ".Search#c", Action: knowledge.Action{Kind: knowledge.ActionTap, Target: knowledge.Element{ResourceID: "search"}}},
		} {
			if _, err := tx.RecordTransition("com.a", tr, true); err != nil {
				return err
			}
		}
		if _, err := tx.AddTrick(knowledge.Trick{App: "com.a", Kind: knowledge.KindAction, Text: "Tap Menu, then Search."}); err != nil {
			return err
		}
		for i := range 20 {
			text := fmt.Sprintf("Tip %d for com.b: %s", i, strings.Repeat("open the drawer, scroll to Settings and tap it. ", 5))
			if i == 13 {
				text += damageMarker
			}
			if _, err := tx.AddTrick(knowledge.Trick{App: "com.b", Kind: knowledge.KindPlanning, Text: text}); err != nil {
				return err
			}
		}
		return tx.PutRun(knowledge.Run{ID: "r1", Instruction: "search the menu", Outcome: "success"})
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.Index(data, []byte(damageMarker))
	if at < 0 || bytes.Index(data[at+1:], []byte(damageMarker)) >= 0 {
		t.Fatalf("the marker is on %d pages, want one", bytes.Count(data, []byte(damageMarker)))
	}
	ps := os.Getpagesize()
	page := at / ps * ps
	clear(data[page : page+ps])
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return data
}

// execRoot runs fairy with args and env as main does, and returns the exit status.
func execRoot(t *testing.T, env map[string]string, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	root := newRootCmd(strings.NewReader(stdin), &out, &errOut, envMap(env))
	root.SetArgs(args)
	// A guard against a command that hangs, not a measure of speed: a whole run (the demo's
	// two app tasks) on a loaded 2-core machine took over 30 s.
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	code = exitStatus(ctx, root.ExecuteContext(ctx), &errOut)
	return code, out.String(), errOut.String()
}

// TestKnowledgeCommandsOnDamagedFile: every command that reads or writes the knowledge
// file exits 2 on a damaged one, with the sentence that names the file and the repair;
// none panics, and none changes the file.
func TestKnowledgeCommandsOnDamagedFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "knowledge.db")
	damaged := writeDamagedKnowledge(t, path)
	doc := filepath.Join(dir, "doc.json")
	if err := os.WriteFile(doc, []byte(`{"format":"fairy-knowledge","schema":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"map", "list"}, {"map", "show", "com.a"}, {"map", "path", "com.a", "p1", "p3"}, {"map", "export", "com.a", "--format", "json"},
		{"tricks", "list"}, {"tricks", "list", "com.b"}, {"tricks", "show", "t1"},
		{"tricks", "add", "--app", "com.a", "a new tip"}, {"tricks", "rm", "t1"},
		{"knowledge", "export", "-"}, {"knowledge", "export", filepath.Join(dir, "out.json")}, {"knowledge", "import", doc},
	} {
		code, _, stderr := execRoot(t, nil, "", append(args, "--knowledge", path)...)
		want := "fairy knowledge repair " + path + " --out NEW"
		if code != 2 || !strings.Contains(stderr, "is damaged") || !strings.Contains(stderr, want) {
			t.Errorf("fairy %s: exit %d, stderr %q; want exit 2 saying %q", strings.Join(args, " "), code, stderr, want)
		}
	}
	if b, err := os.ReadFile(path); err != nil || !bytes.Equal(b, damaged) {
		t.Errorf("the commands changed the damaged file (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "out.json")); !os.IsNotExist(err) {
		t.Errorf("export of a damaged file left a file (%v)", err)
	}
}

// TestKnowledgeCheckAndRepair: `fairy knowledge check` is 0 on a sound file and 2 with the
// problems on a damaged one; `fairy knowledge repair` saves what reads into a new file,
// reports per kind, leaves the damaged file alone, and its copy checks sound.
func TestKnowledgeCheckAndRepair(t *testing.T) {
	dir := t.TempDir()
	path, repaired := filepath.Join(dir, "knowledge.db"), filepath.Join(dir, "repaired.db")
	damaged := writeDamagedKnowledge(t, path)

	code, stdout, stderr := execRoot(t, nil, "", "knowledge", "check", path)
	if code != 2 || !strings.Contains(stdout, path+" is damaged:\n  - tricks/com.b: page") || !strings.Contains(stderr, "fairy knowledge repair "+path+" --out NEW") {
		t.Fatalf("check of the damaged file: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// The configured file is the default FILE.
	if code, _, _ := execRoot(t, nil, "", "knowledge", "check", "--knowledge", path); code != 2 {
		t.Fatalf("check of the configured damaged file: exit %d", code)
	}
	if code, _, stderr := execRoot(t, nil, "", "knowledge", "repair", path); code != 2 || !strings.Contains(stderr, "--out NEW is required") {
		t.Fatalf("repair without --out: exit %d, %q", code, stderr)
	}

	code, stdout, stderr = execRoot(t, nil, "", "knowledge", "repair", path, "--out", repaired)
	if code != 0 {
		t.Fatalf("repair: exit %d\n%s\n%s", code, stdout, stderr)
	}
	t.Logf("fairy knowledge repair:\n%s", stdout)
	rows := map[string][]string{}
	for _, line := range strings.Split(stdout, "\n") {
		if f := strings.Fields(line); len(f) == 4 {
			rows[f[0]] = f[1:]
		}
	}
	lostTricks := 0
	if r := rows["tricks"]; r != nil {
		fmt.Sscan(r[1], &lostTricks)
	}
	if r := rows["apps"]; r == nil || r[0] != "2" || rows["pages"][0] != "3" || rows["transitions"][0] != "2" || rows["runs"][0] != "1" ||
		lostTricks == 0 || rows["tricks"][2] != "1" {
		t.Fatalf("repair report rows %v: want 2 apps, 3 pages, 2 transitions, 1 run saved, tricks lost on 1 damaged page", rows)
	}
	for _, want := range []string{path + " is damaged:", "KIND", "SAVED", "LOST", "DAMAGED PAGES", "Saved to " + repaired, path + " is unchanged"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("repair output lacks %q", want)
		}
	}
	if b, err := os.ReadFile(path); err != nil || !bytes.Equal(b, damaged) {
		t.Fatalf("repair changed the damaged file (%v)", err)
	}
	code, stdout, _ = execRoot(t, nil, "", "knowledge", "check", repaired)
	if want := fmt.Sprintf("%s is sound: 2 apps, 3 pages, 2 transitions, %d tricks, 1 run.", repaired, 21-lostTricks); code != 0 || !strings.Contains(stdout, want) {
		t.Fatalf("check of the repaired copy: exit %d, %q; want %q", code, stdout, want)
	}
	if code, stdout, _ := execRoot(t, nil, "", "tricks", "list", "com.a", "--knowledge", repaired); code != 0 || !strings.Contains(stdout, "Tap Menu, then Search.") {
		t.Fatalf("tricks list on the repaired copy: exit %d, %q", code, stdout)
	}
	// Never over an existing file; a missing file is a usage error; a file whose meta pages
	// are gone cannot be repaired.
	if code, _, stderr := execRoot(t, nil, "", "knowledge", "repair", path, "--out", repaired); code != 2 || !strings.Contains(stderr, "already exists") {
		t.Fatalf("repair onto an existing file: exit %d, %q", code, stderr)
	}
	if code, _, _ := execRoot(t, nil, "", "knowledge", "check", filepath.Join(dir, "none.db")); code != 2 {
		t.Fatalf("check of a missing file: exit %d", code)
	}
	headless := filepath.Join(dir, "headless.db")
	b := bytes.Clone(damaged)
	clear(b[:2*os.Getpagesize()])
	if err := os.WriteFile(headless, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := execRoot(t, nil, "", "knowledge", "check", headless); code != 2 || !strings.Contains(stderr, "damaged beyond reading") {
		t.Fatalf("check of a file without meta pages: exit %d, %q", code, stderr)
	}
	if code, _, stderr := execRoot(t, nil, "", "knowledge", "repair", headless, "--out", filepath.Join(dir, "r2.db")); code != 2 || !strings.Contains(stderr, "nothing can be saved") {
		t.Fatalf("repair of a file without meta pages: exit %d, %q", code, stderr)
	}
}

// TestKnowledgeImportCaps: `fairy knowledge import` refuses, whole, a trick text over the
// cap (a 50 MB one too), a label over its cap and a file over the document cap.
func TestKnowledgeImportCaps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "knowledge.db")
	doc := func(name string, apps, tricks string) string {
		p := filepath.Join(dir, name)
		body := `{"format":"fairy-knowledge","schema":1,"apps":[` + apps + `],"maps":[],"tricks":[` + tricks + `],"runs":[]}`
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	trick := func(text string) string {
		return `{"id":"t1","app":"com.a","kind":"action","text":"` + text + `"}`
	}
	big := filepath.Join(dir, "big.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(knowledge.MaxImportBytes + 1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	f.Close()
	for _, tt := range []struct {
		name, file, want string
	}{
		{"trick text", doc("t.json", `{"package":"com.a"}`, trick(strings.Repeat("x", knowledge.MaxTrickText+1))), "text is 4097 bytes, over the 4096-byte cap"},
		{"50 MB trick text", doc("t50.json", `{"package":"com.a"}`, trick(strings.Repeat("x", 50<<20))), "text is 52428800 bytes"},
		{"label", doc("l.json", `{"package":"com.a","label":"`+strings.Repeat("L", knowledge.MaxName+1)+`"}`, trick("ok")), "label is 257 bytes"},
		{"document", big, "over the 64 MiB cap"},
	} {
		code, stdout, stderr := execRoot(t, nil, "", "knowledge", "import", tt.file, "--knowledge", path)
		if code != 2 || !strings.Contains(stderr, tt.want) || !strings.Contains(stderr, "nothing imported") {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 saying %q", tt.name, code, stderr, tt.want)
		}
		if strings.Contains(stdout, "Imported") {
			t.Errorf("%s: %s", tt.name, stdout)
		}
	}
	// Nothing was imported: the file holds no app and no trick.
	if code, stdout, _ := execRoot(t, nil, "", "map", "list", "--knowledge", path); code != 0 || !strings.Contains(stdout, "No apps learned yet") {
		t.Errorf("after the refused imports: exit %d, %q", code, stdout)
	}
	if code, stdout, _ := execRoot(t, nil, "", "knowledge", "import", doc("ok.json", `{"package":"com.a"}`, trick("Tap Menu.")), "--knowledge", path); code != 0 ||
		!strings.Contains(stdout, "Imported 1 app, 0 pages, 0 transitions, 1 trick, 0 runs") {
		t.Errorf("a document within the caps: exit %d, %q", code, stdout)
	}
}

// knowledgeOff reads summary.json's knowledge.off of the run the output names.
func knowledgeOff(t *testing.T, out string) string {
	t.Helper()
	_, dir := readSummary(t, out)
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		Knowledge struct {
			Used         bool   `json:"used"`
			LearnedTasks int    `json:"learned_tasks"`
			Off          string `json:"off"`
		} `json:"knowledge"`
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Knowledge.Used || sum.Knowledge.LearnedTasks != 0 {
		t.Errorf("a run without knowledge used or learned some: %+v", sum.Knowledge)
	}
	return sum.Knowledge.Off
}

// TestDemoWithDamagedKnowledge: the demo's default knowledge file, damaged, is left aside —
// the demo runs without knowledge, says so on stderr, in its output and in summary.json,
// and leaves the file as it was; named with --knowledge, it stops the demo with exit 2
// before the phone starts.
func TestDemoWithDamagedKnowledge(t *testing.T) {
	data := t.TempDir()
	path := filepath.Join(data, "fairy", "demo-knowledge.db")
	damaged := writeDamagedKnowledge(t, path)
	env := map[string]string{"XDG_DATA_HOME": data}

	code, stdout, stderr := execRoot(t, env, "", "demo", "--text-only", "--runs", t.TempDir())
	if code != 0 {
		t.Fatalf("demo with a damaged default knowledge file: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{path + " is damaged", "fairy knowledge repair " + path, "running without knowledge", "learning is off for this run"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if !strings.Contains(stdout, "knowledge: off for this run") || !strings.Contains(stdout, "✓ done") {
		t.Errorf("the demo's output does not say it ran without knowledge, or it did not finish:\n%s", stdout)
	}
	if off := knowledgeOff(t, stdout); !strings.Contains(off, path+" is damaged") {
		t.Errorf("summary.json knowledge.off = %q, want the damage", off)
	}
	if b, err := os.ReadFile(path); err != nil || !bytes.Equal(b, damaged) {
		t.Errorf("the run changed the damaged file (%v)", err)
	}

	runs := t.TempDir()
	code, stdout, stderr = execRoot(t, env, "", "demo", "--text-only", "--runs", runs, "--knowledge", path)
	if code != 2 || !strings.Contains(stderr, "fairy knowledge repair "+path) || strings.Contains(stdout, "run directory") {
		t.Fatalf("demo with a damaged --knowledge: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if entries, _ := os.ReadDir(runs); len(entries) != 0 {
		t.Errorf("the refused demo left run directories: %v", entries)
	}
}

// TestRunWithDamagedKnowledge: `fairy run` with a damaged knowledge file at the default
// location carries out the task without knowledge and says so; with --knowledge naming the
// damaged file it exits 2 before it opens the phone (no adb server listens on the port it
// is given: had it tried, the error would be the device's).
func TestRunWithDamagedKnowledge(t *testing.T) {
	phone, port := hostServedSim(t)
	rules, err := scripted.ParseRules(demoRules)
	if err != nil {
		t.Fatal(err)
	}
	script, err := scripted.NewServer(rules, scripted.Options{})
	if err != nil {
		t.Fatal(err)
	}
	model := httptest.NewServer(script)
	defer model.Close()

	data := t.TempDir()
	path := filepath.Join(data, "fairy", "knowledge.db")
	damaged := writeDamagedKnowledge(t, path)
	env := map[string]string{"XDG_DATA_HOME": data, "OPENAI_BASE_URL": model.URL + "/v1", "FAIRY_MODEL_DEFAULT": scripted.ModelName}

	code, stdout, stderr := execRoot(t, env, "18:00\nyes\nyes\n", "run", "--runs", t.TempDir(), "--adb-host", "127.0.0.1", "--adb-port", port,
		"-s", phone.Serial(), "--text-only", demoInstruction)
	if code != 0 {
		t.Fatalf("run with a damaged default knowledge file: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, path+" is damaged") || !strings.Contains(stderr, "running without knowledge") {
		t.Errorf("stderr does not say the knowledge file is damaged and left aside:\n%s", stderr)
	}
	if off := knowledgeOff(t, stdout); !strings.Contains(off, "is damaged") {
		t.Errorf("summary.json knowledge.off = %q", off)
	}
	if sum, _ := readSummary(t, stdout); sum.Outcome != event.OutcomeDone {
		t.Errorf("outcome %s (%s)", sum.Outcome, sum.Reason)
	}
	if b, err := os.ReadFile(path); err != nil || !bytes.Equal(b, damaged) {
		t.Errorf("the run changed the damaged file (%v)", err)
	}

	code, stdout, stderr = execRoot(t, env, "", "run", "--runs", t.TempDir(), "--knowledge", path, "--adb-host", "127.0.0.1", "--adb-port", "1",
		"-s", phone.Serial(), demoInstruction)
	if code != 2 || !strings.Contains(stderr, "fairy knowledge repair "+path) || strings.Contains(stderr, "device") || strings.Contains(stdout, "run directory") {
		t.Fatalf("run with a damaged --knowledge: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// TestEvalWithDamagedKnowledge: an evaluation that would share a damaged knowledge file
// (--knowledge FILE, or shared in a reused output directory) exits 2 before any phone
// starts and writes no report.
func TestEvalWithDamagedKnowledge(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "k.db")
	writeDamagedKnowledge(t, file)
	reused := t.TempDir()
	writeDamagedKnowledge(t, filepath.Join(reused, "knowledge.db"))
	for _, tt := range []struct{ mode, out string }{{file, t.TempDir()}, {"shared", reused}} {
		code, stdout, stderr := execRoot(t, nil, "", "eval", "builtin:sim", "--sim", "1", "--tasks", "settings-wifi-off",
			"--knowledge", tt.mode, "--out", tt.out, "--runs", t.TempDir())
		if code != 2 || !strings.Contains(stderr, "is damaged") || strings.Contains(stdout, "virtual phone") {
			t.Errorf("eval --knowledge %s: exit %d\n%s\n%s", tt.mode, code, stdout, stderr)
		}
		if _, err := os.Stat(filepath.Join(tt.out, "report.json")); !os.IsNotExist(err) {
			t.Errorf("eval --knowledge %s wrote a report (%v)", tt.mode, err)
		}
	}
}
