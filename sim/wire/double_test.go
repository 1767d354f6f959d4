package wire

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// testDoubleDevice is a TEST DOUBLE of a phone for the wire tests: a handful of commands
// and an in-memory file system. The real phone is package sim.
//
// Commands: echo ARGS, blob N (N deterministic binary bytes, one write), lines N (N
// writes), sleep (until cancelled; reports on cancelled), exit N, drop (partial output then
// ErrDropConnection), cat PATH; anything else is "not found" with status 127.
type testDoubleDevice struct {
	serial string
	props  Props
	state  string

	cancelled chan string // receives the command line of a cancelled sleep

	mu    sync.Mutex
	files map[string]testDoubleFile
	dirs  map[string]bool
}

type testDoubleFile struct {
	data  []byte
	mode  fs.FileMode
	mtime time.Time
}

func newTestDoubleDevice(serial string) *testDoubleDevice {
	return &testDoubleDevice{
		serial:    serial,
		props:     Props{Product: "sdk_fairy", Model: "Fairy Phone 1", Device: "fairy"},
		state:     StateDevice,
		cancelled: make(chan string, 16),
		files: map[string]testDoubleFile{
			"/sdcard/hello.txt": {data: []byte("hello\n"), mode: 0o660, mtime: time.Unix(1700000000, 0)},
		},
		dirs: map[string]bool{"/": true, "/sdcard": true, "/data": true, "/data/local": true, "/data/local/tmp": true},
	}
}

func (d *testDoubleDevice) Serial() string    { return d.serial }
func (d *testDoubleDevice) Props() Props      { return d.props }
func (d *testDoubleDevice) ConnState() string { return d.state }

// blob is n deterministic bytes covering every byte value, CR and LF included.
func blob(n int) []byte {
	r := rand.New(rand.NewPCG(uint64(n), 7))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	for i := 0; i+2 < n; i += 97 {
		copy(b[i:], "\r\n\n")
	}
	return b
}

func unquote(s string) string { return strings.Trim(s, "'\"") }

func (d *testDoubleDevice) Shell(ctx context.Context, cmdline string, w io.Writer) (int, error) {
	f := strings.Fields(cmdline)
	if len(f) == 0 {
		return 0, nil
	}
	for i := range f {
		f[i] = unquote(f[i])
	}
	arg := func(i int) int {
		if len(f) <= i {
			return 0
		}
		n, _ := strconv.Atoi(f[i])
		return n
	}
	switch f[0] {
	case "echo":
		_, err := fmt.Fprintln(w, strings.Join(f[1:], " "))
		return 0, err
	case "blob":
		_, err := w.Write(blob(arg(1)))
		return 0, err
	case "lines":
		for i := range arg(1) {
			if _, err := fmt.Fprintf(w, "line %d\n", i); err != nil {
				return 1, err
			}
		}
		return 0, nil
	case "sleep":
		_, _ = io.WriteString(w, "sleeping\n")
		select {
		case <-ctx.Done():
			d.cancelled <- cmdline
			return 130, ctx.Err()
		case <-time.After(20 * time.Second):
			return 0, nil
		}
	case "exit":
		return arg(1), nil
	case "take":
		// take N: reads N bytes of the client's input and prints how many and their sum.
		in, ok := ShellInput(ctx)
		if !ok {
			fmt.Fprintln(w, "no input")
			return 1, nil
		}
		buf := make([]byte, arg(1))
		n, err := io.ReadFull(in, buf)
		s := 0
		for _, b := range buf[:n] {
			s += int(b)
		}
		fmt.Fprintf(w, "took %d sum %d err %v\n", n, s, err)
		return 0, nil
	case "drop":
		_, _ = io.WriteString(w, "partial")
		return 0, fmt.Errorf("test double: %w", ErrDropConnection)
	case "cat":
		data, err := d.ReadFile(f[1])
		if err != nil {
			fmt.Fprintf(w, "cat: %s: No such file or directory\n", f[1])
			return 1, nil
		}
		_, err = w.Write(data)
		return 0, err
	}
	fmt.Fprintf(w, "/system/bin/sh: %s: not found\n", f[0])
	return 127, nil
}

func (d *testDoubleDevice) Stat(p string) (FileInfo, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	p = path.Clean("/" + p)
	if f, ok := d.files[p]; ok {
		return FileInfo{Name: path.Base(p), Mode: f.mode, Size: int64(len(f.data)), ModTime: f.mtime}, nil
	}
	if d.dirs[p] {
		return FileInfo{Name: path.Base(p), Mode: fs.ModeDir | 0o771, ModTime: time.Unix(1600000000, 0)}, nil
	}
	return FileInfo{}, fmt.Errorf("stat %s: %w", p, fs.ErrNotExist)
}

func (d *testDoubleDevice) ReadDir(p string) ([]FileInfo, error) {
	p = path.Clean("/" + p)
	if fi, err := d.Stat(p); err != nil || !fi.Mode.IsDir() {
		return nil, fmt.Errorf("readdir %s: %w", p, fs.ErrNotExist)
	}
	d.mu.Lock()
	var names []string
	for name := range d.files {
		if path.Dir(name) == p {
			names = append(names, name)
		}
	}
	for name := range d.dirs {
		if name != "/" && path.Dir(name) == p {
			names = append(names, name)
		}
	}
	d.mu.Unlock()
	sort.Strings(names)
	var out []FileInfo
	for _, n := range names {
		fi, err := d.Stat(n)
		if err == nil {
			out = append(out, fi)
		}
	}
	return out, nil
}

func (d *testDoubleDevice) ReadFile(p string) ([]byte, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	f, ok := d.files[path.Clean("/"+p)]
	if !ok {
		return nil, fmt.Errorf("read %s: %w", p, fs.ErrNotExist)
	}
	return append([]byte(nil), f.data...), nil
}

func (d *testDoubleDevice) WriteFile(p string, data []byte, mode fs.FileMode, mtime time.Time) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	p = path.Clean("/" + p)
	if !d.dirs[path.Dir(p)] {
		return fmt.Errorf("write %s: %w", p, fs.ErrNotExist)
	}
	if d.dirs[p] {
		return fmt.Errorf("write %s: is a directory: %w", p, fs.ErrExist)
	}
	d.files[p] = testDoubleFile{data: append([]byte(nil), data...), mode: mode, mtime: mtime}
	return nil
}
