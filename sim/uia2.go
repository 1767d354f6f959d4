package sim

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// The Appium UiAutomator2 server (npm appium-uiautomator2-server, Apache-2.0): two APKs,
// the server and its instrumentation test, started with `am instrument -w` and reached
// through `adb forward tcp:N tcp:6790`. The virtual phone runs an emulation of it (its pm
// install is in cmd_pm.go, its am instrument in cmd_am.go).
const (
	UIServerPort        = 6790
	uiServerPackage     = "io.appium.uiautomator2.server"
	uiServerTestPackage = "io.appium.uiautomator2.server.test"
	// UIServerRunner is the instrumentation `am instrument -w` starts.
	UIServerRunner = uiServerTestPackage + "/androidx.test.runner.AndroidJUnitRunner"
)

// defaultIdleTimeout is the server's waitForIdleTimeout setting before a client changes
// it (WaitForIdleTimeout.java: 10 * 1000 ms).
const defaultIdleTimeout = 10 * time.Second

// uiServer is the emulated server's state; it survives Reset (the server is set up once,
// like the ADB keyboard), and lives under the phone's lock.
type uiServer struct {
	installed map[string]bool // of uiServerPackage, uiServerTestPackage
	running   bool
	stop      chan struct{} // closed when the running server stops
	sessions  map[string]bool
	nextID    int
	idle      time.Duration // the waitForIdleTimeout setting
	elements  map[string]elementRef
	nextEl    int
	starts    int            // how many times the server was started
	served    int            // requests answered since it started
	requests  map[string]int // requests answered, by method and route ("GET source")
	mjpeg     mjpegConfig    // the MJPEG stream's settings (mjpeg.go)
	streams   int            // clients the MJPEG stream served
	frames    int            // frames the MJPEG stream sent
}

// elementRef is a found element: its node's bounds and attributes when found.
type elementRef struct {
	text   string
	x0, y0 int
	x1, y1 int
	attrs  map[string]string // the page source's attributes (class, resource-id, checked, …)
}

func (s *uiServer) init() {
	if s.installed == nil {
		s.installed = map[string]bool{}
		s.sessions = map[string]bool{}
		s.elements = map[string]elementRef{}
		s.idle = defaultIdleTimeout
	}
}

// UIServerStarts reports how many times the Appium UiAutomator2 server was started on
// the phone and whether it runs now.
func (p *Phone) UIServerStarts() (starts int, running bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.uia2.starts, p.uia2.running
}

// UIServerRequests reports the requests the server answered since the phone was made, by
// method and route without the session: "GET source", "GET screenshot", "POST session", …
func (p *Phone) UIServerRequests() map[string]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make(map[string]int, len(p.uia2.requests))
	for k, v := range p.uia2.requests {
		out[k] = v
	}
	return out
}

func (p *Phone) countUIServerRequest(method, path string) {
	parts := strings.Split(strings.Trim(strings.TrimPrefix(path, "/wd/hub"), "/"), "/")
	if len(parts) >= 2 && parts[0] == "session" {
		parts = parts[2:]
	}
	if len(parts) == 0 {
		parts = []string{"session"}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.uia2.requests == nil {
		p.uia2.requests = map[string]int{}
	}
	p.uia2.requests[method+" "+strings.Join(parts, "/")]++
}

// StopUIServer kills the running server as the system would (low memory, a crash): its
// `am instrument -w` returns and the forwarded port refuses connections.
func (p *Phone) StopUIServer() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stopUIServerLocked()
}

func (p *Phone) stopUIServerLocked() {
	if !p.uia2.running {
		return
	}
	p.uia2.running = false
	close(p.uia2.stop)
	clear(p.uia2.sessions)
	clear(p.uia2.elements)
}

// uiServerInstall records a pm install of one of the server's APKs.
func (p *Phone) uiServerInstall(pkg string) {
	p.uia2.init()
	p.uia2.installed[pkg] = true
}

