package sim

import (
	"fmt"
	"io/fs"
	"time"

	"github.com/fairy-go/fairy/sim/wire"
)

// The phone as the wire protocols see it.
var _ wire.Device = (*Phone)(nil)

// Props returns the product properties announced in the adb banner.
func (p *Phone) Props() wire.Props {
	return wire.Props{Product: p.cfg.Product, Model: p.cfg.Model, Device: p.cfg.Device}
}

func toWire(fi fileInfo) wire.FileInfo {
	return wire.FileInfo{Name: fi.Name, Mode: fi.Mode, Size: fi.Size, ModTime: fi.ModTime}
}

// Stat describes a file of the phone; a missing path wraps fs.ErrNotExist.
func (p *Phone) Stat(path string) (wire.FileInfo, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fi, err := p.fs.stat(path)
	if err != nil {
		return wire.FileInfo{}, fmt.Errorf("sim: %w", err)
	}
	return toWire(fi), nil
}

// ReadDir lists a directory of the phone.
func (p *Phone) ReadDir(path string) ([]wire.FileInfo, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	list, err := p.fs.readDir(path)
	if err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	out := make([]wire.FileInfo, len(list))
	for i, fi := range list {
		out[i] = toWire(fi)
	}
	return out, nil
}

// ReadFile returns a file of the phone.
func (p *Phone) ReadFile(path string) ([]byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	data, err := p.fs.readFile(path)
	if err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	return data, nil
}

// WriteFile creates or replaces a file of the phone (its directory must exist, as with adb push
// to an existing directory; parent directories are created like adbd does).
func (p *Phone) WriteFile(path string, data []byte, mode fs.FileMode, mtime time.Time) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if mtime.IsZero() {
		mtime = p.cfg.Clock()
	}
	dir := cleanPath(path)
	if i := lastSlash(dir); i > 0 {
		if err := p.fs.mkdirAll(dir[:i], mtime); err != nil {
			return fmt.Errorf("sim: %w", err)
		}
	}
	if err := p.fs.writeFile(path, data, mode, mtime); err != nil {
		return fmt.Errorf("sim: %w", err)
	}
	return nil
}

func lastSlash(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '/' {
			return i
		}
	}
	return -1
}

func dropError(cmdline string) error {
	return fmt.Errorf("sim shell %q: %w: %w", abbreviate(cmdline), errDropped, wire.ErrDropConnection)
}

// readFileShell is readFile for callers that hold the lock... the shell runs without it.
func (p *Phone) readFileShell(path string) ([]byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.fs.readFile(path)
}

// writeRedirect stores the output of a `> file` redirection.
func (p *Phone) writeRedirect(path string, data []byte, appendTo bool) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if appendTo {
		if old, err := p.fs.readFile(path); err == nil {
			data = append(old, data...)
		}
	}
	return p.fs.writeFile(path, data, 0o660, p.cfg.Clock())
}

// ConnState returns "device": a virtual phone is always online and authorised.
func (p *Phone) ConnState() string { return wire.StateDevice }
