package adb

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The resident UI server is Appium's UiAutomator2 server (npm appium-uiautomator2-server,
// Apache-2.0): an instrumentation that stays up between calls and answers over HTTP on
// device port 6790, so a dump costs one request instead of a new `uiautomator` process.
// `fairy device setup` installs it (SetupUIServer); the device layer starts it when it is
// installed and not running, and falls back to `uiautomator dump` and `screencap` when it
// is absent or dies.
const (
	UIServerPort        = 6790
	UIServerPackage     = "io.appium.uiautomator2.server"
	UIServerTestPackage = "io.appium.uiautomator2.server.test"
	// uiServerRunner is the instrumentation that runs the server.
	uiServerRunner = UIServerTestPackage + "/androidx.test.runner.AndroidJUnitRunner"
)

// errUIServer means the resident UI server did not answer as it should.
var errUIServer = errors.New("adb: resident UI server")

// uiServerState is where the device stands with its resident server.
type uiServerState int

const (
	uiUnknown uiServerState = iota // not probed yet
	uiUp                           // a session is open
	uiOff                          // absent, disabled or given up: the classic path
)

// uiWarned holds the phones (adb server address/serial) whose fallback to the classic
// path was said: once a process, however many Devices open the phone.
var uiWarned sync.Map

// maxUIServerRestarts bounds how often a server that died is started again before the
// device stays on the classic path.
const maxUIServerRestarts = 3

// uiServer is the device's client of the resident server.
type uiServer struct {
	mu       sync.Mutex
	state    uiServerState
	client   *http.Client
	session  string
	restarts int
	warned   bool
	noIdle   atomic.Bool // the server has no reset_ax_cache route
	// mjpeg is set while the session has set the MJPEG stream's scale (mjpeg.go);
	// mjpegWarned once its failure was said.
	mjpeg, mjpegWarned atomic.Bool
}

// uiReady returns the server's HTTP client and session, probing and starting the server
// on first use; ok is false on the classic path.
func (d *Device) uiReady(ctx context.Context) (client *http.Client, session string, ok bool) {
	if d.cfg.NoUIServer {
		return nil, "", false
	}
	u := &d.ui
	u.mu.Lock()
	defer u.mu.Unlock()
	switch u.state {
	case uiUp:
		return u.client, u.session, true
	case uiOff:
		return nil, "", false
	}
	if err := d.uiConnectLocked(ctx); err != nil {
		if ctx.Err() != nil {
			return nil, "", false // not a verdict on the server: probe again next time
		}
		d.uiGiveUpLocked(err)
		return nil, "", false
	}
	return u.client, u.session, true
}

