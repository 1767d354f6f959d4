package knowledge

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"slices"
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
func exportDoc(t *testing.T, s *Store) (exportDocument, []byte) {
	t.Helper()
	var b bytes.Buffer
	if err := s.Export(&b); err != nil {
		t.Fatal(err)
	}
	var d exportDocument
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
	if doc.Format != exportFormat || doc.Schema != schemaVersion || len(doc.Maps) != 1 || len(doc.Tricks) != 8 || len(doc.Runs) != 1 || len(doc.Apps) != 1 {
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

// spaces is an endless stream of spaces: JSON whitespace.
type spaces struct{}

func (spaces) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}

// TestImportCaps: a document over MaxImportBytes, or with one text over its cap among
// sound records, is refused with ErrTooLarge naming the record, and nothing is imported.
func TestImportCaps(t *testing.T) {
	src, _ := openTemp(t, Options{})
	fill(t, src)
	doc, _ := exportDoc(t, src)
	long := func(n int) string { return strings.Repeat("长", n/3+1) } // n bytes and a little more, in UTF-8
	tests := []struct {
		name string
		edit func(d *exportDocument)
		want string
	}{
		{"trick text", func(d *exportDocument) { d.Tricks[3].Text = long(MaxTrickText) }, "text is 4098 bytes, over the 4096-byte cap"},
		{"trick provenance", func(d *exportDocument) { d.Tricks[1].Provenance.Instruction = long(MaxTrickText) }, "instruction is"},
		{"app label", func(d *exportDocument) { d.Apps[0].Label = long(MaxName) }, "app com.example.chat: label is 258 bytes, over the 256-byte cap"},
		{"app description", func(d *exportDocument) { d.Apps[0].Description = long(maxDescription) }, "description is 2049 bytes"},
		{"page description", func(d *exportDocument) { d.Maps[0].Pages[1].Description = long(maxDescription) }, "page .Compose#s2: description is"},
		{"page key", func(d *exportDocument) { d.Maps[0].Pages[0].Key = long(MaxName) }, "key is 258 bytes"},
		{"page element text", func(d *exportDocument) { d.Maps[0].Pages[0].Elements[0].Text = long(maxDescription) }, "element: text is"},
		{"transition argument", func(d *exportDocument) {
			for i, tr := range d.Maps[0].Transitions {
				if tr.Action.Args != nil {
					d.Maps[0].Transitions[i].Action.Args["direction"] = long(maxDescription)
				}
			}
		}, "argument direction is"},
		{"run instruction", func(d *exportDocument) { d.Runs[0].Instruction = long(MaxTrickText) }, "run r1: instruction is"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := doc
			d.Apps, d.Maps, d.Tricks, d.Runs = slices.Clone(doc.Apps), slices.Clone(doc.Maps), slices.Clone(doc.Tricks), slices.Clone(doc.Runs)
			d.Maps[0].Pages, d.Maps[0].Transitions = slices.Clone(doc.Maps[0].Pages), slices.Clone(doc.Maps[0].Transitions)
			d.Maps[0].Pages[0].Elements = slices.Clone(doc.Maps[0].Pages[0].Elements)
			for i := range d.Maps[0].Transitions {
				d.Maps[0].Transitions[i].Action.Args = maps.Clone(doc.Maps[0].Transitions[i].Action.Args)
			}
			tt.edit(&d)
			raw, err := json.Marshal(d)
			if err != nil {
				t.Fatal(err)
			}
			dst, _ := openTemp(t, Options{})
			_, err = dst.Import(bytes.NewReader(raw))
			if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "nothing imported") {
				t.Fatalf("Import = %v, want ErrTooLarge saying %q", err, tt.want)
			}
			assertEmpty(t, dst)
		})
	}
	// The unedited document imports: the caps are not in the way of fairy's own exports.
	raw, _ := json.Marshal(doc)
	dst, _ := openTemp(t, Options{})
	if _, err := dst.Import(bytes.NewReader(raw)); err != nil {
		t.Fatalf("the sound document: %v", err)
	}
}

// TestImportDocumentCap: a document over MaxImportBytes is refused once that much is read.
func TestImportDocumentCap(t *testing.T) {
	dst, _ := openTemp(t, Options{})
	doc := io.MultiReader(strings.NewReader(`{"format":"fairy-knowledge","schema":1,"apps":[{"package":"com.a"}]`), spaces{})
	_, err := dst.Import(doc)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "over the 64 MiB cap") {
		t.Fatalf("Import = %v, want ErrTooLarge", err)
	}
	assertEmpty(t, dst)
}

// TestTrickTextCap: the trick text cap holds for tricks added by hand or learned, too.
func TestTrickTextCap(t *testing.T) {
	s, _ := openTemp(t, Options{})
	if _, err := s.AddTrick(Trick{App: chat, Kind: KindAction, Text: strings.Repeat("x", MaxTrickText+1)}); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("AddTrick over the cap = %v, want ErrTooLarge", err)
	}
	if _, _, err := s.UpsertTrick(Trick{App: chat, Kind: KindAction, Text: strings.Repeat("x", MaxTrickText+1)}); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("UpsertTrick over the cap = %v, want ErrTooLarge", err)
	}
	if _, err := s.AddTrick(Trick{App: chat, Kind: KindAction, Text: strings.Repeat("x", MaxTrickText)}); err != nil {
		t.Fatalf("AddTrick at the cap: %v", err)
	}
}

// assertEmpty fails unless s holds nothing.
func assertEmpty(t *testing.T, s *Store) {
	t.Helper()
	apps, err1 := s.Apps()
	tricks, err2 := s.Tricks("", "")
	runs, err3 := s.Runs(0)
	if len(apps)+len(tricks)+len(runs) != 0 || errors.Join(err1, err2, err3) != nil {
		t.Fatalf("a refused import left %d apps, %d tricks, %d runs (%v)", len(apps), len(tricks), len(runs), errors.Join(err1, err2, err3))
	}
}
