package executor

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"strings"
	"sync"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/llm"
)

// keyboardPhone is the fake phone that also answers whether the keyboard is up, counting
// how often it is asked.
type keyboardPhone struct {
	*fakePhone
	mu    sync.Mutex
	asked int
}

func (p *keyboardPhone) KeyboardShown(context.Context) (bool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.asked++
	return false, nil
}

// TestKeyboardAskedOnlyWithTextField: the executor asks the device about the keyboard
// (dumpsys input_method on the classic path) only on a screen with a field to type in;
// a page without one has no keyboard that matters.
func TestKeyboardAskedOnlyWithTextField(t *testing.T) {
	phone := &keyboardPhone{fakePhone: &fakePhone{pkg: "com.fairy.notes", cur: "list", screens: map[string][]fakeNode{
		"list":  {{kind: "button", text: "New note", to: "edit"}},
		"edit":  {{kind: "edit", text: ""}, {kind: "button", text: "Save", to: "saved"}},
		"saved": {{kind: "text", text: "Saved"}},
	}}}
	m := &fakeModel{fn: map[llm.Role]func(int, string) string{
		llm.RoleReplanner: func(_ int, u string) string {
			if strings.Contains(u, `"Saved"`) {
				return plan("", "Finished", 0, "")
			}
			return plan("", "Save a new note", 0, "")
		},
		llm.RoleDecider: func(_ int, u string) string {
			if i := index(u, "New note"); i > 0 {
				return tap(i)
			}
			return tap(index(u, "Save"))
		},
		RoleChecker: func(int, string) string { return `{"passed":true,"reason":"saved"}` },
	}}
	h := newHarness(t, phone.fakePhone, m, nil, func(c *Config) { c.Device = phone })
	if res := h.run(t, "Save a new note"); res.Outcome != event.OutcomeDone {
		t.Fatalf("outcome %s: %s", res.Outcome, res.Reason)
	}
	if n := len(find[event.ScreenPerceived](h)); n != 3 {
		t.Fatalf("%d screens perceived, want 3 (list, edit, saved)", n)
	}
	if phone.asked != 1 {
		t.Errorf("the keyboard was asked about %d times, want once (the one page with a text field)", phone.asked)
	}
}

// picturePhone is the fake phone with a device's two kinds of picture: Picture, a small
// JPEG for a model (the resident server's MJPEG frame), and Screenshot, the PNG.
type picturePhone struct {
	*fakePhone
	jpg      []byte
	pictures int
}

func (p *picturePhone) Picture(context.Context) ([]byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pictures++
	return p.jpg, nil
}

// imageModel is the fake model that notes the type of every picture it is sent.
type imageModel struct {
	*fakeModel
	mu    sync.Mutex
	mimes map[string]int
}

func (m *imageModel) Generate(ctx context.Context, req llm.Request) (llm.Response, error) {
	m.mu.Lock()
	for _, msg := range req.Messages {
		for _, img := range msg.Images {
			m.mimes[img.MIME]++
		}
	}
	m.mu.Unlock()
	return m.fakeModel.Generate(ctx, req)
}

// TestPictureForModel: a device with pictures for a model (Picture) gives the step its
// picture that way, and the model is sent it as what it is, a JPEG; the PNG screenshot is
// not taken.
func TestPictureForModel(t *testing.T) {
	var buf bytes.Buffer
	img := image.NewRGBA(image.Rect(0, 0, 54, 120))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.RGBA{240, 240, 240, 255}), image.Point{}, draw.Src)
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 80}); err != nil {
		t.Fatal(err)
	}
	phone := &picturePhone{jpg: buf.Bytes(), fakePhone: &fakePhone{pkg: "com.fairy.notes", cur: "list", screens: map[string][]fakeNode{
		"list":  {{kind: "button", text: "New note", to: "saved"}},
		"saved": {{kind: "text", text: "Saved"}},
	}}}
	m := &imageModel{mimes: map[string]int{}, fakeModel: &fakeModel{fn: map[llm.Role]func(int, string) string{
		llm.RoleReplanner: func(_ int, u string) string {
			if strings.Contains(u, `"Saved"`) {
				return plan("", "Finished", 0, "")
			}
			return plan("", "Save a new note", 0, "")
		},
		llm.RoleDecider: func(_ int, u string) string { return tap(index(u, "New note")) },
		RoleChecker:     func(int, string) string { return `{"passed":true,"reason":"saved"}` },
	}}}
	h := newHarness(t, phone.fakePhone, m.fakeModel, nil, func(c *Config) {
		c.Device, c.TextOnly = phone, false
		c.Model = Metered{Model: m, Meter: c.Meter, Bus: c.Bus}
	})
	if res := h.run(t, "Save a new note"); res.Outcome != event.OutcomeDone {
		t.Fatalf("outcome %s: %s", res.Outcome, res.Reason)
	}
	if phone.pictures == 0 || phone.shots != 0 {
		t.Errorf("%d pictures and %d PNG screenshots taken, want pictures only", phone.pictures, phone.shots)
	}
	if m.mimes["image/jpeg"] == 0 || m.mimes["image/png"] != 0 {
		t.Errorf("the model was sent pictures of types %v, want image/jpeg", m.mimes)
	}
}

// TestIsBlackJPEG: a secure window's black frame is told as black in a JPEG too.
func TestIsBlackJPEG(t *testing.T) {
	enc := func(c color.RGBA, dot bool) []byte {
		img := image.NewRGBA(image.Rect(0, 0, 540, 1200))
		draw.Draw(img, img.Bounds(), image.NewUniform(c), image.Point{}, draw.Src)
		if dot {
			draw.Draw(img, image.Rect(200, 500, 260, 560), image.NewUniform(color.White), image.Point{}, draw.Src)
		}
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 80}); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	if !isBlack(enc(color.RGBA{0, 0, 0, 255}, false)) {
		t.Error("a black JPEG frame is not black")
	}
	if isBlack(enc(color.RGBA{0, 0, 0, 255}, true)) || isBlack(enc(color.RGBA{30, 30, 30, 255}, false)) {
		t.Error("a JPEG with something drawn is black")
	}
	if isBlack([]byte{0xff, 0xd8, 0xff}) {
		t.Error("a broken JPEG is black")
	}
}
