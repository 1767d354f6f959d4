package adb

import (
	"context"
	"fmt"
	"image"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Tap taps the screen at x,y.
func (d *Device) Tap(ctx context.Context, x, y int) error {
	if err := checkPoint(x, y); err != nil {
		return fmt.Errorf("adb tap: %w", err)
	}
	if d.uiInput(ctx, "/appium/gestures/click", map[string]any{"offset": map[string]int{"x": x, "y": y}}) {
		return nil
	}
	if _, err := d.shArgs(ctx, false, "input", "tap", strconv.Itoa(x), strconv.Itoa(y)); err != nil {
		return fmt.Errorf("adb tap %d,%d: %w", x, y, err)
	}
	return nil
}

// LongPress presses x,y for d (default 800 ms): a swipe that does not move.
func (d *Device) LongPress(ctx context.Context, x, y int, dur time.Duration) error {
	if dur <= 0 {
		dur = 800 * time.Millisecond
	}
	if err := checkPoint(x, y); err != nil {
		return fmt.Errorf("adb long press: %w", err)
	}
	if err := d.swipe(ctx, x, y, x, y, dur); err != nil {
		return fmt.Errorf("adb long press %d,%d: %w", x, y, err)
	}
	return nil
}

// Swipe drags from x1,y1 to x2,y2 over d (default 300 ms).
func (d *Device) Swipe(ctx context.Context, x1, y1, x2, y2 int, dur time.Duration) error {
	if err := checkPoint(x1, y1); err != nil {
		return fmt.Errorf("adb swipe: %w", err)
	}
	if err := checkPoint(x2, y2); err != nil {
		return fmt.Errorf("adb swipe: %w", err)
	}
	if dur <= 0 {
		dur = 300 * time.Millisecond
	}
	if err := d.swipe(ctx, x1, y1, x2, y2, dur); err != nil {
		return fmt.Errorf("adb swipe %d,%d→%d,%d: %w", x1, y1, x2, y2, err)
	}
	return nil
}

func (d *Device) swipe(ctx context.Context, x1, y1, x2, y2 int, dur time.Duration) error {
	_, err := d.shArgs(ctx, false, "input", "swipe", strconv.Itoa(x1), strconv.Itoa(y1), strconv.Itoa(x2),
		strconv.Itoa(y2), strconv.FormatInt(dur.Milliseconds(), 10))
	return err
}

// Direction is where the content should move to reveal more: "up" scrolls the page to
// show what is below (the finger moves up), and so on.
type Direction string

// Directions.
const (
	up    Direction = "up"
	down  Direction = "down"
	left  Direction = "left"
	right Direction = "right"
)

// SwipeDir swipes in dir across area (an element's bounds; the empty rectangle means the
// whole screen), over 80 % of its extent, through its middle.
func (d *Device) SwipeDir(ctx context.Context, dir Direction, area image.Rectangle, dur time.Duration) error {
	if area.Empty() {
		si, err := d.Screen(ctx)
		if err != nil {
			return fmt.Errorf("adb swipe %s: %w", dir, err)
		}
		w, h := si.Width, si.Height
		if si.Landscape {
			w, h = h, w
		}
		// Keep clear of the status and navigation bars.
		area = image.Rect(0, h/10, w, h*9/10)
	}
	x1, y1, x2, y2, err := swipePoints(dir, area)
	if err != nil {
		return fmt.Errorf("adb swipe: %w", err)
	}
	return d.Swipe(ctx, x1, y1, x2, y2, dur)
}

func swipePoints(dir Direction, r image.Rectangle) (x1, y1, x2, y2 int, err error) {
	cx, cy := (r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2
	dx, dy := r.Dx()*4/10, r.Dy()*4/10
	switch dir {
	case up:
		return cx, cy + dy, cx, cy - dy, nil
	case down:
		return cx, cy - dy, cx, cy + dy, nil
	case left:
		return cx + dx, cy, cx - dx, cy, nil
	case right:
		return cx - dx, cy, cx + dx, cy, nil
	}
	return 0, 0, 0, 0, fmt.Errorf("%w: direction %q (want up, down, left or right)", ErrBadArgument, dir)
}

func checkPoint(x, y int) error {
	if x < 0 || y < 0 || x > 1<<16 || y > 1<<16 {
		return fmt.Errorf("%w: point %d,%d off any screen", ErrBadArgument, x, y)
	}
	return nil
}

// keyCodes maps friendly key names to Android key codes.
var keyCodes = map[string]int{
	"home": 3, "back": 4, "call": 5, "endcall": 6, "up": 19, "down": 20, "left": 21, "right": 22,
	"center": 23, "dpad_center": 23, "volume_up": 24, "volume_down": 25, "power": 26, "camera": 27,
	"tab": 61, "space": 62, "enter": 66, "delete": 67, "del": 67, "backspace": 67, "menu": 82,
	"notification": 83, "search": 84, "play_pause": 85, "page_up": 92, "page_down": 93,
	"escape": 111, "esc": 111, "forward_delete": 112, "move_home": 122, "move_end": 123,
	"mute": 164, "app_switch": 187, "recent": 187, "recents": 187, "sleep": 223, "wakeup": 224,
	"paste": 279, "copy": 278, "cut": 277,
}

// KeyNames lists the friendly key names Key accepts, sorted (for shell completion).
func KeyNames() []string { return slices.Sorted(maps.Keys(keyCodes)) }

var keycodeNameRE = regexp.MustCompile(`^KEYCODE_[A-Z0-9_]+$`)

// keyCode resolves a key name ("back", "enter", "KEYCODE_BACK", "4") to the argument for
// `input keyevent`.
func keyCode(key string) (string, error) {
	k := strings.TrimSpace(key)
	if c, ok := keyCodes[strings.ToLower(k)]; ok {
		return strconv.Itoa(c), nil
	}
	if n, err := strconv.Atoi(k); err == nil && n >= 0 && n < 1000 {
		return strconv.Itoa(n), nil
	}
	if up := strings.ToUpper(k); keycodeNameRE.MatchString(up) {
		return up, nil
	}
	return "", fmt.Errorf("%w: %q (use back, home, enter, delete, tab, menu, … or a key code)", ErrUnknownKey, key)
}

// Key presses one key (through the resident UI server when it runs, else input keyevent): a name
// (back, home, enter, delete, tab, menu, app_switch, …), a KEYCODE_ name or a key code number.
func (d *Device) Key(ctx context.Context, key string) error {
	code, err := keyCode(key)
	if err != nil {
		return fmt.Errorf("adb key: %w", err)
	}
	if n, err := strconv.Atoi(code); err == nil && d.uiInput(ctx, "/appium/device/press_keycode",
		map[string]int{"keycode": n}) {
		return nil
	}
	if _, err := d.shArgs(ctx, false, "input", "keyevent", code); err != nil {
		return fmt.Errorf("adb key %s: %w", key, err)
	}
	return nil
}

var pkgRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)+$`)

// componentRE matches a flattened component name "pkg/activity" on a line of its own.
var componentRE = regexp.MustCompile(`(?m)^\s*([A-Za-z][\w.]*)/([\w.$]+)\s*$`)

// LauncherActivity resolves pkg's launcher activity ("pkg/.Main" form), via
// `cmd package resolve-activity --brief` (Android 7+) and `dumpsys package` before that.
func (d *Device) LauncherActivity(ctx context.Context, pkg string) (string, error) {
	if !pkgRE.MatchString(pkg) {
		return "", fmt.Errorf("adb launcher activity: %w: package name %q", ErrBadArgument, pkg)
	}
	if apps, ok := d.knownApps(); ok {
		// The app list just read names every launcher activity.
		for _, a := range apps {
			if a.Package == pkg && a.Activity != "" {
				return a.Activity, nil
			}
		}
	}
	out, err := d.shArgs(ctx, true, "cmd", "package", "resolve-activity", "--brief", "-a", "android.intent.action.MAIN",
		"-c", "android.intent.category.LAUNCHER", pkg)
	if err == nil {
		if m := componentRE.FindStringSubmatch(out); m != nil && m[1] == pkg {
			return m[1] + "/" + m[2], nil
		}
		if strings.Contains(out, "No activity found") {
			return "", fmt.Errorf("adb launcher activity %s: %w (not installed, or no launcher entry)", pkg, ErrNoLauncher)
		}
	}
	// Older devices: the package's activity resolver table.
	out, err = d.shArgs(ctx, true, "dumpsys", "package", pkg)
	if err != nil {
		return "", fmt.Errorf("adb launcher activity %s: %w", pkg, err)
	}
	if c, ok := launcherFromDumpsys(out, pkg); ok {
		return c, nil
	}
	return "", fmt.Errorf("adb launcher activity %s: %w (not installed, or no launcher entry)", pkg, ErrNoLauncher)
}

var mainFilterRE = regexp.MustCompile(`(?m)^\s+[0-9a-f]+ ([\w.]+/[\w.$]+) filter [0-9a-f]+\n(?:\s+(?:Action|Category|mPriority|Type|Scheme|Authority|Path|AutoVerify).*\n)*?\s+Category: "android.intent.category.LAUNCHER"`)

func launcherFromDumpsys(out, pkg string) (string, bool) {
	out = normalizeText(out)
	for _, m := range mainFilterRE.FindAllStringSubmatch(out, -1) {
		if strings.HasPrefix(m[1], pkg+"/") {
			return m[1], true
		}
	}
	return "", false
}

// Launch starts pkg's launcher activity (or brings its task to the front).
func (d *Device) Launch(ctx context.Context, pkg string) error {
	comp, err := d.LauncherActivity(ctx, pkg)
	if err != nil {
		return fmt.Errorf("adb launch: %w", err)
	}
	out, err := d.shArgs(ctx, false, "am", "start", "-a", "android.intent.action.MAIN", "-c",
		"android.intent.category.LAUNCHER", "-n", comp)
	if err != nil {
		return fmt.Errorf("adb launch %s: %w", pkg, err)
	}
	// am start exits 0 on many versions even when it fails.
	for line := range strings.Lines(out) {
		if strings.HasPrefix(line, "Error") || strings.Contains(line, "Exception") {
			return fmt.Errorf("adb launch %s: %w", pkg, &exitError{Serial: d.serial,
				Command: "am start -n " + comp, Output: out})
		}
	}
	return nil
}

// Stop force-stops pkg.
func (d *Device) Stop(ctx context.Context, pkg string) error {
	if !pkgRE.MatchString(pkg) {
		return fmt.Errorf("adb stop: %w: package name %q", ErrBadArgument, pkg)
	}
	if _, err := d.shArgs(ctx, false, "am", "force-stop", pkg); err != nil {
		return fmt.Errorf("adb stop %s: %w", pkg, err)
	}
	return nil
}

// ClearText focuses the field at x,y and deletes n characters before the cursor (moved to
// the end first). n ≤ 0 deletes the field's whole text, as read from a dump taken after
// focusing it: the way to empty a field, because a count taken from an earlier screen can
// be stale (text typed since) or the hint's length (an empty EditText reports its hint as
// its text on Android 8+), and deleting by it removes characters that were not meant.
func (d *Device) ClearText(ctx context.Context, x, y int, n int) error {
	if err := d.Tap(ctx, x, y); err != nil {
		return fmt.Errorf("adb clear text: %w", err)
	}
	if n <= 0 {
		xml, err := d.Dump(ctx)
		if err != nil {
			return fmt.Errorf("adb clear text: %w", err)
		}
		text, ok := focusedText(xml)
		if !ok {
			return fmt.Errorf("adb clear text at %d,%d: %w", x, y, errNoFocus)
		}
		n = len([]rune(text))
		if n == 0 {
			return nil
		}
	}
	args := []string{"input", "keyevent", "123"} // KEYCODE_MOVE_END
	for range n {
		args = append(args, "67") // KEYCODE_DEL
	}
	if _, err := d.shArgs(ctx, false, args...); err != nil {
		return fmt.Errorf("adb clear text: %w", err)
	}
	return nil
}
