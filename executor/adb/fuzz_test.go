package adb

import (
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/sim"
)

// FuzzTypeText types arbitrary strings into the shop's search field through the host
// face. Each one is typed verbatim (the field then holds exactly the text) or refused with
// ErrTextRefused / ErrNoADBKeyboard; never does any command but the typing ones run.
func FuzzTypeText(f *testing.F) {
	for _, s := range []string{
		"hello", "hello world", "it's", `say "hi"`, "a;b", "; touch /sdcard/pwned", "$(touch /sdcard/pwned)",
		"`touch /sdcard/pwned`", "a\nb", "line\n; am force-stop com.fairy.shop", "%s", "100%s sure", "%%s", "%",
		"50% off", "\\", `\'`, "'; rm -rf /sdcard; '", `"$HOME"`, "${PATH}", "a && b || c", "x | sh", "> /sdcard/out",
		"奶茶", "珍珠奶茶 ×2", "emoji 😀", "Ünïcödé", "tab\there", " lead and trail ", "-n", "--es msg x", "#comment",
		"\x00nul", "\xff\xfe", "bell\a", "\u2028", "*", "?", "~", "!!",
	} {
		f.Add(s)
	}
	p := newPhone(f, sim.Config{})
	d := faces[0].open(f, p, Config{})
	field := openShopSearch(f, d)
	before, err := p.ReadDir("/sdcard")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		ctx := t.Context()
		if p.Var(shop, "q") != "" {
			if err := d.ClearText(ctx, field.Center.X, field.Center.Y, 0); err != nil {
				t.Fatalf("ClearText: %v", err)
			}
		}
		p.commands()
		err := d.TypeText(ctx, text)
		cmds := p.commands()
		for _, c := range cmds {
			ok := strings.HasPrefix(c, "input text ") || strings.HasPrefix(c, "am broadcast -a ADB_INPUT_B64 --es msg ") ||
				strings.HasPrefix(c, "ime ") || strings.HasPrefix(c, "settings get secure default_input_method") ||
				strings.HasPrefix(c, "uiautomator dump ")
			if !ok {
				t.Fatalf("TypeText(%q) sent %q", text, c)
			}
		}
		switch {
		case err == nil:
			if got := p.Var(shop, "q"); got != text && text != "" {
				t.Fatalf("TypeText(%q): field holds %q", text, got)
			}
		case errors.Is(err, ErrTextRefused):
			if len(cmds) != 0 {
				t.Fatalf("refused %q but sent %q", text, cmds)
			}
			if got := p.Var(shop, "q"); got != "" {
				t.Fatalf("refused %q but field holds %q", text, got)
			}
		default:
			t.Fatalf("TypeText(%q) = %v", text, err)
		}
		if pkg, _ := p.Foreground(); pkg != shop {
			t.Fatalf("TypeText(%q) left the shop: %s in front", text, pkg)
		}
		after, err := p.ReadDir("/sdcard")
		if err != nil || len(after) != len(before) {
			t.Fatalf("TypeText(%q) changed /sdcard: %d entries, %v", text, len(after), err)
		}
		if _, err := p.Stat("/sdcard/pwned"); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("TypeText(%q) ran a command", text)
		}
	})
}
