package wire

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
)

// serviceStream is one device service's byte stream on either face.
type serviceStream interface {
	io.Reader
	io.Writer
	// end finishes the stream: an orderly close, or with abort an abrupt drop of the whole
	// client connection (fault injection). Pending reads return once it has been called
	// and the client has closed its side (on the host face, within lingerTimeout).
	end(abort bool)
}

// service is a parsed device service request.
type service struct {
	kind    string // "shell", "exec", "sync", "socket" (cmdline: the address), "framebuffer" or "reverse" (cmdline: the request)
	v2      bool   // shell protocol v2 (framed stdin/stdout/stderr/exit)
	pty     bool
	cmdline string
}

// parseService parses a device service request such as "shell:ls",
// "shell,v2,TERM=xterm,raw:ls", "exec:cat x" or "sync:".
func parseService(req string) (service, bool) {
	if socketAddr(req) {
		return service{kind: "socket", cmdline: req}, true
	}
	name, rest, ok := strings.Cut(req, ":")
	if !ok {
		return service{}, false
	}
	switch {
	case name == "exec":
		return service{kind: "exec", cmdline: rest}, true
	case name == "sync":
		return service{kind: "sync"}, rest == ""
	case name == "framebuffer":
		return service{kind: "framebuffer"}, rest == ""
	case name == "reverse":
		return service{kind: "reverse", cmdline: rest}, rest != ""
	case name == "shell" || strings.HasPrefix(name, "shell,"):
		s := service{kind: "shell", cmdline: rest, pty: rest == ""}
		for _, opt := range strings.Split(name, ",")[1:] {
			switch opt {
			case "v2":
				s.v2 = true
			case "raw":
				s.pty = false
			case "pty":
				s.pty = true
			}
		}
		return s, true
	}
	return service{}, false
}

// runService runs svc for dev on st and ends st (each shell form ends it itself, before
// waiting for its input reader, which only returns once the stream has ended). ctx is cancelled when the client closes.
func runService(ctx context.Context, dev Device, svc service, st serviceStream, reverses *forwardTable,
	log *slog.Logger) {
	log = log.With(slog.String(keySerial, dev.Serial()), slog.String(keyService, svc.kind))
	var err error
	switch {
	case svc.kind == "sync":
		err = serveSync(dev, st)
		st.end(false)
	case svc.kind == "socket":
		err = serveSocket(ctx, dev, svc.cmdline, st)
		st.end(false)
	case svc.kind == "framebuffer":
		err = serveFramebuffer(dev, st)
		st.end(false)
	case svc.kind == "reverse":
		err = serveReverse(reverses, svc.cmdline, st)
		st.end(false)
	case svc.v2:
		err = serveShellV2(ctx, dev, svc, st)
	default:
		err = serveShellV1(ctx, dev, svc, st)
	}
	if err != nil {
		log.Debug("wire: service ended", slog.Any(keyErr, err), slog.Bool("drop", errors.Is(err, ErrDropConnection)))
	}
}

// burstDelay is how long output waits for more before it goes out on its own. A command
// writes its output in many small pieces; sent one packet each, every piece would cost the
// adbd face a WRTE/OKAY round trip with the host.
const burstDelay = 2 * time.Millisecond

// burstWriter gathers the small writes of a command into bursts: a burst goes out when the
// command ends (Flush), when it reaches burstMax, or burstDelay after its first byte, so
// long-running commands still stream.
type burstWriter struct {
	mu    sync.Mutex
	w     io.Writer
	buf   []byte
	delay time.Duration
	timer *time.Timer
	err   error
}

// burstMax is the largest burst held back; larger output goes out at once.
const burstMax = 64 << 10

func newBurstWriter(w io.Writer, delay time.Duration) *burstWriter {
	return &burstWriter{w: w, delay: delay}
}

func (b *burstWriter) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.err != nil {
		return 0, b.err
	}
	b.buf = append(b.buf, p...)
	if len(b.buf) >= burstMax {
		return len(p), b.flushLocked()
	}
	if b.timer == nil {
		b.timer = time.AfterFunc(b.delay, func() {
			b.mu.Lock()
			defer b.mu.Unlock()
			b.timer = nil
			_ = b.flushLocked()
		})
	}
	return len(p), nil
}

// Flush sends what is held back.
func (b *burstWriter) Flush() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.flushLocked()
}

// Stop drops the pending timer; output not flushed is discarded.
func (b *burstWriter) Stop() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
	b.buf = nil
}

func (b *burstWriter) flushLocked() error {
	if b.err != nil || len(b.buf) == 0 {
		return b.err
	}
	_, b.err = b.w.Write(b.buf)
	b.buf = b.buf[:0]
	return b.err
}

