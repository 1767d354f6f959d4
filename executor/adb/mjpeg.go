package adb

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/jpeg"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/textproto"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The resident server's pictures as JPEG. Its /screenshot answers a full-size PNG only
// (CaptureScreenshot: `screencap -p` through UiAutomation, or takeScreenshot compressed
// to PNG, base64), but the same instrumentation runs an MJPEG server on device port 7810
// (MjpegServerPort's default; ServerInstrumentation starts it with the HTTP server) whose
// frames are UiAutomation.takeScreenshot scaled by mjpegScalingFactor and compressed to
// JPEG at mjpegServerScreenshotQuality (ScreenshotHelper.compressJpeg), all three
// settings of POST /appium/settings that outlive the session (appium-uiautomator2-server
// 10.x, server/mjpeg and model/settings). The stream is not a request–answer protocol:
// its thread captures a frame, then writes it to every connected client, then sleeps to
// match mjpegServerFramerate; with no client connected it sleeps 500 ms a turn
// (MjpegScreenshotStream). So a frame the stream sends may have been captured before the
// client connected — one captured while the client was being added — but the frame after
// it was begun after the first was written: fairy connects when it wants a picture and
// keeps the second frame, the first captured after its request.
const (
	// UIServerMJPEGPort is the server's MJPEG stream (device port).
	UIServerMJPEGPort = 7810
	// mjpegFramerate is the framerate fairy sets, the server's default: a frame every
	// 100 ms (a capture took about 83 ms on a Pixel 4, appium-uiautomator2-server#340),
	// and only while fairy holds the stream.
	mjpegFramerate = 10
	// mjpegQuality is the JPEG quality fairy sets (the server's default is 50): what a
	// model is sent after downscaling (llm/openai re-encodes at 80).
	mjpegQuality = 80
	// ShotLongEdge is the long side a model's picture is downscaled to
	// (perception.DefaultLongEdge): the JPEG frames are scaled to it on the phone.
	ShotLongEdge = 1280
	// mjpegBoundary is the stream's part boundary ("--BoundaryString").
	mjpegBoundary = "--BoundaryString"
)

// errMJPEG means the server's MJPEG stream did not give a frame.
var errMJPEG = errors.New("adb: MJPEG stream")

// mjpegScale is the mjpegScalingFactor (percent, 1..100) that brings a screen of w×h
// pixels to ShotLongEdge on its long side; 100 when it is smaller.
func mjpegScale(w, h int) int {
	long := max(w, h)
	if long <= ShotLongEdge || long <= 0 {
		return 100
	}
	return min(100, max(1, (ShotLongEdge*100+long-1)/long))
}

// uiMJPEGSettings are the settings a session sets for the MJPEG stream, from the screen's
// size (GET window/current/size); nil when the size is unknown (the stream keeps the
// server's scale, and the pictures are PNG).
func (d *Device) uiMJPEGSettings(ctx context.Context, sid string) map[string]any {
	var size struct {
		Value struct {
			Width  int `json:"width"`
			Height int `json:"height"`
		} `json:"value"`
	}
	sizePath := "/session/" + sid + "/window/current/size"
	err := d.uiCall(ctx, d.ui.client, http.MethodGet, sizePath, nil, &size)
	if err != nil || size.Value.Width <= 0 || size.Value.Height <= 0 {
		d.log.Debug("adb: no screen size from the resident UI server; pictures stay PNG", slog.Any(keyErr, err))
		return nil
	}
	return map[string]any{
		"mjpegScalingFactor":           mjpegScale(size.Value.Width, size.Value.Height),
		"mjpegServerScreenshotQuality": mjpegQuality,
		"mjpegServerFramerate":         mjpegFramerate,
	}
}