// uiConnectLocked reaches a running server, or starts an installed one, and opens a
// session whose idle wait is bounded by SettleTimeout.
func (d *Device) uiConnectLocked(ctx context.Context) error {
	u := &d.ui
	if u.client == nil {
		u.client = &http.Client{Transport: &http.Transport{
			DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
				return d.dialDevice(ctx, "tcp:"+strconv.Itoa(UIServerPort))
			},
			MaxIdleConnsPerHost: 4, DisableCompression: true, IdleConnTimeout: time.Minute,
		}}
	}
	if !d.uiStatus(ctx) {
		installed, err := d.uiInstalled(ctx)
		if err != nil {
			return err
		}
		if !installed {
			return fmt.Errorf("%w (`fairy device setup` installs it)", errUINotInstalled)
		}
		if err := d.uiStartLocked(ctx); err != nil {
			return err
		}
		deadline := time.Now().Add(d.cfg.UIServerStart)
		for !d.uiStatus(ctx) {
			if time.Now().After(deadline) {
				return fmt.Errorf("%w: not up %s after am instrument", errUIServer, d.cfg.UIServerStart)
			}
			if err := d.cfg.Sleep(ctx, 100*time.Millisecond); err != nil {
				return err
			}
		}
	}
	var created struct {
		SessionID string `json:"sessionId"`
		Value     struct {
			SessionID string `json:"sessionId"`
		} `json:"value"`
	}
	if err := d.uiCall(ctx, u.client, http.MethodPost, "/session", map[string]any{"capabilities": map[string]any{"firstMatch": []any{map[string]any{}}, "alwaysMatch": map[string]any{"platformName": "Android"}}}, &created); err != nil {
		return err
	}
	sid := cmpOr(created.Value.SessionID, created.SessionID)
	if sid == "" {
		return fmt.Errorf("%w: no session id", errUIServer)
	}
	// The source's idle wait must end within the settle bound.
	settings := map[string]any{"settings": map[string]any{"waitForIdleTimeout": d.cfg.SettleTimeout.Milliseconds()}}
	if err := d.uiCall(ctx, u.client, http.MethodPost, "/session/"+sid+"/appium/settings", settings, nil); err != nil {
		return err
	}
	// The MJPEG stream's frames at the size a model's picture is cut to (mjpeg.go): in a
	// request of their own, so that a server that refuses them still serves the rest; not
	// after the stream failed once, nor with pictures kept PNG by configuration.
	u.mjpeg.Store(false)
	if !u.mjpegWarned.Load() && d.cfg.ShotLongEdge >= 0 {
		if m := d.uiMJPEGSettings(ctx, sid); m != nil {
			if err := d.uiCall(ctx, u.client, http.MethodPost, "/session/"+sid+"/appium/settings",
				map[string]any{"settings": m}, nil); err != nil {
				d.log.Debug("adb: the resident UI server refused the MJPEG settings; pictures stay PNG", slog.Any(keyErr, err))
			} else {
				u.mjpeg.Store(true)
			}
		}
	}
	u.session, u.state = sid, uiUp
	d.log.Debug("adb: resident UI server ready", slog.String("session", sid))
	return nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// uiStatus reports whether the server answers GET /status.
func (d *Device) uiStatus(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	var st struct {
		Value struct {
			Ready bool `json:"ready"`
		} `json:"value"`
	}
	return d.uiCall(ctx, d.ui.client, http.MethodGet, "/status", nil, &st) == nil && st.Value.Ready
}

// uiInstalled reports whether both of the server's packages are installed.
func (d *Device) uiInstalled(ctx context.Context) (bool, error) {
	out, err := d.sh(ctx, "pm list packages "+UIServerPackage, true)
	if err != nil {
		return false, err
	}
	return strings.Contains(out, "package:"+UIServerPackage+"\n") &&
		strings.Contains(out, "package:"+UIServerTestPackage+"\n"), nil
}

// uiStartLocked starts the server in the background: `am instrument -w` under nohup, so
// that the am process, which holds the instrumentation's UiAutomation connection, outlives
// this adb stream (and this process: the server stays resident for the next command).
func (d *Device) uiStartLocked(ctx context.Context) error {
	if _, err := d.sh(ctx, UIServerStartCommand, false); err != nil {
		return fmt.Errorf("%w: start: %w", errUIServer, err)
	}
	return nil
}

// UIServerStartCommand is the shell command that starts the server and leaves it running.
const UIServerStartCommand = "nohup am instrument -w -e disableAnalytics true " + uiServerRunner + " >/dev/null 2>&1 &"

// errUINotInstalled: the phone has no resident UI server, the usual case until
// `fairy device setup` has run.
var errUINotInstalled = fmt.Errorf("%w: not installed", errUIServer)

// uiGiveUpLocked puts the device on the classic path and says so once.
func (d *Device) uiGiveUpLocked(err error) {
	u := &d.ui
	u.state = uiOff
	if _, said := uiWarned.LoadOrStore(d.addr+"/"+d.serial, true); !said && !u.warned {
		u.warned = true
		if errors.Is(err, errUINotInstalled) {
			// A phone without the server is a normal phone: said once, not a warning that
			// would be summed up at the end of every run.
			d.log.Info("adb: no resident UI server on the phone, reading the screen with uiautomator dump and screencap",
				slog.Any(keyErr, err))
			return
		}
		d.log.Warn("adb: resident UI server unavailable, using uiautomator dump and screencap", slog.Any(keyErr, err))
	}
}

