package sim

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"image"
	"image/jpeg"
	"io"
	"net/http"
	"time"

	"golang.org/x/image/draw"
)

// The Appium UiAutomator2 server's MJPEG stream (appium-uiautomator2-server 10.x,
// server/mjpeg): ServerInstrumentation starts it with the HTTP server, on device port 7810
// (MjpegServerPort). One thread serves every client: with none connected it sleeps 500 ms
// a turn; otherwise each turn takes UiAutomation.takeScreenshot, scales it by
// mjpegScalingFactor percent (Bitmap.createScaledBitmap, unfiltered unless
// mjpegBilinearFiltering) and compresses it to JPEG at mjpegServerScreenshotQuality
// (ScreenshotHelper.compressJpeg), writes the part to each client — a client's first part
// comes after the HTTP header, sent once the client's request is readable
// (MjpegScreenshotClient) — and sleeps what is left of 1/mjpegServerFramerate. Defaults
// 10 fps, 50 %, quality 50; the settings, set with POST /appium/settings, outlive the
// session but not the server (ServerConfig). The virtual phone serves each connection
// with its own turns, which is the same for one client.
const (
	// UIServerMJPEGPort is the stream's device port.
	UIServerMJPEGPort = 7810
	mjpegIdleTurn     = 500 * time.Millisecond // NO_CLIENTS_CONNECTED_SLEEP_TIME_MS
	mjpegHeader       = "HTTP/1.0 200 OK\r\nServer: Android Screenshot Socket Server\r\nConnection: close\r\n" +
		"Max-Age: 0\r\nExpires: 0\r\nCache-Control: no-cache, private\r\nPragma: no-cache\r\n" +
		"Content-Type: multipart/x-mixed-replace; boundary=--BoundaryString\r\n\r\n"
	mjpegPartHeader = "--BoundaryString\r\nContent-type: image/jpg\r\nContent-Length: %d\r\n\r\n"
)

// mjpegConfig is the stream's settings; a zero field is the server's default.
type mjpegConfig struct {
	framerate, scale, quality int
}

func (c mjpegConfig) withDefaults() mjpegConfig {
	if c.framerate == 0 {
		c.framerate = 10
	}
	if c.scale == 0 {
		c.scale = 50
	}
	if c.quality == 0 {
		c.quality = 50
	}
	return c
}

// mjpegSettings are the settings' names and their ranges (model/settings).
var mjpegSettings = []struct {
	name     string
	min, max int
	field    func(*mjpegConfig) *int
}{
	{"mjpegServerFramerate", 1, 60, func(c *mjpegConfig) *int { return &c.framerate }},
	{"mjpegScalingFactor", 1, 100, func(c *mjpegConfig) *int { return &c.scale }},
	{"mjpegServerScreenshotQuality", 1, 100, func(c *mjpegConfig) *int { return &c.quality }},
}

// MJPEGStreams reports how many clients the MJPEG stream served and the frames it wrote
// to them (the last one perhaps to a client gone), since the phone was made.
func (p *Phone) MJPEGStreams() (clients, frames int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.uia2.streams, p.uia2.frames
}

// serveMJPEG streams frames on one forwarded connection until the client goes, the
// server stops or ctx ends.
func (p *Phone) serveMJPEG(ctx context.Context, conn io.ReadWriter) error {
	p.mu.Lock()
	stop, down := p.uia2.stop, p.faults.NoMJPEG
	p.mu.Unlock()
	if down {
		return nil // the NoMJPEG fault: the socket closes unanswered
	}
	if _, err := http.ReadRequest(bufio.NewReader(conn)); err != nil {
		return nil // the client went without asking
	}
	p.mu.Lock()
	p.uia2.streams++
	p.mu.Unlock()
	pr := p.cfg.Profile
	if !pr.instant() {
		// The thread is somewhere in its idle turn when the first client comes.
		p.mu.Lock()
		wait := Latency{Max: mjpegIdleTurn}.draw(p.lat)
		p.mu.Unlock()
		if err := p.cfg.Sleep(ctx, wait); err != nil {
			return nil
		}
	}
	for first := true; ctx.Err() == nil; first = false {
		select {
		case <-stop:
			return nil // the server died: the socket closes
		default:
		}
		start := p.cfg.Clock()
		p.mu.Lock()
		cfg := p.uia2.mjpeg.withDefaults()
		took := pr.UIFrame.draw(p.lat)
		jpg, err := p.mjpegFrameLocked(cfg)
		p.mu.Unlock()
		if err != nil {
			return fmt.Errorf("mjpeg: %w", err)
		}
		if err := p.sleepRest(ctx, took, p.cfg.Clock().Sub(start)); err != nil {
			return nil
		}
		var part bytes.Buffer
		if first {
			part.WriteString(mjpegHeader)
		}
		fmt.Fprintf(&part, mjpegPartHeader, len(jpg))
		part.Write(jpg)
		part.WriteString("\r\n\r\n")
		p.mu.Lock()
		p.uia2.frames++
		p.mu.Unlock()
		if _, err := conn.Write(part.Bytes()); err != nil {
			return nil // the client closed: the stream drops it
		}
		if err := p.sleepRest(ctx, time.Second/time.Duration(cfg.framerate), p.cfg.Clock().Sub(start)); err != nil {
			return nil
		}
	}
	return nil
}

// mjpegFrameLocked is the current frame scaled and compressed as the stream's settings
// say (cached per state version and settings).
func (p *Phone) mjpegFrameLocked(cfg mjpegConfig) ([]byte, error) {
	if p.cache.jpg != nil && p.cache.jpgVersion == p.version && p.cache.jpgConfig == cfg {
		return p.cache.jpg, nil
	}
	img := image.Image(p.renderLocked())
	if cfg.scale != 100 {
		b := img.Bounds()
		w, h := max(1, (b.Dx()*cfg.scale+50)/100), max(1, (b.Dy()*cfg.scale+50)/100)
		dst := image.NewRGBA(image.Rect(0, 0, w, h))
		draw.NearestNeighbor.Scale(dst, dst.Bounds(), img, b, draw.Src, nil) // unfiltered, as createScaledBitmap(…, false)
		img = dst
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: cfg.quality}); err != nil {
		return nil, err
	}
	p.cache.jpg, p.cache.jpgVersion, p.cache.jpgConfig = buf.Bytes(), p.version, cfg
	return p.cache.jpg, nil
}
