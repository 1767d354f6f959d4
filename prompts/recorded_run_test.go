package prompts

import (
	"bytes"
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/llm"
)

// changedFiles is the embedded templates and schemas with old replaced by new in file.
func changedFiles(t *testing.T, file, old, new string) fs.FS {
	t.Helper()
	out := fstest.MapFS{}
	err := fs.WalkDir(Files(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(Files(), p)
		if err != nil {
			return err
		}
		if p == file {
			if !bytes.Contains(b, []byte(old)) {
				t.Fatalf("%s does not hold %q", file, old)
			}
			b = bytes.ReplaceAll(b, []byte(old), []byte(new))
		}
		out[p] = &fstest.MapFile{Data: b}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestReplayAfterAPromptChange: a recorded run replays against the same prompts; after a
// template change the replay fails saying the prompt changed, where, and what it was.
func TestReplayAfterAPromptChange(t *testing.T) {
	data := DeciderData{Instruction: "Order a bubble tea", Task: event.AppTask{App: "com.fairy.shop", Task: "Order a bubble tea"},
		Plan: []string{"Open the menu"}, Subgoal: "Open the menu", Screen: "- [1] button \"Menu\""}
	request := func(s *Set) llm.Request {
		p, err := s.Decide(data)
		if err != nil {
			t.Fatal(err)
		}
		return llm.Request{Role: llm.RoleDecider, System: p.System, Messages: []llm.Message{{Role: "user", Text: p.User}}, Schema: &p.Schema}
	}
	orig, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	var rec bytes.Buffer
	if err := llm.NewRecorder(&rec).Record(request(orig), llm.Response{Text: `{"thought":"","actions":[],"expect":""}`}); err != nil {
		t.Fatal(err)
	}
	replay := func() *llm.Replay {
		rp, err := llm.LoadReplay(bytes.NewReader(rec.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		return rp
	}
	if _, err := replay().Generate(t.Context(), request(orig)); err != nil {
		t.Fatalf("replay against the same prompts: %v", err)
	}
	changed, err := LoadFrom(changedFiles(t, "templates/decider.tmpl", "2. Do not repeat an action that failed", "2. Never repeat an action that failed"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = replay().Generate(t.Context(), request(changed))
	if !errors.Is(err, llm.ErrPromptChanged) || !errors.Is(err, llm.ErrReplayMiss) {
		t.Fatalf("replay after a template change: %v, want ErrPromptChanged", err)
	}
	for _, want := range []string{"system prompt", "line", "Do not repeat", "Never repeat"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error %q does not say %q", err, want)
		}
	}
}
