package adb

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"log/slog"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/sync/errgroup"
)

// Observation is one look at the screen: the UI dump and the screenshot taken together.
type Observation struct {
	XML []byte // uiautomator dump, the trailer stripped
	PNG []byte // screencap -p, validated
	// Secure is set when the screenshot is an all-black frame (FLAG_SECURE windows, DRM):
	// the pixels tell nothing, rely on the dump.
	Secure bool
}

const ttyDumpFile = "/dev/tty"

// fileDumpPath is where the fallback dump is written; it is removed first so a failed dump
// cannot return a stale file.
const fileDumpPath = "/data/local/tmp/fairy_window_dump.xml"

// Dump returns the UI hierarchy XML. It dumps to /dev/tty in one round trip and falls
// back to a file (for devices that cannot write to /dev/tty). Dumper errors that exit 0
// ("ERROR: could not get idle state.", "null root node", …) are retried with back-off;
// when every attempt fails the error is a *DumpError (wrapping ErrDump, and ErrIdle for
// the idle-state error). The dump that ended a Settle is returned once instead of a new
// one when nothing that may change the screen ran since and it is younger than
// Config.DumpReuse.
func (d *Device) Dump(ctx context.Context) ([]byte, error) {
	if xml := d.takeSettled(); xml != nil {
		return xml, nil
	}
	return d.dumpFresh(ctx)
}

// dumpFresh asks the resident UI server for the page source, or runs the dumper (with its
// retries) when there is no server; see Dump.
func (d *Device) dumpFresh(ctx context.Context) ([]byte, error) {
	gen := d.changes.Load()
	xml, err := d.dumpIdle(ctx)
	if err == nil {
		d.keepIdle(xml, gen)
	}
	return xml, err
}

// dumpIdle is dumpFresh without the note of what it read.
func (d *Device) dumpIdle(ctx context.Context) ([]byte, error) {
	if xml, ok, err := d.uiSource(ctx); ok {
		if err != nil {
			return nil, fmt.Errorf("adb dump ui: %w", err)
		}
		return xml, nil
	}
	var last *dumpError
	backoff := d.cfg.DumpBackoff
	for attempt := 1; attempt <= d.cfg.DumpAttempts; attempt++ {
		xml, msg, err := d.dumpOnce(ctx)
		if err != nil {
			return nil, fmt.Errorf("adb dump ui: %w", err)
		}
		if msg == "" {
			return xml, nil
		}
		last = &dumpError{Serial: d.serial, Attempts: attempt, Message: msg, Idle: strings.Contains(msg, "idle state")}
		d.log.Debug("adb: ui dump failed", slog.Int(keyAttempt, attempt), slog.String(keyErr, msg))
		if attempt == d.cfg.DumpAttempts {
			break
		}
		if err := d.cfg.Sleep(ctx, backoff); err != nil {
			return nil, fmt.Errorf("adb dump ui: %w", err)
		}
		backoff *= 2
	}
	return nil, last
}

// dumpOnce runs one dump; msg is the dumper's complaint when no hierarchy came back.
func (d *Device) dumpOnce(ctx context.Context) (xml []byte, msg string, err error) {
	if !d.fileDump.Load() {
		r, err := d.run(ctx, "shell", "uiautomator dump "+ttyDumpFile, true)
		if err != nil {
			return nil, "", err
		}
		xml, msg := extractDump(r.out)
		if xml != nil || isDumperError(msg) {
			return xml, msg, nil
		}
		// No hierarchy and no known complaint: this device cannot dump to /dev/tty.
		d.log.Debug("adb: /dev/tty dump unsupported, using a file", slog.String(keyErr, msg))
		d.fileDump.Store(true)
	}
	cmd := "rm -f " + fileDumpPath + "\nuiautomator dump " + fileDumpPath + "\ncat " + fileDumpPath
	r, err := d.run(ctx, "shell", cmd, true)
	if err != nil {
		return nil, "", err
	}
	xml, msg = extractDump(r.out)
	if xml == nil && msg == "" {
		msg = "no hierarchy in dumper output"
	}
	return xml, msg, nil
}

