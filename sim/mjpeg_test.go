package sim

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"image/jpeg"
	"io"
	"net"
	"net/http"
	"net/textproto"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestMJPEGStream: the server's MJPEG stream is on tcp:7810 only while the server runs; a
// client that sends its request gets the stream's HTTP header, then JPEG parts scaled as
// mjpegScalingFactor says (50 % by default); the settings are checked against their
// ranges as the server checks them, and reset when the server starts again.
func TestMJPEGStream(t *testing.T) {
	ctx := t.Context()
	p, err := New(Config{UIServer: true})
	if err != nil {
		t.Fatal(err)
	}
	if p.Socket("tcp:7810") != nil {
		t.Fatal("the MJPEG stream answers before the server runs")
	}
	if _, err := p.Shell(ctx, "nohup am instrument -w -e disableAnalytics true "+UIServerRunner+" >/dev/null 2>&1 &", io.Discard); err != nil {
		t.Fatal(err)
	}
	if p.Socket("tcp:7810") == nil {
		t.Fatal("no MJPEG stream while the server runs")
	}
	w, h := p.metrics().w, p.metrics().h
	frame := func() (int, int) {
		t.Helper()
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		client, server := net.Pipe()
		defer client.Close()
		go func() { _ = p.Socket("tcp:7810")(cctx, server); server.Close() }()
		if _, err := io.WriteString(client, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		br := bufio.NewReader(client)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		if ct := resp.Header.Get("Content-Type"); ct != "multipart/x-mixed-replace; boundary=--BoundaryString" {
			t.Errorf("Content-Type %q", ct)
		}
		if line, err := br.ReadString('\n'); err != nil || line != "--BoundaryString\r\n" {
			t.Fatalf("part starts %q, %v", line, err)
		}
		hdr, err := textproto.NewReader(br).ReadMIMEHeader()
		if err != nil {
			t.Fatal(err)
		}
		n, err := strconv.Atoi(hdr.Get("Content-Length"))
		if err != nil || hdr.Get("Content-Type") != "image/jpg" {
			t.Fatalf("part header %v", hdr)
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(br, b); err != nil {
			t.Fatal(err)
		}
		cfg, err := jpeg.DecodeConfig(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("part is no JPEG: %v", err)
		}
		return cfg.Width, cfg.Height
	}
	if fw, fh := frame(); fw != (w*50+50)/100 || fh != (h*50+50)/100 {
		t.Errorf("default frame %dx%d of a %dx%d screen, want 50 %%", fw, fh, w, h)
	}
	status, out := p.uiServerAnswer(ctx, http.MethodPost, "/session", []byte(`{"capabilities":{}}`))
	if status != http.StatusOK {
		t.Fatalf("POST /session: %d %s", status, out)
	}
	sid := strings.Split(strings.SplitN(string(out), `"sessionId":"`, 2)[1], `"`)[0]
	settings := func(v string) int {
		status, _ := p.uiServerAnswer(ctx, http.MethodPost, "/session/"+sid+"/appium/settings", []byte(`{"settings":{`+v+`}}`))
		return status
	}
	for _, bad := range []string{`"mjpegScalingFactor":0`, `"mjpegScalingFactor":101`, `"mjpegServerFramerate":61`, `"mjpegServerScreenshotQuality":"high"`} {
		if s := settings(bad); s != http.StatusBadRequest {
			t.Errorf("setting %s: status %d, want 400", bad, s)
		}
	}
	if s := settings(`"mjpegScalingFactor":100,"mjpegServerScreenshotQuality":80,"mjpegServerFramerate":30`); s != http.StatusOK {
		t.Fatalf("valid settings: status %d", s)
	}
	if fw, fh := frame(); fw != w || fh != h {
		t.Errorf("frame at 100 %%: %dx%d, want %dx%d", fw, fh, w, h)
	}
	p.StopUIServer()
	if p.Socket("tcp:7810") != nil {
		t.Error("the MJPEG stream answers after the server died")
	}
	if _, err := p.Shell(ctx, "nohup am instrument -w -e disableAnalytics true "+UIServerRunner+" >/dev/null 2>&1 &", io.Discard); err != nil {
		t.Fatal(err)
	}
	if fw, _ := frame(); fw != (w*50+50)/100 {
		t.Errorf("after a restart the frame is %d wide, want the default 50 %% (%d): %s", fw, (w*50+50)/100, fmt.Sprint(p.uia2.mjpeg))
	}
	if clients, frames := p.MJPEGStreams(); clients != 3 || frames < 3 {
		t.Errorf("MJPEGStreams = %d clients, %d frames; want 3 clients", clients, frames)
	}
}