// uiJPEG takes the first frame the MJPEG stream captures after the request; ok false:
// no stream (classic path, a session without the stream's settings, or a stream that
// failed before — the PNG screenshot then serves, said once).
func (d *Device) uiJPEG(ctx context.Context) (jpg []byte, ok bool) {
	if d.cfg.ShotLongEdge < 0 || !d.ui.mjpeg.Load() {
		return nil, false
	}
	if _, _, up := d.uiReady(ctx); !up {
		return nil, false
	}
	jpg, err := d.mjpegFrame(ctx)
	if err == nil {
		return jpg, true
	}
	if ctx.Err() == nil {
		d.mjpegFailed(err)
	}
	return nil, false
}

// mjpegOn reports whether pictures come from the MJPEG stream now.
func (d *Device) mjpegOn() bool { return d.cfg.ShotLongEdge >= 0 && d.ui.mjpeg.Load() }

// mjpegFailed puts the device's pictures on PNG screenshots, and says so once.
func (d *Device) mjpegFailed(err error) {
	if d.ui.mjpeg.CompareAndSwap(true, false) && !d.ui.mjpegWarned.Swap(true) {
		d.log.Warn("adb: the resident UI server's MJPEG stream failed; taking PNG screenshots", slog.Any(keyErr, err))
	}
}

// mjpegStream is the stream held open while SettleShot waits for the idle screen: it
// keeps the last frame come, with the time its capture began after at the latest (the
// previous frame's arrival; unknown for the first), so that once the screen is known idle
// since some moment a frame captured after it is at hand.
type mjpegStream struct {
	conn   net.Conn
	mu     sync.Mutex
	latest mjpegPart
	err    error
	more   chan struct{} // a frame or an error came (capacity 1)
}

type mjpegPart struct {
	jpg   []byte
	began time.Time // zero: may predate the request
}

// mjpegOpen connects to the stream and reads its frames in the background until close.
func (d *Device) mjpegOpen(ctx context.Context) (*mjpegStream, error) {
	conn, err := d.dialDevice(ctx, "tcp:"+strconv.Itoa(UIServerMJPEGPort))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errMJPEG, err)
	}
	if _, err := io.WriteString(conn, mjpegRequest); err != nil {
		conn.Close()
		return nil, fmt.Errorf("%w: %w", errMJPEG, ioError(ctx, err))
	}
	s := &mjpegStream{conn: conn, more: make(chan struct{}, 1)}
	go s.read()
	return s, nil
}

func (s *mjpegStream) read() {
	br := bufio.NewReaderSize(s.conn, 64<<10)
	var prev time.Time
	for {
		b, err := readMJPEGPart(br)
		now := time.Now()
		s.mu.Lock()
		if err != nil {
			s.err = err
		} else {
			s.latest = mjpegPart{jpg: b, began: prev}
		}
		s.mu.Unlock()
		select {
		case s.more <- struct{}{}:
		default:
		}
		if err != nil {
			return
		}
		prev = now
	}
}

// frameSince returns the first frame at hand whose capture began at since or later,
// waiting for one if need be; began is when its capture began at the earliest.
func (s *mjpegStream) frameSince(ctx context.Context, since time.Time) (jpg []byte, began time.Time, err error) {
	for {
		s.mu.Lock()
		f, err := s.latest, s.err
		s.mu.Unlock()
		if !f.began.IsZero() && !f.began.Before(since) {
			if _, err := jpeg.DecodeConfig(bytes.NewReader(f.jpg)); err != nil {
				return nil, time.Time{}, fmt.Errorf("%w: %w: %v", errMJPEG, errScreenshot, err)
			}
			return f.jpg, f.began, nil
		}
		if err != nil {
			return nil, time.Time{}, fmt.Errorf("%w: %w", errMJPEG, err)
		}
		select {
		case <-s.more:
		case <-ctx.Done():
			return nil, time.Time{}, fmt.Errorf("%w: no frame: %w", errMJPEG, ctx.Err())
		}
	}
}

func (s *mjpegStream) close() { _ = s.conn.Close() }

// mjpegRequest is what a client sends the stream (it answers once it has input).
const mjpegRequest = "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"

