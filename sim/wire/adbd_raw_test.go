package wire

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairy-go/fairy/sim/adbtest"
)

// rawHost is a minimal adb-server side of the device protocol, to send what the real
// server never would.
type rawHost struct {
	t *testing.T
	c net.Conn
	r *bufio.Reader
}

type rawPacket struct {
	cmd        string
	arg0, arg1 uint32
	data       []byte
	check      uint32
}

func dialRaw(t *testing.T, addr net.Addr) *rawHost {
	t.Helper()
	c, err := net.Dial("tcp", addr.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	return &rawHost{t: t, c: c, r: bufio.NewReader(c)}
}

func encode(cmd string, arg0, arg1 uint32, data []byte) []byte {
	h := make([]byte, 24)
	c := binary.LittleEndian.Uint32([]byte(cmd))
	binary.LittleEndian.PutUint32(h[0:], c)
	binary.LittleEndian.PutUint32(h[4:], arg0)
	binary.LittleEndian.PutUint32(h[8:], arg1)
	binary.LittleEndian.PutUint32(h[12:], uint32(len(data)))
	binary.LittleEndian.PutUint32(h[20:], c^0xffffffff)
	return append(h, data...)
}

func (h *rawHost) send(cmd string, arg0, arg1 uint32, data string) {
	h.t.Helper()
	if _, err := h.c.Write(encode(cmd, arg0, arg1, []byte(data))); err != nil {
		h.t.Fatal(err)
	}
}

func (h *rawHost) recv() (rawPacket, error) {
	hdr := make([]byte, 24)
	if _, err := io.ReadFull(h.r, hdr); err != nil {
		return rawPacket{}, err
	}
	p := rawPacket{
		cmd:   string(hdr[:4]),
		arg0:  binary.LittleEndian.Uint32(hdr[4:]),
		arg1:  binary.LittleEndian.Uint32(hdr[8:]),
		check: binary.LittleEndian.Uint32(hdr[16:]),
		data:  make([]byte, binary.LittleEndian.Uint32(hdr[12:])),
	}
	if binary.LittleEndian.Uint32(hdr[20:]) != binary.LittleEndian.Uint32(hdr[:4])^0xffffffff {
		return p, fmt.Errorf("bad magic from the device")
	}
	_, err := io.ReadFull(h.r, p.data)
	return p, err
}

func (h *rawHost) mustRecv(cmd string) rawPacket {
	h.t.Helper()
	p, err := h.recv()
	if err != nil || p.cmd != cmd {
		h.t.Fatalf("want %s, got %s %d %d %q, %v", cmd, p.cmd, p.arg0, p.arg1, p.data, err)
	}
	return p
}

// connect does the CNXN handshake with the given version and maxdata.
func (h *rawHost) connect(version, maxData uint32) rawPacket {
	h.t.Helper()
	h.send("CNXN", version, maxData, "host::features=shell_v2,cmd\x00")
	return h.mustRecv("CNXN")
}

// run opens service as stream id 1 and returns all output (acknowledging each WRTE).
func (h *rawHost) run(service string) (string, error) {
	h.send("OPEN", 1, 0, service+"\x00")
	p, err := h.recv()
	if err != nil {
		return "", err
	}
	if p.cmd != "OKAY" {
		return "", fmt.Errorf("OPEN %s: %s", service, p.cmd)
	}
	local := p.arg0
	var out strings.Builder
	for {
		p, err := h.recv()
		if err != nil {
			return out.String(), err
		}
		switch p.cmd {
		case "WRTE":
			out.Write(p.data)
			h.send("OKAY", 1, local, "")
		case "CLSE":
			return out.String(), nil
		}
	}
}

func sum(b []byte) uint32 {
	var s uint32
	for _, x := range b {
		s += uint32(x)
	}
	return s
}

func TestDeviceHandshake(t *testing.T) {
	dev := newTestDoubleDevice("solo")
	face := startDevice(t, dev)
	wantBanner := "device::ro.product.name=sdk_fairy;ro.product.model=Fairy Phone 1;ro.product.device=fairy;features=shell_v2,cmd"
	tests := []struct {
		name              string
		version, maxData  uint32
		wantVersion       uint32
		wantMax           uint32
		wantSums, chunked bool
	}{
		{"current", 0x01000001, 1 << 20, 0x01000001, 1 << 20, false, false},
		{"old version sums", 0x01000000, 4096, 0x01000000, 4096, true, true},
		{"newer host", 0x01000002, 256 << 10, 0x01000001, 256 << 10, false, true},
		{"huge maxdata capped", 0x01000001, 64 << 20, 0x01000001, 1 << 20, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := dialRaw(t, face.Addr())
			p := h.connect(tt.version, tt.maxData)
			if p.arg0 != tt.wantVersion || p.arg1 != tt.wantMax || string(p.data) != wantBanner {
				t.Errorf("CNXN(%#x, %d, %q)", p.arg0, p.arg1, p.data)
			}
			if tt.wantSums && p.check != sum(p.data) {
				t.Errorf("checksum %d, want %d", p.check, sum(p.data))
			}
			// Output larger than maxdata comes in maxdata chunks, each after an OKAY.
			h.send("OPEN", 1, 0, "exec:blob 70000\x00")
			local := h.mustRecv("OKAY").arg0
			var got []byte
			for {
				p := h.mustRecvAny()
				if p.cmd == "CLSE" {
					break
				}
				if p.cmd != "WRTE" || len(p.data) > int(tt.wantMax) {
					t.Fatalf("%s of %d bytes", p.cmd, len(p.data))
				}
				if tt.wantSums && p.check != sum(p.data) {
					t.Fatalf("WRTE checksum %d, want %d", p.check, sum(p.data))
				}
				if !tt.wantSums && p.check != 0 {
					t.Fatalf("WRTE checksum %d, want 0", p.check)
				}
				got = append(got, p.data...)
				h.send("OKAY", 1, local, "")
			}
			if string(got) != string(blob(70000)) {
				t.Errorf("blob: %d bytes", len(got))
			}
		})
	}
}