// cancelWriter cancels a command whose client stopped reading.
type cancelWriter struct {
	w      io.Writer
	cancel context.CancelFunc
}

func (c cancelWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	if err != nil {
		c.cancel()
	}
	return n, err
}

// serveShellV1 runs a command (or, for an empty shell: request, a line-by-line session)
// writing raw output bytes; input is discarded and its end cancels the command.
func serveShellV1(ctx context.Context, dev Device, svc service, st serviceStream) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := cancelWriter{w: st, cancel: cancel}
	if svc.cmdline == "" {
		return interactive(ctx, dev, st, w, svc.pty)
	}
	in := newInputBuffer()
	stopInput := context.AfterFunc(ctx, func() { _ = in.Close() })
	defer stopInput()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = io.Copy(in, st)
		_ = in.Close()
		cancel()
	}()
	bw := newBurstWriter(w, burstDelay)
	_, err := dev.Shell(context.WithValue(ctx, inputKey{}, io.Reader(in)), svc.cmdline, bw)
	abort := errors.Is(err, ErrDropConnection)
	if !abort {
		_ = bw.Flush()
	}
	bw.Stop()
	st.end(abort)
	<-done
	if err != nil {
		return fmt.Errorf("shell %q: %w", svc.cmdline, err)
	}
	return nil
}

// interactive runs one command per input line, as `adb shell` with no command does.
func interactive(ctx context.Context, dev Device, in io.Reader, out io.Writer, pty bool) error {
	prompt := func() error {
		if !pty {
			return nil
		}
		_, err := fmt.Fprintf(out, "%s:/ $ ", dev.Props().Device)
		return err
	}
	if err := prompt(); err != nil {
		return err
	}
	var line []byte
	buf := make([]byte, 4096)
	for {
		n, rerr := in.Read(buf)
		for _, b := range buf[:n] {
			switch {
			case b == '\r' || b == '\n':
				if pty {
					_, _ = io.WriteString(out, "\r\n")
				}
				cmd := strings.TrimSpace(string(line))
				line = line[:0]
				if cmd == "exit" {
					return nil
				}
				if cmd != "" {
					var w io.Writer = out
					if pty {
						w = crlfWriter{out}
					}
					if _, err := dev.Shell(ctx, cmd, w); errors.Is(err, ErrDropConnection) {
						return fmt.Errorf("shell %q: %w", cmd, err)
					}
				}
				if err := prompt(); err != nil {
					return err
				}
			case pty && b == 0x04 && len(line) == 0: // ^D
				return nil
			case pty && b == 0x03: // ^C
				line = line[:0]
				_, _ = io.WriteString(out, "^C\r\n")
				_ = prompt()
			case pty && (b == 0x7f || b == 0x08):
				if len(line) > 0 {
					line = line[:len(line)-1]
					_, _ = io.WriteString(out, "\b \b")
				}
			default:
				line = append(line, b)
				if pty {
					_, _ = out.Write([]byte{b})
				}
			}
		}
		if rerr != nil {
			return nil
		}
	}
}

// crlfWriter translates \n into \r\n, as a terminal line discipline does.
type crlfWriter struct{ w io.Writer }

func (c crlfWriter) Write(p []byte) (int, error) {
	if _, err := c.w.Write([]byte(strings.ReplaceAll(string(p), "\n", "\r\n"))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Shell protocol v2 packet ids.
const (
	v2Stdin       = 0
	v2Stdout      = 1
	v2Stderr      = 2
	v2Exit        = 3
	v2CloseStdin  = 4
	v2WindowSize  = 5
	v2MaxInPacket = 1 << 20
)

// v2Writer frames each write as one stdout packet.
type v2Writer struct {
	mu sync.Mutex
	w  io.Writer
	id byte
}

func (v *v2Writer) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	const max = 256 << 10
	written := 0
	for len(p) > 0 {
		chunk := p[:min(len(p), max)]
		pkt := make([]byte, 5+len(chunk))
		pkt[0] = v.id
		binary.LittleEndian.PutUint32(pkt[1:5], uint32(len(chunk)))
		copy(pkt[5:], chunk)
		if _, err := v.w.Write(pkt); err != nil {
			return written, err
		}
		written += len(chunk)
		p = p[len(chunk):]
	}
	return written, nil
}

// serveShellV2 runs a command with the framed shell protocol, so the client learns the
// exit status. Stdin packets are read (and, for an interactive session, interpreted).
func serveShellV2(ctx context.Context, dev Device, svc service, st serviceStream) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := &v2Writer{w: cancelWriter{w: st, cancel: cancel}, id: v2Stdout}
	stdinR, stdinW := io.Pipe()
	in := newInputBuffer()
	var stdin io.WriteCloser = stdinW
	if svc.cmdline != "" {
		stdin = in
	}
	stopInput := context.AfterFunc(ctx, func() { _ = in.Close() })
	defer stopInput()
	done := make(chan struct{})
	go func() {
		defer close(done)
		err := readV2Input(st, stdin)
		if err != nil {
			// The client went away (or sent garbage): stop the command.
			cancel()
		}
		_ = stdin.Close()
		_ = stdinW.CloseWithError(io.EOF)
	}()
	var (
		status int
		err    error
	)
	if svc.cmdline == "" {
		err = interactive(ctx, dev, stdinR, out, svc.pty)
	} else {
		status, err = dev.Shell(context.WithValue(ctx, inputKey{}, io.Reader(in)), svc.cmdline, out)
	}
	abort := errors.Is(err, ErrDropConnection)
	if !abort && ctx.Err() == nil {
		out.id = v2Exit
		_, _ = out.Write([]byte{byte(status)})
	}
	_ = stdinR.Close()
	st.end(abort)
	<-done
	if err != nil {
		return fmt.Errorf("shell %q: %w", svc.cmdline, err)
	}
	return nil
}

