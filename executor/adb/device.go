package adb

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/electricbubble/gadb"
)

// Defaults for Config's zero values.
const (
	defaultHost        = "127.0.0.1"
	defaultPort        = gadb.AdbServerPort
	defaultDialTimeout = 3 * time.Second
	defaultCallTimeout = 30 * time.Second
)

// Log attribute keys.
const (
	keySerial  = "serial"
	keyCmd     = "cmd"
	keyAttempt = "attempt"
	keyErr     = "err"
	keyIME     = "ime"
)

// Config says which adb server and device to use and how to behave.
type Config struct {
	// Host and Port of the adb server (default 127.0.0.1:5037); a remote server works
	// the same way.
	Host string
	Port int
	// Serial chooses the device. Empty means the only device; cmd passes ANDROID_SERIAL here.
	Serial string
	// Connect, if set, is a wireless device's address (HOST:PORT, port default 5555) that
	// the adb server is asked to connect to first (`adb connect`). Serial defaults to it.
	Connect string
	// ShellAllow is the technician shell's allow-list: each entry is a command prefix of
	// whole words ("getprop", "settings get", "pm list packages"). Empty denies everything.
	ShellAllow []string
	// DialTimeout bounds connecting to the adb server (default 3 s).
	DialTimeout time.Duration
	// CallTimeout bounds one device call when ctx has no earlier deadline (default 30 s).
	CallTimeout time.Duration
	// DumpAttempts is how many times a failing UI dump is tried (default 4); back-off
	// starts at DumpBackoff (default 150 ms) and doubles.
	DumpAttempts int
	DumpBackoff  time.Duration
	// SettleTimeout bounds Settle (default 3 s); SettleInterval is the first pause between
	// two dumps with SettleConfirm (default 100 ms, growing).
	SettleTimeout  time.Duration
	SettleInterval time.Duration
	// SettleConfirm makes Settle on the classic path dump until two dumps in a row are
	// identical, instead of trusting the dumper's own idle wait.
	SettleConfirm bool
	// DumpReuse is how long the dump that ended a Settle stays good for the next Dump when
	// no command that may change the screen ran since (default 1 s; negative: never
	// reused). uiautomator already waits for the screen to be idle, so a step that settles
	// after its action and then perceives costs one dump fewer.
	DumpReuse time.Duration
	// NoUIServer keeps the device off the resident UI server (Appium's UiAutomator2
	// server, which `fairy device setup` installs): every dump is `uiautomator dump`,
	// every screenshot `screencap`. Without it the server is used when it is installed,
	// and started when it is not running.
	NoUIServer bool
	// UIServerStart bounds the wait for a started server to answer (default 20 s).
	UIServerStart time.Duration
	// ShotLongEdge < 0 keeps Picture on PNG screenshots; otherwise, on the resident UI
	// server, Picture is a JPEG frame of its MJPEG stream scaled to ShotLongEdge (the
	// constant) on its long side.
	ShotLongEdge int
	// NoVerify skips reading a typed text back from the next dump.
	NoVerify bool
	// Now is the clock for DumpReuse (default time.Now).
	Now func() time.Time
	// Sleep waits for d or until ctx ends (default a timer); tests inject a fast one.
	Sleep func(ctx context.Context, d time.Duration) error
	// Nonce returns a fresh unpredictable token for status markers (default crypto/rand).
	Nonce func() string
	// Logger receives debug logs (default: discard).
	Logger *slog.Logger
}

// Device is one phone reached through an adb server. It is safe for concurrent use.
type Device struct {
	cfg    Config
	addr   string
	serial string
	log    *slog.Logger
	client gadb.Client

	fileDump atomic.Bool // this device cannot dump to /dev/tty: use a file
	pngShots atomic.Bool // this device's raw frames are in a format not read here: screencap -p
	// fullPictures: pictures are full-size PNG screenshots for now (WantPixels).
	fullPictures atomic.Bool

	// changes counts commands that may change the screen (every non-idempotent one), at
	// their start and at their end; a settled dump taken with another count is stale.
	changes   atomic.Uint64
	settledMu sync.Mutex
	settled   settledDump
	idle      settledDump // the last dump read (Settle keeps it when nothing ran since)
	idleMark  settledDump // the last idle wait without a dump (no xml)
	apps      appList     // the last list of launchable apps (Apps)
	shot      settledShot // the screenshot SettleShot took during its idle wait
	fg        settledFG   // the foreground activity SettleShot read during its idle wait

	ui    uiServer // the resident UI server's client (uiserver.go)
	meter meter    // device time (meter.go)

	mu     sync.Mutex
	closed bool
	calls  sync.WaitGroup // gadb calls running in goroutines
}

