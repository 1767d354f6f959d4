package main

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/knowledge"
)

// TestMapView: `fairy map view PKG --out FILE` writes one self-contained page with the
// pictures the knowledge file holds and the app's Chinese label; `--out -` writes it to
// stdout; an app with no map is a clear error and writes nothing.
func TestMapView(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "knowledge.db")
	kp := pathRef(func() (string, error) { return path, nil })
	s, err := knowledge.Open(path, knowledge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutApp(knowledge.App{Package: "com.tea", Label: "奶茶店"}); err != nil {
		t.Fatal(err)
	}
	for _, tr := range []knowledge.Transition{
		{From: ".Home#a", To: ".Menu#b", Action: knowledge.Action{Kind: knowledge.ActionTap, Target: knowledge.Element{Text: "菜单"}}},
		{From: ".Menu#b", To: ".Search#c", Action: knowledge.Action{Kind: knowledge.ActionTap, Target: knowledge.Element{ResourceID: "search"}}},
	} {
		if _, err := s.RecordTransition("com.tea", tr, true); err != nil {
			t.Fatal(err)
		}
	}
	img := image.NewRGBA(image.Rect(0, 0, 18, 40))
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 7)
	}
	img.Set(0, 0, color.Black)
	var pic bytes.Buffer
	if err := jpeg.Encode(&pic, img, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.PutThumb("com.tea", ".Menu#b", knowledge.Thumb{JPEG: pic.Bytes()}); err != nil {
		t.Fatal(err)
	}
	s.Close()

	file := filepath.Join(dir, "tea.html")
	out, err := runKnowledgeCmd(t, newMapCmd(kp), "", "view", "com.tea", "--out", file)
	if err != nil || !strings.Contains(out, "Wrote "+file+": 3 pages, 1 picture.") || !strings.Contains(out, "file://") {
		t.Fatalf("map view: %q, %v", out, err)
	}
	page, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"<title>App Map · 奶茶店 · com.tea</title>", `<img src="data:image/jpeg;base64,`, `id="page-p2"`,
		`class="noimg"`, "菜单", `@font-face{font-family:"Fairy CJK"`} {
		if !bytes.Contains(page, []byte(w)) {
			t.Errorf("the page lacks %q", w)
		}
	}
	if bytes.Contains(page, []byte("http://")) || bytes.Contains(page, []byte("https://")) {
		t.Error("the page refers to the network")
	}

	out, err = runKnowledgeCmd(t, newMapCmd(kp), "", "view", "com.tea", "--out", "-")
	if err != nil || !strings.HasPrefix(out, "<!DOCTYPE html>") {
		t.Fatalf("map view --out -: %.200q, %v", out, err)
	}

	none := filepath.Join(dir, "none.html")
	if _, err := runKnowledgeCmd(t, newMapCmd(kp), "", "view", "com.none", "--out", none); err == nil || !strings.Contains(err.Error(), "no map learned for com.none") {
		t.Errorf("map view of an unknown app: %v", err)
	}
	if _, err := os.Stat(none); err == nil {
		t.Error("a page was written for an unknown app")
	}
	if _, err := runKnowledgeCmd(t, newMapCmd(kp), "", "view", "com.tea", "--out", filepath.Join(dir, "no", "such", "dir.html")); err == nil ||
		!strings.Contains(err.Error(), "write the map view") {
		t.Errorf("map view into a missing directory: %v", err)
	}
}
