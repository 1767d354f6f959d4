package adb

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"
)

// hostConn is one connection to the adb server. The host protocol carries one service
// per connection: a request (4 hex digits of length, then the text), answered OKAY or
// FAIL+message. The connection is closed when the call's context ends, which unblocks any
// read or write in progress.
type hostConn struct {
	c    net.Conn
	stop func() bool
}

// dial connects to the adb server at addr and ties the connection to ctx.
func dial(ctx context.Context, addr string, timeout time.Duration) (*hostConn, error) {
	d := net.Dialer{Timeout: timeout}
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, serverDown(addr, err)
	}
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetNoDelay(true)
	}
	if dl, ok := ctx.Deadline(); ok {
		_ = c.SetDeadline(dl)
	}
	h := &hostConn{c: c}
	h.stop = context.AfterFunc(ctx, func() { _ = c.Close() })
	return h, nil
}

// Close closes the connection.
func (h *hostConn) Close() error {
	h.stop()
	return h.c.Close()
}

// send writes one request.
func (h *hostConn) send(req string) error {
	if len(req) > 0xffff {
		return fmt.Errorf("%w: request of %d bytes", ErrBadArgument, len(req))
	}
	buf := make([]byte, 0, 4+len(req))
	buf = fmt.Appendf(buf, "%04x", len(req))
	buf = append(buf, req...)
	_, err := h.c.Write(buf)
	return err
}

// status reads OKAY or FAIL; a FAIL becomes an error classified from its message.
func (h *hostConn) status() error {
	var st [4]byte
	if _, err := io.ReadFull(h.c, st[:]); err != nil {
		return err
	}
	switch string(st[:]) {
	case "OKAY":
		return nil
	case "FAIL":
		msg, err := h.readString()
		if err != nil {
			return fmt.Errorf("%w: FAIL without message: %v", errProtocol, err)
		}
		return failError(msg)
	}
	return fmt.Errorf("%w: status %q", errProtocol, st[:])
}

// readString reads one length-prefixed string.
func (h *hostConn) readString() (string, error) {
	var n [4]byte
	if _, err := io.ReadFull(h.c, n[:]); err != nil {
		return "", err
	}
	size, err := strconv.ParseUint(string(n[:]), 16, 32)
	if err != nil {
		return "", fmt.Errorf("%w: length %q", errProtocol, n[:])
	}
	b := make([]byte, size)
	if _, err := io.ReadFull(h.c, b); err != nil {
		return "", err
	}
	return string(b), nil
}

// failError turns an adb server FAIL message into a sentinel-wrapping error.
func failError(msg string) error {
	low := strings.ToLower(msg)
	switch {
	case strings.Contains(low, "more than one"):
		return fmt.Errorf("%w (server: %s)", ErrMultipleDevices, msg)
	case strings.Contains(low, "unauthorized"):
		return fmt.Errorf("%w (server: %s)", ErrUnauthorized, firstLine(msg))
	case strings.Contains(low, "offline"):
		return fmt.Errorf("%w (server: %s)", ErrOffline, msg)
	case strings.Contains(low, "no devices") || strings.Contains(low, "no emulators"):
		return fmt.Errorf("%w (server: %s)", ErrNoDevice, msg)
	case strings.Contains(low, "not found"):
		return fmt.Errorf("%w (server: %s)", ErrDeviceNotFound, msg)
	}
	return fmt.Errorf("%w: server says %q", errCommandFailed, msg)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// ioError names a failed read or write: ctx's error when the context ended, ErrConnLost
// when the connection broke.
func ioError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return fmt.Errorf("%w: %w", context.DeadlineExceeded, err)
	}
	return fmt.Errorf("%w: %v", errConnLost, err)
}

// query sends one host request and reads the length-prefixed answer.
func query(ctx context.Context, addr string, timeout time.Duration, req string) (string, error) {
	h, err := dial(ctx, addr, timeout)
	if err != nil {
		return "", err
	}
	defer h.Close()
	if err := h.send(req); err != nil {
		return "", ioError(ctx, err)
	}
	if err := h.status(); err != nil {
		if errors.Is(err, errCommandFailed) || errors.Is(err, errProtocol) || isSentinelState(err) {
			return "", err
		}
		return "", ioError(ctx, err)
	}
	s, err := h.readString()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return "", nil // an OKAY without payload (host:kill, …)
		}
		return "", ioError(ctx, err)
	}
	return s, nil
}

func isSentinelState(err error) bool {
	for _, s := range []error{ErrNoDevice, ErrMultipleDevices, ErrDeviceNotFound, ErrOffline, ErrUnauthorized} {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// deviceService switches the connection to serial's transport, opens service and reads
// everything until the device closes the stream.
func deviceService(ctx context.Context, addr string, timeout time.Duration, serial, service string) ([]byte, error) {
	h, err := dial(ctx, addr, timeout)
	if err != nil {
		return nil, err
	}
	defer h.Close()
	if err := h.send("host:transport:" + serial); err != nil {
		return nil, ioError(ctx, err)
	}
	if err := h.status(); err != nil {
		if errors.Is(err, errCommandFailed) || errors.Is(err, errProtocol) || isSentinelState(err) {
			return nil, err
		}
		return nil, ioError(ctx, err)
	}
	if err := h.send(service); err != nil {
		return nil, ioError(ctx, err)
	}
	if err := h.status(); err != nil {
		if errors.Is(err, errCommandFailed) || errors.Is(err, errProtocol) || isSentinelState(err) {
			return nil, err
		}
		return nil, ioError(ctx, err)
	}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(h.c); err != nil {
		// Output read so far is kept for the caller's diagnostics only; a broken stream
		// is never a success.
		return buf.Bytes(), ioError(ctx, err)
	}
	if ctx.Err() != nil {
		return buf.Bytes(), ctx.Err()
	}
	return buf.Bytes(), nil
}
