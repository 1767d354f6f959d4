package interop

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/draw"
	"image/png"
	"testing"

	"github.com/fairy-go/fairy/internal/testenv"
	"github.com/fairy-go/fairy/sim/adbtest"
)

// adbkitPNGResult is what testdata/adbkit-png.js prints.
type adbkitPNGResult struct {
	PNG struct {
		Error string
		Meta  struct {
			Version, BPP, Size, Width, Height int
			Format                            string
		}
		Outcome string // ended, failed or silent
		Bytes   int
	}
	Manual struct {
		Exit int
		PNG  string // base64
	}
}

// TestAdbkitFramebufferPNG: adbkit's framebuffer('png') on the virtual phone does what it
// does on a real Android 8.1+ phone, and the test never hangs on it. adbkit (3.3.9) reads
// the version-1 header of 52 bytes; the version-2 header of Android 8.1+ (quamotion/madb#104)
// has a colorSpace field after bpp, so every later field is read one place off: "size" is
// the colour space, "width" the byte count, "height" the real width, and an RGBA_8888 frame
// reads as format "rgba". For rgb and rgba adbkit starts `gm convert` but pipes the pixels
// into it only when it must reorder them (bgr, bgra): gm never gets its input and the PNG
// stream stays silent, on any RGBA phone (openstf/adbkit#4: "when use png format, file is
// empty"). The frame itself converts: read with the version-2 header and given to gm by
// hand, it is the launcher's picture, pixel for pixel.
func TestAdbkitFramebufferPNG(t *testing.T) {
	node, modules := nodeModules(t)
	testenv.MustHaveProgram(t, "gm")
	srv := adbtest.Start(t)
	p, serial := phoneOnADB(t, srv)
	fb, err := p.Framebuffer()
	if err != nil {
		t.Fatal(err)
	}

	var r adbkitPNGResult
	runNode(t, node, modules, "adbkit-png.js", srv.Port, []string{"SERIAL=" + serial, "WAIT_MS=3000"}, &r)

	m := r.PNG.Meta
	if r.PNG.Error != "" || m.Version != 2 || m.BPP != 32 || m.Width != 1080*2400*4 || m.Height != 1080 || m.Format != "rgba" {
		t.Errorf("adbkit's reading of the version-2 header: %+v (error %q), want version 2, 32 bpp, width = the byte count, height = the real width, rgba", m, r.PNG.Error)
	}
	if r.PNG.Outcome != "silent" || r.PNG.Bytes != 0 {
		t.Errorf("framebuffer('png'): %s with %d bytes, want silent with none (adbkit never feeds gm an rgba frame)", r.PNG.Outcome, r.PNG.Bytes)
	}

	raw, err := base64.StdEncoding.DecodeString(r.Manual.PNG)
	if err != nil || r.Manual.Exit != 0 {
		t.Fatalf("gm convert by hand: exit %d, %v", r.Manual.Exit, err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("gm's PNG of the raw frame does not decode: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1080 || b.Dy() != 2400 {
		t.Fatalf("gm's PNG of the raw frame is %dx%d, want 1080x2400", b.Dx(), b.Dy())
	}
	got := image.NewNRGBA(img.Bounds())
	draw.Draw(got, got.Rect, img, img.Bounds().Min, draw.Src)
	if !bytes.Equal(got.Pix, fb.Pix) {
		t.Errorf("gm's PNG of the raw frame differs from the launcher's pixels")
	}
}