func (h *rawHost) mustRecvAny() rawPacket {
	h.t.Helper()
	p, err := h.recv()
	if err != nil {
		h.t.Fatal(err)
	}
	return p
}

func TestDeviceProtocol(t *testing.T) {
	dev := newTestDoubleDevice("solo")
	face := startDevice(t, dev)
	h := dialRaw(t, face.Addr())
	h.connect(0x01000001, 1<<20)

	// Unknown service: CLSE(0, id).
	h.send("OPEN", 9, 0, "framebuffer:\x00")
	if p := h.mustRecv("CLSE"); p.arg0 != 0 || p.arg1 != 9 {
		t.Errorf("CLSE(%d, %d)", p.arg0, p.arg1)
	}
	if out, err := h.run("shell:echo hi"); err != nil || out != "hi\n" {
		t.Errorf("shell: %q %v", out, err)
	}
	if out, err := h.run("shell,v2,raw:exit 5"); err != nil || out != "\x03\x01\x00\x00\x00\x05" {
		t.Errorf("shell v2 exit: %q %v", out, err)
	}

	// Sync requests split across WRTE packets at odd places.
	h.send("OPEN", 3, 0, "sync:\x00")
	local := h.mustRecv("OKAY").arg0
	req := "STAT\x11\x00\x00\x00/sdcard/hello.txt" + "QUIT\x00\x00\x00\x00"
	for _, part := range []string{req[:3], req[3:10], req[10:]} {
		h.send("WRTE", 3, local, part)
		h.mustRecv("OKAY")
	}
	p := h.mustRecv("WRTE")
	if len(p.data) != 16 || string(p.data[:4]) != "STAT" || binary.LittleEndian.Uint32(p.data[4:]) != 0o100660 || binary.LittleEndian.Uint32(p.data[8:]) != 6 {
		t.Errorf("STAT reply %q", p.data)
	}
	h.send("OKAY", 3, local, "")
	h.mustRecv("CLSE")

	// A host CLSE mid-command cancels it.
	h.send("OPEN", 4, 0, "shell:sleep\x00")
	local = h.mustRecv("OKAY").arg0
	h.mustRecv("WRTE")
	h.send("CLSE", 4, local, "")
	select {
	case <-dev.cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("CLSE did not cancel the command")
	}
	if out, err := h.run("exec:echo after"); err != nil || out != "after\n" {
		t.Errorf("after cancel: %q %v", out, err)
	}

	// A drop fault drops the whole connection abruptly.
	h.send("OPEN", 5, 0, "shell:drop\x00")
	local = h.mustRecv("OKAY").arg0
	for {
		p, err := h.recv()
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				t.Fatal("drop fault did not drop the connection")
			}
			break
		}
		switch p.cmd {
		case "CLSE":
			t.Fatal("drop fault closed the stream in order")
		case "WRTE":
			h.send("OKAY", 5, local, "")
		}
	}
}

