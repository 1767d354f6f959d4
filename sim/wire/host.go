package wire

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"
)

// hostVersion is the adb server protocol version the host face reports (adb 1.0.41).
const hostVersion = 41

// maxHostRequest bounds one host-protocol request, as the adb server does.
const maxHostRequest = 1 << 16

// deviceFeatures are the features the devices advertise (never stat_v2/ls_v2: the sync
// service speaks version 1 only).
const deviceFeatures = "shell_v2,cmd"

// HostConfig configures a HostServer.
type HostConfig struct {
	// Devices are served by serial, in this order in device lists. Required.
	Devices []Device
	// Listener, if set, is used instead of listening on Addr.
	Listener net.Listener
	// Addr is the TCP address to listen on; default "127.0.0.1:0" (a free port).
	Addr string
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
	// OnKill, if set, is called when a client sends host:kill (an adb server would exit).
	OnKill func()
}

// HostServer serves the adb host protocol (what an adb server offers on TCP 5037) for a
// fixed set of devices.
type HostServer struct {
	loop    *listenerLoop
	devices []Device
	onKill  func()
	fwd     hostForwards
}

// NewHostServer checks cfg and opens the listener; call Serve to accept clients.
func NewHostServer(cfg HostConfig) (*HostServer, error) {
	if len(cfg.Devices) == 0 {
		return nil, fmt.Errorf("new host server: %w", errNoDevice)
	}
	seen := map[string]bool{}
	for _, d := range cfg.Devices {
		if d == nil {
			return nil, fmt.Errorf("new host server: nil device: %w", errNoDevice)
		}
		if seen[d.Serial()] {
			return nil, fmt.Errorf("new host server: serial %q twice", d.Serial())
		}
		seen[d.Serial()] = true
	}
	loop, err := newListenerLoop(cfg.Listener, cfg.Addr, cfg.Logger)
	if err != nil {
		return nil, fmt.Errorf("new host server: %w", err)
	}
	s := &HostServer{loop: loop, devices: append([]Device(nil), cfg.Devices...), onKill: cfg.OnKill}
	s.fwd.rev = make(map[Device]*forwardTable, len(cfg.Devices))
	for _, d := range cfg.Devices {
		s.fwd.rev[d] = &forwardTable{}
	}
	return s, nil
}

// Addr is the address clients connect to.
func (s *HostServer) Addr() net.Addr { return s.loop.ln.Addr() }

// Serve accepts clients until ctx ends or Close is called; it returns nil then.
func (s *HostServer) Serve(ctx context.Context) error { return s.loop.serve(ctx, s.handle) }

// Close stops the server, ends every client connection and waits for their goroutines.
func (s *HostServer) Close() error {
	err := s.loop.close()
	s.closeForwards()
	return err
}

// hostConn is one client connection; reads go through a buffer that later services share.
type hostConn struct {
	net.Conn
	r    *bufio.Reader
	once sync.Once
}

func (c *hostConn) Read(p []byte) (int, error) { return c.r.Read(p) }

// lingerTimeout bounds how long a connection whose answer is complete waits for the client
// to close its side before it is closed anyway.
const lingerTimeout = 2 * time.Second

// end finishes the connection. An orderly end only half-closes it: the client reads every
// byte and then end of file, while the server goes on reading until the client closes or
// lingerTimeout passes (linger), and the handler's return closes it. Closing a socket
// outright while input still arrives makes the kernel answer that input with a reset, and
// a reset makes the client's kernel drop the output it received but has not read yet: the
// adb client sends its shell-v2 close-stdin packet while the output streams in, and lost
// the tail of `adb shell` output that way.
func (c *hostConn) end(abort bool) {
	c.once.Do(func() {
		if abort {
			abortConn(c.Conn)
			return
		}
		if hc, ok := c.Conn.(interface{ CloseWrite() error }); ok && hc.CloseWrite() == nil {
			_ = c.Conn.SetReadDeadline(time.Now().Add(lingerTimeout))
			return
		}
		_ = c.Conn.Close()
	})
}

// linger ends the connection in order and discards what the client still sends until it
// closes its side, so that the close that follows resets nothing.
func (c *hostConn) linger() {
	c.end(false)
	_, _ = io.Copy(io.Discard, c)
}

func (s *HostServer) handle(ctx context.Context, nc net.Conn) {
	c := &hostConn{Conn: nc, r: bufio.NewReader(nc)}
	log := s.loop.log.With(slog.String(keyRemote, nc.RemoteAddr().String()))
	var dev Device // selected by a transport request
	for {
		req, err := readHostRequest(c.r)
		if err != nil {
			if !errors.Is(err, io.EOF) {
				log.Debug("wire: host request", slog.Any(keyErr, err))
			}
			return
		}
		if dev != nil {
			s.deviceService(ctx, c, dev, req, log)
			c.linger()
			return
		}
		next, keep := s.hostService(c, req)
		if !keep {
			c.linger()
			return
		}
		dev = next
	}
}