var dumperErrorRE = regexp.MustCompile(`(?m)^(ERROR:.*|.*(null root node|Killed|Exception|could not get idle state).*)$`)

func isDumperError(msg string) bool { return dumperErrorRE.MatchString(msg) }

// extractDump cuts the hierarchy out of dumper output: from "<?xml" (or "<hierarchy") to
// the end of "</hierarchy>", which drops the "UI hierchary dumped to: …" trailer. msg is
// the first dumper error line, or the whole output abbreviated when there is no hierarchy.
func extractDump(out []byte) (xml []byte, msg string) {
	if m := dumperErrorRE.Find(out); m != nil && !bytes.Contains(out, []byte("</hierarchy>")) {
		return nil, strings.TrimSpace(string(m))
	}
	start := bytes.Index(out, []byte("<?xml"))
	if start < 0 {
		start = bytes.Index(out, []byte("<hierarchy"))
	}
	end := bytes.LastIndex(out, []byte("</hierarchy>"))
	if start < 0 || end < start {
		if m := dumperErrorRE.Find(out); m != nil {
			return nil, strings.TrimSpace(string(m))
		}
		return nil, abbreviate(strings.TrimSpace(string(out)), 200)
	}
	return bytes.Clone(out[start : end+len("</hierarchy>")]), ""
}

// Screenshot returns the screen as PNG bytes at its full size, validated: from the
// resident UI server, else screencap.
func (d *Device) Screenshot(ctx context.Context) ([]byte, error) {
	b, _, err := d.screenshot(ctx)
	return b, err
}

// Picture returns the screen as a model is shown it: on the resident UI server a JPEG
// frame of its MJPEG stream, scaled to ShotLongEdge on its long side (mjpeg.go), else
// what Screenshot returns. Reading pixels at the screen's coordinates wants Screenshot
// (see WantPixels).
func (d *Device) Picture(ctx context.Context) ([]byte, error) {
	if b, _, ok := d.takeShot(true); ok {
		return b, nil
	}
	b, _, err := d.freshPicture(ctx)
	return b, err
}

func (d *Device) screenshot(ctx context.Context) ([]byte, bool, error) {
	if png, secure, ok := d.takeShot(false); ok {
		return png, secure, nil
	}
	return d.freshScreenshot(ctx)
}

// WantPixels says what the next pictures are for: full is set when the last screen had
// text to read from its pixels (OCR at the screen's coordinates), so that the next
// pictures are the full-size PNG screenshot, which serves a model too; otherwise they are
// the smaller JPEG a model needs (see Picture).
func (d *Device) WantPixels(full bool) { d.fullPictures.Store(full) }

// freshPicture takes a new picture (see Picture).
func (d *Device) freshPicture(ctx context.Context) ([]byte, bool, error) {
	if d.fullPictures.Load() {
		return d.freshScreenshot(ctx)
	}
	if jpg, ok := d.uiJPEG(ctx); ok {
		secure, err := checkJPEG(jpg)
		if err != nil {
			return nil, false, fmt.Errorf("adb picture %s: %w", d.serial, err)
		}
		return jpg, secure, nil
	}
	return d.freshScreenshot(ctx)
}

