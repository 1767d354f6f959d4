package adb

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/sim"
)

// TestRawScreenshot: without the resident server, a screenshot is one raw `screencap`
// (no -p: the phone does not encode a PNG), through the real adb server, and what comes
// back is a valid PNG of exactly the frame the phone shows.
func TestRawScreenshot(t *testing.T) {
	for _, f := range faces {
		t.Run(f.name, func(t *testing.T) {
			p := newPhone(t, sim.Config{})
			d := f.open(t, p, Config{NoUIServer: true})
			p.commands()
			b, err := d.Screenshot(t.Context())
			if err != nil {
				t.Fatalf("Screenshot: %v", err)
			}
			cmds := p.commands()
			if len(cmds) != 1 || !strings.Contains(cmds[0], "screencap") || strings.Contains(cmds[0], "-p") {
				t.Errorf("commands %q, want one raw screencap", cmds)
			}
			got, err := png.Decode(bytes.NewReader(b))
			if err != nil {
				t.Fatalf("the screenshot is not a PNG: %v", err)
			}
			want, err := p.Framebuffer()
			if err != nil {
				t.Fatal(err)
			}
			if got.Bounds() != want.Bounds() {
				t.Fatalf("bounds %v, want %v", got.Bounds(), want.Bounds())
			}
			for y := 0; y < want.Rect.Dy(); y += 7 {
				for x := 0; x < want.Rect.Dx(); x += 7 {
					r1, g1, b1, _ := got.At(x, y).RGBA()
					r2, g2, b2, _ := want.At(x, y).RGBA()
					if r1 != r2 || g1 != g2 || b1 != b2 {
						t.Fatalf("pixel %d,%d is %v, the phone shows %v", x, y, got.At(x, y), want.At(x, y))
					}
				}
			}
		})
	}
}

// rawFrame is a raw screencap of w×h pixels of one colour in format f, with a header of
// hdr bytes (12 before Android 9, 16 from it).
func rawFrame(w, h int, f uint32, hdr int, px [4]byte) []byte {
	b := make([]byte, hdr, hdr+w*h*4)
	binary.LittleEndian.PutUint32(b[0:], uint32(w))
	binary.LittleEndian.PutUint32(b[4:], uint32(h))
	binary.LittleEndian.PutUint32(b[8:], f)
	for range w * h {
		b = append(b, px[:]...)
	}
	return b
}

func TestDecodeRaw(t *testing.T) {
	red := [4]byte{200, 10, 20, 255}
	for _, c := range []struct {
		name      string
		frame     []byte
		ok, black bool
		err       bool
		r, b      uint8
	}{
		{name: "RGBA, 16-byte header", frame: rawFrame(4, 3, rawRGBA8888, 16, red), ok: true, r: 200, b: 20},
		{name: "RGBX, 12-byte header", frame: rawFrame(4, 3, rawRGBX8888, 12, red), ok: true, r: 200, b: 20},
		{name: "BGRA is swapped", frame: rawFrame(4, 3, rawBGRA8888, 16, red), ok: true, r: 20, b: 200},
		{name: "secure: all black", frame: rawFrame(4, 3, rawRGBA8888, 16, [4]byte{0, 0, 0, 255}), ok: true, black: true},
		{name: "RGB 565 is left to -p", frame: rawFrame(4, 3, 4, 16, red)},
		{name: "truncated", frame: rawFrame(4, 3, rawRGBA8888, 16, red)[:40], err: true},
		{name: "no header", frame: []byte{1, 2, 3}, err: true},
		{name: "absurd size", frame: rawFrame(1, 1, rawRGBA8888, 16, red)[:16], err: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "absurd size" {
				binary.LittleEndian.PutUint32(c.frame[0:], 1<<20)
			}
			img, black, ok, err := decodeRaw(c.frame)
			if (err != nil) != c.err || err != nil && !errors.Is(err, errScreenshot) {
				t.Fatalf("err = %v, want error %v (errScreenshot)", err, c.err)
			}
			if ok != c.ok || black != c.black {
				t.Fatalf("ok %v black %v, want %v %v", ok, black, c.ok, c.black)
			}
			if ok && !black {
				px := img.NRGBAAt(3, 2)
				if px.R != c.r || px.B != c.b || px.A != 255 || img.Bounds() != image.Rect(0, 0, 4, 3) {
					t.Errorf("pixel %v in %v, want R %d B %d opaque in 4x3", px, img.Bounds(), c.r, c.b)
				}
			}
		})
	}
}

// BenchmarkRawToPNG is the host's side of a raw screenshot: a 1080×2400 frame read and
// encoded to PNG (the phone's side is its capture and the transfer).
func BenchmarkRawToPNG(b *testing.B) {
	p := newPhone(b, sim.Config{})
	img, err := p.Framebuffer()
	if err != nil {
		b.Fatal(err)
	}
	frame := rawFrame(img.Rect.Dx(), img.Rect.Dy(), rawRGBA8888, 16, [4]byte{})[:16]
	frame = append(frame, img.Pix...)
	for b.Loop() {
		im, _, _, err := decodeRaw(frame)
		if err != nil {
			b.Fatal(err)
		}
		var out bytes.Buffer
		if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&out, im); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/frame")
}
