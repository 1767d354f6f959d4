package adb

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fairy-go/fairy/perception"
)

// adbKeyboardIME is ADB Keyboard's input method id.
const adbKeyboardIME = "com.android.adbkeyboard/.AdbIME"

// maxTextBytes bounds one TypeText call (the broadcast travels on a command line).
const maxTextBytes = 8 << 10

// textMethod is how a text gets typed.
type textMethod int

// Text methods.
const (
	// viaInput types with `input text` (printable ASCII only).
	viaInput textMethod = iota + 1
	// viaADBKeyboard types with ADB Keyboard's ADB_INPUT_B64 broadcast.
	viaADBKeyboard
)

// checkText tells how text would be typed, or why it is refused (ErrTextRefused): invalid
// UTF-8, NUL and control characters other than newline and tab, or more than
// maxTextBytes. Printable ASCII goes through `input text`; anything else (Unicode,
// newline, tab) needs ADB Keyboard.
func checkText(text string) (textMethod, error) {
	if len(text) > maxTextBytes {
		return 0, fmt.Errorf("%w: %d bytes, at most %d in one call", ErrTextRefused, len(text), maxTextBytes)
	}
	if !utf8.ValidString(text) {
		return 0, fmt.Errorf("%w: not valid UTF-8", ErrTextRefused)
	}
	ascii := true
	for _, r := range text {
		switch {
		case r == '\n' || r == '\t':
			ascii = false
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == utf8.RuneError || r == '\u2028' || r == '\u2029' ||
			(r >= 0xfdd0 && r <= 0xfdef) || r&0xfffe == 0xfffe:
			return 0, fmt.Errorf("%w: control character %U", ErrTextRefused, r)
		case r >= 0x80:
			ascii = false
		}
	}
	if ascii {
		return viaInput, nil
	}
	return viaADBKeyboard, nil
}

// inputTextArgs splits printable ASCII text into `input text` arguments. `input text`
// reads "%s" as a space and has no escape for it, so spaces become "%s" and a literal
// '%' followed by 's' is split between two calls.
func inputTextArgs(text string) []string {
	var parts []string
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == 's' && i > 0 && text[i-1] == '%' {
			parts = append(parts, b.String())
			b.Reset()
		}
		if c == ' ' {
			b.WriteString("%s")
			continue
		}
		b.WriteByte(c)
	}
	if b.Len() > 0 {
		parts = append(parts, b.String())
	}
	return parts
}

// TypeText types text into the focused field. Printable ASCII goes through `input text`
// (quoted for the shell, escaped for input); any other text through ADB Keyboard, which is
// switched to for the typing and the user's keyboard restored after. Text that cannot be
// typed safely is refused (ErrTextRefused); text that needs ADB Keyboard on a device
// without it is ErrNoADBKeyboard. Unless Config.NoVerify, the focused field is read back
// from the next dump and must end with text (else a *TextError).
func (d *Device) TypeText(ctx context.Context, text string) error {
	if text == "" {
		return nil
	}
	method, err := checkText(text)
	if err != nil {
		return fmt.Errorf("adb type text: %w", err)
	}
	switch method {
	case viaInput:
		err = d.typeInput(ctx, text)
	default:
		err = d.typeADBKeyboard(ctx, text)
	}
	if err != nil {
		return fmt.Errorf("adb type text: %w", err)
	}
	if d.cfg.NoVerify {
		return nil
	}
	return d.verifyText(ctx, text)
}

func (d *Device) typeInput(ctx context.Context, text string) error {
	var cmds []string
	for _, p := range inputTextArgs(text) {
		cmds = append(cmds, join("input", "text", p))
	}
	// One round trip; && stops at the first failure.
	out, err := d.sh(ctx, strings.Join(cmds, " && "), false)
	if err != nil {
		return err
	}
	if strings.Contains(out, "Exception") || strings.Contains(out, "Error:") {
		return &exitError{Serial: d.serial, Command: "input text", Output: out}
	}
	return nil
}

// IME is the input-method state relevant to typing.
type IME struct {
	Current   string   // default_input_method
	Installed []string // every installed IME id (ime list -a -s)
}