// Open checks the adb server, connects a wireless device if asked, chooses the device
// and checks that it is online. Errors wrap ErrServerDown, ErrNoDevice,
// ErrMultipleDevices, ErrDeviceNotFound, ErrOffline or ErrUnauthorized.
func Open(ctx context.Context, cfg Config) (*Device, error) {
	cfg = withDefaults(cfg)
	d := &Device{cfg: cfg, addr: net.JoinHostPort(cfg.Host, strconv.Itoa(cfg.Port)), log: cfg.Logger}
	ctx, cancel := d.callCtx(ctx)
	defer cancel()

	// gadb.NewClientWith dials the server once to check it answers.
	err := d.gadb(ctx, func() error {
		c, err := gadb.NewClientWith(cfg.Host, cfg.Port)
		d.client = c
		return err
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("adb open: %w", ctx.Err())
		}
		return nil, fmt.Errorf("adb open: %w", serverDown(d.addr, err))
	}
	if cfg.Connect != "" {
		serial, err := d.connect(ctx, cfg.Connect)
		if err != nil {
			return nil, err
		}
		if cfg.Serial == "" {
			cfg.Serial = serial
			d.cfg.Serial = serial
		}
	}
	list, err := listDevices(ctx, d.addr, cfg.DialTimeout)
	if err != nil {
		return nil, fmt.Errorf("adb open: %w", err)
	}
	info, err := choose(list, cfg.Serial)
	if err != nil {
		return nil, fmt.Errorf("adb open: %w", err)
	}
	d.serial = info.Serial
	d.log = cfg.Logger.With(slog.String(keySerial, d.serial))
	return d, nil
}

