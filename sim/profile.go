package sim

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"time"
)

// Profile is how long the phone takes to answer each kind of shell command, so that wall
// times, timeouts and the value of a saved round trip look like a real device's. The zero
// Profile (the "instant" one) answers at once, as tests want.
type Profile struct {
	// Name is the profile's name: "instant", "pixel" or "slow".
	Name string
	// Shell is any toybox command (ls, cat, echo, getprop…): the adb round trip and a fork.
	Shell Latency
	// Service is a command that asks a system service over binder (am force-stop, pm,
	// settings, dumpsys, wm, cmd, content, ime).
	Service Latency
	// Input is `input tap|swipe|text|keyevent`. Before Android 12 a Java process started
	// for every call; since then `input` is a shell script that runs `cmd input`, a binder
	// call into InputManagerService (InputShellCommand) with no process start.
	Input Latency
	// AppStart is `am start` and `monkey -p`: the launch until the first frame is drawn.
	AppStart Latency
	// Dump is `uiautomator dump` once the UI is idle: the Java process start and the walk
	// of the window's tree, written out.
	Dump Latency
	// IdleQuiet and IdleCeiling are uiautomator's idle wait (UiAutomation.waitForIdle(1000,
	// 10000) in DumpCommand): a dump waits until the screen has sent no accessibility event
	// for IdleQuiet, at most IdleCeiling. The dump's UiAutomation connection is new, so its
	// last event time starts at the wait's start: even a screen quiet for long waits a whole
	// IdleQuiet. Animation is how long a screen change keeps sending events (a transition,
	// a ripple).
	IdleQuiet, IdleCeiling, Animation time.Duration
	// Screencap is `screencap -p` (PNG encoding of the whole screen); ScreencapRaw is
	// `screencap` without -p (raw pixels, no encoding).
	Screencap, ScreencapRaw Latency
	// UISource and UIShot are a resident Appium UiAutomator2 server's page source (after its
	// idle wait: 500 ms quiet, bounded by the waitForIdleTimeout setting) and screenshot
	// (UiAutomation.takeScreenshot, PNG, base64), each with its HTTP round trip through
	// adb forward. UIInput is a click or key press the server injects itself
	// (UiAutomation.injectInputEvent: no process starts, unlike `input`).
	UISource, UIShot, UIInput Latency
	// Link is the USB link's adb throughput in bytes a second, which a raw screencap's
	// frame (4 bytes a pixel, megabytes) pays on top of ScreencapRaw; 0: free. A PNG's
	// transfer is within the Screencap figures, measured through a pipe.
	Link int
	// UIRequest is a small request to the server that walks no tree and takes no picture
	// (its round trip through adb forward), such as resetting its accessibility cache after
	// its idle wait.
	UIRequest Latency
	// UIFrame is one frame of the server's MJPEG stream: UiAutomation.takeScreenshot,
	// scaled and compressed to JPEG on the phone (MjpegScreenshotStream).
	UIFrame Latency
}

// Latency is a range a delay is drawn from, uniformly.
type Latency struct{ Min, Max time.Duration }

func (l Latency) draw(r *rand.Rand) time.Duration {
	if l.Max <= l.Min {
		return l.Min
	}
	return l.Min + time.Duration(r.Int64N(int64(l.Max-l.Min)))
}

func ms(a, b int) Latency {
	return Latency{Min: time.Duration(a) * time.Millisecond, Max: time.Duration(b) * time.Millisecond}
}

