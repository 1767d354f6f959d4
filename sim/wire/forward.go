package wire

import (
	"context"
	"log/slog"
	"net"
	"strconv"
	"strings"
)

// hostForwards is the host face's `adb forward` state and the device-kept `adb reverse`
// rules of its devices.
type hostForwards struct {
	table forwardTable
	rev   map[Device]*forwardTable // set up by NewHostServer, one per device
}

// reverses returns the reverse rules dev keeps.
func (s *HostServer) reverses(dev Device) *forwardTable { return s.fwd.rev[dev] }

// forwardRequest answers a forward query of the host face — forward[:norebind]:LOCAL;REMOTE,
// killforward:LOCAL, killforward-all, list-forward — with the adb server's replies: OKAY OKAY
// (and the port when LOCAL was tcp:0), or FAIL with its message. dev is nil for the
// device-less forms (host:list-forward, host:killforward-all).
func (s *HostServer) forwardRequest(c *hostConn, dev Device, query string) {
	serial := ""
	if dev != nil {
		serial = dev.Serial()
	}
	switch {
	case query == "list-forward":
		_ = writeOkay(c, s.fwd.table.list(serial))
	case query == "killforward-all":
		stops, _ := s.fwd.table.remove(serial, "")
		for _, stop := range stops {
			stop()
		}
		_, _ = c.Write([]byte("OKAYOKAY"))
	case strings.HasPrefix(query, "killforward:"):
		stops, err := s.fwd.table.remove(serial, strings.TrimPrefix(query, "killforward:"))
		if err != nil {
			_ = writeFail(c, err.Error())
			return
		}
		for _, stop := range stops {
			stop()
		}
		_, _ = c.Write([]byte("OKAYOKAY"))
	case strings.HasPrefix(query, "forward:") && dev != nil:
		spec, noRebind := strings.CutPrefix(strings.TrimPrefix(query, "forward:"), "norebind:")
		local, remote, ok := strings.Cut(spec, ";")
		if !ok || !validSocketSpec(remote) {
			_ = writeFail(c, "bad forward: "+spec)
			return
		}
		port, ok := strings.CutPrefix(local, "tcp:")
		if n, err := strconv.Atoi(port); !ok || err != nil || n < 0 || n > 65535 {
			_ = writeFail(c, "cannot bind listener: this server forwards tcp:PORT local sockets only, not "+local)
			return
		}
		s.addForward(c, dev, local, remote, noRebind)
	default:
		_ = writeFail(c, "unknown host service")
	}
}

// addForward listens on the local TCP port and installs the rule; each connection to the
// port becomes a stream to the device socket, or is closed at once when nothing listens
// there (what the adb server does when the device refuses the OPEN).
func (s *HostServer) addForward(c *hostConn, dev Device, local, remote string, noRebind bool) {
	if noRebind {
		for _, line := range strings.Split(s.fwd.table.list(""), "\n") {
			if f := strings.Fields(line); len(f) == 3 && f[1] == local {
				_ = writeFail(c, "cannot rebind existing socket")
				return
			}
		}
	}
	asked := local
	if replaced := s.takeForward(local); replaced != nil {
		replaced() // rebinding: the old listener gives the port back first
	}
	loop, err := newListenerLoop(nil, "127.0.0.1:"+strings.TrimPrefix(local, "tcp:"), s.loop.log)
	if err != nil {
		_ = writeFail(c, "cannot bind listener: "+err.Error())
		return
	}
	port := loop.ln.Addr().(*net.TCPAddr).Port
	if local == "tcp:0" {
		local = "tcp:" + strconv.Itoa(port)
	}
	stop := func() { _ = loop.close() }
	if _, err := s.fwd.table.add(forwardRule{serial: dev.Serial(), local: local, remote: remote, stop: stop},
		noRebind); err != nil {
		stop()
		_ = writeFail(c, err.Error())
		return
	}
	go func() {
		_ = loop.serve(s.loop.ctx, func(ctx context.Context, nc net.Conn) {
			var h func(context.Context, net.Conn) error
			if so, ok := dev.(Sockets); ok {
				if fn := so.Socket(remote); fn != nil {
					h = func(ctx context.Context, nc net.Conn) error { return fn(ctx, nc) }
				}
			}
			if h == nil {
				s.loop.log.Debug("wire: forward refused: nothing listens", slog.String(keyService, remote))
				return
			}
			if err := h(ctx, nc); err != nil {
				s.loop.log.Debug("wire: forward ended", slog.Any(keyErr, err))
			}
		})
	}()
	msg := []byte("OKAYOKAY")
	if asked == "tcp:0" {
		msg = append(msg, hexString(strconv.Itoa(port))...)
	}
	_, _ = c.Write(msg)
}

// takeForward removes the rule for local, if any, and returns its stop function.
func (s *HostServer) takeForward(local string) func() {
	stops, err := s.fwd.table.remove("", local)
	if err != nil || len(stops) == 0 {
		return nil
	}
	return stops[0]
}

// closeForwards stops every forward listener (HostServer.Close).
func (s *HostServer) closeForwards() {
	stops, _ := s.fwd.table.remove("", "")
	for _, stop := range stops {
		stop()
	}
}

// forwardQuery reports whether query is one of the forward family.
func forwardQuery(query string) bool {
	return query == "list-forward" || query == "killforward-all" ||
		strings.HasPrefix(query, "killforward:") || strings.HasPrefix(query, "forward:")
}
