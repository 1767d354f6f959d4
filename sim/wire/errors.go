package wire

import "errors"

var (
	// ErrDropConnection, wrapped in an error returned by Device.Shell, makes the face drop the
	// client connection abruptly, as a phone whose connection breaks mid-command.
	ErrDropConnection = errors.New("wire: drop connection")
	// ErrServerClosed is returned by Serve after Close.
	ErrServerClosed = errors.New("wire: server closed")
	// errNoDevice is returned by a constructor given no device.
	errNoDevice = errors.New("wire: no device")
	// errMalformed marks bad input from a client: the connection that sent it is ended.
	errMalformed = errors.New("wire: malformed input")
)
