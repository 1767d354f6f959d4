package sim

import (
	"context"
	"fmt"
	"github.com/fairy-go/fairy/sim/wire"
	"io"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"time"
)

// Config describes one virtual phone. The zero value (plus a Serial) is a usable phone.
type Config struct {
	// Serial is the adb serial (default "emulator-5554").
	Serial string
	// Seed drives every random choice (faults); the same seed gives the same phone.
	Seed uint64
	// Width, Height and Density of the screen (default 1080x2400 at 420 dpi).
	Width, Height, Density int
	// Model, Product, Device, Manufacturer and Release are the build properties
	// (defaults: "sdk_gphone64_x86_64", "sdk_gphone64_x86_64", "emu64xa", "Google", "14").
	Model, Product, Device, Manufacturer, Release string
	// Faults switched on from the start; see Phone.SetFaults to change them later.
	Faults Faults
	// NoADBKeyboard leaves ADB Keyboard (com.android.adbkeyboard/.AdbIME) uninstalled.
	NoADBKeyboard bool
	// UIServer has the Appium UiAutomator2 server's two APKs installed from the start (as
	// `fairy device setup` leaves them); it runs once `am instrument` starts it.
	UIServer bool
	// Apps are the installed apps; nil means DefaultApps().
	Apps []*AppSpec
	// Clock tells the time (default time.Now). Inject a fixed clock for reproducible runs.
	Clock func() time.Time
	// Sleep waits for d or until ctx ends (default: a timer); used by the slow fault and `sleep`.
	Sleep func(ctx context.Context, d time.Duration) error
	// Logger receives debug logs of commands (default: discard).
	Logger *slog.Logger
	// profile is how long commands take (default: the instant profile, at once); see ParseProfile.
	Profile Profile
}

// Phone is one virtual Android phone. It is safe for concurrent use: commands from many
// clients are serialised on the phone's lock, one command at a time.
type Phone struct {
	mu  sync.Mutex
	cfg Config
	log *slog.Logger
	// actDepth is how deep action lists run inside one another now (an on_enter that
	// opens a screen runs that screen's on_enter); runActions bounds it.
	actDepth int

	baseClock func() time.Time // the configured clock while fairy-sim clock shifts it

	apps  map[string]*appState
	order []string // packages in install order
	home  string   // the launcher's package

	tasks      []*task // the last one is in front
	nextTaskID int
	nextInstID int

	kbShown   bool
	selectAll bool
	toast     string

	settings   map[string]map[string]string
	props      map[string]string
	fs         *memFS
	imes       []string // installed IME ids
	enabledIME map[string]bool
	currentIME string

	rng *rand.Rand
	lat *rand.Rand // draws the profile's delays, apart from rng so faults stay as seeded
	// changedAt is when the screen last changed: a dump's idle wait counts from it.
	changedAt time.Time
	faults    Faults
	idleRun   int

	wmSize, wmDensity string

	motionDown *motion

	version uint64
	cache   renderCache
	fonts   *fontSet

	rateDialog *ScreenSpec
	cmds       map[string]command

	uia2 uiServer     // the Appium UiAutomator2 server (uia2.go)
	pkgs packageStore // packages installed over adb (packages.go)
	logs phoneLog     // what logcat prints (cmd_logcat.go)
}

type motion struct {
	x, y int
	at   time.Time
}

// task is an Android task: a back stack of screens of one app.
type task struct {
	id    int
	pkg   string
	stack []*screenInst
}

// screenInst is one screen on a back stack, with its parameters and view state.
type screenInst struct {
	id     int
	spec   *ScreenSpec
	app    *appState
	params map[string]string
	scroll map[string]int
	focus  string // id of the focused input
}

const (
	imeGboard  = "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME"
	imeADB     = "com.android.adbkeyboard/.AdbIME"
	adbKbdPkg  = "com.android.adbkeyboard"
	gboardPkg  = "com.google.android.inputmethod.latin"
	systemUI   = "com.android.systemui"
	defaultSer = "emulator-5554"
)