// readV2Input reads shell-v2 packets until the stream ends, passing stdin bytes to w.
func readV2Input(r io.Reader, w io.Writer) error {
	var hdr [5]byte
	for {
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			return err
		}
		n := binary.LittleEndian.Uint32(hdr[1:])
		if n > v2MaxInPacket {
			return fmt.Errorf("shell v2 packet of %d bytes: %w", n, errMalformed)
		}
		data := make([]byte, n)
		if _, err := io.ReadFull(r, data); err != nil {
			return err
		}
		switch hdr[0] {
		case v2Stdin:
			// Someone always reads w until the command ends; after that writes fail fast.
			_, _ = w.Write(data)
		case v2CloseStdin:
			if c, ok := w.(io.Closer); ok {
				_ = c.Close()
			}
		}
	}
}

// Sync protocol limits, as adbd has them.
const (
	syncDataMax = 64 << 10
	syncPathMax = 1024
)

// syncFailure is a sync request that failed on the device: the client is told with FAIL.
type syncFailure struct{ msg string }

func (s syncFailure) Error() string { return s.msg }

// serveSync serves the sync protocol (STAT, LIST, RECV, SEND, QUIT) on st, reading the
// stream as bytes (requests do not follow any packet boundaries).
func serveSync(dev Device, st serviceStream) error {
	r := bufio.NewReaderSize(st, 64<<10)
	w := bufio.NewWriterSize(st, 256<<10)
	var hdr [8]byte
	for {
		if err := w.Flush(); err != nil {
			return fmt.Errorf("sync write: %w", err)
		}
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("sync read request: %w", err)
		}
		id := string(hdr[:4])
		n := binary.LittleEndian.Uint32(hdr[4:])
		if id == "QUIT" {
			return nil
		}
		if n > syncPathMax {
			writeSyncFail(w, "path too long")
			_ = w.Flush()
			return fmt.Errorf("sync %s path of %d bytes: %w", id, n, errMalformed)
		}
		buf := make([]byte, n)
		if _, err := io.ReadFull(r, buf); err != nil {
			return fmt.Errorf("sync read path: %w", err)
		}
		p := string(buf)
		var err error
		switch id {
		case "STAT":
			err = syncStat(dev, w, p)
		case "LIST":
			err = syncList(dev, w, p)
		case "RECV":
			err = syncRecv(dev, w, p)
		case "SEND":
			err = syncSend(dev, r, w, p)
		default:
			writeSyncFail(w, "unknown sync command")
			_ = w.Flush()
			return fmt.Errorf("sync command %q: %w", id, errMalformed)
		}
		var fail syncFailure
		if errors.As(err, &fail) {
			writeSyncFail(w, fail.msg)
			continue
		}
		if err != nil {
			_ = w.Flush()
			return err
		}
	}
}

func writeSyncFail(w io.Writer, msg string) {
	hdr := make([]byte, 8, 8+len(msg))
	copy(hdr, "FAIL")
	binary.LittleEndian.PutUint32(hdr[4:], uint32(len(msg)))
	_, _ = w.Write(append(hdr, msg...))
}

// unixMode converts a FileInfo's mode to the st_mode bits adbd sends.
func unixMode(m fs.FileMode) uint32 {
	mode := uint32(m.Perm())
	switch {
	case m&fs.ModeDir != 0:
		mode |= 0o040000
	case m&fs.ModeSymlink != 0:
		mode |= 0o120000
	default:
		mode |= 0o100000
	}
	return mode
}