// freshScreenshot takes a new screenshot (see Screenshot).
func (d *Device) freshScreenshot(ctx context.Context) ([]byte, bool, error) {
	if png, ok, err := d.uiScreenshot(ctx); ok {
		if err != nil {
			return nil, false, fmt.Errorf("adb screenshot: %w", err)
		}
		secure, err := checkPNG(png)
		if err != nil {
			return nil, false, fmt.Errorf("adb screenshot %s: %w", d.serial, err)
		}
		return png, secure, nil
	}
	if !d.pngShots.Load() {
		png, secure, ok, err := d.rawScreenshot(ctx)
		if ok || err != nil {
			return png, secure, err
		}
		d.pngShots.Store(true) // a pixel format this device layer does not read
	}
	// exec: keeps binary output untouched (no pty line-ending translation on old devices).
	r, err := d.run(ctx, "exec", "screencap -p", true)
	if err != nil {
		return nil, false, fmt.Errorf("adb screenshot: %w", err)
	}
	if r.status != 0 {
		return nil, false, fmt.Errorf("adb screenshot: %w", &exitError{Serial: d.serial, Command: "screencap -p",
			Status: r.status, Output: abbreviate(string(r.out), 200)})
	}
	secure, err := checkPNG(r.out)
	if err != nil {
		return nil, false, fmt.Errorf("adb screenshot %s: %w", d.serial, err)
	}
	return r.out, secure, nil
}

var pngMagic = []byte("\x89PNG\r\n\x1a\n")

// checkPNG validates a screenshot and reports whether it is an all-black frame. A black
// frame compresses to almost nothing, so only small files are decoded in full.
func checkPNG(b []byte) (black bool, err error) {
	if !bytes.HasPrefix(b, pngMagic) {
		return false, fmt.Errorf("%w: not a PNG (%d bytes, starts %q)", errScreenshot, len(b),
			abbreviate(string(b[:min(len(b), 40)]), 40))
	}
	if !bytes.Contains(b[max(0, len(b)-16):], []byte("IEND")) {
		return false, fmt.Errorf("%w: truncated PNG (%d bytes, no IEND)", errScreenshot, len(b))
	}
	return checkBlack(b, png.DecodeConfig, png.Decode)
}

// checkJPEG is checkPNG for a JPEG frame: a black frame's 8×8 blocks carry nothing but
// their DC term, so only small files are decoded in full.
func checkJPEG(b []byte) (black bool, err error) {
	return checkBlack(b, jpeg.DecodeConfig, jpeg.Decode)
}

// checkBlack decodes b's size with decodeConfig and, when the file is small enough to be
// a black frame, the whole image with decode, and reports whether every pixel is black.
func checkBlack(
	b []byte, decodeConfig func(io.Reader) (image.Config, error), decode func(io.Reader) (image.Image, error),
) (black bool, err error) {
	cfg, err := decodeConfig(bytes.NewReader(b))
	if err != nil {
		return false, fmt.Errorf("%w: %v", errScreenshot, err)
	}
	if cfg.Width == 0 || cfg.Height == 0 {
		return false, fmt.Errorf("%w: empty image", errScreenshot)
	}
	if len(b) > cfg.Width*cfg.Height/64+4096 {
		return false, nil
	}
	img, err := decode(bytes.NewReader(b))
	if err != nil {
		return false, fmt.Errorf("%w: %v", errScreenshot, err)
	}
	return allBlack(img), nil
}

func allBlack(img image.Image) bool {
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if cr > 0x0808 || cg > 0x0808 || cb > 0x0808 {
				return false
			}
		}
	}
	return true
}

// Observe takes the dump and the screenshot concurrently.
func (d *Device) Observe(ctx context.Context) (Observation, error) {
	var o Observation
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		x, err := d.Dump(gctx)
		o.XML = x
		return err
	})
	g.Go(func() error {
		p, secure, err := d.screenshot(gctx)
		o.PNG, o.Secure = p, secure
		return err
	})
	if err := g.Wait(); err != nil {
		return Observation{}, fmt.Errorf("adb observe: %w", err)
	}
	return o, nil
}

// ObserveSequential is Observe one call after the other (for comparison and for devices
// that cannot take two commands at once).
func (d *Device) ObserveSequential(ctx context.Context) (Observation, error) {
	x, err := d.Dump(ctx)
	if err != nil {
		return Observation{}, fmt.Errorf("adb observe: %w", err)
	}
	p, secure, err := d.screenshot(ctx)
	if err != nil {
		return Observation{}, fmt.Errorf("adb observe: %w", err)
	}
	return Observation{XML: x, PNG: p, Secure: secure}, nil
}