// HasADBKeyboard reports whether ADB Keyboard is installed.
func (i IME) HasADBKeyboard() bool {
	for _, id := range i.Installed {
		if id == adbKeyboardIME {
			return true
		}
	}
	return false
}

// InputMethods reads the current and installed input methods in one round trip.
func (d *Device) InputMethods(ctx context.Context) (IME, error) {
	out, err := d.sh(ctx, "settings get secure default_input_method; echo "+sectionMark+"; ime list -a -s", true)
	if err != nil {
		return IME{}, fmt.Errorf("adb input methods: %w", err)
	}
	cur, list, _ := strings.Cut(out, sectionMark)
	ime := IME{Current: strings.TrimSpace(cur)}
	if ime.Current == "null" {
		ime.Current = ""
	}
	for line := range strings.Lines(list) {
		if id := strings.TrimSpace(line); strings.Contains(id, "/") {
			ime.Installed = append(ime.Installed, id)
		}
	}
	return ime, nil
}

func (d *Device) typeADBKeyboard(ctx context.Context, text string) (err error) {
	ime, err := d.InputMethods(ctx)
	if err != nil {
		return err
	}
	if !ime.HasADBKeyboard() {
		return errNoADBKeyboard
	}
	if ime.Current != adbKeyboardIME {
		if _, err := d.shArgs(ctx, false, "ime", "enable", adbKeyboardIME); err != nil {
			return fmt.Errorf("enable ADB Keyboard: %w", err)
		}
		if _, err := d.shArgs(ctx, false, "ime", "set", adbKeyboardIME); err != nil {
			return fmt.Errorf("switch to ADB Keyboard: %w", err)
		}
		if ime.Current != "" {
			// Restore the user's keyboard even when ctx has ended.
			defer func() {
				rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
				defer cancel()
				if _, rerr := d.shArgs(rctx, false, "ime", "set", ime.Current); rerr != nil {
					d.log.Warn("adb: could not restore the keyboard", slog.String(keyIME, ime.Current), slog.Any(keyErr, rerr))
					err = errors.Join(err, fmt.Errorf("restore keyboard %s: %w", ime.Current, rerr))
				}
			}()
		}
	}
	// Base64 keeps the text out of the shell's and am's parsers entirely.
	b64 := base64.StdEncoding.EncodeToString([]byte(text))
	out, err := d.shArgs(ctx, false, "am", "broadcast", "-a", "ADB_INPUT_B64", "--es", "msg", b64)
	if err != nil {
		return fmt.Errorf("ADB Keyboard broadcast: %w", err)
	}
	if !strings.Contains(out, "Broadcast completed") {
		return &exitError{Serial: d.serial, Command: "am broadcast -a ADB_INPUT_B64", Output: out}
	}
	return nil
}

// verifyText reads the focused field from a fresh dump; it must end with text.
func (d *Device) verifyText(ctx context.Context, text string) error {
	gen := d.changes.Load()
	xml, err := d.Dump(ctx)
	if err != nil {
		return fmt.Errorf("adb type text: read back: %w", err)
	}
	// The dumper waited for the screen to be idle after the typing: the caller's next
	// Dump, with nothing done in between, is served this one (as after a Settle).
	d.keepSettled(xml, gen)
	got, ok := focusedText(xml)
	if !ok {
		return &TextError{Want: text, Note: "no focused text field in the dump"}
	}
	if got == "\x00password" {
		return nil // password fields do not expose their text
	}
	if !strings.HasSuffix(got, text) {
		return &TextError{Want: text, Got: got}
	}
	return nil
}

// focusedText returns the focused editable field's text from a dump ("\x00password" for a
// password field, whose text the dump hides).
func focusedText(xml []byte) (string, bool) {
	s, err := perception.Parse(xml)
	if err != nil {
		return "", false
	}
	for _, e := range s.Elements {
		if e.Focused && e.Editable {
			if e.Password {
				return "\x00password", true
			}
			return e.Text, true
		}
	}
	return "", false
}