// readHostRequest reads one 4-hex-digit length-prefixed request.
func readHostRequest(r io.Reader) (string, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return "", err
	}
	n, err := strconv.ParseUint(string(hdr[:]), 16, 32)
	if err != nil {
		return "", fmt.Errorf("host request length %q: %w", hdr[:], errMalformed)
	}
	if n == 0 || n > maxHostRequest {
		return "", fmt.Errorf("host request of %d bytes: %w", n, errMalformed)
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(r, buf); err != nil {
		return "", fmt.Errorf("host request: %w", err)
	}
	return string(buf), nil
}

func hexString(s string) []byte {
	if len(s) > 0xffff {
		s = s[:0xffff]
	}
	return fmt.Appendf(nil, "%04x%s", len(s), s)
}

func writeOkay(w io.Writer, payload ...string) error {
	msg := []byte("OKAY")
	for _, p := range payload {
		msg = append(msg, hexString(p)...)
	}
	_, err := w.Write(msg)
	return err
}

func writeFail(w io.Writer, msg string) error {
	_, err := w.Write(append([]byte("FAIL"), hexString(msg)...))
	return err
}

// Failure messages as the adb server words them.
const (
	msgNoDevices    = "no devices/emulators found"
	msgMoreThanOne  = "more than one device/emulator"
	msgOffline      = "device offline"
	msgUnauthorized = "device unauthorized.\nThis adb server's $ADB_VENDOR_KEYS is not set\n" +
		"Try 'adb kill-server' if that seems wrong.\nOtherwise check for a confirmation dialog on your device."
)

// transportErr is a failed device selection, worded for the client.
type transportErr string

func (e transportErr) Error() string { return string(e) }

// pick selects a device by serial ("" for any); online requires the device state.
func (s *HostServer) pick(serial string, online bool) (Device, int, error) {
	var found Device
	id := 0
	if serial == "" {
		if len(s.devices) > 1 {
			return nil, 0, transportErr(msgMoreThanOne)
		}
		found, id = s.devices[0], 1
	} else {
		for i, d := range s.devices {
			if d.Serial() == serial {
				found, id = d, i+1
				break
			}
		}
		if found == nil {
			return nil, 0, transportErr(fmt.Sprintf("device '%s' not found", serial))
		}
	}
	if online {
		switch found.ConnState() {
		case StateDevice:
		case stateUnauthorized:
			return nil, 0, transportErr(msgUnauthorized)
		default:
			return nil, 0, transportErr(msgOffline)
		}
	}
	return found, id, nil
}

func (s *HostServer) byTransportID(text string) (Device, int, error) {
	id, err := strconv.Atoi(text)
	if err != nil || id < 1 || id > len(s.devices) {
		return nil, 0, transportErr(fmt.Sprintf("no device with transport id '%s'", text))
	}
	return s.devices[id-1], id, nil
}

// hostService answers one host: request. It returns the selected device and whether the
// connection goes on (after a transport switch).
func (s *HostServer) hostService(c *hostConn, req string) (Device, bool) {
	switch req {
	case "host:version":
		_ = writeOkay(c, fmt.Sprintf("%04x", hostVersion))
		return nil, false
	case "host:devices", "host:devices-l":
		_ = writeOkay(c, s.deviceList(req == "host:devices-l"))
		return nil, false
	case "host:host-features":
		_ = writeOkay(c, deviceFeatures)
		return nil, false
	case "host:list-forward", "host-local:list-forward":
		s.forwardRequest(c, nil, "list-forward")
		return nil, false
	case "host:killforward-all", "host-local:killforward-all":
		s.forwardRequest(c, nil, "killforward-all")
		return nil, false
	case "host:kill":
		_ = writeOkay(c)
		if s.onKill != nil {
			s.onKill()
		}
		return nil, false
	}

	// Transport switches: plain ones answer OKAY, tport ones add the 8-byte transport id.
	var (
		dev   Device
		id    int
		err   error
		tport bool
		match = true
	)
	switch {
	case req == "host:transport-any" || req == "host:transport-local":
		dev, id, err = s.pick("", true)
	case req == "host:transport-usb":
		err = transportErr(msgNoDevices)
	case strings.HasPrefix(req, "host:transport:"):
		dev, id, err = s.pick(strings.TrimPrefix(req, "host:transport:"), true)
	case strings.HasPrefix(req, "host:transport-id:"):
		if dev, id, err = s.byTransportID(strings.TrimPrefix(req, "host:transport-id:")); err == nil {
			dev, id, err = s.pick(dev.Serial(), true)
		}
	case req == "host:tport:any" || req == "host:tport:local":
		tport = true
		dev, id, err = s.pick("", true)
	case strings.HasPrefix(req, "host:tport:serial:"):
		tport = true
		dev, id, err = s.pick(strings.TrimPrefix(req, "host:tport:serial:"), true)
	default:
		match = false
	}
	if match {
		if err != nil {
			_ = writeFail(c, err.Error())
			return nil, false
		}
		msg := []byte("OKAY")
		if tport {
			msg = binary.LittleEndian.AppendUint64(msg, uint64(id))
		}
		if _, err := c.Write(msg); err != nil {
			return nil, false
		}
		return dev, true
	}

	// Per-device queries: host-serial:SERIAL:CMD, host-transport-id:N:CMD, host:CMD, ….
	dev, query, err, ok := s.deviceQuery(req)
	if !ok {
		_ = writeFail(c, "unknown host service")
		return nil, false
	}
	if err != nil {
		_ = writeFail(c, err.Error())
		return nil, false
	}
	if forwardQuery(query) {
		s.forwardRequest(c, dev, query)
		return nil, false
	}
	switch query {
	case "get-state":
		_ = writeOkay(c, dev.ConnState())
	case "get-serialno":
		_ = writeOkay(c, dev.Serial())
	case "get-devpath":
		_ = writeOkay(c, "unknown")
	case "features":
		_ = writeOkay(c, deviceFeatures)
	default:
		_ = writeFail(c, "unknown host service")
	}
	return nil, false
}

