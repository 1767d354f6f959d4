package perception

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"testing"
)

// TestImageSizeFit: the sizes match qwen_vl_utils' smart_resize (values computed with its
// Python code) and the long-edge cap keeps the aspect.
func TestImageSizeFit(t *testing.T) {
	tests := []struct {
		name         string
		s            ImageSize
		w, h         int
		wantW, wantH int
	}{
		{"UI-TARS-1.5 bounds: rounded to 28", ImageSize{Factor: 28, MinPixels: 100 * 28 * 28, MaxPixels: 16384 * 28 * 28}, 1080, 2400, 1092, 2408},
		{"1280 tokens: shrunk", ImageSize{Factor: 28, MinPixels: 3136, MaxPixels: 1280 * 28 * 28}, 1080, 2400, 672, 1484},
		{"UI-TARS-1.0 bounds", ImageSize{Factor: 28, MinPixels: 3136, MaxPixels: 2700 * 28 * 28}, 1080, 2400, 952, 2156},
		{"too small: grown", ImageSize{Factor: 28, MinPixels: 100 * 28 * 28, MaxPixels: 16384 * 28 * 28}, 50, 100, 224, 420},
		{"long edge", ImageSize{LongEdge: 1280}, 1080, 2400, 576, 1280},
		{"long edge, small already", ImageSize{LongEdge: 1280}, 540, 1200, 540, 1200},
		{"zero keeps", ImageSize{}, 1080, 2400, 1080, 2400},
	}
	for _, tc := range tests {
		if w, h := tc.s.Fit(tc.w, tc.h); w != tc.wantW || h != tc.wantH {
			t.Errorf("%s: Fit(%d, %d) = %dx%d, want %dx%d", tc.name, tc.w, tc.h, w, h, tc.wantW, tc.wantH)
		}
	}
}

// TestResizePicture: a full PNG and a half-size JPEG (the resident server's MJPEG frame)
// come out at the same size, with a mark at the same place.
func TestResizePicture(t *testing.T) {
	full := image.NewRGBA(image.Rect(0, 0, 1080, 2400))
	half := image.NewRGBA(image.Rect(0, 0, 540, 1200))
	for y := 0; y < 2400; y++ {
		for x := 0; x < 1080; x++ {
			c := color.RGBA{255, 255, 255, 255}
			if x >= 540 && x < 740 && y >= 1800 && y < 2000 {
				c = color.RGBA{200, 0, 0, 255}
			}
			full.Set(x, y, c)
			half.Set(x/2, y/2, c)
		}
	}
	var p, j bytes.Buffer
	if err := png.Encode(&p, full); err != nil {
		t.Fatal(err)
	}
	if err := jpeg.Encode(&j, half, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"png": p.Bytes(), "mjpeg": j.Bytes()} {
		out, err := ResizePicture(data, 672, 1484)
		if err != nil {
			t.Fatal(err)
		}
		img, err := jpeg.Decode(bytes.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		if b := img.Bounds(); b.Dx() != 672 || b.Dy() != 1484 {
			t.Fatalf("%s: %dx%d, want 672x1484", name, b.Dx(), b.Dy())
		}
		// The red square's centre (640, 1900) on the screen is (398, 1175) in the picture.
		if r, g, _, _ := img.At(398, 1175).RGBA(); r < 0x9000 || g > 0x4000 {
			t.Errorf("%s: the mark is not where the scale puts it", name)
		}
		if r, g, _, _ := img.At(200, 300).RGBA(); r < 0xe000 || g < 0xe000 {
			t.Errorf("%s: white is not white", name)
		}
	}
	if _, err := ResizePicture([]byte("not a picture"), 10, 10); err == nil {
		t.Error("garbage resized without an error")
	}
	if _, err := ResizePicture(p.Bytes(), 0, 10); err == nil {
		t.Error("a zero size resized without an error")
	}
}