// ScreenInfo is the display's geometry.
type ScreenInfo struct {
	Width, Height int // current (override) size in pixels, portrait as reported by wm
	Density       int // current (override) density in dpi
	// Rotation is 0..3 (quarter turns); Landscape is set for 1 and 3.
	Rotation  int
	Landscape bool
}

var (
	sizeRE     = regexp.MustCompile(`(Physical|Override) size:\s*(\d+)x(\d+)`)
	densityRE  = regexp.MustCompile(`(Physical|Override) density:\s*(\d+)`)
	rotationRE = regexp.MustCompile(`(?:mCurrentRotation=(?:ROTATION_)?|mRotation=|SurfaceOrientation:\s*|rotation=")(\d+)`)
)

const sectionMark = ":fairy-section:"

// Screen returns size, density and orientation in one round trip (wm size, wm density and
// dumpsys window displays / input for the rotation).
func (d *Device) Screen(ctx context.Context) (ScreenInfo, error) {
	out, err := d.sh(ctx, "wm size; echo "+sectionMark+"; wm density; echo "+sectionMark+"; dumpsys window displays; "+
		"dumpsys input", true)
	if err != nil {
		return ScreenInfo{}, fmt.Errorf("adb screen info: %w", err)
	}
	return parseScreenInfo(out)
}

func parseScreenInfo(out string) (ScreenInfo, error) {
	var si ScreenInfo
	parts := strings.SplitN(out, sectionMark, 3)
	for _, m := range sizeRE.FindAllStringSubmatch(parts[0], -1) {
		si.Width, _ = strconv.Atoi(m[2])
		si.Height, _ = strconv.Atoi(m[3])
	}
	if len(parts) > 1 {
		for _, m := range densityRE.FindAllStringSubmatch(parts[1], -1) {
			si.Density, _ = strconv.Atoi(m[2])
		}
	}
	if len(parts) > 2 {
		if m := rotationRE.FindStringSubmatch(parts[2]); m != nil {
			si.Rotation, _ = strconv.Atoi(m[1])
			if si.Rotation >= 90 { // ROTATION_90, …
				si.Rotation /= 90
			}
			si.Rotation %= 4
		}
	}
	if si.Width == 0 || si.Height == 0 {
		return si, fmt.Errorf("adb screen info: %w: no size in %q", errProtocol, abbreviate(out, 120))
	}
	si.Landscape = si.Rotation%2 == 1
	return si, nil
}

// rotationFromDump reads the rotation attribute of a dump's <hierarchy> element (0..3).
func rotationFromDump(xml []byte) int {
	m := regexp.MustCompile(`<hierarchy[^>]*\srotation="(\d)"`).FindSubmatch(xml)
	if m == nil {
		return 0
	}
	r, _ := strconv.Atoi(string(m[1]))
	return r % 4
}

var (
	// ActivityRecord{1f72345 u0 com.mediatek.camera/.CameraLauncher t12} (any version)
	resumedRE = regexp.MustCompile(`(?:mResumedActivity|ResumedActivity|topResumedActivity|mFocusedApp)[=:].*?ActivityRecord\{\S+ u\d+ ([\w.]+)/([\w.$]+)`)
	// mCurrentFocus=Window{e615992 u0 com.google.android.apps.photos/com.google...HomeActivity}
	focusRE = regexp.MustCompile(`mCurrentFocus=Window\{\S+ u\d+ ([\w.]+)/([\w.$]+)\}`)
	// The top app window's record, when a dump has no focus line (windows are listed top first).
	windowRecordRE = regexp.MustCompile(`mActivityRecord=ActivityRecord\{\S+ u\d+ ([\w.]+)/([\w.$]+)`)
)

