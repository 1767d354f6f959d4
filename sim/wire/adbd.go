package wire

import (
	"bufio"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
)

// DeviceConfig configures a DeviceServer.
type DeviceConfig struct {
	// Device is the phone this face serves. Required.
	Device Device
	// Listener, if set, is used instead of listening on Addr.
	Listener net.Listener
	// Addr is the TCP address to listen on; default "127.0.0.1:0" (a free port).
	Addr string
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
	// MaxData caps the payload of one packet (at most and by default 1 MiB).
	MaxData int
}

// DeviceServer serves the adbd device protocol for one device over TCP, so that the real
// adb server reaches it with `adb connect ADDR`.
type DeviceServer struct {
	loop     *listenerLoop
	dev      Device
	maxData  uint32
	reverses forwardTable // adb reverse rules the device keeps
}

// NewDeviceServer checks cfg and opens the listener; call Serve to accept hosts.
func NewDeviceServer(cfg DeviceConfig) (*DeviceServer, error) {
	if cfg.Device == nil {
		return nil, fmt.Errorf("new device server: %w", errNoDevice)
	}
	maxData := uint32(maxPayload)
	if cfg.MaxData > 0 && cfg.MaxData < maxPayload {
		maxData = uint32(max(cfg.MaxData, 256))
	}
	loop, err := newListenerLoop(cfg.Listener, cfg.Addr, cfg.Logger)
	if err != nil {
		return nil, fmt.Errorf("new device server %s: %w", cfg.Device.Serial(), err)
	}
	return &DeviceServer{loop: loop, dev: cfg.Device, maxData: maxData}, nil
}

// Addr is the address to `adb connect` to.
func (s *DeviceServer) Addr() net.Addr { return s.loop.ln.Addr() }

// Device is the device served.
func (s *DeviceServer) Device() Device { return s.dev }

// Serve accepts hosts until ctx ends or Close is called; it returns nil then.
func (s *DeviceServer) Serve(ctx context.Context) error { return s.loop.serve(ctx, s.handle) }

// Close stops the server, ends every connection and waits for their goroutines.
func (s *DeviceServer) Close() error { return s.loop.close() }

// deviceBanner is the CNXN banner a device announces: its properties and features.
func deviceBanner(p Props) string {
	return fmt.Sprintf("device::ro.product.name=%s;ro.product.model=%s;ro.product.device=%s;features=%s",
		p.Product, p.Model, p.Device, deviceFeatures)
}

// adbdConn is one host connection to the device face.
type adbdConn struct {
	srv  *DeviceServer
	conn net.Conn
	log  *slog.Logger
	ctx  context.Context

	wmu     sync.Mutex // serialises packet writes
	wbuf    []byte
	version uint32 // agreed protocol version; written before any stream exists
	maxData uint32

	mu      sync.Mutex
	online  bool
	streams map[uint32]*adbdStream
	nextID  uint32
	wg      sync.WaitGroup
}

func (s *DeviceServer) handle(ctx context.Context, nc net.Conn) {
	ctx, cancel := context.WithCancel(ctx)
	c := &adbdConn{
		srv: s, conn: nc, ctx: ctx, version: versionMin, maxData: s.maxData,
		streams: map[uint32]*adbdStream{},
		log:     s.loop.log.With(slog.String(keySerial, s.dev.Serial()), slog.String(keyRemote, nc.RemoteAddr().String())),
	}
	err := c.readLoop()
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) {
		c.log.Debug("wire: adbd connection ended", slog.Any(keyErr, err))
	}
	cancel()
	_ = nc.Close()
	c.mu.Lock()
	for id, st := range c.streams {
		st.remoteClosed()
		delete(c.streams, id)
	}
	c.mu.Unlock()
	c.wg.Wait()
}

func (c *adbdConn) send(p packet) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.wbuf = appendPacket(c.wbuf[:0], p, c.version)
	_, err := c.conn.Write(c.wbuf)
	if cap(c.wbuf) > 2*headerSize+2*int(maxPayload) {
		c.wbuf = nil
	}
	return err
}

// chunkSize is the agreed maximum payload of one packet.
func (c *adbdConn) chunkSize() int {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return int(c.maxData)
}

func (c *adbdConn) readLoop() error {
	r := bufio.NewReaderSize(c.conn, 64<<10)
	for {
		p, err := readPacket(r, maxPayload)
		if err != nil {
			return err
		}
		if err := c.dispatch(p); err != nil {
			return err
		}
	}
}

