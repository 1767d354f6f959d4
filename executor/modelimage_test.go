package executor

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"log/slog"
	"testing"

	"github.com/fairy-go/fairy/perception"
)

// TestFitPictureMapsBack: with a grounding model's image size, the picture the models see
// is sent at that size whether the device gave the full PNG or the resident server's
// half-size MJPEG frame, and a point in the sent picture maps back to the same screen
// point; set-of-mark stays off (no Mark), so what is sent is the plain picture resized.
func TestFitPictureMapsBack(t *testing.T) {
	full := image.NewRGBA(image.Rect(0, 0, 1080, 2400))
	half := image.NewRGBA(image.Rect(0, 0, 540, 1200))
	for y := 0; y < 2400; y += 2 {
		for x := 0; x < 1080; x += 2 {
			c := color.RGBA{240, 240, 240, 255}
			for _, p := range [][2]int{{x, y}, {x + 1, y}, {x, y + 1}, {x + 1, y + 1}} {
				full.Set(p[0], p[1], c)
			}
			half.Set(x/2, y/2, c)
		}
	}
	var p, j bytes.Buffer
	if err := png.Encode(&p, full); err != nil {
		t.Fatal(err)
	}
	if err := jpeg.Encode(&j, half, nil); err != nil {
		t.Fatal(err)
	}
	uitars := perception.ImageSize{Factor: 28, MinPixels: 3136, MaxPixels: 1280 * 28 * 28}
	screen := &perception.Screen{Width: 1080, Height: 2400}
	for name, pic := range map[string][]byte{"screenshot": p.Bytes(), "mjpeg": j.Bytes()} {
		r := &run{e: &Executor{log: slog.New(slog.DiscardHandler)}, cfg: &Config{ModelImage: uitars.Fit}, screen: screen}
		if marked := r.setPicture(pic); marked != nil {
			t.Errorf("%s: a marked picture with no Mark", name)
		}
		cfg, err := jpeg.DecodeConfig(bytes.NewReader(r.image))
		if err != nil {
			t.Fatalf("%s: the sent picture is no JPEG: %v", name, err)
		}
		if cfg.Width != 672 || cfg.Height != 1484 || r.imageMIME != "image/jpeg" {
			t.Errorf("%s: sent %dx%d %s, want 672x1484 image/jpeg", name, cfg.Width, cfg.Height, r.imageMIME)
		}
		if x, y := r.sent.toScreen(336, 742); x != 540 || y != 1200 {
			t.Errorf("%s: the picture's centre maps to (%d, %d), want (540, 1200)", name, x, y)
		}
		if x, y := r.sent.toScreen(672, 1484); x != 1080 || y != 2400 {
			t.Errorf("%s: the picture's corner maps to (%d, %d), want (1080, 2400)", name, x, y)
		}
	}
	// Without a grounding size the picture goes as taken and its pixels are the screen's.
	r := &run{e: &Executor{log: slog.New(slog.DiscardHandler)}, cfg: &Config{}, screen: screen}
	r.setPicture(p.Bytes())
	if !bytes.Equal(r.image, p.Bytes()) {
		t.Error("the picture was changed with no ModelImage")
	}
	if x, y := r.sent.toScreen(100, 200); x != 100 || y != 200 {
		t.Errorf("screen pixels map to (%d, %d), want (100, 200)", x, y)
	}
}
