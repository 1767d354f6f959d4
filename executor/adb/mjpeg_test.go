package adb

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"log/slog"
	"math"
	"strings"
	"testing"
	"time"

	"golang.org/x/image/draw"

	"github.com/fairy-go/fairy/sim"
)

// TestPictureJPEG: on the resident server a picture is a JPEG frame of its MJPEG stream,
// scaled on the phone so that its long side is ShotLongEdge, showing the screen as it is
// when asked (after a key press: the new screen, not the old one); no screencap and no
// PNG screenshot run for it, and Screenshot stays the full-size PNG.
func TestPictureJPEG(t *testing.T) {
	for _, f := range faces {
		t.Run(f.name, func(t *testing.T) {
			ctx := t.Context()
			p := newPhone(t, sim.Config{UIServer: true})
			d := f.open(t, p, Config{})
			openShopSearch(t, d)
			before, err := p.Framebuffer()
			if err != nil {
				t.Fatal(err)
			}
			p.commands()
			pic, err := d.Picture(ctx)
			if err != nil {
				t.Fatalf("Picture: %v", err)
			}
			if !bytes.HasPrefix(pic, []byte{0xff, 0xd8}) {
				t.Fatalf("Picture is not a JPEG: starts % x", pic[:min(len(pic), 8)])
			}
			cfg, err := jpeg.DecodeConfig(bytes.NewReader(pic))
			if err != nil {
				t.Fatal(err)
			}
			fb := before.Bounds()
			if long := max(cfg.Width, cfg.Height); long < ShotLongEdge || long > ShotLongEdge+ShotLongEdge/50 || cfg.Width >= fb.Dx() {
				t.Errorf("picture %dx%d of a %dx%d screen, want its long side ShotLongEdge (%d)", cfg.Width, cfg.Height, fb.Dx(), fb.Dy(), ShotLongEdge)
			}
			if !jpegShows(t, pic, before) {
				t.Error("the JPEG picture does not show the screen")
			}
			if clients, frames := p.MJPEGStreams(); clients != 1 || frames < 2 {
				t.Errorf("MJPEG stream served %d clients, %d frames; want 1 client, 2 frames or more", clients, frames)
			}
			if n := p.UIServerRequests()["GET screenshot"]; n != 0 {
				t.Errorf("%d PNG screenshots from the server for a picture", n)
			}
			for _, c := range p.commands() {
				if strings.Contains(c, "screencap") {
					t.Errorf("a picture ran %q", c)
				}
			}

			// The screen changes: the next picture is the new screen.
			if err := d.Key(ctx, "home"); err != nil {
				t.Fatal(err)
			}
			after, err := p.Framebuffer()
			if err != nil {
				t.Fatal(err)
			}
			pic, err = d.Picture(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !jpegShows(t, pic, after) || jpegShows(t, pic, before) {
				t.Error("the picture after a key press is not the new screen")
			}

			full, err := d.Screenshot(ctx)
			if err != nil || !bytes.HasPrefix(full, pngMagic) {
				t.Fatalf("Screenshot = %d bytes, %v; want a PNG", len(full), err)
			}
			// Pixels to read: the pictures are the full-size PNG until said otherwise.
			d.WantPixels(true)
			if pic, err := d.Picture(ctx); err != nil || !bytes.HasPrefix(pic, pngMagic) || !samePicture(t, pic, p) {
				t.Errorf("Picture with pixels wanted = %d bytes, %v; want the PNG screenshot", len(pic), err)
			}
			d.WantPixels(false)
			if pic, err := d.Picture(ctx); err != nil || !bytes.HasPrefix(pic, []byte{0xff, 0xd8}) {
				t.Errorf("Picture without pixels wanted = %d bytes, %v; want a JPEG", len(pic), err)
			}
			if c, err := png.DecodeConfig(bytes.NewReader(full)); err != nil || c.Width != fb.Dx() || c.Height != fb.Dy() {
				t.Errorf("Screenshot %dx%d (%v), want the screen's %dx%d", c.Width, c.Height, err, fb.Dx(), fb.Dy())
			}
		})
	}
}

// TestPictureJPEGFallback: a server whose MJPEG stream fails gives PNG pictures from its
// /screenshot, said once with one warning; the stream is not tried again.
func TestPictureJPEGFallback(t *testing.T) {
	ctx := t.Context()
	p := newPhone(t, sim.Config{UIServer: true, Faults: sim.Faults{NoMJPEG: true}})
	logs := &logLines{}
	d := faces[1].open(t, p, Config{Logger: slog.New(logs)})
	for i := range 3 {
		pic, err := d.Picture(ctx)
		if err != nil {
			t.Fatalf("Picture %d: %v", i+1, err)
		}
		if !bytes.HasPrefix(pic, pngMagic) || !samePicture(t, pic, p) {
			t.Fatalf("Picture %d without the stream is not the PNG screenshot", i+1)
		}
	}
	if n := p.UIServerRequests()["GET screenshot"]; n != 3 {
		t.Errorf("%d PNG screenshots from the server, want 3", n)
	}
	if n := logs.count("WARN adb: the resident UI server's MJPEG stream failed"); n != 1 || logs.count("WARN") != 1 {
		t.Errorf("warnings %q, want one about the MJPEG stream", logs.lines)
	}
	if d.ui.mjpeg.Load() {
		t.Error("the stream is still tried after it failed")
	}
	// A server started again keeps the PNG pictures: the stream failed on this phone.
	p.StopUIServer()
	if _, err := d.Dump(ctx); err != nil {
		t.Fatal(err)
	}
	if pic, err := d.Picture(ctx); err != nil || !bytes.HasPrefix(pic, pngMagic) {
		t.Errorf("Picture after a restart: %d bytes, %v; want a PNG", len(pic), err)
	}
	if logs.count("WARN") != 1 {
		t.Errorf("warnings %q, want one", logs.lines)
	}
}

// TestPictureConfigPNG: ShotLongEdge < 0 keeps pictures PNG on the server; the classic
// path's pictures are PNG.
func TestPictureConfigPNG(t *testing.T) {
	ctx := t.Context()
	for _, cfg := range []Config{{ShotLongEdge: -1}, {NoUIServer: true}} {
		p := newPhone(t, sim.Config{UIServer: true})
		d := faces[1].open(t, p, cfg)
		pic, err := d.Picture(ctx)
		if err != nil || !bytes.HasPrefix(pic, pngMagic) || !samePicture(t, pic, p) {
			t.Errorf("%+v: Picture = %d bytes, %v; want the PNG screenshot", cfg, len(pic), err)
		}
		if clients, _ := p.MJPEGStreams(); clients != 0 {
			t.Errorf("%+v: the MJPEG stream served %d clients", cfg, clients)
		}
	}
}

// TestReadMJPEGPart: the stream's parts are read with or without the HTTP header before
// them (the server writes frames to a client whose request it has not read yet without
// one); a part that is no JPEG, or has no length, is an error.
func TestReadMJPEGPart(t *testing.T) {
	jpg := encodeJPEG(t, uniform(40, 80, color.RGBA{200, 30, 30, 255}))
	part := func(b []byte) string {
		return fmt.Sprintf("--BoundaryString\r\nContent-type: image/jpg\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", len(b), b)
	}
	header := "HTTP/1.0 200 OK\r\nServer: Android Screenshot Socket Server\r\nContent-Type: multipart/x-mixed-replace; boundary=--BoundaryString\r\n\r\n"
	for name, stream := range map[string]string{"header": header + part(jpg) + part(jpg), "no header": part(jpg) + part(jpg)} {
		br := bufio.NewReader(strings.NewReader(stream))
		for i := range 2 {
			got, err := readMJPEGPart(br)
			if err != nil || !bytes.Equal(got, jpg) {
				t.Errorf("%s: part %d = %d bytes, %v; want the JPEG (%d bytes)", name, i+1, len(got), err, len(jpg))
			}
		}
	}
	for name, stream := range map[string]string{
		"not a JPEG": part([]byte("\x89PNG\r\n\x1a\nxxxx")),
		"no length":  "--BoundaryString\r\nContent-type: image/jpg\r\n\r\n" + string(jpg),
		"cut":        part(jpg)[:100],
		"no parts":   header + strings.Repeat("x", 70<<10),
	} {
		if _, err := readMJPEGPart(bufio.NewReader(strings.NewReader(stream))); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestCheckJPEG: an all-black JPEG frame (a secure window) is told from a drawn one.
func TestCheckJPEG(t *testing.T) {
	black, err := checkJPEG(encodeJPEG(t, uniform(540, 1200, color.RGBA{0, 0, 0, 255})))
	if err != nil || !black {
		t.Errorf("black frame: black %v, %v", black, err)
	}
	img := uniform(540, 1200, color.RGBA{0, 0, 0, 255})
	img.Set(270, 600, color.White)
	if black, err := checkJPEG(encodeJPEG(t, img)); err != nil || black {
		t.Errorf("frame with a white dot: black %v, %v", black, err)
	}
	if _, err := checkJPEG([]byte{0xff, 0xd8, 0xff, 0x00}); err == nil {
		t.Error("a broken JPEG checked without an error")
	}
}

func TestMJPEGScale(t *testing.T) {
	for _, c := range []struct{ w, h, want int }{{1080, 2400, 54}, {2400, 1080, 54}, {720, 1280, 100}, {1440, 3120, 42}, {0, 0, 100}} {
		if got := mjpegScale(c.w, c.h); got != c.want {
			t.Errorf("mjpegScale(%d, %d) = %d, want %d", c.w, c.h, got, c.want)
		}
	}
}

// BenchmarkPicture compares a step's picture on the resident server (pixel profile,
// through the real adb server): the full-size PNG of /screenshot and the JPEG frame of
// the MJPEG stream, by wall time and by bytes.
func BenchmarkPicture(b *testing.B) {
	pixel, err := sim.ParseProfile("pixel")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		edge int
	}{{"png", -1}, {"jpeg", 0}} {
		b.Run(c.name, func(b *testing.B) {
			p := newPhone(b, sim.Config{UIServer: true, Profile: pixel})
			srv, serial := realADB(b, p)
			d := openDevice(b, Config{Port: srv.Port, Serial: serial, ShotLongEdge: c.edge, Sleep: sleepCtx})
			ctx := context.Background()
			if _, err := d.Dump(ctx); err != nil { // the server and its session
				b.Fatal(err)
			}
			size := 0
			start := time.Now()
			for b.Loop() {
				pic, err := d.Picture(ctx)
				if err != nil {
					b.Fatal(err)
				}
				size = len(pic)
			}
			b.ReportMetric(float64(time.Since(start).Milliseconds())/float64(b.N), "ms/picture")
			b.ReportMetric(float64(size), "bytes/picture")
		})
	}
}

// jpegShows reports whether the JPEG picture b shows the framebuffer fb, scaled as the
// stream scales it: every 8×8 block's mean luma within 10 levels (6 at most seen) (a JPEG keeps
// its blocks' means; another screen moves some by far more).
func jpegShows(t *testing.T, b []byte, fb *image.RGBA) bool {
	t.Helper()
	got, err := jpeg.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not a JPEG: %v", err)
	}
	gb := got.Bounds()
	want := image.NewRGBA(gb)
	draw.NearestNeighbor.Scale(want, gb, fb, fb.Bounds(), draw.Src, nil)
	mean := func(img image.Image, x0, y0 int) float64 {
		sum := 0.0
		for y := y0; y < y0+8; y++ {
			for x := x0; x < x0+8; x++ {
				r, g, bl, _ := img.At(x, y).RGBA()
				sum += (0.299*float64(r) + 0.587*float64(g) + 0.114*float64(bl)) / 257 // luma, which JPEG does not subsample
			}
		}
		return sum / 64
	}
	worst := 0.0
	for y := gb.Min.Y; y+8 <= gb.Max.Y; y += 8 {
		for x := gb.Min.X; x+8 <= gb.Max.X; x += 8 {
			worst = max(worst, math.Abs(mean(got, x, y)-mean(want, x, y)))
		}
	}
	return worst <= 10
}

func uniform(w, h int, c color.RGBA) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.NewUniform(c), image.Point{}, draw.Src)
	return img
}

