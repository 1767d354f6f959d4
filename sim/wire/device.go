package wire

import (
	"context"
	"io"
	"io/fs"
	"time"
)

// Connection states a Device reports through ConnState, as the adb server lists them.
const (
	StateDevice       = "device"
	stateOffline      = "offline"
	stateUnauthorized = "unauthorized"
)

// Device is one phone as the wire protocols see it.
type Device interface {
	// Serial is the device's serial number on the host face.
	Serial() string
	// Props are the product properties announced in the device banner.
	Props() Props
	// ConnState is "device", "offline" or "unauthorized".
	ConnState() string
	// Shell runs one command line exactly as received after "shell:" or "exec:" and writes its
	// output to w; it returns the exit status. An error that wraps ErrDropConnection makes the
	// face drop the client connection abruptly (fault injection); ctx is cancelled when the
	// client closes the stream.
	Shell(ctx context.Context, cmdline string, w io.Writer) (int, error)
	// Stat describes one file or directory; a missing path is an error wrapping fs.ErrNotExist.
	Stat(path string) (FileInfo, error)
	// ReadDir lists a directory.
	ReadDir(path string) ([]FileInfo, error)
	// ReadFile returns a file's content.
	ReadFile(path string) ([]byte, error)
	// WriteFile creates or replaces a file.
	WriteFile(path string, data []byte, mode fs.FileMode, mtime time.Time) error
}

// Props are the ro.product.* properties a device announces (banner and `adb devices -l`).
type Props struct {
	Product string // ro.product.name
	Model   string // ro.product.model
	Device  string // ro.product.device
}

// FileInfo describes one file of a Device for the sync protocol.
type FileInfo struct {
	Name    string      // base name
	Mode    fs.FileMode // permission bits plus fs.ModeDir / fs.ModeSymlink
	Size    int64
	ModTime time.Time
}