func (c *adbdConn) dispatch(p packet) error {
	switch p.cmd {
	case cmdCNXN:
		return c.connect(p)
	case cmdAUTH:
		// Only an unauthorized device asks; every answer is refused with a new token, so the
		// host lists it as unauthorized.
		if p.arg0 == authSignature {
			return c.sendToken()
		}
		return nil
	}
	c.mu.Lock()
	online := c.online
	c.mu.Unlock()
	if !online {
		return fmt.Errorf("packet %s before CNXN: %w", cmdName(p.cmd), errMalformed)
	}
	switch p.cmd {
	case cmdOPEN:
		return c.open(p)
	case cmdOKAY:
		if st := c.stream(p.arg1); st != nil {
			st.okay()
		}
	case cmdWRTE:
		if max := c.chunkSize(); len(p.data) > max {
			return fmt.Errorf("WRTE of %d bytes (max %d): %w", len(p.data), max, errMalformed)
		}
		if st := c.stream(p.arg1); st != nil {
			return st.input(p.data)
		}
	case cmdCLSE:
		c.mu.Lock()
		st := c.streams[p.arg1]
		if st != nil && (p.arg0 == 0 || p.arg0 == st.remote) {
			delete(c.streams, p.arg1)
		} else {
			st = nil
		}
		c.mu.Unlock()
		if st != nil {
			st.remoteClosed()
		}
	default:
		// Unknown commands are ignored, as adbd does.
	}
	return nil
}

func (c *adbdConn) stream(local uint32) *adbdStream {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.streams[local]
}

// connect answers the host's CNXN according to the device's connection state.
func (c *adbdConn) connect(p packet) error {
	banner := strings.TrimRight(string(p.data), "\x00")
	if !strings.HasPrefix(banner, "host:") || p.arg0 < versionMin || p.arg1 < 256 {
		return fmt.Errorf("CNXN version %#x maxdata %d banner %q: %w", p.arg0, p.arg1, banner, errMalformed)
	}
	// A new CNXN restarts the session: its streams are gone.
	c.mu.Lock()
	for id, st := range c.streams {
		delete(c.streams, id)
		defer st.remoteClosed()
	}
	c.online = false
	c.mu.Unlock()

	switch c.srv.dev.ConnState() {
	case StateDevice:
	case stateUnauthorized:
		return c.sendToken()
	default:
		return nil // an offline device never answers
	}
	c.wmu.Lock()
	c.version = min(p.arg0, versionSkipChecksum)
	c.maxData = min(p.arg1, c.srv.maxData)
	c.wmu.Unlock()
	c.mu.Lock()
	c.online = true
	c.mu.Unlock()
	return c.send(packet{cmd: cmdCNXN, arg0: c.version, arg1: c.maxData, data: []byte(deviceBanner(c.srv.dev.Props()))})
}

func (c *adbdConn) sendToken() error {
	token := sha256.Sum256([]byte("fairy-token:" + c.srv.dev.Serial()))
	return c.send(packet{cmd: cmdAUTH, arg0: authToken, data: token[:20]})
}

// open starts a service stream, or refuses an unknown service with CLSE(0, id).
func (c *adbdConn) open(p packet) error {
	if p.arg0 == 0 {
		return fmt.Errorf("OPEN with local id 0: %w", errMalformed)
	}
	req := strings.TrimRight(string(p.data), "\x00")
	svc, ok := parseService(req)
	if !ok || !available(c.srv.dev, svc) {
		c.log.Debug("wire: unknown service", slog.String(keyService, req))
		return c.send(packet{cmd: cmdCLSE, arg0: 0, arg1: p.arg0})
	}
	ctx, cancel := context.WithCancel(c.ctx)
	c.mu.Lock()
	c.nextID++
	st := &adbdStream{
		c: c, local: c.nextID, remote: p.arg0, ctx: ctx, cancel: cancel,
		okayCh: make(chan struct{}, 1), done: make(chan struct{}),
	}
	st.cond = sync.NewCond(&st.mu)
	c.streams[st.local] = st
	c.wg.Add(1)
	c.mu.Unlock()
	if err := c.send(packet{cmd: cmdOKAY, arg0: st.local, arg1: st.remote}); err != nil {
		c.wg.Done()
		return err
	}
	go func() {
		defer c.wg.Done()
		defer func() {
			if r := recover(); r != nil {
				c.log.Error("wire: service panicked", slog.Any(keyPanic, r), slog.String(keyService, req))
				c.abort()
			}
		}()
		runService(ctx, c.srv.dev, svc, st, &c.srv.reverses, c.log)
	}()
	return nil
}

// abort drops the whole connection abruptly (fault injection).
func (c *adbdConn) abort() { abortConn(c.conn) }

// adbdStream is one service stream: WRTE payloads in, WRTE chunks out, each out chunk
// waiting for the host's OKAY.
type adbdStream struct {
	c             *adbdConn
	local, remote uint32
	ctx           context.Context
	cancel        context.CancelFunc

	mu      sync.Mutex
	cond    *sync.Cond
	in      []byte
	pending bool // an input WRTE awaits its OKAY until read
	closed  bool // no more input: ended locally or closed by the host
	okayCh  chan struct{}
	done    chan struct{} // closed with closed
	ended   bool          // end was called
}