func encodeJPEG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 80}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestFrames (issue 40, the live page's screen): Frames follows the resident server's
// MJPEG stream — JPEG frames, one after another, the screen's change after a key press
// among them — until its callback says stop; a phone without the server answers at once
// that it has no stream.
func TestFrames(t *testing.T) {
	ctx := t.Context()
	p := newPhone(t, sim.Config{UIServer: true})
	d := faces[1].open(t, p, Config{})
	openShopSearch(t, d)
	stop := errors.New("enough")
	var frames [][]byte
	keyed := false
	err := d.Frames(ctx, func(jpg []byte) error {
		if _, err := jpeg.DecodeConfig(bytes.NewReader(jpg)); err != nil {
			t.Errorf("frame %d is no JPEG: %v", len(frames)+1, err)
		}
		frames = append(frames, jpg)
		if len(frames) == 2 && !keyed {
			keyed = true
			if err := d.Key(ctx, "KEYCODE_BACK"); err != nil {
				return err
			}
		}
		if len(frames) >= 6 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) {
		t.Fatalf("Frames: %v, want the callback's error", err)
	}
	if bytes.Equal(frames[0], frames[len(frames)-1]) {
		t.Errorf("the frames after a key press are the frame before it")
	}

	q := newPhone(t, sim.Config{})
	c := faces[1].open(t, q, Config{NoUIServer: true})
	called := false
	if err := c.Frames(ctx, func([]byte) error { called = true; return nil }); err == nil || called {
		t.Errorf("Frames on a phone without the resident server: %v (called %v), want an error at once", err, called)
	}
}
