package sim

import (
	"image"
	"image/color"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Icons — a toolbar's delete and edit, a send button, the keyboard's shift, backspace and
// enter — are drawn from Google's Material Icons font, as Android apps draw them (the
// vector drawables of the same set), read from the machine's font directory (Debian's
// fonts-material-design-icons-iconfont; scripts/test.sh installs it). Without the font an
// icon is drawn as the first letter of its description (a "D" for Delete): readable, never
// the hollow box of a missing glyph; the tree carries the description either way.

// iconFontFile is the icon font under fontRoot.
const iconFontFile = "truetype/material-design-icons-iconfont/MaterialIcons-Regular.ttf"

// iconCodes are the code points of the Material Icons this phone draws, by their names in
// the font's own list (material-design-icons.scss of the Debian package).
var iconCodes = map[string]rune{
	"add":               0xe145,
	"remove":            0xe15b,
	"arrow_back":        0xe5c4,
	"close":             0xe5cd,
	"delete":            0xe872,
	"edit":              0xe3c9,
	"send":              0xe163,
	"search":            0xe8b6,
	"call":              0xe0b0,
	"select_all":        0xe162,
	"more_vert":         0xe5d4,
	"settings":          0xe8b8,
	"share":             0xe80d,
	"refresh":           0xe5d5,
	"check":             0xe5ca,
	"keyboard_capslock": 0xe318, // the keyboard's shift
	"backspace":         0xe14a,
	"keyboard_return":   0xe31b,
}

// iconName is the Material icon an icon button with description desc shows, "" when none
// fits (the button then shows the description's first letter).
func iconName(desc string) string {
	// Latin words match whole words ("Address book" shows no plus, "Feedback" no arrow);
	// Chinese ones as substrings.
	d := " " + strings.Join(strings.FieldsFunc(strings.ToLower(desc), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), " ") + " "
	for _, k := range []struct{ word, icon string }{
		{"增加", "add"}, {"减少", "remove"},
		{"search", "search"}, {"delete", "delete"}, {"remove", "delete"}, {"send", "send"},
		{"edit", "edit"}, {"call", "call"}, {"select", "select_all"}, {"share", "share"},
		{"settings", "settings"}, {"refresh", "refresh"}, {"more options", "more_vert"},
		{"close", "close"}, {"cancel", "close"},
		{"new", "add"}, {"add", "add"}, {"create", "add"}, {"start", "add"},
		{"back", "arrow_back"}, {"navigate up", "arrow_back"},
	} {
		w := k.word
		if w[0] < utf8.RuneSelf {
			w = " " + w + " "
		}
		if strings.Contains(d, w) {
			return k.icon
		}
	}
	return ""
}

// iconLetter is what an icon shows without its icon: its description's first letter.
func iconLetter(desc string) string {
	for _, r := range desc {
		return strings.ToUpper(string(r))
	}
	return "•"
}

// loadIconFont reads the icon font; nil when it is missing or unreadable.
func loadIconFont() *opentype.Font {
	b := readFont(filepath.Join(fontRoot, iconFontFile))
	if b == nil {
		return nil
	}
	f, err := opentype.Parse(b)
	if err != nil {
		return nil
	}
	return f
}

// hasIcons reports whether the icon font is there and draws every icon of iconCodes.
func (fs *fontSet) hasIcons() bool {
	f := fs.styled(24, styleIcon)
	if f == nil {
		return false
	}
	for _, r := range iconCodes {
		if !hasGlyph(f, r) {
			return false
		}
	}
	return true
}

// icon draws the Material icon name, px pixels tall, centred in box; false when it cannot
// (no font, no such icon), so the caller draws the fallback.
func (r *renderer) icon(name string, box image.Rectangle, px int, c color.RGBA) bool {
	code, ok := iconCodes[name]
	if !ok {
		return false
	}
	face := r.p.fonts.styled(px, styleIcon)
	if face == nil || !hasGlyph(face, code) {
		return false
	}
	gb, _, ok := face.GlyphBounds(code)
	if !ok {
		return false
	}
	// Centre the glyph's ink box in box.
	cx, cy := fixed.I(box.Min.X+box.Max.X)/2, fixed.I(box.Min.Y+box.Max.Y)/2
	dot := fixed.Point26_6{X: cx - (gb.Min.X+gb.Max.X)/2, Y: cy - (gb.Min.Y+gb.Max.Y)/2}
	clip := r.img.SubImage(box).(*image.RGBA)
	d := &font.Drawer{Dst: clip, Src: image.NewUniform(c), Face: face, Dot: dot}
	d.DrawString(string(code))
	return true
}

// drawIcon draws an icon button's picture: the icon, else the letter of its description.
func (r *renderer) drawIcon(name, desc string, box image.Rectangle, px int, c color.RGBA) {
	if r.icon(name, box, px, c) {
		return
	}
	r.text(iconLetter(desc), box, px*5/6, c, true, true)
}