// Foreground returns the resumed activity's package and activity (fully qualified). It
// reads `dumpsys activity activities` (mResumedActivity on Android ≤ 11, ResumedActivity
// on 12+), falling back to the window manager's focus (mCurrentFocus / mFocusedApp). The
// activity manager's lines are filtered on the device, and the window manager is asked
// only when they name no resumed activity (or the device has no grep): one binder dump a
// step instead of two.
//
// The answer SettleShot read during its idle wait is returned once instead, when nothing
// that may change the screen ran since (see takeForeground).
func (d *Device) Foreground(ctx context.Context) (pkg, activity string, err error) {
	if pkg, activity, ok := d.takeForeground(); ok {
		return pkg, activity, nil
	}
	return d.freshForeground(ctx)
}

// freshForeground asks the activity manager (see Foreground).
func (d *Device) freshForeground(ctx context.Context) (pkg, activity string, err error) {
	out, err := d.sh(ctx, "dumpsys activity activities | grep ResumedActivity || dumpsys window windows", true)
	if err != nil {
		return "", "", fmt.Errorf("adb foreground: %w", err)
	}
	pkg, activity, ok := parseForeground(out)
	if !ok {
		return "", "", fmt.Errorf("adb foreground: %w: no resumed activity or focused window in dumpsys output", errProtocol)
	}
	return pkg, activity, nil
}

// parseForeground finds the foreground package and activity in dumpsys activity or
// dumpsys window output of any Android version (UTF-16 and CRLF output tolerated).
func parseForeground(out string) (pkg, activity string, ok bool) {
	out = normalizeText(out)
	if m := resumedRE.FindStringSubmatch(out); m != nil {
		return m[1], fullActivity(m[1], m[2]), true
	}
	for _, re := range []*regexp.Regexp{focusRE, windowRecordRE} {
		if m := re.FindStringSubmatch(out); m != nil {
			return m[1], fullActivity(m[1], m[2]), true
		}
	}
	return "", "", false
}

// normalizeText decodes UTF-16LE output (some vendors' dumpsys) and drops CRs.
func normalizeText(s string) string {
	b := []byte(s)
	if len(b) >= 2 && (b[0] == 0xff && b[1] == 0xfe || len(b) > 4 && b[1] == 0 && b[3] == 0) {
		if b[0] == 0xff && b[1] == 0xfe {
			b = b[2:]
		}
		var sb strings.Builder
		for i := 0; i+1 < len(b); i += 2 {
			sb.WriteRune(rune(uint16(b[i]) | uint16(b[i+1])<<8))
		}
		s = sb.String()
	}
	return strings.ReplaceAll(s, "\r", "")
}

func fullActivity(pkg, act string) string {
	if strings.HasPrefix(act, ".") {
		return pkg + act
	}
	return act
}

var inputShownRE = regexp.MustCompile(`mInputShown=(true|false)`)

// KeyboardShown reports whether the soft keyboard is up: the resident UI server's answer,
// else the mInputShown flag of dumpsys
// input_method, filtered on the device (the whole dump runs to hundreds of KB on a real
// phone); a device without grep sends the whole dump.
func (d *Device) KeyboardShown(ctx context.Context) (bool, error) {
	if shown, ok, err := d.uiKeyboard(ctx); ok {
		if err != nil {
			return false, fmt.Errorf("adb keyboard shown: %w", err)
		}
		return shown, nil
	}
	out, err := d.sh(ctx, "dumpsys input_method | grep mInputShown || dumpsys input_method", true)
	if err != nil {
		return false, fmt.Errorf("adb keyboard shown: %w", err)
	}
	m := inputShownRE.FindStringSubmatch(out)
	if m == nil {
		return false, fmt.Errorf("adb keyboard shown: %w: no mInputShown in dumpsys input_method", errProtocol)
	}
	return m[1] == "true", nil
}

var errNoFocus = errors.New("no focused text field")