// uiFailed handles a request that failed on an up server: the server is started again
// (up to maxUIServerRestarts times) or given up; retry says whether to ask it again.
func (d *Device) uiFailed(ctx context.Context, session string, err error) (retry bool) {
	if ctx.Err() != nil {
		return false
	}
	u := &d.ui
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.state != uiUp || u.session != session {
		return u.state == uiUp // another call already restarted it
	}
	u.state = uiUnknown
	if u.restarts >= maxUIServerRestarts {
		d.uiGiveUpLocked(fmt.Errorf("died %d times: %w", u.restarts+1, err))
		return false
	}
	u.restarts++
	d.log.Info("adb: resident UI server stopped answering; starting it again", slog.Any(keyErr, err),
		slog.Int(keyAttempt, u.restarts))
	u.client.CloseIdleConnections()
	if cerr := d.uiConnectLocked(ctx); cerr != nil {
		d.uiGiveUpLocked(fmt.Errorf("%w (restart: %v)", err, cerr))
		return false
	}
	return true
}

// uiGet runs GET path on the session, restarting the server once when it fails; ok is
// false when the caller must take the classic path.
func (d *Device) uiGet(ctx context.Context, path string, out any) (ok bool, err error) {
	return d.uiDo(ctx, http.MethodGet, path, nil, out)
}

// uiDo is uiGet for any method, with a body.
func (d *Device) uiDo(ctx context.Context, method, path string, in, out any) (ok bool, err error) {
	for range 2 {
		client, sid, up := d.uiReady(ctx)
		if !up {
			return false, nil
		}
		err = d.uiCall(ctx, client, method, "/session/"+sid+path, in, out)
		if errors.Is(err, errUIUnknownCommand) {
			return true, err // the server answers, but not this: no restart helps
		}
		if err == nil {
			return true, nil
		}
		if ctx.Err() != nil {
			return true, err
		}
		if !d.uiFailed(ctx, sid, err) {
			return false, nil
		}
	}
	return false, nil
}

// uiInput asks the server to inject a click or key press (no process starts on the phone,
// unlike `input`); false when the caller must use `input`: no server, or a request that
// failed — the server is restarted for the next call, and since a server that died
// answered nothing, the input was not injected and `input` does it.
func (d *Device) uiInput(ctx context.Context, path string, body any) bool {
	client, sid, up := d.uiReady(ctx)
	if !up {
		return false
	}
	d.changes.Add(1) // the screen may change, from the start of the request to its end
	defer d.changes.Add(1)
	err := d.uiCall(ctx, client, http.MethodPost, "/session/"+sid+path, body, nil)
	if err == nil {
		return true
	}
	if ctx.Err() == nil {
		d.uiFailed(ctx, sid, err)
	}
	return false
}