// deviceQuery splits a per-device query into its device and command. Serials may hold
// colons (127.0.0.1:5555), so known serials are matched first.
func (s *HostServer) deviceQuery(req string) (dev Device, query string, err error, ok bool) {
	switch {
	case strings.HasPrefix(req, "host-serial:"):
		rest := strings.TrimPrefix(req, "host-serial:")
		for _, d := range s.devices {
			if q, found := strings.CutPrefix(rest, d.Serial()+":"); found {
				return d, q, nil, true
			}
		}
		serial, q, found := cutLast(rest, ":")
		if !found {
			return nil, "", nil, false
		}
		_, _, err = s.pick(serial, false)
		return nil, q, err, true
	case strings.HasPrefix(req, "host-transport-id:"):
		idText, q, found := strings.Cut(strings.TrimPrefix(req, "host-transport-id:"), ":")
		if !found {
			return nil, "", nil, false
		}
		dev, _, err = s.byTransportID(idText)
		return dev, q, err, true
	case strings.HasPrefix(req, "host-usb:"):
		return nil, "", transportErr(msgNoDevices), true
	case strings.HasPrefix(req, "host-local:"), strings.HasPrefix(req, "host:"):
		_, q, _ := strings.Cut(req, ":")
		switch q {
		case "get-state", "get-serialno", "get-devpath", "features":
		default:
			if !forwardQuery(q) {
				return nil, "", nil, false
			}
		}
		dev, _, err = s.pick("", false)
		return dev, q, err, true
	}
	return nil, "", nil, false
}

// deviceList renders host:devices or host:devices-l as the adb server does.
func (s *HostServer) deviceList(long bool) string {
	var b strings.Builder
	for i, d := range s.devices {
		state := d.ConnState()
		if !long {
			fmt.Fprintf(&b, "%s\t%s\n", d.Serial(), state)
			continue
		}
		fmt.Fprintf(&b, "%-22s %s", d.Serial(), state)
		if state == StateDevice {
			p := d.Props()
			appendProp(&b, "product:", p.Product, false)
			appendProp(&b, "model:", p.Model, true)
			appendProp(&b, "device:", p.Device, false)
		}
		fmt.Fprintf(&b, " transport_id:%d\n", i+1)
	}
	return b.String()
}

// appendProp appends one " key:value" pair, skipping empty values and, for the model,
// replacing anything but letters, digits, '-', '.' and '_' with '_' (adb's sanitize).
func appendProp(b *strings.Builder, key, value string, sanitize bool) {
	if value == "" {
		return
	}
	b.WriteString(" ")
	b.WriteString(key)
	for _, r := range value {
		if sanitize && !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' || r == '_') {
			r = '_'
		}
		if r == ' ' {
			r = '_'
		}
		b.WriteRune(r)
	}
}

// deviceService runs one device service on the switched transport.
func (s *HostServer) deviceService(ctx context.Context, c *hostConn, dev Device, req string, log *slog.Logger) {
	svc, ok := parseService(req)
	if !ok || !available(dev, svc) {
		_ = writeFail(c, "closed")
		return
	}
	if err := writeOkay(c); err != nil {
		return
	}
	runService(ctx, dev, svc, c, s.reverses(dev), log)
}
