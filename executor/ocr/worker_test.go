package ocr

import (
	"context"
	"errors"
	"image"
	"testing"

	xdraw "golang.org/x/image/draw"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"github.com/fairy-go/fairy/internal/testenv"
	"github.com/fairy-go/fairy/perception"
)

// TestKeptPrograms: the tesseract program of a language is kept between reads; one killed
// while idle is replaced, a cancelled read ends its program and the next read starts
// another, and after Close reads fail with ErrClosed.
func TestKeptPrograms(t *testing.T) {
	testenv.MustHaveFullTier(t, "starts tesseract")
	tess, err := New(context.Background(), Config{Languages: []string{"eng"}})
	if err != nil {
		if !errors.Is(err, ErrNotInstalled) {
			t.Fatal(err)
		}
		testenv.Missing(t, "%v", err)
	}
	defer tess.Close()
	img := textImage("PAY NOW")
	read := func(ctx context.Context) (string, error) {
		ws, err := tess.Read(ctx, img, perception.Hint{Script: perception.Alphabetic})
		s := ""
		for _, w := range ws {
			s += w.Text
		}
		return s, err
	}
	if s, err := read(context.Background()); err != nil || s != "PAYNOW" {
		t.Fatalf("first read %q, %v; want PAYNOW", s, err)
	}
	tess.mu.Lock()
	kept := tess.idle["eng"]
	tess.mu.Unlock()
	if len(kept) != 1 {
		t.Fatalf("%d eng programs kept, want 1", len(kept))
	}
	pid := kept[0].cmd.Process.Pid
	if s, err := read(context.Background()); err != nil || s != "PAYNOW" || tess.idle["eng"][0].cmd.Process.Pid != pid {
		t.Fatalf("second read %q, %v, or another program; want PAYNOW on the kept one", s, err)
	}
	kept[0].cmd.Process.Kill()
	if s, err := read(context.Background()); err != nil || s != "PAYNOW" {
		t.Fatalf("read after the kept program was killed: %q, %v; want it replaced", s, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := read(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled read: %v, want context.Canceled", err)
	}
	if s, err := read(context.Background()); err != nil || s != "PAYNOW" {
		t.Fatalf("read after a cancelled one: %q, %v", s, err)
	}
	tess.Close()
	if _, err := read(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("read after Close: %v, want ErrClosed", err)
	}
}

// textImage draws s dark on white, scaled up 4× (smoothly) to a height tesseract reads.
func textImage(s string) *image.Gray {
	small := image.NewGray(image.Rect(0, 0, 7*len(s)+8, 20))
	for i := range small.Pix {
		small.Pix[i] = 255
	}
	d := font.Drawer{Dst: small, Src: image.Black, Face: basicfont.Face7x13, Dot: fixed.P(4, 15)}
	d.DrawString(s)
	big := image.NewGray(image.Rect(0, 0, small.Rect.Dx()*4, small.Rect.Dy()*4))
	xdraw.CatmullRom.Scale(big, big.Rect, small, small.Rect, xdraw.Src, nil)
	return big
}