// serveUIServer answers HTTP/1.1 requests on one forwarded connection as the Appium
// UiAutomator2 server does (AppiumServlet's routes, with or without the legacy /wd/hub
// prefix; W3C responses {"sessionId":…, "value":…}).
func (p *Phone) serveUIServer(ctx context.Context, conn io.ReadWriter) error {
	return serveHTTP(ctx, conn, func(req *http.Request, body []byte) (int, string, []byte, bool) {
		p.mu.Lock()
		alive := p.uia2.running
		p.mu.Unlock()
		if !alive {
			return 0, "", nil, false // the server died: the socket closes
		}
		status, out := p.uiServerAnswer(ctx, req.Method, req.URL.Path, body)
		p.countUIServerRequest(req.Method, req.URL.Path)
		return status, "application/json; charset=utf-8", out, true
	}, func() {
		p.mu.Lock()
		p.uia2.served++
		if n := p.faults.UIServerDie; n > 0 && p.uia2.served >= n {
			p.stopUIServerLocked() // the UIServerDie fault
		}
		p.mu.Unlock()
	})
}

// w3cError is a W3C WebDriver error value.
func w3cError(sid any, status int, name, msg string) (int, []byte) {
	out, _ := json.Marshal(map[string]any{"sessionId": sid, "value": map[string]any{"error": name, "message": msg,
		"stacktrace": ""}})
	return status, out
}

func w3cValue(sid any, v any) (int, []byte) {
	out, err := json.Marshal(map[string]any{"sessionId": sid, "value": v})
	if err != nil {
		return w3cError(sid, http.StatusInternalServerError, "unknown error", err.Error())
	}
	return http.StatusOK, out
}

// w3cElementKey is the W3C element reference key.
const w3cElementKey = "element-6066-11e4-a52e-4f735466cecf"