// The profiles' figures come from published measurements of real devices:
//   - uiautomator dump: DumpCommand calls UiAutomation.waitForIdle(1000, 10000) before it
//     dumps (AOSP frameworks/testing uiautomator, DumpCommand.java): one quiet second after
//     the last accessibility event, ten at most; a dump right after an activity start took
//     1–4 s (dtmilano/CulebraTester2-public#17), and idle waits up to the 10 s ceiling are
//     reported on animated screens (appium/appium#8397, appium/appium-uiautomator2-server#277).
//   - screencap -p: "it need 2 sec" (Genymobile/scrcpy#469); "screencap takes 250ms or so to
//     capture" and most of the rest encoding, and starting a Java process "is already about
//     800ms" (rom1v in Genymobile/scrcpy#112); PNG through a pipe 500–800 ms, raw 250–300 ms
//     on an emulator (MangetsuC/arkHelper#16); "截图 2S 多, 点击 1S 以内" — screenshot 2 s+,
//     tap under 1 s (mzlogin/awesome-adb#54); on an Android 15 emulator at 1440×3120,
//     `exec-out screencap -p` took a median 2122 ms (661–3007) and raw `screencap` 675 ms
//     (664–683) for its 17.5 MB (elliotgao2.github.io/handsets, "Why adb screencap is slow").
//   - the link: native adb moved 38.0 MB/s over USB 2.0 from a Mi 11 on Android 13
//     (yume-chan/ya-webadb#510); a raw 1080×2400 frame is 10.4 MB, about 270 ms of it.
//   - input tap: 1160 ms on a Galaxy Note 4, most of it the Java process start
//     (prog.world, "tap, swipe and two smoking events"); that is the slow profile's phone.
//     Since Android 12 the `input` script runs `cmd input` (AOSP frameworks/base
//     cmds/input/input; InputManagerService.onShellCommand → InputShellCommand, whose
//     stack traces the simulator prints; coloradmin.cn/o/737532.html, "IMS: Android中Input
//     命令--Android12", traces it from the script through cmd to IBinder::shellCommand), so
//     the pixel profile's input costs a binder call like its other `cmd` services.
//   - the idle wait from connection: UiAutomation.waitForIdle sets its last event time
//     to the wait's start when no event has arrived since the connection opened
//     (`if (mLastEventTimeMillis <= 0) mLastEventTimeMillis = startTimeMillis`, AOSP
//     frameworks/base core/java/android/app/UiAutomation.java), and `uiautomator dump`
//     connects anew in every process: each dump waits at least IdleQuiet.
//   - app start: "Displayed +1s380ms" for a cold start as ActivityTaskManager logs it
//     (dev.to/pyricau, "How adb measures App Startup"); Android vitals count a cold start of
//     5 s or more, a warm one of 2 s or more, as excessive.
//   - a resident UiAutomator2 server: "GET …/source 200 212 ms - 54619" bytes on Android
//     (appium/appium#18665, the same page under 3 s end to end); a screenshot over the
//     resident server's HTTP "差不多要550ms才截图一次" — about 550 ms a shot in a loop, on a
//     2017 Nubia Z17 (openatx/uiautomator2#323), of which the capture itself is ~250 ms
//     (rom1v in Genymobile/scrcpy#112); the server waits for idle with UiDevice.waitForIdle
//     (500 ms quiet, androidx QueryController) bounded by waitForIdleTimeout (default 10 s,
//     appium-uiautomator2-server WaitForIdleTimeout.java), which the client may lower;
//     small requests through Appium's proxy to the server answered in 27–45 ms
//     (appium/appium#17257; UIRequest; the slow profile doubles it, as its UIInput),
//     a gesture's injected events are 20 ms apart
//     (appium/appium-uiautomator2-server#339);
//     a frame of the server's MJPEG stream (capture, scaling, JPEG) took "about 83 ms
//     average screenshot duration on a real device" — a Pixel 4 — "minimum 150-180ms per
//     frame on some older Samsung devices" (appium/appium-uiautomator2-server#340; UIFrame).
//
// pixel is a recent Pixel-class phone over USB (the fast end of those figures); slow an
// older or budget phone (their slow end: Galaxy Note 4-class).
var profiles = map[string]Profile{
	"instant": {Name: "instant"},
	"pixel": {
		Name:  "pixel",
		Shell: ms(15, 40), Service: ms(60, 160), Input: ms(60, 160), AppStart: ms(600, 1400),
		Dump: ms(500, 1100), IdleQuiet: time.Second, IdleCeiling: 10 * time.Second, Animation: 300 * time.Millisecond,
		Screencap: ms(400, 900), ScreencapRaw: ms(200, 350), Link: 38 << 20,
		UISource: ms(120, 300), UIShot: ms(250, 550), UIInput: ms(40, 120), UIRequest: ms(27, 45),
		UIFrame: ms(70, 100),
	},
	"slow": {
		Name:  "slow",
		Shell: ms(30, 90), Service: ms(150, 400), Input: ms(900, 1300), AppStart: ms(1500, 3500),
		Dump: ms(1200, 2500), IdleQuiet: time.Second, IdleCeiling: 10 * time.Second, Animation: 500 * time.Millisecond,
		Screencap: ms(1500, 2500), ScreencapRaw: ms(300, 600), Link: 38 << 20,
		UISource: ms(300, 800), UIShot: ms(550, 1100), UIInput: ms(80, 250), UIRequest: ms(55, 95),
		UIFrame: ms(150, 200),
	},
}

