package wire

import (
	"context"
	"encoding/binary"
	"fmt"
	"image"
	"io"
	"strconv"
	"strings"
	"sync"
)

// Sockets is implemented by a Device whose programs listen on device sockets, the ends of
// `adb forward` (tcp:9008, localabstract:NAME). sim.Phone satisfies it.
type Sockets interface {
	// Socket returns the server behind a device socket address, or nil when nothing
	// listens there (the face then refuses the stream, as adbd does when connect fails).
	Socket(addr string) func(ctx context.Context, conn io.ReadWriter) error
}

// Framebuffer is implemented by a Device that answers the framebuffer: service; sim.Phone
// satisfies it.
type Framebuffer interface {
	// Framebuffer returns the screen as it is now.
	Framebuffer() (*image.RGBA, error)
}

// socketAddr reports whether req names a device socket adbd connects streams to.
func socketAddr(req string) bool {
	for _, p := range [...]string{"tcp:", "localabstract:", "localreserved:", "localfilesystem:", "local:", "dev:"} {
		if strings.HasPrefix(req, p) && len(req) > len(p) {
			return true
		}
	}
	return false
}

// available reports whether dev can run svc: a socket nobody listens on, or a framebuffer
// on a device without one, is refused before the stream opens.
func available(dev Device, svc service) bool {
	switch svc.kind {
	case "socket":
		s, ok := dev.(Sockets)
		return ok && s.Socket(svc.cmdline) != nil
	case "framebuffer":
		_, ok := dev.(Framebuffer)
		return ok
	}
	return true
}

// serveSocket connects the stream to the device socket's server.
func serveSocket(ctx context.Context, dev Device, addr string, st serviceStream) error {
	s, ok := dev.(Sockets)
	if !ok {
		return fmt.Errorf("socket %s: nothing listens", addr)
	}
	h := s.Socket(addr)
	if h == nil {
		return fmt.Errorf("socket %s: nothing listens", addr)
	}
	return h(ctx, st)
}

// Framebuffer header constants (adb's framebuffer_service.cpp, DDMS_RAWIMAGE_VERSION 2).
const (
	fbVersion    = 2
	fbColorSRGB  = 1 // colorSpace: sRGB, what screencap reports on Android 8+
	fbHeaderSize = 14 * 4
)

// serveFramebuffer writes the version-2 header (version, bpp, colorSpace, size, width,
// height, then offset/length of red, blue, green, alpha) and the RGBA_8888 pixels.
func serveFramebuffer(dev Device, st serviceStream) error {
	fb, ok := dev.(Framebuffer)
	if !ok {
		return fmt.Errorf("framebuffer: not supported")
	}
	img, err := fb.Framebuffer()
	if err != nil {
		return fmt.Errorf("framebuffer: %w", err)
	}
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	size := w * h * 4
	hdr := make([]byte, 0, fbHeaderSize)
	for _, v := range [...]int{fbVersion, 32, fbColorSRGB, size, w, h, 0, 8, 16, 8, 8, 8, 24, 8} {
		hdr = binary.LittleEndian.AppendUint32(hdr, uint32(v))
	}
	if _, err := st.Write(hdr); err != nil {
		return err
	}
	for y := range h {
		row := img.Pix[y*img.Stride : y*img.Stride+w*4]
		if _, err := st.Write(row); err != nil {
			return err
		}
	}
	return nil
}

// forwardTable is a list of forward or reverse rules, as `adb forward --list` prints them.
type forwardTable struct {
	mu    sync.Mutex
	rules []forwardRule
}

type forwardRule struct {
	serial, local, remote string
	stop                  func() // closes the local listener (host forwards)
}

// spec rules: "tcp:PORT", "localabstract:NAME", … with a non-empty name.
func validSocketSpec(s string) bool {
	if port, ok := strings.CutPrefix(s, "tcp:"); ok {
		n, err := strconv.Atoi(port)
		return err == nil && n >= 0 && n <= 65535
	}
	return socketAddr(s)
}

// add installs local→remote; with noRebind an existing local is an error. It returns the
// rule's stop function that was replaced, if any.
func (t *forwardTable) add(r forwardRule, noRebind bool) (replaced func(), err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i, old := range t.rules {
		if old.local == r.local {
			if noRebind {
				return nil, fmt.Errorf("cannot rebind existing socket")
			}
			t.rules[i] = r
			return old.stop, nil
		}
	}
	t.rules = append(t.rules, r)
	return nil, nil
}

// remove drops the rule for local (all rules of serial when local is ""); it returns the
// removed rules' stop functions.
func (t *forwardTable) remove(serial, local string) ([]func(), error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var stops []func()
	kept := t.rules[:0]
	for _, r := range t.rules {
		if (serial == "" || r.serial == serial) && (local == "" || r.local == local) {
			if r.stop != nil {
				stops = append(stops, r.stop)
			}
			continue
		}
		kept = append(kept, r)
	}
	found := len(kept) != len(t.rules)
	t.rules = kept
	if local != "" && !found {
		return nil, fmt.Errorf("listener '%s' not found", local)
	}
	return stops, nil
}

// list renders "SERIAL LOCAL REMOTE\n" lines, only serial's when serial is set.
func (t *forwardTable) list(serial string) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var b strings.Builder
	for _, r := range t.rules {
		if serial == "" || r.serial == serial {
			fmt.Fprintf(&b, "%s %s %s\n", r.serial, r.local, r.remote)
		}
	}
	return b.String()
}

// serveReverse answers a reverse: request as adbd does: reverse:forward[:norebind]:LOCAL;REMOTE,
// reverse:killforward:LOCAL, reverse:killforward-all, reverse:list-forward. The device
// keeps the rules; no device program connects to them here.
func serveReverse(t *forwardTable, req string, w io.Writer) error {
	const peer = "host-1" // adbd names the host transport so in its listing
	switch {
	case req == "list-forward":
		// The adb server sent the stream's OKAY already: the list follows alone.
		_, err := w.Write(hexString(t.list("")))
		return err
	case req == "killforward-all":
		_, _ = t.remove("", "")
		return writeOkay(w)
	case strings.HasPrefix(req, "killforward:"):
		if _, err := t.remove("", strings.TrimPrefix(req, "killforward:")); err != nil {
			return writeFail(w, err.Error())
		}
		return writeOkay(w)
	case strings.HasPrefix(req, "forward:"):
		spec := strings.TrimPrefix(req, "forward:")
		spec, noRebind := strings.CutPrefix(spec, "norebind:")
		local, remote, ok := strings.Cut(spec, ";")
		if !ok || !validSocketSpec(local) || !validSocketSpec(remote) {
			return writeFail(w, "bad forward: "+spec)
		}
		if local == "tcp:0" {
			return writeFail(w, "cannot bind listener: tcp:0 is not supported on this device")
		}
		if _, err := t.add(forwardRule{serial: peer, local: local, remote: remote}, noRebind); err != nil {
			return writeFail(w, err.Error())
		}
		return writeOkay(w)
	}
	return writeFail(w, "unknown reverse request: "+req)
}