// New builds a phone from cfg.
func New(cfg Config) (*Phone, error) {
	if cfg.Serial == "" {
		cfg.Serial = defaultSer
	}
	if strings.ContainsAny(cfg.Serial, " \t\n:") && !strings.Contains(cfg.Serial, ".") {
		return nil, fmt.Errorf("%w: serial %q", errConfig, cfg.Serial)
	}
	if cfg.Width == 0 {
		cfg.Width = 1080
	}
	if cfg.Height == 0 {
		cfg.Height = 2400
	}
	if cfg.Density == 0 {
		cfg.Density = 420
	}
	if cfg.Width < 320 || cfg.Height < 480 || cfg.Width > 4096 || cfg.Height > 4096 || cfg.Density < 120 || cfg.Density > 800 {
		return nil, fmt.Errorf("%w: screen %dx%d at %d dpi", errConfig, cfg.Width, cfg.Height, cfg.Density)
	}
	def := func(s *string, v string) {
		if *s == "" {
			*s = v
		}
	}
	def(&cfg.Model, "sdk_gphone64_x86_64")
	def(&cfg.Product, "sdk_gphone64_x86_64")
	def(&cfg.Device, "emu64xa")
	def(&cfg.Manufacturer, "Google")
	def(&cfg.Release, "14")
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.Sleep == nil {
		cfg.Sleep = sleepCtx
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Apps == nil {
		apps, err := DefaultApps()
		if err != nil {
			return nil, fmt.Errorf("new phone: %w", err)
		}
		cfg.Apps = apps
	}
	fonts, err := newFontSet()
	if err != nil {
		return nil, fmt.Errorf("new phone: %w", err)
	}
	p := &Phone{
		cfg:   cfg,
		log:   cfg.Logger.With("serial", cfg.Serial),
		fonts: fonts,
	}
	p.rateDialog = rateDialogSpec()
	p.cmds = newCommandTable()
	p.faults = cfg.Faults
	p.uia2.init()
	p.pkgs.init()
	if cfg.UIServer {
		p.uiServerInstall(uiServerPackage)
		p.uiServerInstall(uiServerTestPackage)
	}
	if err := p.reset(); err != nil {
		return nil, err
	}
	return p, nil
}

// reset puts the phone in its factory state. Callers hold the lock (or own p exclusively).
func (p *Phone) reset() error {
	if p.baseClock != nil { // fairy-sim clock set it
		p.cfg.Clock, p.baseClock = p.baseClock, nil
	}
	cfg := p.cfg
	p.apps = map[string]*appState{}
	p.order = nil
	p.home = ""
	for _, spec := range cfg.Apps {
		if spec == nil {
			continue
		}
		if spec.screens == nil {
			if err := spec.check(); err != nil {
				return fmt.Errorf("new phone: %w", err)
			}
		}
		if _, dup := p.apps[spec.Package]; dup {
			return fmt.Errorf("%w: package %s installed twice", errConfig, spec.Package)
		}
		p.apps[spec.Package] = newAppState(p, spec)
		p.order = append(p.order, spec.Package)
		if spec.Home && p.home == "" {
			p.home = spec.Package
		}
	}
	if p.home == "" {
		return fmt.Errorf("%w: no launcher app (an app with home: true)", errConfig)
	}
	p.tasks = nil
	p.nextTaskID = 1
	p.nextInstID = 1
	p.kbShown, p.selectAll, p.toast = false, false, ""
	p.rng = rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15))
	p.lat = rand.New(rand.NewPCG(cfg.Seed^0x5851f42d4c957f2d, cfg.Seed))
	p.idleRun = 0
	p.wmSize, p.wmDensity = "", ""
	p.motionDown = nil
	now := cfg.Clock()
	p.fs = newMemFS(now)
	seedSystem(p.fs, now, cfg.Clock)
	p.settings = map[string]map[string]string{
		// The keys adb clients read answer as on a freshly set-up phone: user_rotation 0
		// (mobile-mcp, mobilecli), the animation scales (uiautomator2, Appium), provisioning.
		"system": {"screen_brightness": "102", "screen_off_timeout": "60000", "font_scale": "1.0",
			"accelerometer_rotation": "0",
			"user_rotation":          "0", "screen_brightness_mode": "0", "haptic_feedback_enabled": "1", "sound_effects_enabled": "1"},
		"secure": {"ui_night_mode": "1", "location_mode": "3", "android_id": fmt.Sprintf("%016x", cfg.Seed*2654435761+1),
			"user_setup_complete": "1", "show_ime_with_hard_keyboard": "0", "accessibility_enabled": "0"},
		"global": {"wifi_on": "1", "bluetooth_on": "0", "airplane_mode_on": "0", "mobile_data": "1", "low_power": "0",
			"zen_mode": "0", "adb_enabled": "1", "auto_time": "1", "device_name": cfg.Model,
			"window_animation_scale": "1.0", "transition_animation_scale": "1.0", "animator_duration_scale": "1.0",
			"stay_on_while_plugged_in": "0", "development_settings_enabled": "1", "device_provisioned": "1",
			"package_verifier_enable": "1", "verifier_verify_adb_installs": "1"},
	}
	p.imes = []string{imeGboard}
	if !cfg.NoADBKeyboard {
		p.imes = append(p.imes, imeADB)
	}
	p.enabledIME = map[string]bool{imeGboard: true}
	p.currentIME = imeGboard
	p.syncIMESettings()
	p.props = map[string]string{
		"ro.product.model":                cfg.Model,
		"ro.product.name":                 cfg.Product,
		"ro.product.device":               cfg.Device,
		"ro.product.manufacturer":         cfg.Manufacturer,
		"ro.product.brand":                strings.ToLower(cfg.Manufacturer),
		"ro.build.version.release":        cfg.Release,
		"ro.build.version.sdk":            sdkFor(cfg.Release),
		"ro.build.type":                   "userdebug",
		"ro.build.characteristics":        "emulator",
		"ro.serialno":                     cfg.Serial,
		"ro.sf.lcd_density":               fmt.Sprint(cfg.Density),
		"ro.kernel.qemu":                  "1",
		"ro.hardware":                     "ranchu",
		"ro.product.cpu.abi":              "x86_64",
		"ro.build.display.id":             "sdk_gphone64_x86_64-userdebug " + cfg.Release + " UE1A.230829.036 fairy-sim test-keys",
		"persist.sys.locale":              "en-US",
		"sys.boot_completed":              "1",
		"ro.secure":                       "1",
		"service.adb.root":                "0",
		"ro.build.version.security_patch": "2023-09-05",
	}
	p.tasks = append(p.tasks, p.newTask(p.apps[p.home]))
	p.apps[p.home].running = true
	p.bump()
	return nil
}