// uiCall sends one request and decodes the W3C answer's whole body into out.
func (d *Device) uiCall(ctx context.Context, client *http.Client, method, path string, in, out any) error {
	defer d.begin(ctx, serverOp(path))()
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://uiautomator2"+path, body)
	if err != nil {
		return err
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json; charset=utf-8")
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("%w: %s %s: %v", errUIServer, method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return fmt.Errorf("%w: %s %s: %v", errUIServer, method, path, err)
	}
	if resp.StatusCode == http.StatusNotFound && strings.Contains(string(raw),
		"unknown command") || resp.StatusCode == http.StatusNotFound && len(bytes.TrimSpace(raw)) == 0 {
		return fmt.Errorf("%w: %s %s", errUIUnknownCommand, method, path)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%w: %s %s: %s: %s", errUIServer, method, path, resp.Status, abbreviate(string(raw), 200))
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("%w: %s %s: %v", errUIServer, method, path, err)
	}
	return nil
}

// uiSource is the server's page source (after its idle wait); ok false: classic path.
func (d *Device) uiSource(ctx context.Context) (xml []byte, ok bool, err error) {
	var v struct {
		Value string `json:"value"`
	}
	ok, err = d.uiGet(ctx, "/source", &v)
	if !ok || err != nil {
		return nil, ok, err
	}
	if !strings.Contains(v.Value, "</hierarchy>") {
		return nil, true, fmt.Errorf("%w: source without a hierarchy", errUIServer)
	}
	return []byte(v.Value), true, nil
}

// uiScreenshot is the server's screenshot (PNG); ok false: classic path.
func (d *Device) uiScreenshot(ctx context.Context) (png []byte, ok bool, err error) {
	var v struct {
		Value string `json:"value"`
	}
	ok, err = d.uiGet(ctx, "/screenshot", &v)
	if !ok || err != nil {
		return nil, ok, err
	}
	png, err = base64.StdEncoding.DecodeString(strings.ReplaceAll(v.Value, "\n", ""))
	if err != nil {
		return nil, true, fmt.Errorf("%w: screenshot: %v", errUIServer, err)
	}
	return png, true, nil
}

// errUIUnknownCommand: the server answered that it has no such route (an older release).
var errUIUnknownCommand = fmt.Errorf("%w: unknown command", errUIServer)

// uiIdle waits on the server until the screen is idle, bounded by the session's
// waitForIdleTimeout: POST appium/reset_ax_cache (server 9.2.0 and later) waits for idle as
// a page source does, then clears the accessibility cache, without walking the tree. ok
// false: classic path, or a server without the route (then the page source settles).
func (d *Device) uiIdle(ctx context.Context) (ok bool, err error) {
	if d.ui.noIdle.Load() {
		return false, nil
	}
	ok, err = d.uiDo(ctx, http.MethodPost, "/appium/reset_ax_cache", map[string]any{}, nil)
	if errors.Is(err, errUIUnknownCommand) {
		d.ui.noIdle.Store(true)
		d.log.Debug("adb: resident UI server has no reset_ax_cache; settling on its page source", slog.Any(keyErr, err))
		return false, nil
	}
	return ok, err
}

// uiKeyboard is the server's keyboard state; ok false: classic path.
func (d *Device) uiKeyboard(ctx context.Context) (shown, ok bool, err error) {
	var v struct {
		Value bool `json:"value"`
	}
	ok, err = d.uiGet(ctx, "/appium/device/is_keyboard_shown", &v)
	return v.Value, ok, err
}

// UIServerActive reports whether the device reads the screen through the resident server
// now (false before the first read and on the classic path).
func (d *Device) UIServerActive() bool {
	d.ui.mu.Lock()
	defer d.ui.mu.Unlock()
	return d.ui.state == uiUp
}

// dialDevice opens a stream to a device socket (tcp:PORT, localabstract:NAME) through the
// adb server, as `adb forward` does for each connection it accepts.
func (d *Device) dialDevice(ctx context.Context, service string) (net.Conn, error) {
	h, err := dial(ctx, d.addr, d.cfg.DialTimeout)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (net.Conn, error) {
		h.Close()
		return nil, err
	}
	if err := h.send("host:transport:" + d.serial); err != nil {
		return fail(ioError(ctx, err))
	}
	if err := h.status(); err != nil {
		return fail(err)
	}
	if err := h.send(service); err != nil {
		return fail(ioError(ctx, err))
	}
	if err := h.status(); err != nil {
		return fail(err)
	}
	// The stream outlives the dial's context: the HTTP client keeps it for later requests.
	h.stop()
	_ = h.c.SetDeadline(time.Time{})
	return h.c, nil
}