func (p *Phone) uiServerAnswer(ctx context.Context, method, path string, body []byte) (int, []byte) {
	path = strings.TrimPrefix(path, "/wd/hub")
	parts := strings.Split(strings.Trim(path, "/"), "/")
	switch {
	case method == http.MethodGet && path == "/status":
		return w3cValue(nil, map[string]any{"ready": true, "message": "UiAutomator2 Server is ready to accept commands"})
	case method == http.MethodPost && path == "/session":
		p.mu.Lock()
		p.uia2.nextID++
		sid := fmt.Sprintf("fa1e%04x-0000-4000-8000-%012x", p.uia2.nextID, p.uia2.nextID)
		p.uia2.sessions[sid] = true
		p.mu.Unlock()
		var caps struct {
			Capabilities map[string]any `json:"capabilities"`
		}
		_ = json.Unmarshal(body, &caps)
		return w3cValue(sid, map[string]any{"sessionId": sid, "capabilities": map[string]any{"platformName": "Android"}})
	case method == http.MethodGet && path == "/sessions":
		p.mu.Lock()
		var list []map[string]any
		for id := range p.uia2.sessions {
			list = append(list, map[string]any{"id": id, "capabilities": map[string]any{}})
		}
		p.mu.Unlock()
		return w3cValue(nil, list)
	case len(parts) < 2 || parts[0] != "session":
		return w3cError(nil, http.StatusNotFound, "unknown command", "The requested resource could not be found, "+
			"or a request was received using an HTTP method that is not supported by the mapped resource")
	}
	sid := parts[1]
	p.mu.Lock()
	ok := p.uia2.sessions[sid]
	p.mu.Unlock()
	if !ok {
		return w3cError(sid, http.StatusNotFound, "invalid session id", "A session is either terminated or not started")
	}
	rest := strings.Join(parts[2:], "/")
	switch {
	case method == http.MethodDelete && rest == "":
		p.mu.Lock()
		delete(p.uia2.sessions, sid)
		p.mu.Unlock()
		return w3cValue(sid, nil)
	case method == http.MethodGet && rest == "":
		return w3cValue(sid, map[string]any{"platformName": "Android"})
	case method == http.MethodPost && rest == "appium/reset_ax_cache":
		// ResetAxCache (server 9.2.0+): AXWindowHelpers.resetAccessibilityCache(true) —
		// Device.waitForIdle, then the cache cleared; no tree is walked.
		if err := p.uiServerIdleFor(ctx, p.cfg.Profile.UIRequest); err != nil {
			return w3cError(sid, http.StatusInternalServerError, "unknown error", err.Error())
		}
		return w3cValue(sid, nil)
	case method == http.MethodGet && rest == "source":
		if err := p.uiServerIdle(ctx); err != nil {
			return w3cError(sid, http.StatusInternalServerError, "unknown error", err.Error())
		}
		p.mu.Lock()
		xml := p.appiumSourceLocked()
		p.mu.Unlock()
		return w3cValue(sid, string(xml))
	case method == http.MethodGet && rest == "screenshot":
		// The frame is drawn within the server's latency (see readsFrame).
		start := p.cfg.Clock()
		p.mu.Lock()
		png, err := p.screenshotLocked()
		p.mu.Unlock()
		if err := p.uiServerWaitRest(ctx, p.cfg.Profile.UIShot, p.cfg.Clock().Sub(start)); err != nil {
			return w3cError(sid, http.StatusInternalServerError, "unknown error", err.Error())
		}
		if err != nil {
			return w3cError(sid, http.StatusInternalServerError, "unknown error", err.Error())
		}
		return w3cValue(sid, base64.StdEncoding.EncodeToString(png))
	case method == http.MethodGet && rest == "appium/settings":
		p.mu.Lock()
		idle := p.uia2.idle
		p.mu.Unlock()
		return w3cValue(sid, map[string]any{"waitForIdleTimeout": idle.Milliseconds(), "enableMultiWindows": false})
	case method == http.MethodPost && rest == "appium/settings":
		var req struct {
			Settings map[string]json.RawMessage `json:"settings"`
		}
		if err := json.Unmarshal(body, &req); err != nil || req.Settings == nil {
			return w3cError(sid, http.StatusBadRequest, "invalid argument", "'settings' are expected to be a JSON object")
		}
		if raw, ok := req.Settings["waitForIdleTimeout"]; ok {
			var msec int64
			if err := json.Unmarshal(raw, &msec); err != nil || msec < 0 {
				return w3cError(sid, http.StatusBadRequest, "invalid argument", "waitForIdleTimeout must be a "+
					"non-negative number "+
					"of milliseconds")
			}
			p.mu.Lock()
			p.uia2.idle = time.Duration(msec) * time.Millisecond
			p.mu.Unlock()
		}
		p.mu.Lock()
		cfg := p.uia2.mjpeg
		p.mu.Unlock()
		for _, s := range mjpegSettings {
			raw, ok := req.Settings[s.name]
			if !ok {
				continue
			}
			var v int
			if err := json.Unmarshal(raw, &v); err != nil || v < s.min || v > s.max {
				return w3cError(sid, http.StatusBadRequest, "invalid argument", fmt.Sprintf("Invalid %s value specified, "+
					"must be in range %d..%d. %s was given", s.name, s.min, s.max, raw))
			}
			*s.field(&cfg) = v
		}
		p.mu.Lock()
		p.uia2.mjpeg = cfg
		p.mu.Unlock()
		return w3cValue(sid, nil)
	case method == http.MethodGet && rest == "appium/device/is_keyboard_shown":
		if err := p.uiServerWait(ctx, p.cfg.Profile.UIRequest); err != nil {
			return w3cError(sid, http.StatusInternalServerError, "unknown error", err.Error())
		}
		p.mu.Lock()
		shown := p.kbShown
		p.mu.Unlock()
		return w3cValue(sid, shown)
	case method == http.MethodGet && rest == "appium/device/pixel_ratio":
		// GetDevicePixelRatio: the display's density over 160.
		p.mu.Lock()
		d := p.metrics().d
		p.mu.Unlock()
		return w3cValue(sid, d)
	case method == http.MethodGet && rest == "appium/device/system_bars":
		// GetSystemBars: the status bar's height in pixels.
		p.mu.Lock()
		sb := p.metrics().sb
		p.mu.Unlock()
		return w3cValue(sid, map[string]any{"statusBar": sb})
	case method == http.MethodGet && rest == "appium/device/info":
		return w3cValue(sid, p.uiServerDeviceInfo())
	case method == http.MethodGet && strings.HasPrefix(rest, "window/") && strings.HasSuffix(rest, "/size"),
		method == http.MethodGet && rest == "window/rect":
		p.mu.Lock()
		m := p.metrics()
		p.mu.Unlock()
		return w3cValue(sid, map[string]any{"x": 0, "y": 0, "width": m.w, "height": m.h})
	case method == http.MethodPost && rest == "appium/gestures/click":
		// ClickModel: a click at offset (absolute without an origin element).
		var req struct {
			Origin map[string]string       `json:"origin"`
			Offset *struct{ X, Y float64 } `json:"offset"`
		}
		if err := json.Unmarshal(body, &req); err != nil || req.Offset == nil || req.Origin != nil {
			return w3cError(sid, http.StatusBadRequest, "invalid argument", "Click offset coordinates must be provided if "+
				"element is not set")
		}
		if err := p.uiServerWait(ctx, p.cfg.Profile.UIInput); err != nil {
			return w3cError(sid, http.StatusInternalServerError, "unknown error", err.Error())
		}
		p.mu.Lock()
		p.tap(int(req.Offset.X), int(req.Offset.Y))
		p.mu.Unlock()
		return w3cValue(sid, nil)
	case method == http.MethodPost && rest == "back":
		// PressBack: the system's Back key.
		if err := p.uiServerWait(ctx, p.cfg.Profile.UIInput); err != nil {
			return w3cError(sid, http.StatusInternalServerError, "unknown error", err.Error())
		}
		p.mu.Lock()
		p.key(4, false)
		p.mu.Unlock()
		return w3cValue(sid, nil)
	case method == http.MethodPost && rest == "appium/device/press_keycode":
		var req struct {
			Keycode *int `json:"keycode"`
		}
		if err := json.Unmarshal(body, &req); err != nil || req.Keycode == nil {
			return w3cError(sid, http.StatusBadRequest, "invalid argument", "'keycode' is expected")
		}
		if err := p.uiServerWait(ctx, p.cfg.Profile.UIInput); err != nil {
			return w3cError(sid, http.StatusInternalServerError, "unknown error", err.Error())
		}
		p.mu.Lock()
		p.key(*req.Keycode, false)
		p.mu.Unlock()
		return w3cValue(sid, nil)
	case method == http.MethodPost && (rest == "element" || rest == "elements"):
		// The W3C form (using, value) or the server's own FindElementModel (strategy,
		// selector, context: an element to search within), which Appium's driver sends.
		var req struct{ Using, Value, Strategy, Selector, Context string }
		if err := json.Unmarshal(body, &req); err != nil {
			return w3cError(sid, http.StatusBadRequest, "invalid argument", "'using' and 'value' are expected")
		}
		if req.Using == "" {
			req.Using, req.Value = req.Strategy, req.Selector
		}
		if req.Using == "" {
			return w3cError(sid, http.StatusBadRequest, "invalid argument", "'using' and 'value' are expected")
		}
		var within *elementRef
		if req.Context != "" {
			p.mu.Lock()
			el, ok := p.uia2.elements[req.Context]
			p.mu.Unlock()
			if !ok {
				return w3cError(sid, http.StatusNotFound, "stale element reference", "The element reference is stale")
			}
			within = &el
		}
		found, err := p.uiServerFind(req.Using, req.Value, rest == "element", within)
		if err != nil {
			return w3cError(sid, http.StatusBadRequest, "invalid selector", err.Error())
		}
		if rest == "element" {
			if len(found) == 0 {
				return w3cError(sid, http.StatusNotFound, "no such element", "An element could not be located on the page using "+
					"the given search parameters")
			}
			return w3cValue(sid, found[0])
		}
		return w3cValue(sid, found)
	case len(parts) >= 4 && parts[2] == "element":
		p.mu.Lock()
		el, ok := p.uia2.elements[parts[3]]
		p.mu.Unlock()
		if !ok {
			return w3cError(sid, http.StatusNotFound, "stale element reference", "The element reference is stale")
		}
		sub := strings.Join(parts[4:], "/")
		switch {
		case method == http.MethodPost && sub == "click":
			p.mu.Lock()
			p.tap((el.x0+el.x1)/2, (el.y0+el.y1)/2)
			p.mu.Unlock()
			return w3cValue(sid, nil)
		case method == http.MethodGet && sub == "text":
			return w3cValue(sid, el.text)
		case method == http.MethodPost && (sub == "value" || sub == "clear"):
			// SendKeysToElement (replace false: the text is added to what the field holds)
			// and Clear: the element is focused, then typed into or emptied.
			var req struct {
				Text  *string `json:"text"`
				Value []string
			}
			if sub == "value" {
				if err := json.Unmarshal(body, &req); err != nil || (req.Text == nil && req.Value == nil) {
					return w3cError(sid, http.StatusBadRequest, "invalid argument", "'text' is expected")
				}
			}
			if err := p.uiServerWait(ctx, p.cfg.Profile.UIInput); err != nil {
				return w3cError(sid, http.StatusInternalServerError, "unknown error", err.Error())
			}
			p.mu.Lock()
			defer p.mu.Unlock()
			p.tap((el.x0+el.x1)/2, (el.y0+el.y1)/2)
			if sub == "clear" {
				p.clearField()
				return w3cValue(sid, nil)
			}
			text := strings.Join(req.Value, "")
			if req.Text != nil {
				text = *req.Text
			}
			if !p.typeText(text) {
				return w3cError(sid, http.StatusBadRequest, "invalid element state",
					"The element does not take text: it is not an editable field")
			}
			return w3cValue(sid, nil)
		case method == http.MethodGet && strings.HasPrefix(sub, "attribute/"):
			name := strings.TrimPrefix(sub, "attribute/")
			switch name {
			case "contentDescription", "content-desc", "name":
				name = "content-desc"
			case "resourceId":
				name = "resource-id"
			case "className":
				name = "class"
			}
			v, ok := el.attrs[name]
			if !ok {
				return w3cValue(sid, nil)
			}
			return w3cValue(sid, v)
		case method == http.MethodGet && sub == "name":
			return w3cValue(sid, el.attrs["class"])
		case method == http.MethodGet && (sub == "displayed" || sub == "enabled" || sub == "selected"):
			return w3cValue(sid, el.attrs[sub] == "true")
		case method == http.MethodGet && sub == "rect":
			return w3cValue(sid, map[string]any{"x": el.x0, "y": el.y0, "width": el.x1 - el.x0, "height": el.y1 - el.y0})
		}
	}
	return w3cError(sid, http.StatusNotFound, "unknown command", "The requested resource could not be found, "+
		"or a request was received using an HTTP method that is not supported by the mapped resource")
}

