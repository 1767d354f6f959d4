package wire

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"slices"
	"testing"
	"time"
)

// TestShellInput: a command reads what the client streams after its request, on the exec
// service (raw bytes: how adb install streams an APK to cmd package install -S) and on the
// v2 shell (stdin packets, then close-stdin: adb shell CMD < FILE).
func TestShellInput(t *testing.T) {
	srv := startHost(t, newTestDoubleDevice("solo"))
	data := bytes.Repeat([]byte{1, 2, 3, 4, 5}, 40000) // 200 000 bytes, sum 600 000
	run := func(service string, input []byte) string {
		t.Helper()
		c, err := net.Dial("tcp", srv.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_ = c.SetDeadline(time.Now().Add(10 * time.Second))
		fmt.Fprint(c, hex4("host:transport:solo")+hex4(service))
		if _, err := c.Write(input); err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(c)
		return string(b)
	}
	if got, want := run(fmt.Sprintf("exec:take %d", len(data)), data), "OKAYOKAYtook 200000 sum 600000 err <nil>\n"; got != want {
		t.Errorf("exec: got %q want %q", got, want)
	}
	var v2 []byte
	for chunk := range slices.Chunk(data, 65536) {
		v2 = append(v2, 0, byte(len(chunk)), byte(len(chunk)>>8), byte(len(chunk)>>16), 0)
		v2 = append(v2, chunk...)
	}
	v2 = append(v2, 4, 0, 0, 0, 0) // close stdin
	out := "took 200000 sum 600000 err <nil>\n"
	if got, want := run(fmt.Sprintf("shell,v2,raw:take %d", len(data)), v2), "OKAYOKAY\x01"+string(rune(len(out)))+"\x00\x00\x00"+out+"\x03\x01\x00\x00\x00\x00"; got != want {
		t.Errorf("v2: got %q want %q", got, want)
	}
	// The input ends before the command has read all it wants: it sees the end.
	if got, want := run("shell,v2,raw:take 10", []byte{0, 3, 0, 0, 0, 7, 7, 7, 4, 0, 0, 0, 0}), "took 3 sum 21 err unexpected EOF\n"; !bytes.Contains([]byte(got), []byte(want)) {
		t.Errorf("short v2 input: got %q want it to hold %q", got, want)
	}
}