// mjpegFrame connects to the stream, reads two frames and returns the second (see above).
func (d *Device) mjpegFrame(ctx context.Context) ([]byte, error) {
	defer d.begin(ctx, opScreenshot)()
	// Two frames at most 500 ms (the idle stream's turn) plus two captures away; a bound
	// that a stalled stream cannot outlast.
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	conn, err := d.dialDevice(ctx, "tcp:"+strconv.Itoa(UIServerMJPEGPort))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errMJPEG, err)
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Now()) })
	defer stop()
	// The stream answers only once the client has sent something (MjpegScreenshotClient
	// writes its header when the input is ready).
	if _, err := io.WriteString(conn, mjpegRequest); err != nil {
		return nil, fmt.Errorf("%w: %w", errMJPEG, ioError(ctx, err))
	}
	br := bufio.NewReaderSize(conn, 64<<10)
	var frame []byte
	for n := 0; n < 2; n++ {
		if frame, err = readMJPEGPart(br); err != nil {
			return nil, fmt.Errorf("%w: frame %d: %w", errMJPEG, n+1, ioError(ctx, err))
		}
	}
	if _, err := jpeg.DecodeConfig(bytes.NewReader(frame)); err != nil {
		return nil, fmt.Errorf("%w: %w: %v", errMJPEG, errScreenshot, err)
	}
	return frame, nil
}

// readMJPEGPart reads the next part of a multipart/x-mixed-replace stream: up to its
// boundary line (the HTTP header before the first part is skipped with it), its headers
// and its Content-Length bytes. Not mime/multipart: its reader ends a part only at the
// next boundary, which the server writes with the next frame, a frame period (100 ms at
// 10 fps) after the one wanted; the length header ends it as soon as it has arrived.
func readMJPEGPart(br *bufio.Reader) ([]byte, error) {
	for skipped := 0; ; {
		line, err := br.ReadString('\n')
		if err != nil {
			return nil, err
		}
		if strings.TrimSpace(line) == mjpegBoundary {
			break
		}
		if skipped += len(line); skipped > 64<<10 {
			return nil, fmt.Errorf("no %s boundary in %d bytes", mjpegBoundary, skipped)
		}
	}
	h, err := textproto.NewReader(br).ReadMIMEHeader()
	if err != nil {
		return nil, err
	}
	n, err := strconv.Atoi(strings.TrimSpace(h.Get("Content-Length")))
	if err != nil || n <= 0 || n > 32<<20 {
		return nil, fmt.Errorf("part length %q", h.Get("Content-Length"))
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(br, b); err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(b, []byte{0xff, 0xd8}) {
		return nil, fmt.Errorf("part is not a JPEG (starts % x)", b[:min(len(b), 4)])
	}
	return b, nil
}

// errNoStream: the phone has no MJPEG stream to follow (no resident UI server, a session
// without the stream's settings, or a stream that failed before).
var errNoStream = errors.New("adb: no live stream of the screen: the resident UI server is not running " +
	"(fairy device setup installs it)")

// Frames follows the resident server's MJPEG stream: each is called with every frame
// (JPEG, scaled as the models' pictures are) until ctx ends, each returns an error (that
// error is returned) or the stream breaks. A phone without the stream answers at once
// with an error that says so. The frames are the screen as it is, unmasked: what shows
// them decides when they may be shown.
func (d *Device) Frames(ctx context.Context, each func(jpg []byte) error) error {
	if _, _, up := d.uiReady(ctx); !up || !d.mjpegOn() {
		return errNoStream
	}
	conn, err := d.dialDevice(ctx, "tcp:"+strconv.Itoa(UIServerMJPEGPort))
	if err != nil {
		return fmt.Errorf("%w: %w", errMJPEG, err)
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Now()) })
	defer stop()
	if _, err := io.WriteString(conn, mjpegRequest); err != nil {
		return fmt.Errorf("%w: %w", errMJPEG, ioError(ctx, err))
	}
	br := bufio.NewReaderSize(conn, 64<<10)
	for {
		b, err := readMJPEGPart(br)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("%w: %w", errMJPEG, err)
		}
		if err := each(b); err != nil {
			return err
		}
	}
}