func withDefaults(cfg Config) Config {
	if cfg.Host == "" {
		cfg.Host = defaultHost
	}
	if cfg.Port == 0 {
		cfg.Port = defaultPort
	}
	if cfg.DialTimeout <= 0 {
		cfg.DialTimeout = defaultDialTimeout
	}
	if cfg.CallTimeout <= 0 {
		cfg.CallTimeout = defaultCallTimeout
	}
	if cfg.DumpAttempts <= 0 {
		cfg.DumpAttempts = 4
	}
	if cfg.DumpBackoff <= 0 {
		cfg.DumpBackoff = 150 * time.Millisecond
	}
	if cfg.SettleTimeout <= 0 {
		cfg.SettleTimeout = 3 * time.Second
	}
	if cfg.SettleInterval <= 0 {
		cfg.SettleInterval = 100 * time.Millisecond
	}
	if cfg.UIServerStart <= 0 {
		cfg.UIServerStart = 20 * time.Second
	}
	if cfg.DumpReuse == 0 {
		cfg.DumpReuse = time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Sleep == nil {
		cfg.Sleep = sleepCtx
	}
	if cfg.Nonce == nil {
		cfg.Nonce = randomNonce
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return cfg
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func randomNonce() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// callCtx applies CallTimeout when ctx has no earlier deadline.
func (d *Device) callCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) <= d.cfg.CallTimeout {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, d.cfg.CallTimeout)
}

// gadb runs fn (a gadb call, which has no context) in a goroutine owned by d and returns
// when it ends or ctx does; Close waits for any call still running.
func (d *Device) gadb(ctx context.Context, fn func() error) error {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return errClosed
	}
	d.calls.Add(1)
	d.mu.Unlock()
	done := make(chan error, 1)
	go func() {
		defer d.calls.Done()
		done <- fn()
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close marks d closed and waits (until ctx ends) for gadb calls still running.
func (d *Device) Close(ctx context.Context) error {
	d.mu.Lock()
	d.closed = true
	d.mu.Unlock()
	done := make(chan struct{})
	go func() {
		d.calls.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("adb close: %w", ctx.Err())
	}
}

// Serial is the chosen device's serial.
func (d *Device) Serial() string { return d.serial }

// connect asks the adb server to connect to a wireless device (host:connect) and returns
// its serial (HOST:PORT).
func (d *Device) connect(ctx context.Context, target string) (string, error) {
	host, portText, err := net.SplitHostPort(target)
	if err != nil {
		host, portText = target, strconv.Itoa(gadb.AdbDaemonPort)
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port <= 0 || port > 65535 || host == "" {
		return "", fmt.Errorf("adb connect %q: %w: want HOST:PORT", target, ErrBadArgument)
	}
	err = d.gadb(ctx, func() error { return d.client.Connect(host, port) })
	if err != nil {
		if ctx.Err() != nil {
			return "", fmt.Errorf("adb connect %s: %w", target, ctx.Err())
		}
		return "", fmt.Errorf("adb connect %s: %w: %v", target, ErrOffline, err)
	}
	return net.JoinHostPort(host, strconv.Itoa(port)), nil
}

// DeviceInfo is one device as the adb server lists it (`adb devices -l`), in any state.
type DeviceInfo struct {
	Serial  string
	State   string // "device", "offline", "unauthorized", "authorizing", "no permissions (…)", …
	Product string
	Model   string
	Device  string
	USB     string
	// TransportID is the server's transport id ("" from old servers).
	TransportID string
}

// Devices lists every device the adb server at cfg's Host:Port knows, whatever its state
// (gadb's DeviceList drops offline and unauthorized ones).
func Devices(ctx context.Context, cfg Config) ([]DeviceInfo, error) {
	cfg = withDefaults(cfg)
	addr := net.JoinHostPort(cfg.Host, strconv.Itoa(cfg.Port))
	list, err := listDevices(ctx, addr, cfg.DialTimeout)
	if err != nil {
		return nil, fmt.Errorf("adb devices: %w", err)
	}
	return list, nil
}

func listDevices(ctx context.Context, addr string, timeout time.Duration) ([]DeviceInfo, error) {
	s, err := query(ctx, addr, timeout, "host:devices-l")
	if err != nil {
		return nil, err
	}
	return parseDevices(s), nil
}

// parseDevices parses `adb devices -l` (or `adb devices`) output; header and blank lines
// are skipped. States with spaces ("no permissions (…)") are kept whole.
func parseDevices(s string) []DeviceInfo {
	var out []DeviceInfo
	for line := range strings.Lines(s) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "List of devices") ||
			strings.HasPrefix(line, "* ") || strings.HasPrefix(line, "$ ") || strings.HasPrefix(line, "adb ") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		info := DeviceInfo{Serial: f[0]}
		var state []string
		for _, w := range f[1:] {
			key, val, ok := strings.Cut(w, ":")
			if ok && len(state) > 0 {
				switch key {
				case "product":
					info.Product = val
					continue
				case "model":
					info.Model = val
					continue
				case "device":
					info.Device = val
					continue
				case "usb":
					info.USB = val
					continue
				case "transport_id":
					info.TransportID = val
					continue
				}
			}
			state = append(state, w)
		}
		info.State = strings.Join(state, " ")
		out = append(out, info)
	}
	return out
}

// choose picks the device to use from the list and checks its state.
func choose(list []DeviceInfo, serial string) (DeviceInfo, error) {
	var info DeviceInfo
	switch {
	case serial != "":
		found := false
		for _, d := range list {
			if d.Serial == serial {
				info, found = d, true
				break
			}
		}
		if !found {
			return info, fmt.Errorf("%w: %q is not listed (listed: %s): check the serial or connect it", ErrDeviceNotFound,
				serial, listing(list))
		}
	case len(list) == 0:
		return info, ErrNoDevice
	case len(list) > 1:
		return info, fmt.Errorf("%w (listed: %s)", ErrMultipleDevices, listing(list))
	default:
		info = list[0]
	}
	switch {
	case info.State == "device":
		return info, nil
	case info.State == "unauthorized":
		return info, fmt.Errorf("%w (%s)", ErrUnauthorized, info.Serial)
	default:
		return info, fmt.Errorf("%w (%s is %q)", ErrOffline, info.Serial, info.State)
	}
}

func listing(list []DeviceInfo) string {
	if len(list) == 0 {
		return "none"
	}
	parts := make([]string, len(list))
	for i, d := range list {
		parts[i] = d.Serial + " " + d.State
	}
	return strings.Join(parts, ", ")
}