// input queues a WRTE payload; it is acknowledged once read.
func (s *adbdStream) input(data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	if len(s.in)+len(data) > 4*int(maxPayload) {
		return fmt.Errorf("stream %d: host wrote without waiting for OKAY: %w", s.local, errMalformed)
	}
	s.in = append(s.in, data...)
	s.pending = true
	s.cond.Broadcast()
	return nil
}

// Read returns queued input; draining it acknowledges the host's WRTE.
func (s *adbdStream) Read(p []byte) (int, error) {
	s.mu.Lock()
	for len(s.in) == 0 && !s.closed {
		s.cond.Wait()
	}
	if len(s.in) == 0 {
		s.mu.Unlock()
		return 0, io.EOF
	}
	n := copy(p, s.in)
	s.in = s.in[n:]
	ack := len(s.in) == 0 && s.pending
	if ack {
		s.pending = false
		s.in = nil
	}
	s.mu.Unlock()
	if ack {
		if err := s.c.send(packet{cmd: cmdOKAY, arg0: s.local, arg1: s.remote}); err != nil {
			return n, err
		}
	}
	return n, nil
}

// Write sends p in WRTE packets of at most maxdata bytes, each after the previous OKAY.
func (s *adbdStream) Write(p []byte) (int, error) {
	written := 0
	for len(p) > 0 {
		chunk := p[:min(len(p), s.c.chunkSize())]
		select {
		case <-s.done:
			return written, io.ErrClosedPipe
		default:
		}
		if err := s.c.send(packet{cmd: cmdWRTE, arg0: s.local, arg1: s.remote, data: chunk}); err != nil {
			return written, err
		}
		select {
		case <-s.okayCh:
		case <-s.done:
			return written, io.ErrClosedPipe
		}
		written += len(chunk)
		p = p[len(chunk):]
	}
	return written, nil
}

func (s *adbdStream) okay() {
	select {
	case s.okayCh <- struct{}{}:
	default:
	}
}

func (s *adbdStream) stop() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.closed = true
	close(s.done)
	s.cond.Broadcast()
	return true
}

// remoteClosed handles the host's CLSE (or the connection's end): the command is cancelled.
func (s *adbdStream) remoteClosed() {
	s.cancel()
	s.stop()
}

// end closes the stream from the device side, telling the host with CLSE unless the host
// closed it first; with abort it drops the whole connection.
func (s *adbdStream) end(abort bool) {
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		return
	}
	s.ended = true
	s.mu.Unlock()
	if abort {
		s.c.abort()
	}
	if s.stop() {
		s.c.mu.Lock()
		delete(s.c.streams, s.local)
		s.c.mu.Unlock()
		if !abort {
			_ = s.c.send(packet{cmd: cmdCLSE, arg0: s.local, arg1: s.remote})
		}
	}
	s.cancel()
}

// DeviceGroupConfig configures a DeviceGroup.
type DeviceGroupConfig struct {
	// Devices get one device face each. Required.
	Devices []Device
	// Addr is host:port of the first face; the others take the next ports. With port 0
	// (the default "127.0.0.1:0") each face takes any free port.
	Addr string
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
}

// DeviceGroup is one device face per phone, on consecutive ports.
type DeviceGroup struct {
	servers []*DeviceServer
}

// NewDeviceGroup opens one DeviceServer per device.
func NewDeviceGroup(cfg DeviceGroupConfig) (*DeviceGroup, error) {
	if len(cfg.Devices) == 0 {
		return nil, fmt.Errorf("new device group: %w", errNoDevice)
	}
	addr := cfg.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	host, portText, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("new device group: address %q: %w", addr, err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port < 0 || port+len(cfg.Devices) > 65536 {
		return nil, fmt.Errorf("new device group: port %q out of range", portText)
	}
	g := &DeviceGroup{}
	for i, d := range cfg.Devices {
		p := 0
		if port != 0 {
			p = port + i
		}
		s, err := NewDeviceServer(DeviceConfig{Device: d, Addr: net.JoinHostPort(host, strconv.Itoa(p)), Logger: cfg.Logger})
		if err != nil {
			_ = g.Close()
			return nil, fmt.Errorf("new device group: %w", err)
		}
		g.servers = append(g.servers, s)
	}
	return g, nil
}

// Servers are the faces, in device order.
func (g *DeviceGroup) Servers() []*DeviceServer { return append([]*DeviceServer(nil), g.servers...) }

// Serve serves every face until ctx ends or Close is called.
func (g *DeviceGroup) Serve(ctx context.Context) error {
	errs := make([]error, len(g.servers))
	var wg sync.WaitGroup
	for i, s := range g.servers {
		wg.Go(func() { errs[i] = s.Serve(ctx) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// Close closes every face and waits for their goroutines.
func (g *DeviceGroup) Close() error {
	var errs []error
	for _, s := range g.servers {
		errs = append(errs, s.Close())
	}
	return errors.Join(errs...)
}
