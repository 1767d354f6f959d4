package live

import "errors"

var (
	// errAddress is an address to listen on that is not host:port.
	errAddress = errors.New("live: bad address")
	// ErrNotLoopback is a non-loopback address without a token of the person's own.
	ErrNotLoopback = errors.New("live: refusing a non-loopback address without a token")
	// errClosed is a question asked of a page whose server has closed.
	errClosed = errors.New("live: the live page has closed")
)
