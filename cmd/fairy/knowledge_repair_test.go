package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/knowledge"
)

// TestKnowledgeRepairCountsWhatItCannotSee: a knowledge file of 39 page pictures cut in
// half loses all of them; `fairy knowledge repair` says their loss is unknown, not that
// none was lost.
func TestKnowledgeRepairCountsWhatItCannotSee(t *testing.T) {
	dir := t.TempDir()
	path, repaired := filepath.Join(dir, "knowledge.db"), filepath.Join(dir, "repaired.db")
	s, err := knowledge.Open(path, knowledge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	jpeg := append([]byte{0xff, 0xd8, 0xff, 0xe0}, bytes.Repeat([]byte("picture "), 180)...)
	for i := range 39 {
		p, err := s.RecordPage("com.example.pictures", knowledge.Page{Activity: fmt.Sprintf(".Screen%d", i), Signature: "s"})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.PutThumb("com.example.pictures", p.Key, knowledge.Thumb{JPEG: jpeg}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data[:len(data)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := execRoot(t, nil, "", "knowledge", "repair", path, "--out", repaired)
	if code != 0 {
		t.Fatalf("repair: exit %d\n%s\n%s", code, stdout, stderr)
	}
	t.Logf("fairy knowledge repair:\n%s", stdout)
	for _, line := range strings.Split(stdout, "\n") {
		f := strings.Fields(line)
		if len(f) < 4 || f[0] != "thumbs" && f[0] != "pages" {
			continue
		}
		if f[1] != "0" || f[2] != "unknown" {
			t.Errorf("%s: %q, want 0 saved and the loss unknown", f[0], line)
		}
	}
	if !strings.Contains(stdout, `"unknown" and "at least": damaged pages held records of that kind that nothing left in the file counts.`) {
		t.Errorf("the report does not say what unknown means:\n%s", stdout)
	}
}
