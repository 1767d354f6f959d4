package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fairy-go/fairy/executor/ocr/ocrtest"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/sim"
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

// TestPerceiveRejectsBadFiles: a screenshot, an archive, a plain text file, a dump cut short
// or with a NUL in a tag name each end in exit 2 with a sentence naming the problem, nothing
// on stdout, and no byte of the file on the terminal.
func TestPerceiveRejectsBadFiles(t *testing.T) {
	dir := t.TempDir()
	dump, err := os.ReadFile(filepath.Join("..", "..", "perception", "testdata", "corpus", "gmail-inbox-1080x2400-drawing-order.xml"))
	if err != nil {
		t.Fatal(err)
	}
	img := image.NewRGBA(image.Rect(0, 0, 64, 64))
	img.Set(3, 3, color.RGBA{R: 0xff, A: 0xff})
	var shot bytes.Buffer
	if err := png.Encode(&shot, img); err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write(dump)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	cut := len(dump) / 2
	nameAt := bytes.Index(dump[cut:], []byte("<node")) + cut
	nul := bytes.Clone(dump)
	nul[nameAt+3] = 0
	tests := []struct {
		file string
		data []byte
		want []string
	}{
		{"shot.png", shot.Bytes(), []string{"shot.png is not a UI dump", "not XML (looks like a PNG image)", "--png"}},
		{"dump.xml.gz", gz.Bytes(), []string{"not XML (looks like gzip data)"}},
		{"notes.txt", []byte("shopping list\nmilk\n"), []string{"not XML (looks like plain text", "shopping list"}},
		{"cut.xml", dump[:cut], []string{"cut.xml is a broken UI dump", fmt.Sprintf("cut short at byte %d", cut), "dump the screen again"}},
		{"nul.xml", nul, []string{"nul.xml is a broken UI dump", fmt.Sprintf("at byte %d", nameAt+3), "invalid character 0x00 in the tag name"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.Join(dir, tt.file)
			if err := os.WriteFile(path, tt.data, 0o644); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			root := newRootCmd(strings.NewReader(""), &stdout, &stderr, envMap(map[string]string{"HOME": dir}))
			root.SetOut(&stdout)
			root.SetErr(&stderr)
			root.SetArgs([]string{"perceive", path})
			code := exitStatus(t.Context(), root.ExecuteContext(t.Context()), &stderr)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout: %q", stdout.String())
			}
			msg := stderr.String()
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("stderr lacks %q:\n%s", w, msg)
				}
			}
			if !utf8.ValidString(msg) || strings.ContainsFunc(msg, func(r rune) bool { return r < 0x20 && r != '\n' || r == 0x7f }) {
				t.Errorf("stderr holds raw bytes: %q", msg)
			}
			if len(msg) > 400 {
				t.Errorf("stderr is %d bytes long:\n%s", len(msg), msg)
			}
		})
	}
}

// TestPerceivePixels: `fairy perceive DUMP --png SHOT` shows what the agent reads, the
// text read from the picture included: TeaHouse's checkout (a WebView with no nodes) in
// Russian shows its Pay button, read from the pixels; with --locale the phone's language
// is read with its script's data too.
func TestPerceivePixels(t *testing.T) {
	ocrtest.Start(t)
	phone, err := sim.New(sim.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, loc := range []string{"ru-RU", "th-TH"} {
		for _, line := range []string{"settings put system system_locales " + loc, "am force-stop com.fairy.teahouse", "am start -n com.fairy.teahouse/.WebActivity"} {
			var b bytes.Buffer
			if _, err := phone.Shell(t.Context(), line, &b); err != nil {
				t.Fatal(err)
			}
		}
		shot, err := phone.Screenshot()
		if err != nil {
			t.Fatal(err)
		}
		dump, png := filepath.Join(dir, loc+".xml"), filepath.Join(dir, loc+".png")
		if err := os.WriteFile(dump, phone.Dump(), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(png, shot, 0o644); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"ru-RU": "Оплатить", "th-TH": "ชำระ"}[loc] // ชำระเงิน: OCR may miss a letter of the second word
		out, err := runPerceive(t, dump, "--png", png, "--locale", loc)
		if err != nil {
			t.Fatalf("%s: %v\n%s", loc, err, out)
		}
		found := false
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "(read from the picture)") && strings.Contains(strings.ReplaceAll(l, " ", ""), want) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: the Pay button %q is not among the lines read from the picture:\n%s", loc, want, out)
		}
	}
}
