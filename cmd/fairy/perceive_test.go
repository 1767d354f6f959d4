package main

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/perception"
)

func runPerceive(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := newPerceiveCmd()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs(args)
	err := cmd.Execute()
	return out.String(), err
}

func TestPerceiveCmd(t *testing.T) {
	dump := filepath.Join("..", "..", "perception", "testdata", "corpus", "gmail-inbox-1080x2400-drawing-order.xml")
	text, err := runPerceive(t, dump)
	if err != nil || !strings.Contains(text, "- [1] ") {
		t.Fatalf("text form: %v\n%s", err, text)
	}

	out, err := runPerceive(t, dump, "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var j perception.ScreenJSON
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatalf("json: %v\n%s", err, out)
	}
	if j.Package != "com.google.android.gm" || j.Text != text || len(j.Elements) == 0 || j.Elements[0].Index != 1 {
		t.Errorf("json = %+v", j)
	}

	dir := t.TempDir()
	shot := filepath.Join(dir, "shot.png")
	img := image.NewRGBA(image.Rect(0, 0, 1080, 2400))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	img.Set(0, 0, color.Black)
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(shot, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	som := filepath.Join(dir, "som.jpg")
	if _, err := runPerceive(t, dump, "--png", shot, "--som", som, "--long-edge", "800"); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(som)
	if err != nil {
		t.Fatal(err)
	}
	m, err := perception.DecodeScreenshot(data)
	if err != nil || m.Bounds().Dy() != 800 {
		t.Errorf("set-of-mark image: %v %v", err, m)
	}

	for _, bad := range [][]string{
		{dump, "--format", "yaml"},
		{dump, "--som", som},
		{filepath.Join(dir, "missing.xml")},
		{filepath.Join("..", "..", "perception", "testdata", "corpus", "uiautomator-dump-error-idle-state.xml")},
		{dump, "--png", dump, "--som", som},
	} {
		if _, err := runPerceive(t, bad...); err == nil {
			t.Errorf("perceive %q: no error", bad)
		}
	}
}