// TestDeviceBadInput sends each kind of bad input: that connection ends, a second client
// on the same face is unaffected throughout, and nothing panics.
func TestDeviceBadInput(t *testing.T) {
	dev := newTestDoubleDevice("solo")
	face := startDevice(t, dev)
	good := dialRaw(t, face.Addr())
	good.connect(0x01000001, 1<<20)

	cnxn := string(encode("CNXN", 0x01000001, 4096, []byte("host::\x00")))
	tests := []struct {
		name string
		send string
	}{
		{"bad magic", "CNXN" + strings.Repeat("\x00", 20)},
		{"garbage bytes", strings.Repeat("\xde\xad\xbe\xef", 30)},
		{"garbage banner", string(encode("CNXN", 0x01000001, 4096, []byte("\x00\x01garbage")))},
		{"bad version", string(encode("CNXN", 7, 4096, []byte("host::\x00")))},
		{"tiny maxdata", string(encode("CNXN", 0x01000001, 1, []byte("host::\x00")))},
		{"oversized packet", string(encode("CNXN", 0x01000001, 4096, nil))[:12] + "\x00\x00\x00\x10" + string(encode("CNXN", 0x01000001, 4096, nil))[16:]},
		{"OPEN before CNXN", string(encode("OPEN", 1, 0, []byte("shell:echo\x00")))},
		{"OPEN with id 0", cnxn + string(encode("OPEN", 0, 0, []byte("shell:echo\x00")))},
		{"WRTE above maxdata", cnxn + string(encode("OPEN", 1, 0, []byte("sync:\x00"))) + string(encode("WRTE", 1, 1, make([]byte, 5000)))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := dialRaw(t, face.Addr())
			_, _ = h.c.Write([]byte(tt.send))
			var err error
			for err == nil {
				_, err = h.recv()
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				t.Fatalf("the face did not end the connection")
			}
			if out, err := good.run("exec:echo " + strconv.Quote(tt.name)); err != nil || out != tt.name+"\n" {
				t.Errorf("other client after %s: %q %v", tt.name, out, err)
			}
		})
	}
	t.Run("sync garbage ends the stream", func(t *testing.T) {
		h := dialRaw(t, face.Addr())
		h.connect(0x01000001, 1<<20)
		h.send("OPEN", 1, 0, "sync:\x00")
		local := h.mustRecv("OKAY").arg0
		h.send("WRTE", 1, local, "ZZZZ\x00\x00\x00\x00")
		h.mustRecv("OKAY")
		if p := h.mustRecv("WRTE"); !strings.HasPrefix(string(p.data), "FAIL") {
			t.Errorf("sync garbage answered %q", p.data)
		}
		h.send("OKAY", 1, local, "")
		h.mustRecv("CLSE")
		if out, err := h.run("exec:echo same"); err != nil || out != "same\n" {
			t.Errorf("same connection after sync garbage: %q %v", out, err)
		}
	})
	t.Run("vanish mid-stream", func(t *testing.T) {
		h := dialRaw(t, face.Addr())
		h.connect(0x01000001, 1<<20)
		h.send("OPEN", 1, 0, "exec:blob 5000000\x00")
		h.mustRecv("OKAY")
		h.mustRecv("WRTE")
		h.c.Close()
		if out, err := good.run("exec:echo ok"); err != nil || out != "ok\n" {
			t.Errorf("other client: %q %v", out, err)
		}
	})
}

func TestDeviceStatesRealAdb(t *testing.T) {
	unauth := newTestDoubleDevice("u")
	unauth.state = stateUnauthorized
	offline := newTestDoubleDevice("o")
	offline.state = stateOffline
	g, err := NewDeviceGroup(DeviceGroupConfig{Devices: []Device{unauth, offline}})
	if err != nil {
		t.Fatal(err)
	}
	go g.Serve(t.Context())
	t.Cleanup(func() { g.Close() })
	adb := adbtest.Start(t)
	adb.ConnectState(t, g.Servers()[0].Addr().String(), "unauthorized")
	// adb connect waits a long while for an offline device: let the client go early; the
	// server keeps the transport.
	ctx, cancel := context.WithTimeout(t.Context(), 500*time.Millisecond)
	defer cancel()
	_, _, _ = adb.Exec(ctx, nil, "connect", g.Servers()[1].Addr().String())
	adb.WaitState(t, g.Servers()[1].Addr().String(), "offline")
}

func TestDeviceGroupPorts(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	devs := []Device{newTestDoubleDevice("a"), newTestDoubleDevice("b"), newTestDoubleDevice("c")}
	g, err := NewDeviceGroup(DeviceGroupConfig{Devices: devs, Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port))})
	if err != nil {
		t.Skipf("consecutive ports %d.. not free: %v", port, err)
	}
	served := make(chan error, 1)
	go func() { served <- g.Serve(t.Context()) }()
	for i, s := range g.Servers() {
		if got := s.Addr().(*net.TCPAddr).Port; got != port+i {
			t.Errorf("face %d on port %d, want %d", i, got, port+i)
		}
		h := dialRaw(t, s.Addr())
		h.connect(0x01000001, 1<<20)
		if out, err := h.run("exec:echo " + s.Device().Serial()); err != nil || out != s.Device().Serial()+"\n" {
			t.Errorf("face %d: %q %v", i, out, err)
		}
	}
	if err := g.Close(); err != nil {
		t.Error(err)
	}
	if err := <-served; err != nil {
		t.Error(err)
	}
	if _, err := NewDeviceGroup(DeviceGroupConfig{}); !errors.Is(err, errNoDevice) {
		t.Errorf("empty group: %v", err)
	}
}
