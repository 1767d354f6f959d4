// Package sim is a virtual Android phone for tests and demos: an honest test double that
// speaks through the same shell commands a real phone answers over ADB. It knows nothing of
// agents. *Phone implements wire.Device, so sim/wire serves it on the adb host protocol and
// the adbd device protocol; a Farm hosts several phones (emulator-5554, emulator-5556, …).
//
// # Construction
//
//	p, err := sim.New(sim.Config{Serial: "emulator-5554", Seed: 1, Clock: clock})
//	f, err := sim.NewFarm(sim.FarmConfig{Phones: 2, Base: sim.Config{Seed: 1}})
//
// Config sets the serial, the seed (every random choice, e.g. faults, comes from it), the
// screen (default 1080x2400 at 420 dpi), the build properties, the faults, whether ADB
// Keyboard is installed (default yes) and the apps (default DefaultApps(), the embedded
// catalogue under sim/apps). Clock, Sleep and Logger are injected. There is no package
// state; a Phone is safe for concurrent use (commands are serialised on its lock).
//
// # Shell
//
// Phone.Shell runs a command line as mksh would: quotes, backslashes, $? and $VAR, ";",
// "&&", "||", "|", ">", ">>", "2>&1", sh -c. Unknown commands answer
// "/system/bin/sh: X: not found" with status 127. Commands, with outputs in the formats of
// real devices (held to the captures in testdata/android-corpus by TestOutputFormatsMatchCorpus):
// uiautomator dump [file|/dev/tty] ("UI hierchary dumped to: …", the real typo), cat, rm,
// ls, mkdir, touch, grep, head, tail, wc, base64, echo, sleep, screencap [-p] [FILE],
// input tap|swipe|draganddrop|text|keyevent|keycombination|motionevent, am start [-W] -n,
// am force-stop, am broadcast, monkey -p PKG -c android.intent.category.LAUNCHER 1,
// pm list packages [-3|-s|-f], pm path, cmd package resolve-activity [--brief],
// cmd package query-activities [--brief|--components] (launchable apps, with their labels
// as nonLocalizedLabel),
// dumpsys window|activity activities|input_method|package PKG, wm size|density,
// getprop [KEY], setprop, settings get|put|delete|list, ime list|enable|disable|set|reset.
//
// Text input follows Android: `input text` types only its first argument, "%s" is a space,
// and a character the virtual key map cannot type (anything but printable ASCII, \n, \t)
// makes the whole command fail as Android 11+ does — a NullPointerException message and
// exit status 255, nothing typed. ADB Keyboard (com.android.adbkeyboard/.AdbIME) types any
// Unicode through `am broadcast -a ADB_INPUT_B64 --es msg BASE64` or ADB_INPUT_TEXT, and
// clears with ADB_CLEAR_TEXT, but only once it is enabled and selected (`ime enable`,
// `ime set`) and a text field is focused.
//
// # Screens
//
// Apps are data: YAML files (AppSpec) with screens, elements (text, title, button, input,
// switch, checkbox, icon, image, hbox, list, grid, fab, slider), lists generated from records,
// inputs bound to variables, conditions and actions (go, replace, reset, finish, back,
// home, launch, open, set, toggle, toggle_setting, put_setting, add, update, delete, copy,
// clear, toast), in Go text/template syntax over {.v vars, .p screen params, .item record,
// .app}. Template functions: eq ne not and or (builtin), contains, matches (search),
// add sub mul gtn ltn, initial, lower upper trim default, count, sum, summary, field,
// setting, now, money, nextid, span, laterdate, latertime. The engine lays screens out (status bar, toolbar, body,
// pinned bottom bars, FABs, navigation bar; the soft keyboard as a separate window with
// adjustResize), keeps a back stack per task (Back hides the keyboard first, Back on a
// task's root sends it behind the launcher, Home shows the launcher), scrolls lists longer
// than the screen with `input swipe`, treats a swipe that stays put for 500 ms or more
// as a long press, and runs a slider's on_end when a swipe drags its thumb from the start of
// the track to its end. LoadAppDir reads the apps of a directory and MergeApps installs
// them next to DefaultApps (a built-in package only with override: true); an error names
// the file and line (AppError). The format with a worked example: docs/apps.md.
//
// Dumps are the stock `uiautomator dump` format of Android 13+: one line, the classic
// attribute set and order followed by drawing-order and hint, `<node … />` leaves, KXmlSerializer escaping (&amp; &lt; &gt; &quot;, &#10;,
// astral characters as &#NNNNN;, control characters as "."), and, as UiAutomation's
// getRootInActiveWindow gives it, one top-level node: the active window (the app, or the
// dialog in front of it). The all-windows dump (status bar, app or dialog, keyboard,
// navigation bar; indented, with visible-to-user, drawing-order, hint and display-id, the
// uiautomator2 format) is DumpAllWindows, and what the uiautomator2 server the phone runs
// on device port 9008 answers to JSON-RPC dumpWindowHierarchy on /jsonrpc/0, through
// `adb forward tcp:N tcp:9008`. Any APK whose manifest it reads installs (packages.go:
// pm install by path or from the stream adb install sends, install sessions); the phone
// runs none of their code but Appium's: its UiAutomator2 server is emulated (uia2.go) —
// Config.UIServer has its APKs from the start, am instrument -w starts it, and it answers
// its W3C HTTP routes on device port 6790 (UIServerPort) until it is force-stopped or the
// uiserverdie fault kills it — and so is the foreground service of its Appium Settings
// helper (appium_settings.go). Screenshots
// are drawn from the
// same nodes with the Go fonts, and CJK characters, which those fonts lack, with the
// embedded subset of Droid Sans Fallback (package cjkfont); text in other scripts (Arabic,
// Hebrew, Devanagari, Thai, Korean) in display order (bidi), shaped, with the machine's
// Noto and Nanum fonts (shape.go).
// FLAG_SECURE screens (the shop's payment) give an all-black screenshot while the tree
// stays dumpable. Dumps and screenshots are cached per state version.
//
// # Clients other than fairy
//
// What third-party adb clients use answers as on a device (sim/interop drives the phone
// with adbkit and mobile-mcp): pm list features, toybox mv, stat, which, ps and ls -l in
// toybox's columns, /system/bin files a sync STAT finds, /proc files (stat and uptime
// advance with the clock), content query|insert on settings, the settings keys clients read
// (user_rotation 0, the animation scales), nohup and background jobs (status 0), device
// sockets (Sockets: the uiautomator2 server; any other port is refused), the framebuffer:
// service (Framebuffer, version-2 header). app_process, which clients use to start a pushed
// helper, aborts at once ("Aborted ", status 134) as on a device that cannot load it.
// What Appium's uiautomator2 driver runs at a session's start answers too (sim/interop runs
// a real Appium session): appops, logcat (-d, -c, -t, filters, formats, and following the
// log until the client leaves), cmd notification allow_listener, dumpsys deviceidle
// whitelist, dumpsys power, dumpsys activity services, pm list instrumentation, pm grant.
//
// # Timing
//
// Config.Profile (ParseProfile: instant, pixel, slow) makes every shell command wait as
// long as its kind takes on a real device — toybox commands, binder services, input, app
// starts, screencap raw and PNG, and uiautomator dump after its idle wait (a quiet second
// after the last screen change, ten at most); figures and their sources are in profile.go.
// The default, instant, never waits.
//
// # State for evaluations
//
// Go API: State() (every app's variables and collections, settings, foreground, screen,
// keyboard, IME), Records("messages") or Records("com.fairy.shop:orders"), Var(pkg, name),
// Setting("global/wifi_on"), Foreground(), ScreenID(), Dump(), Screenshot(), and typed
// helpers Messages(), Events(), Notes(), Orders(); Reset() restores the factory state and
// Reseed(seed) restarts the random source (fault draws) as if the phone had that seed.
// Settings keeps app notifications as secure/notif_off_PKG = 1 and cleared caches and
// storage as its collections cleared_cache and cleared_storage (records with the package).
// Phone-only shell service:
//
//	fairy-sim state [COLLECTION|PACKAGE]   JSON of the state, a collection or an app
//	fairy-sim settings                     JSON of the settings
//	fairy-sim reset                        factory reset
//	fairy-sim faults [SPEC]                print or set the faults
//
// # Faults
//
// ParseFaults reads "idle=0.3,idlerun=2,slow=200ms,drop=0.05,deadtap=0.1,dialog=0.1,nonascii":
// idle — a dump answers "ERROR: could not get idle state." with status 0 (at most idlerun
// times in a row, default 2); slow — every command waits (honouring ctx); drop — a command
// writes half its output and Shell returns an error wrapping wire.ErrDropConnection; deadtap
// — a tap changes nothing; dialog — a "Rate this app" dialog ("Not now" / "Rate now") pops
// up when an app comes to the front or opens a screen; nonascii — `input text` drops
// non-ASCII characters silently with status 0 instead of failing loudly. Faults can be
// switched at run time with SetFaults or `fairy-sim faults SPEC`.
package sim