// uiServerIdle waits as Device.waitForIdle does before a source: UiDevice.waitForIdle
// (androidx QueryController: 500 ms without accessibility events) bounded by the
// waitForIdleTimeout setting, then the walk of the tree.
func (p *Phone) uiServerIdle(ctx context.Context) error {
	return p.uiServerIdleFor(ctx, p.cfg.Profile.UISource)
}

// uiServerIdleFor is the idle wait followed by work that takes l.
func (p *Phone) uiServerIdleFor(ctx context.Context, l Latency) error {
	pr := p.cfg.Profile
	if pr.instant() {
		return nil
	}
	p.mu.Lock()
	bound := p.uia2.idle
	work := l.draw(p.lat)
	p.mu.Unlock()
	if err := p.waitQuiet(ctx, uiServerQuiet, bound); err != nil {
		return fmt.Errorf("source: %w", err)
	}
	if err := p.cfg.Sleep(ctx, work); err != nil {
		return fmt.Errorf("source: %w", err)
	}
	return nil
}

// waitQuiet waits until the screen has been quiet (no change, and its animation over) for
// quiet, at most bound: a change during the wait starts the quiet time again, as
// UiAutomation.waitForIdle does with every accessibility event.
func (p *Phone) waitQuiet(ctx context.Context, quiet, bound time.Duration) error {
	return p.waitQuietFrom(ctx, time.Time{}, quiet, bound)
}