func sdkFor(release string) string {
	switch strings.SplitN(release, ".", 2)[0] {
	case "15":
		return "35"
	case "14":
		return "34"
	case "13":
		return "33"
	case "12":
		return "31"
	case "11":
		return "30"
	case "10":
		return "29"
	}
	return "34"
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// bump records that the screen or state changed, so cached renders are stale.
func (p *Phone) bump() {
	p.version++
	if !p.cfg.Profile.instant() {
		p.changedAt = p.cfg.Clock()
	}
}

// Serial returns the phone's adb serial.
func (p *Phone) Serial() string { return p.cfg.Serial }

// Size returns the screen size in pixels.
func (p *Phone) Size() (w, h int) { return p.cfg.Width, p.cfg.Height }

// SetFaults switches faults at run time.
func (p *Phone) SetFaults(f Faults) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.faults = f
}

// CurrentFaults returns the faults in force.
func (p *Phone) CurrentFaults() Faults {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.faults
}

// Reset returns the phone to its factory state: app data, settings, files, tasks and the
// random source (faults stay as they are).
func (p *Phone) Reset() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.reset()
}

// Shell runs one command line as adbd's shell would and writes its output (stdout and
// stderr merged, as with the v1 shell protocol) to w. It returns the exit status of the
// last command. With the drop fault it may write part of the output and return an error
// wrapping ErrDropped (and wire.ErrDropConnection).
func (p *Phone) Shell(ctx context.Context, cmdline string, w io.Writer) (int, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	p.mu.Lock()
	f := p.faults
	drop := f.Drop > 0 && p.rng.Float64() < f.Drop
	p.mu.Unlock()
	if f.Slow > 0 {
		if err := p.cfg.Sleep(ctx, f.Slow); err != nil {
			return 1, fmt.Errorf("sim shell %q: %w", abbreviate(cmdline), err)
		}
	}
	env := &shellEnv{ctx: ctx, p: p, vars: map[string]string{
		"PATH": "/product/bin:/apex/com.android.runtime/bin:/apex/com.android.art/bin:/system_ext/bin:/system/bin:/system/xbin:/odm/bin:/vendor/bin:/vendor/xbin",
		"HOME": "/", "EXTERNAL_STORAGE": "/sdcard", "ANDROID_DATA": "/data", "ANDROID_ROOT": "/system", "USER": "shell",
	}}
	if in, ok := wire.ShellInput(ctx); ok {
		env.input = in
	}
	p.log.Debug("shell", "cmd", abbreviate(cmdline))
	if drop {
		var buf strings.Builder
		st, err := env.runLine(cmdline, nil, &buf)
		if err != nil {
			return st, err
		}
		out := buf.String()
		_, _ = io.WriteString(w, out[:len(out)/2])
		return st, dropError(cmdline)
	}
	return env.runLine(cmdline, nil, w)
}

func abbreviate(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}

// Reseed restarts the phone's random source (fault draws) from seed, as a phone made with
// Config.Seed = seed would have it; app data, settings and faults stay as they are. An
// evaluation calls it after Reset so that a task's own seed applies whichever phone of a
// farm runs the task.
func (p *Phone) Reseed(seed uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rng = rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	p.idleRun = 0
}
