package wire

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"time"
)

// listenerLoop owns a listener, the goroutines serving its connections and the
// connections themselves, so that Close ends them all and waits for them.
type listenerLoop struct {
	ln     net.Listener
	log    *slog.Logger
	ctx    context.Context // cancelled by close; parent of every connection's context
	cancel context.CancelFunc

	mu     sync.Mutex
	closed bool
	conns  map[net.Conn]struct{}
	wg     sync.WaitGroup
}

func newListenerLoop(ln net.Listener, addr string, log *slog.Logger) (*listenerLoop, error) {
	if ln == nil {
		if addr == "" {
			addr = "127.0.0.1:0"
		}
		var err error
		if ln, err = net.Listen("tcp", addr); err != nil {
			return nil, fmt.Errorf("wire listen %s: %w", addr, err)
		}
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &listenerLoop{ln: ln, log: log, ctx: ctx, cancel: cancel, conns: map[net.Conn]struct{}{}}, nil
}

// serve accepts connections until close or ctx's end and runs handle for each one in a
// goroutine of its own; the connection is closed when handle returns.
func (l *listenerLoop) serve(ctx context.Context, handle func(ctx context.Context, c net.Conn)) error {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return ErrServerClosed
	}
	l.wg.Add(1)
	l.mu.Unlock()
	defer l.wg.Done()
	stop := context.AfterFunc(ctx, func() { _ = l.close() })
	defer stop()

	var delay time.Duration
	for {
		c, err := l.ln.Accept()
		if err != nil {
			l.mu.Lock()
			closed := l.closed
			l.mu.Unlock()
			if closed {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				delay = min(max(2*delay, 5*time.Millisecond), time.Second)
				time.Sleep(delay)
				continue
			}
			return fmt.Errorf("wire accept: %w", err)
		}
		delay = 0
		l.mu.Lock()
		if l.closed {
			l.mu.Unlock()
			_ = c.Close()
			return nil
		}
		l.conns[c] = struct{}{}
		l.wg.Add(1)
		l.mu.Unlock()
		go func() {
			defer l.wg.Done()
			defer func() {
				l.mu.Lock()
				delete(l.conns, c)
				l.mu.Unlock()
				_ = c.Close()
			}()
			defer func() {
				// A bug in one connection's handling must not take the phone down.
				if r := recover(); r != nil {
					l.log.Error("wire: connection handler panicked", slog.Any(keyPanic, r))
				}
			}()
			handle(l.ctx, c)
		}()
	}
}

// close stops accepting, closes every connection and waits for their goroutines.
func (l *listenerLoop) close() error {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		l.wg.Wait()
		return nil
	}
	l.closed = true
	err := l.ln.Close()
	for c := range l.conns {
		_ = c.Close()
	}
	l.mu.Unlock()
	l.cancel()
	l.wg.Wait()
	if err != nil && !errors.Is(err, net.ErrClosed) {
		return fmt.Errorf("wire close listener: %w", err)
	}
	return nil
}

// abortConn closes c so that the peer sees a reset rather than an orderly end.
func abortConn(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = c.Close()
}

// Log attribute keys.
const (
	keyPanic   = "panic"
	keyErr     = "err"
	keyRemote  = "remote"
	keySerial  = "serial"
	keyService = "service"
)
