package knowledge

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func fill(t *testing.T, s *Store) {
	t.Helper()
	recordChat(t, s)
	seedTricks(t, s)
	if _, err := s.PutApp(App{Package: chat, Label: "Chat", Description: "Messages"}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutRun(Run{ID: "r1", Instruction: "send hi to Alice", Apps: []string{chat}, Outcome: "success",
		Steps: 5, ModelCalls: 11, Tokens: 9000, Duration: 30 * time.Second}); err != nil {
		t.Fatal(err)
	}
}

// exportDoc exports and decodes, clearing the export time.
func exportDoc(t *testing.T, s *Store) (Document, []byte) {
	t.Helper()
	var b bytes.Buffer
	if err := s.Export(&b); err != nil {
		t.Fatal(err)
	}
	var d Document
	if err := json.Unmarshal(b.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	d.ExportedAt = time.Time{}
	return d, b.Bytes()
}

func TestExportImportRoundTrip(t *testing.T) {
	src, _ := openTemp(t, Options{})
	fill(t, src)
	doc, raw := exportDoc(t, src)
	if doc.Format != ExportFormat || doc.Schema != SchemaVersion || len(doc.Maps) != 1 || len(doc.Tricks) != 8 || len(doc.Runs) != 1 || len(doc.Apps) != 1 {
		t.Fatalf("export: %d apps, %d maps, %d tricks, %d runs", len(doc.Apps), len(doc.Maps), len(doc.Tricks), len(doc.Runs))
	}
	for _, w := range []string{`"format": "fairy-knowledge"`, `"schema": 1`, `"effect": "no-change"`, `"kind": "error-recovery"`, `"duration_ns": 30000000000`, "珍珠奶茶"} {
		if !bytes.Contains(raw, []byte(w)) {
			t.Errorf("export lacks %s", w)
		}
	}

	dst, _ := openTemp(t, Options{})
	st, err := dst.Import(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if st != (ImportStats{Apps: 1, Pages: 3, Transitions: 6, Tricks: 8, Runs: 1}) {
		t.Fatalf("import stats %+v", st)
	}
	got, _ := exportDoc(t, dst)
	if diff := cmp.Diff(doc, got); diff != "" {
		t.Fatalf("re-export differs (-src +dst):\n%s", diff)
	}
	// Importing again changes nothing.
	if _, err := dst.Import(bytes.NewReader(raw)); err != nil {
		t.Fatal(err)
	}
	again, _ := exportDoc(t, dst)
	if diff := cmp.Diff(doc, again); diff != "" {
		t.Fatalf("second import changed the store (-want +got):\n%s", diff)
	}
	// The imported map is usable at once.
	if p, err := dst.Path(chat, "p1", "p3"); err != nil || len(p) != 2 {
		t.Fatalf("path in imported map: %v, %v", p, err)
	}
}

func TestImportMergesIntoExisting(t *testing.T) {
	src, _ := openTemp(t, Options{})
	fill(t, src)
	_, raw := exportDoc(t, src)

	dst, _ := openTemp(t, Options{})
	// dst already has a different trick as t1 and a page of its own.
	own, _ := dst.AddTrick(Trick{App: chat, Kind: KindAction, Text: "Pinch to zoom photos."})
	if _, err := dst.RecordPage(chat, Page{Activity: ".Photo", Signature: "z"}); err != nil {
		t.Fatal(err)
	}
	if _, err := dst.Map(chat); err != nil { // load the map so the cache must be refreshed
		t.Fatal(err)
	}
	if _, err := dst.Import(bytes.NewReader(raw)); err != nil {
		t.Fatal(err)
	}
	all, _ := dst.Tricks("", "")
	if len(all) != 9 {
		t.Fatalf("%d tricks after import, want 9", len(all))
	}
	if got, _ := dst.Trick(own.ID); got.Text != own.Text {
		t.Fatalf("own trick %s overwritten: %+v", own.ID, got)
	}
	m, _ := dst.Map(chat)
	if len(m.Pages) != 4 || len(m.Transitions) != 6 {
		t.Fatalf("merged map has %d pages, %d transitions", len(m.Pages), len(m.Transitions))
	}
	if p, err := m.Page(".Photo#z"); err != nil || p.ID != "p1" {
		t.Fatalf("own page %+v, %v", p, err)
	}
}

func TestImportRejectsBadDocuments(t *testing.T) {
	src, _ := openTemp(t, Options{})
	fill(t, src)
	_, raw := exportDoc(t, src)
	tests := []struct {
		name string
		doc  string
		want error
	}{
		{"not json", "{", nil},
		{"wrong format", `{"format":"other","schema":1}`, ErrFormat},
		{"wrong schema", `{"format":"fairy-knowledge","schema":9}`, ErrFormat},
		{"unknown field", `{"format":"fairy-knowledge","schema":1,"extra":true}`, nil},
		{"bad trick", `{"format":"fairy-knowledge","schema":1,"tricks":[{"app":"a","kind":"nope","text":"x"}]}`, ErrInvalid},
		{"dangling transition", `{"format":"fairy-knowledge","schema":1,"maps":[{"app":"a","pages":[],"transitions":[{"from":"x","to":"y","action":{"kind":"tap"}}]}]}`, ErrInvalid},
		{"valid then invalid", strings.Replace(string(raw), `"kind": "planning"`, `"kind": "nope"`, 1), ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dst, _ := openTemp(t, Options{})
			_, err := dst.Import(strings.NewReader(tt.doc))
			if err == nil || (tt.want != nil && !errors.Is(err, tt.want)) {
				t.Fatalf("Import = %v, want %v", err, tt.want)
			}
			// Nothing was written.
			if apps, _ := dst.Apps(); len(apps) != 0 {
				t.Fatalf("failed import left %v", apps)
			}
		})
	}
}

func TestRuns(t *testing.T) {
	s, _ := openTemp(t, Options{})
	for _, r := range []Run{{ID: "b"}, {ID: "a"}, {ID: "c"}} {
		if err := s.PutRun(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.PutRun(Run{}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("PutRun without ID = %v", err)
	}
	runs, _ := s.Runs(2)
	if len(runs) != 2 || runs[0].ID != "a" || runs[1].ID != "c" {
		t.Fatalf("Runs(2) = %+v", runs)
	}
}