// profileInstant answers every command at once (the default).
var profileInstant = Profile{Name: "instant"}

// profileNames lists the profiles ParseProfile knows.
func profileNames() []string {
	names := make([]string, 0, len(profiles))
	for n := range profiles {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ParseProfile returns the named profile: "instant" (or ""), "pixel" or "slow".
func ParseProfile(name string) (Profile, error) {
	if name == "" {
		return profileInstant, nil
	}
	p, ok := profiles[strings.ToLower(strings.TrimSpace(name))]
	if !ok {
		return Profile{}, fmt.Errorf("%w: profile %q: want one of %s", errConfig, name, strings.Join(profileNames(), ", "))
	}
	return p, nil
}

// instant reports a profile that never waits.
func (pr Profile) instant() bool { return pr == Profile{} || pr == profileInstant }

// commandDelay is how long the command in args takes on the phone's profile before it
// answers; a dump's idle wait after the last screen change comes before (waitQuiet).
func (p *Phone) commandDelay(args []string) time.Duration {
	pr := p.cfg.Profile
	if pr.instant() || len(args) == 0 {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	name := args[0]
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	sub := ""
	if len(args) > 1 {
		sub = args[1]
	}
	switch name {
	case "sh", "bash", "mksh", "nohup", "exec", "setsid", "sleep", "exit", "true", "false", "echo":
		return 0 // a builtin, or a wrapper whose command pays for itself
	case "uiautomator":
		if sub != "dump" {
			return pr.Shell.draw(p.lat)
		}
		return pr.Dump.draw(p.lat) // after its idle wait (waitProfile)
	case "screencap":
		for _, a := range args[1:] {
			if a == "-p" || strings.HasSuffix(a, ".png") {
				return pr.Screencap.draw(p.lat)
			}
		}
		return pr.ScreencapRaw.draw(p.lat)
	case "input":
		return pr.Input.draw(p.lat)
	case "monkey":
		return pr.AppStart.draw(p.lat)
	case "am":
		if sub == "start" || sub == "start-activity" {
			return pr.AppStart.draw(p.lat)
		}
		return pr.Service.draw(p.lat)
	case "pm", "cmd", "settings", "dumpsys", "wm", "content", "ime":
		return pr.Service.draw(p.lat)
	}
	return pr.Shell.draw(p.lat)
}

// isDump reports whether args is `uiautomator dump`, which waits for the idle screen first.
func isDump(args []string) bool {
	name := args[0]
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	return name == "uiautomator" && len(args) > 1 && args[1] == "dump"
}

// readsFrame reports whether the command in args only reads the screen's pixels.
func readsFrame(args []string) bool {
	name := args[0]
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	return name == "screencap"
}

// linkTime is how long n bytes of a raw screencap's output take over the profile's link
// (0 for a PNG, whose transfer its latency includes, and for output to a file).
func (p *Phone) linkTime(args []string, n int) time.Duration {
	link := p.cfg.Profile.Link
	if link <= 0 || n == 0 {
		return 0
	}
	for _, a := range args[1:] {
		if a == "-p" || !strings.HasPrefix(a, "-") {
			return 0
		}
	}
	return time.Duration(int64(n) * int64(time.Second) / int64(link))
}

// sleepRest sleeps what is left of d after spent.
func (p *Phone) sleepRest(ctx context.Context, d, spent time.Duration) error {
	if d -= spent; d <= 0 {
		return nil
	}
	return p.cfg.Sleep(ctx, d)
}

// waitProfile sleeps for the command's delay on the phone's profile.
func (p *Phone) waitProfile(ctx context.Context, args []string) error {
	if pr := p.cfg.Profile; !pr.instant() && isDump(args) {
		if err := p.waitQuietFrom(ctx, p.cfg.Clock(), pr.IdleQuiet, pr.IdleCeiling); err != nil {
			return fmt.Errorf("sim %s: %w", args[0], err)
		}
	}
	d := p.commandDelay(args)
	if d <= 0 {
		return nil
	}
	if err := p.cfg.Sleep(ctx, d); err != nil {
		return fmt.Errorf("sim %s: %w", args[0], err)
	}
	return nil
}
