package openai

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/llm"
)

// Screenshots in a request: sized and encoded for the model, and an endpoint that refuses
// array content.

func pngImage(t *testing.T, w, h int, noise bool) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	seed := uint32(1)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.RGBA{uint8(x), uint8(y), 128, 255}
			if noise {
				seed = seed*1664525 + 1013904223
				c = color.RGBA{uint8(seed >> 24), uint8(seed >> 16), uint8(seed >> 8), 255}
			}
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// parts decodes an array content.
type part struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	ImageURL *struct {
		URL string `json:"url"`
	} `json:"image_url"`
}

func TestImages(t *testing.T) {
	small := pngImage(t, 40, 30, false)
	big := pngImage(t, 600, 600, true) // ~1 MB of noise
	const limit = 150 << 10
	tests := []struct {
		name     string
		img      llm.Image
		wantMIME string
		same     bool
	}{
		{"small png kept", llm.Image{MIME: "image/png", Data: small}, "image/png", true},
		{"mime sniffed", llm.Image{Data: small}, "image/png", true},
		{"big png downscaled to jpeg", llm.Image{MIME: "image/png", Data: big}, "image/jpeg", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEndpoint(t, func(int, wireReq) reply { return reply{content: `{"action":"tap","index":1}`} })
			h := newClient(t, e.srv.URL, func(c *Config) { c.MaxImageBytes = limit })
			req := deciderRequest("look")
			req.Messages[0].Images = []llm.Image{tt.img}
			if _, err := h.c.Generate(t.Context(), req); err != nil {
				t.Fatalf("Generate: %v", err)
			}
			var parts []part
			if err := json.Unmarshal(e.call(0).Messages[1].Content, &parts); err != nil {
				t.Fatalf("content is not an array of parts: %v", err)
			}
			if len(parts) != 2 || parts[0].Text != "look" || parts[1].ImageURL == nil {
				t.Fatalf("parts = %+v", parts)
			}
			prefix := "data:" + tt.wantMIME + ";base64,"
			url := parts[1].ImageURL.URL
			if !strings.HasPrefix(url, prefix) {
				t.Fatalf("url starts %q, want %q", url[:min(40, len(url))], prefix)
			}
			data, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(url, prefix))
			if err != nil {
				t.Fatal(err)
			}
			if len(data) > limit {
				t.Errorf("image %d bytes, over the %d limit", len(data), limit)
			}
			if tt.same != bytes.Equal(data, tt.img.Data) {
				t.Errorf("image kept = %v, want %v", !tt.same, tt.same)
			}
			if _, _, err := image.Decode(bytes.NewReader(data)); err != nil {
				t.Errorf("sent image does not decode: %v", err)
			}
		})
	}
	t.Run("undecodable and too big", func(t *testing.T) {
		e := newEndpoint(t, func(int, wireReq) reply { return reply{content: "{}"} })
		h := newClient(t, e.srv.URL, func(c *Config) { c.MaxImageBytes = 100 })
		req := deciderRequest("look")
		req.Messages[0].Images = []llm.Image{{MIME: "image/png", Data: bytes.Repeat([]byte("x"), 1000)}}
		_, err := h.c.Generate(t.Context(), req)
		if !errors.Is(err, errImageTooLarge) || e.n() != 0 {
			t.Errorf("err = %v after %d calls, want ErrImageTooLarge before any call", err, e.n())
		}
	})
}

func TestArrayContentRejected(t *testing.T) {
	e := newEndpoint(t, func(_ int, r wireReq) reply {
		for _, m := range r.Messages {
			if len(m.Content) > 0 && m.Content[0] == '[' {
				return apiError(400, "messages[1].content: Input should be a valid string, got array")
			}
		}
		return reply{content: `{"action":"tap","index":1}`}
	})
	h := newClient(t, e.srv.URL, nil)
	req := deciderRequest("look")
	req.Messages[0].Images = []llm.Image{{MIME: "image/png", Data: pngImage(t, 8, 8, false)}}
	for i := range 2 {
		if _, err := h.c.Generate(t.Context(), req); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	if e.n() != 3 {
		t.Fatalf("calls = %d, want 3 (rejected, fallback, then plain from the start)", e.n())
	}
	for _, i := range []int{1, 2} {
		if got := e.call(i).last(); !strings.HasPrefix(got, "look") || !strings.Contains(got, "image(s) omitted") {
			t.Errorf("call %d content = %q, want plain text with a note", i, got)
		}
	}
	if !strings.Contains(h.logs.String(), "plain text") {
		t.Errorf("fallback not logged:\n%s", h.logs)
	}

	// TextOnly from the config sends strings at once.
	e2 := newEndpoint(t, func(int, wireReq) reply { return reply{content: `{"action":"tap","index":1}`} })
	h2 := newClient(t, e2.srv.URL, func(c *Config) { c.TextOnly = true })
	if _, err := h2.c.Generate(t.Context(), req); err != nil {
		t.Fatal(err)
	}
	if got := e2.call(0).last(); !strings.HasPrefix(got, "look") {
		t.Errorf("content = %q", got)
	}
}
