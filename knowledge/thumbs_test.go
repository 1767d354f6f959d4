package knowledge

import (
	"bytes"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// jpegOf is a tiny stand-in JPEG: the thumbnail store checks the JPEG signature and the
// size, not the picture.
func jpegOf(n int, fill byte) []byte {
	return append([]byte{0xff, 0xd8, 0xff, 0xe0}, bytes.Repeat([]byte{fill}, n)...)
}

// TestThumbs: a page's picture is stored, read back and replaced; pictures that are not
// JPEGs, over the cap, or of a page not on the map are refused with a clear error.
func TestThumbs(t *testing.T) {
	s, _ := openTemp(t, Options{})
	const app = "com.android.settings"
	p, err := s.RecordPage(app, Page{Activity: ".Settings", Signature: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.Thumb(app, p.Key); ok || err != nil {
		t.Fatalf("a page never pictured has a thumbnail (%v, %v)", ok, err)
	}
	if err := s.PutThumb(app, p.Key, Thumb{JPEG: jpegOf(100, 1)}); err != nil {
		t.Fatal(err)
	}
	th, ok, err := s.Thumb(app, p.Key)
	if err != nil || !ok || !bytes.Equal(th.JPEG, jpegOf(100, 1)) || th.Taken.IsZero() {
		t.Fatalf("thumbnail %v %v %v", ok, err, th.Taken)
	}
	if th.Stale(th.Taken.Add(time.Hour)) || !th.Stale(th.Taken.Add(ThumbMaxAge+time.Hour)) || !(Thumb{}).Stale(th.Taken) {
		t.Error("staleness: a fresh picture is stale, an old or missing one is not")
	}
	if err := s.PutThumb(app, p.Key, Thumb{JPEG: jpegOf(50, 2)}); err != nil {
		t.Fatal(err)
	}
	all, err := s.Thumbs(app)
	if err != nil || len(all) != 1 || !bytes.Equal(all[p.Key].JPEG, jpegOf(50, 2)) {
		t.Fatalf("Thumbs = %v, %v; want the replaced picture only", all, err)
	}
	for _, c := range []struct {
		name, key string
		jpeg      []byte
		want      error
	}{
		{"png", p.Key, []byte("\x89PNG\r\n\x1a\n"), ErrInvalid},
		{"over the cap", p.Key, jpegOf(MaxThumbBytes, 3), ErrTooLarge},
		{"page not on the map", ".Other#x", jpegOf(10, 4), ErrNotFound},
		{"no key", "", jpegOf(10, 4), ErrInvalid},
	} {
		if err := s.PutThumb(app, c.key, Thumb{JPEG: c.jpeg}); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
}

// TestThumbsExportImportRepair: pictures travel with the map through export and import
// (the newer one wins) and survive a repair; a picture whose page is missing makes the
// import refuse the document whole.
func TestThumbsExportImportRepair(t *testing.T) {
	src, srcPath := openTemp(t, Options{})
	const app = "com.android.settings"
	p, err := src.RecordPage(app, Page{Activity: ".Settings", Signature: "s1", Description: "设置"})
	if err != nil {
		t.Fatal(err)
	}
	old := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := src.PutThumb(app, p.Key, Thumb{JPEG: jpegOf(200, 7), Taken: old.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	var doc bytes.Buffer
	if err := src.Export(&doc); err != nil {
		t.Fatal(err)
	}

	dst, _ := openTemp(t, Options{})
	if _, err := dst.RecordPage(app, Page{Activity: ".Settings", Signature: "s1"}); err != nil {
		t.Fatal(err)
	}
	if err := dst.PutThumb(app, p.Key, Thumb{JPEG: jpegOf(20, 8), Taken: old}); err != nil {
		t.Fatal(err)
	}
	st, err := dst.Import(bytes.NewReader(doc.Bytes()))
	if err != nil || st.Thumbs != 1 {
		t.Fatalf("import: %+v, %v", st, err)
	}
	th, _, _ := dst.Thumb(app, p.Key)
	if !bytes.Equal(th.JPEG, jpegOf(200, 7)) {
		t.Error("the newer imported picture did not replace the older stored one")
	}
	// Imported again, the older picture of another document does not win.
	if err := src.PutThumb(app, p.Key, Thumb{JPEG: jpegOf(30, 9), Taken: old.Add(-time.Hour)}); err != nil {
		t.Fatal(err)
	}
	var older bytes.Buffer
	if err := src.Export(&older); err != nil {
		t.Fatal(err)
	}
	if _, err := dst.Import(&older); err != nil {
		t.Fatal(err)
	}
	if th, _, _ := dst.Thumb(app, p.Key); !bytes.Equal(th.JPEG, jpegOf(200, 7)) {
		t.Error("an older imported picture replaced a newer one")
	}

	orphan := bytes.Replace(doc.Bytes(), []byte(`"key": "`+p.Key+`",
      "jpeg"`), []byte(`"key": ".Gone#g",
      "jpeg"`), 1)
	if bytes.Equal(orphan, doc.Bytes()) {
		t.Fatalf("the export document has no thumbnail record to edit:\n%s", doc.Bytes())
	}
	fresh, _ := openTemp(t, Options{})
	if _, err := fresh.Import(bytes.NewReader(orphan)); !errors.Is(err, ErrNotFound) {
		t.Errorf("a picture of a page not on the map imported: %v", err)
	}
	if apps, _ := fresh.Apps(); len(apps) != 0 {
		t.Errorf("a refused import wrote %v", apps)
	}

	repaired := filepath.Join(t.TempDir(), "repaired.db")
	rep, err := Repair(srcPath, repaired, Options{})
	if err != nil {
		t.Fatal(err)
	}
	saved, lost, _ := reported(rep)
	if saved[kindThumbs] != 1 || lost[kindThumbs] != 0 {
		t.Errorf("repair saved %d thumbnails, lost %d; want 1, 0", saved[kindThumbs], lost[kindThumbs])
	}
	r := openRepaired(t, repaired)
	if th, ok, _ := r.Thumb(app, p.Key); !ok || !bytes.Equal(th.JPEG, jpegOf(30, 9)) {
		t.Error("the repaired copy lost the page's picture")
	}
}