func syncStat(dev Device, w io.Writer, p string) error {
	msg := make([]byte, 16)
	copy(msg, "STAT")
	// A missing file is all zeroes, as adbd answers.
	if fi, err := dev.Stat(p); err == nil {
		binary.LittleEndian.PutUint32(msg[4:], unixMode(fi.Mode))
		binary.LittleEndian.PutUint32(msg[8:], uint32(fi.Size))
		binary.LittleEndian.PutUint32(msg[12:], uint32(fi.ModTime.Unix()))
	}
	_, err := w.Write(msg)
	return err
}

func dent(id string, fi FileInfo, name string) []byte {
	msg := make([]byte, 20, 20+len(name))
	copy(msg, id)
	if id == "DENT" {
		binary.LittleEndian.PutUint32(msg[4:], unixMode(fi.Mode))
		binary.LittleEndian.PutUint32(msg[8:], uint32(fi.Size))
		binary.LittleEndian.PutUint32(msg[12:], uint32(fi.ModTime.Unix()))
		binary.LittleEndian.PutUint32(msg[16:], uint32(len(name)))
	}
	return append(msg, name...)
}

func syncList(dev Device, w io.Writer, p string) error {
	// A directory that cannot be read lists as empty, as adbd does.
	if entries, err := dev.ReadDir(p); err == nil {
		self, err1 := dev.Stat(p)
		parent, err2 := dev.Stat(path.Dir(path.Clean("/" + p)))
		if err1 == nil && err2 == nil {
			if _, err := w.Write(dent("DENT", self, ".")); err != nil {
				return err
			}
			if _, err := w.Write(dent("DENT", parent, "..")); err != nil {
				return err
			}
		}
		for _, e := range entries {
			if _, err := w.Write(dent("DENT", e, e.Name)); err != nil {
				return err
			}
		}
	}
	_, err := w.Write(dent("DONE", FileInfo{}, ""))
	return err
}

func syncRecv(dev Device, w io.Writer, p string) error {
	data, err := dev.ReadFile(p)
	if err != nil {
		return syncFailure{"open failed: " + errnoText(err)}
	}
	var hdr [8]byte
	for len(data) > 0 {
		chunk := data[:min(len(data), syncDataMax)]
		copy(hdr[:], "DATA")
		binary.LittleEndian.PutUint32(hdr[4:], uint32(len(chunk)))
		if _, err := w.Write(hdr[:]); err != nil {
			return err
		}
		if _, err := w.Write(chunk); err != nil {
			return err
		}
		data = data[len(chunk):]
	}
	copy(hdr[:], "DONE")
	binary.LittleEndian.PutUint32(hdr[4:], 0)
	_, err = w.Write(hdr[:])
	return err
}

// maxSyncFile bounds a pushed file held in memory.
const maxSyncFile = 512 << 20

func syncSend(dev Device, r io.Reader, w io.Writer, spec string) error {
	name, modeText, ok := cutLast(spec, ",")
	mode := fs.FileMode(0o644)
	if ok {
		m, err := strconv.ParseUint(modeText, 10, 32)
		if err != nil {
			return fmt.Errorf("sync SEND mode %q: %w", modeText, errMalformed)
		}
		mode = fs.FileMode(m & 0o777)
	} else {
		name = spec
	}
	var (
		data []byte
		hdr  [8]byte
	)
	for {
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			return fmt.Errorf("sync SEND read: %w", err)
		}
		n := binary.LittleEndian.Uint32(hdr[4:])
		switch string(hdr[:4]) {
		case "DATA":
			if n > syncDataMax || len(data)+int(n) > maxSyncFile {
				writeSyncFail(w, "data too large")
				return fmt.Errorf("sync SEND chunk of %d bytes: %w", n, errMalformed)
			}
			start := len(data)
			data = append(data, make([]byte, n)...)
			if _, err := io.ReadFull(r, data[start:]); err != nil {
				return fmt.Errorf("sync SEND read: %w", err)
			}
		case "DONE":
			mtime := time.Unix(int64(n), 0)
			if err := dev.WriteFile(name, data, mode, mtime); err != nil {
				return syncFailure{"couldn't create file: " + errnoText(err)}
			}
			ok := []byte("OKAY\x00\x00\x00\x00")
			_, err := w.Write(ok)
			return err
		default:
			writeSyncFail(w, "invalid data message")
			return fmt.Errorf("sync SEND message %q: %w", hdr[:4], errMalformed)
		}
	}
}

// errnoText words an error as adbd's strerror would for the common cases.
func errnoText(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "No such file or directory"
	case errors.Is(err, fs.ErrPermission):
		return "Permission denied"
	case errors.Is(err, fs.ErrExist):
		return "File exists"
	}
	return err.Error()
}

func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}
