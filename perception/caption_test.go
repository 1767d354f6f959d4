package perception

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"strings"
	"sync/atomic"
	"testing"
)

func TestIconDescriber(t *testing.T) {
	icon := func(x, y int) string {
		return nodeXML(map[string]string{"class": "android.widget.ImageButton", "clickable": "true",
			"bounds": fmt.Sprintf("[%d,%d][%d,%d]", x, y, x+100, y+100)})
	}
	xml := hierarchy(nodeXML(nil, icon(0, 0), icon(200, 0), icon(400, 0),
		nodeXML(map[string]string{"class": "android.widget.Button", "clickable": "true", "text": "OK", "bounds": "[0,500][300,600]"})))
	s := mustParse(t, xml)
	// Half-size screenshot: icons 1 and 3 look the same (red), icon 2 is blue.
	shot := image.NewRGBA(image.Rect(0, 0, 540, 1200))
	draw.Draw(shot, image.Rect(0, 0, 50, 50), image.NewUniform(color.RGBA{255, 0, 0, 255}), image.Point{}, draw.Src)
	draw.Draw(shot, image.Rect(100, 0, 150, 50), image.NewUniform(color.RGBA{0, 0, 255, 255}), image.Point{}, draw.Src)
	draw.Draw(shot, image.Rect(200, 0, 250, 50), image.NewUniform(color.RGBA{255, 0, 0, 255}), image.Point{}, draw.Src)

	var calls atomic.Int32
	fn := func(ctx context.Context, img image.Image) (string, error) {
		calls.Add(1)
		if img.Bounds().Dx() != 50 || img.Bounds().Dy() != 50 {
			return "", fmt.Errorf("crop %v, want 50x50", img.Bounds())
		}
		if c := img.At(25, 25).(color.RGBA); c.R == 255 {
			return "record", nil
		}
		return "settings", nil
	}
	d, err := newIconDescriber(fn, 2)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Describe(t.Context(), s, shot); err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 2 || d.Len() != 2 {
		t.Errorf("captioner called %d times, cache %d; want 2 and 2", calls.Load(), d.Len())
	}
	want := []string{"record", "settings", "record", ""}
	for i, e := range s.Elements {
		if e.Caption != want[i] {
			t.Errorf("[%d] caption %q, want %q", e.Index, e.Caption, want[i])
		}
	}
	if !strings.Contains(s.Text(), `- [2] button "settings"`) {
		t.Errorf("caption not in the text form:\n%s", s.Text())
	}
	// A fresh parse of the same screen is served from the cache.
	s2 := mustParse(t, xml)
	if err := d.Describe(t.Context(), s2, shot); err != nil || calls.Load() != 2 || s2.Elements[1].Caption != "settings" {
		t.Errorf("cache not used: calls=%d err=%v caption=%q", calls.Load(), err, s2.Elements[1].Caption)
	}

	// Failures are reported, not cached, and do not stop the others.
	boom := errors.New("model down")
	d2, _ := newIconDescriber(func(ctx context.Context, img image.Image) (string, error) {
		if c := img.At(25, 25).(color.RGBA); c.B == 255 {
			return "", boom
		}
		return "record", nil
	}, 0)
	s3 := mustParse(t, xml)
	if err := d2.Describe(t.Context(), s3, shot); !errors.Is(err, boom) {
		t.Errorf("Describe error = %v, want %v", err, boom)
	}
	if s3.Elements[0].Caption != "record" || s3.Elements[1].Caption != "" || d2.Len() != 1 {
		t.Errorf("after a failure: %q %q cache=%d", s3.Elements[0].Caption, s3.Elements[1].Caption, d2.Len())
	}
	if _, err := newIconDescriber(nil, 1); err == nil {
		t.Error("nil captioner accepted")
	}
}
