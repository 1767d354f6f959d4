package sim

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/fairy-go/fairy/sim/wire"
)

// The phone's device sockets and framebuffer as the wire protocols see them.
var (
	_ wire.Sockets     = (*Phone)(nil)
	_ wire.Framebuffer = (*Phone)(nil)
)

// u2Port is the device port of the uiautomator2 server (openatx's app-uiautomator.apk,
// started by `python -m uiautomator2 init`), which the virtual phone runs: clients reach it
// through `adb forward tcp:N tcp:9008` and ask it for the all-windows dump.
const u2Port = 9008

// Socket returns the server behind a device socket: the uiautomator2 JSON-RPC server on
// tcp:9008, the Appium UiAutomator2 server on tcp:6790 and its MJPEG stream on tcp:7810
// while it runs, nothing elsewhere.
func (p *Phone) Socket(addr string) func(ctx context.Context, conn io.ReadWriter) error {
	if addr == "tcp:"+strconv.Itoa(u2Port) || addr == "tcp:localhost:"+strconv.Itoa(u2Port) {
		return p.serveU2
	}
	if addr == "tcp:"+strconv.Itoa(UIServerPort) || addr == "tcp:localhost:"+strconv.Itoa(UIServerPort) {
		p.mu.Lock()
		running := p.uia2.running
		p.mu.Unlock()
		if running {
			return p.serveUIServer
		}
	}
	if addr == "tcp:"+strconv.Itoa(UIServerMJPEGPort) || addr == "tcp:localhost:"+strconv.Itoa(UIServerMJPEGPort) {
		p.mu.Lock()
		running := p.uia2.running
		p.mu.Unlock()
		if running {
			return p.serveMJPEG
		}
	}
	return nil
}

// Framebuffer returns the screen as it is now (the framebuffer: service).
func (p *Phone) Framebuffer() (*image.RGBA, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	img := p.renderLocked()
	out := image.NewRGBA(img.Bounds())
	copy(out.Pix, img.Pix)
	return out, nil
}

// DumpAllWindows returns the all-windows dump the uiautomator2 server answers
// (status bar, app or dialog, keyboard, navigation bar).
func (p *Phone) DumpAllWindows() []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.dumpAllLocked())
}

// u2Request is a JSON-RPC 2.0 call to the uiautomator2 server.
type u2Request struct {
	JSONRPC string            `json:"jsonrpc"`
	ID      json.RawMessage   `json:"id"`
	Method  string            `json:"method"`
	Params  []json.RawMessage `json:"params"`
}

type u2Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type u2Response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *u2Error        `json:"error,omitempty"`
}

// serveU2 answers HTTP/1.1 requests on one forwarded connection as the uiautomator2 server
// does: GET /ping → "pong", POST /jsonrpc/0 with dumpWindowHierarchy → the all-windows
// dump. Other methods get JSON-RPC's "method not found"; other paths 404.
func (p *Phone) serveU2(ctx context.Context, conn io.ReadWriter) error {
	return serveHTTP(ctx, conn, func(req *http.Request, body []byte) (int, string, []byte, bool) {
		status, ctype, out := p.u2Answer(req.Method, req.URL.Path, body)
		return status, ctype, out, true
	}, nil)
}

// serveHTTP answers HTTP/1.1 requests on one forwarded connection (both on-device servers
// the phone emulates) until the client closes or asks to close, or answer reports the
// server gone (ok false: the socket closes unanswered); served, if set, runs after each
// answer is written.
func serveHTTP(ctx context.Context, conn io.ReadWriter, answer func(req *http.Request, body []byte) (status int,
	ctype string, out []byte, ok bool), served func()) error {
	br := bufio.NewReader(conn)
	for ctx.Err() == nil {
		req, err := http.ReadRequest(br)
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				return nil
			}
			return fmt.Errorf("uiautomator2 server: %w", err)
		}
		body, err := io.ReadAll(io.LimitReader(req.Body, 1<<20))
		_ = req.Body.Close()
		if err != nil {
			return fmt.Errorf("uiautomator2 server: %w", err)
		}
		status, ctype, out, ok := answer(req, body)
		if !ok {
			return nil
		}
		resp := &http.Response{
			StatusCode: status, ProtoMajor: 1, ProtoMinor: 1, Request: req,
			Header:        http.Header{"Content-Type": {ctype}},
			ContentLength: int64(len(out)), Body: io.NopCloser(bytes.NewReader(out)),
			Close: req.Close,
		}
		if err := resp.Write(conn); err != nil {
			return fmt.Errorf("uiautomator2 server: %w", err)
		}
		if served != nil {
			served()
		}
		if req.Close {
			return nil
		}
	}
	return nil
}

func (p *Phone) u2Answer(method, path string, body []byte) (status int, ctype string, out []byte) {
	switch {
	case path == "/ping":
		return http.StatusOK, "text/plain", []byte("pong")
	case path == "/jsonrpc/0" && method == http.MethodPost:
	default:
		return http.StatusNotFound, "text/plain", []byte("Not Found")
	}
	var req u2Request
	resp := u2Response{JSONRPC: "2.0"}
	if err := json.Unmarshal(body, &req); err != nil {
		resp.Error = &u2Error{Code: -32700, Message: "Parse error"}
	} else {
		resp.ID = req.ID
		switch strings.TrimSpace(req.Method) {
		case "dumpWindowHierarchy":
			resp.Result = string(p.DumpAllWindows())
		case "deviceInfo":
			p.mu.Lock()
			m := p.metrics()
			pkg := p.top().app.spec.Package
			p.mu.Unlock()
			sdk, _ := strconv.Atoi(sdkFor(p.cfg.Release))
			resp.Result = map[string]any{"currentPackageName": pkg, "displayWidth": m.w, "displayHeight": m.h,
				"displayRotation": 0, "displaySizeDpX": int(float64(m.w) / m.d), "displaySizeDpY": int(float64(m.h) / m.d),
				"naturalOrientation": true, "screenOn": true, "sdkInt": sdk, "productName": p.cfg.Product}
		default:
			resp.Error = &u2Error{Code: -32601, Message: "Method not found: " + req.Method}
		}
	}
	out, err := json.Marshal(resp)
	if err != nil {
		return http.StatusInternalServerError, "text/plain", []byte(err.Error())
	}
	return http.StatusOK, "application/json", out
}
