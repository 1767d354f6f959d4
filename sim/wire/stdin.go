package wire

import (
	"context"
	"errors"
	"io"
	"sync"
)

// A command's standard input. A client streams it on the shell service (exec: and shell:
// raw bytes; shell v2 stdin packets), as `adb install` streams an APK to `cmd package
// install -S SIZE`. The face keeps what arrives until the command reads it, so a command
// that never reads its input does not hold up the stream (and its end still cancels the
// command, the v1 protocol's only way to say the client went away).

// inputKey carries a command's input in its context.
type inputKey struct{}

// ShellInput returns the input the client streams to the command whose context is ctx;
// Device.Shell reads it when the command reads its standard input. Reads block until data
// arrives or the client ends its input (io.EOF).
func ShellInput(ctx context.Context) (io.Reader, bool) {
	r, ok := ctx.Value(inputKey{}).(io.Reader)
	return r, ok
}

// maxInput bounds the input held for a command that reads it slower than it arrives.
const maxInput = maxSyncFile

// errInputTooLarge is what a read returns after the client sent more than maxInput unread.
var errInputTooLarge = errors.New("wire: command input over 512 MiB unread")

// inputBuffer is a command's input: the face writes what arrives, the command reads it.
type inputBuffer struct {
	mu     sync.Mutex
	cond   *sync.Cond
	buf    []byte
	closed bool
	err    error
}

func newInputBuffer() *inputBuffer {
	b := &inputBuffer{}
	b.cond = sync.NewCond(&b.mu)
	return b
}

// Write keeps p for the command; it never blocks.
func (b *inputBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return 0, io.ErrClosedPipe
	}
	if len(b.buf)+len(p) > maxInput {
		b.err = errInputTooLarge
		b.buf = nil
		b.cond.Broadcast()
		return 0, b.err
	}
	b.buf = append(b.buf, p...)
	b.cond.Broadcast()
	return len(p), nil
}

// Close ends the input: reads return io.EOF once what was kept has been read.
func (b *inputBuffer) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	b.cond.Broadcast()
	return nil
}

// Read blocks until input is there or has ended.
func (b *inputBuffer) Read(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for len(b.buf) == 0 && !b.closed && b.err == nil {
		b.cond.Wait()
	}
	if b.err != nil {
		return 0, b.err
	}
	if len(b.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, b.buf)
	b.buf = b.buf[n:]
	if len(b.buf) == 0 {
		b.buf = nil
	}
	return n, nil
}