// waitQuietFrom is waitQuiet for a waiter that counts its quiet time from since at the
// earliest (a UiAutomation connection opened then, which has seen no event before it); the
// zero since: from the last change only.
func (p *Phone) waitQuietFrom(ctx context.Context, since time.Time, quiet, bound time.Duration) error {
	pr := p.cfg.Profile
	end := p.cfg.Clock().Add(bound)
	for {
		p.mu.Lock()
		changed := p.changedAt
		p.mu.Unlock()
		now := p.cfg.Clock()
		if changed.IsZero() && since.IsZero() {
			return nil
		}
		last := since
		if !changed.IsZero() && changed.Add(pr.Animation).After(last) {
			last = changed.Add(pr.Animation)
		}
		wait := min(last.Add(quiet).Sub(now), end.Sub(now))
		if wait <= 0 {
			return nil
		}
		if err := p.cfg.Sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// uiServerQuiet is UiDevice.waitForIdle's quiet time (QueryController's
// QUIET_TIME_TO_BE_CONSIDERD_IDLE_STATE, 500 ms).
const uiServerQuiet = 500 * time.Millisecond

func (p *Phone) uiServerWait(ctx context.Context, l Latency) error {
	return p.uiServerWaitRest(ctx, l, 0)
}

// uiServerWaitRest is uiServerWait less what was spent already.
func (p *Phone) uiServerWaitRest(ctx context.Context, l Latency, spent time.Duration) error {
	if p.cfg.Profile.instant() {
		return nil
	}
	p.mu.Lock()
	d := l.draw(p.lat)
	p.mu.Unlock()
	if err := p.sleepRest(ctx, d, spent); err != nil {
		return fmt.Errorf("ui server: %w", err)
	}
	return nil
}
