package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/fairy-go/fairy/knowledge"
	"github.com/spf13/cobra"
)

func runKnowledgeCmd(t *testing.T, cmd *cobra.Command, stdin string, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetIn(strings.NewReader(stdin))
	cmd.SetArgs(args)
	cmd.SilenceUsage = true
	cmd.SilenceErrors = true
	err := cmd.ExecuteContext(t.Context())
	return out.String(), err
}

func TestKnowledgeCommands(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "knowledge.db")
	kp := pathRef(func() (string, error) { return path, nil })

	// Nothing learned yet: list commands say so, show commands fail clearly.
	if out, err := runKnowledgeCmd(t, newMapCmd(kp), "", "list"); err != nil || !strings.Contains(out, "No apps learned yet") {
		t.Fatalf("map list on no file: %q, %v", out, err)
	}
	if _, err := runKnowledgeCmd(t, newMapCmd(kp), "", "show", "com.a"); err == nil || !strings.Contains(err.Error(), "no knowledge file") {
		t.Fatalf("map show on no file: %v", err)
	}

	out, err := runKnowledgeCmd(t, newTricksCmd(kp), "", "add", "--app", "com.tea", "--kind", "action", "在菜单里搜索珍珠奶茶")
	if err != nil || !strings.Contains(out, "Added trick t1") {
		t.Fatalf("tricks add: %q, %v", out, err)
	}
	s, err := knowledge.Open(path, knowledge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range []knowledge.Transition{
		{From: ".Home#a", To: ".Menu#b", Action: knowledge.Action{Kind: knowledge.ActionTap, Target: knowledge.Element{Text: "Menu"}}},
		{From: ".Menu#b", To: ".Search#c", Action: knowledge.Action{Kind: knowledge.ActionTap, Target: knowledge.Element{ResourceID: "search"}}},
		// Paying leads to the receipt: a sensitive side effect, never a way there.
		{From: ".Search#c", To: ".Paid#d", Action: knowledge.Action{Kind: knowledge.ActionTap, Target: knowledge.Element{Text: "Pay ¥15"},
			Args: map[string]string{knowledge.ArgSideEffect: "sensitive"}}},
	} {
		if _, err := s.RecordTransition("com.tea", tr, true); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()

	tests := []struct {
		cmd  func(knowledgeRef) *cobra.Command
		args []string
		want []string
		err  string
	}{
		{newMapCmd, []string{"list"}, []string{"PACKAGE", "com.tea", "4", "3", "1"}, ""},
		{newMapCmd, []string{"show", "com.tea"}, []string{"4 pages, 3 transitions", `tap "Menu"`}, ""},
		{newMapCmd, []string{"show", "com.none"}, nil, "no map learned for com.none"},
		{newMapCmd, []string{"path", "com.tea", "p1", "p3"}, []string{"STEP", `tap "Menu"`, "tap id=search"}, ""},
		{newMapCmd, []string{"path", "com.tea", "p3", "p1"}, nil, "no known path"},
		{newMapCmd, []string{"path", "com.tea", "p1", "p4"}, nil, `no known path: p1 and p4 are connected only through tap "Pay ¥15" on p3 (sensitive), which changes the app`},
		{newMapCmd, []string{"export", "com.tea", "--format", "dot"}, []string{`digraph "com.tea"`}, ""},
		{newMapCmd, []string{"export", "com.tea", "--format", "mermaid"}, []string{"flowchart LR"}, ""},
		{newMapCmd, []string{"export", "com.tea", "--format", "json"}, []string{`"app": "com.tea"`}, ""},
		{newMapCmd, []string{"export", "com.tea", "--format", "png"}, nil, "want dot, json or mermaid"},
		{newTricksCmd, []string{"list"}, []string{"t1", "com.tea", "珍珠奶茶"}, ""},
		{newTricksCmd, []string{"list", "--kind", "planning"}, []string{"No tricks."}, ""},
		{newTricksCmd, []string{"list", "--kind", "bogus"}, nil, "want planning, action or error-recovery"},
		{newTricksCmd, []string{"show", "t1"}, []string{"Kind:", "action", "Outcome:", "manual"}, ""},
		{newTricksCmd, []string{"show", "t9"}, nil, "not found"},
		{newTricksCmd, []string{"add", "--kind", "action", "x"}, nil, "--app is required"},
		{newTricksCmd, []string{"add", "--app", "com.tea", "在菜单里搜索珍珠奶茶。"}, []string{"Merged into similar trick t1"}, ""},
	}
	for _, tt := range tests {
		out, err := runKnowledgeCmd(t, tt.cmd(kp), "", tt.args...)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%v: err %v, want %q", tt.args, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v: %v", tt.args, err)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: output lacks %q:\n%s", tt.args, w, out)
			}
		}
	}

	// Export, remove, import back.
	exported := filepath.Join(dir, "k.json")
	if _, err := runKnowledgeCmd(t, newKnowledgeCmd(kp), "", "export", exported); err != nil {
		t.Fatal(err)
	}
	if out, err := runKnowledgeCmd(t, newTricksCmd(kp), "", "rm", "t1"); err != nil || !strings.Contains(out, "Removed trick t1") {
		t.Fatalf("tricks rm: %q, %v", out, err)
	}
	other := pathRef(func() (string, error) { return filepath.Join(dir, "other.db"), nil })
	out, err = runKnowledgeCmd(t, newKnowledgeCmd(other), "", "import", exported)
	if err != nil || !strings.Contains(out, "Imported 0 apps, 4 pages, 3 transitions, 1 trick, 0 runs") {
		t.Fatalf("knowledge import: %q, %v", out, err)
	}
	if out, _ := runKnowledgeCmd(t, newKnowledgeCmd(other), "", "export", "-"); !strings.Contains(out, `"format": "fairy-knowledge"`) {
		t.Fatalf("export to stdout: %q", out)
	}

	// A file held by another fairy's transaction longer than the wait gives the clear
	// in-use error.
	held, err := knowledge.Open(path, knowledge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	release := holdKnowledge(t, held)
	defer release()
	if _, err := runKnowledgeCmd(t, newTricksCmd(kp), "", "rm", "t2"); err == nil || !strings.Contains(err.Error(), "in use by another fairy process") {
		t.Fatalf("rm on a held file: %v", err)
	}
}

// holdKnowledge keeps a write transaction of s open, so that its file's lock is held,
// until release is called — another fairy process in the middle of a long write.
func holdKnowledge(t *testing.T, s *knowledge.Store) (release func()) {
	t.Helper()
	held, done, errc := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		errc <- s.Update(func(*knowledge.Tx) error { close(held); <-done; return nil })
	}()
	<-held
	var once sync.Once
	return func() {
		once.Do(func() {
			close(done)
			if err := <-errc; err != nil {
				t.Errorf("the holding transaction: %v", err)
			}
		})
	}
}
