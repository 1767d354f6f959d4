package sim

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"
)

// memFS is the phone's file system: a flat map of cleaned absolute paths. Callers hold the
// phone's lock.
type memFS struct {
	files map[string]*memFile
}

type memFile struct {
	dir   bool
	data  []byte
	mode  fs.FileMode
	mtime time.Time
	gen   func() []byte // content made when read (/proc files: stat reports size 0)
}

// fileInfo is what Stat and ReadDir report; the wire adapter converts it.
type fileInfo struct {
	Name    string
	Mode    fs.FileMode
	Size    int64
	ModTime time.Time
}

func newMemFS(now time.Time) *memFS {
	m := &memFS{files: map[string]*memFile{}}
	for _, d := range []string{"/", "/sdcard", "/sdcard/Download", "/sdcard/Pictures", "/sdcard/DCIM",
		"/data", "/data/local", "/data/local/tmp", "/system", "/system/bin", "/dev", "/storage", "/storage/emulated"} {
		m.files[d] = &memFile{dir: true, mode: fs.ModeDir | 0o771, mtime: now}
	}
	m.files["/dev/null"] = &memFile{mode: fs.ModeDevice | fs.ModeCharDevice | 0o666, mtime: now}
	m.files["/dev/tty"] = &memFile{mode: fs.ModeDevice | fs.ModeCharDevice | 0o666, mtime: now}
	return m
}

// cleanPath maps a device path to the key used in the map; /storage/emulated/0 and
// /storage/self/primary are the same place as /sdcard, as on Android.
func cleanPath(p string) string {
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	p = path.Clean(p)
	for _, alias := range []string{"/storage/emulated/0", "/storage/self/primary", "/mnt/sdcard"} {
		if p == alias || strings.HasPrefix(p, alias+"/") {
			p = "/sdcard" + strings.TrimPrefix(p, alias)
		}
	}
	return p
}

func (m *memFS) stat(p string) (fileInfo, error) {
	p = cleanPath(p)
	f, ok := m.files[p]
	if !ok {
		return fileInfo{}, fmt.Errorf("stat %s: %w", p, fs.ErrNotExist)
	}
	return f.info(path.Base(p)), nil
}

func (f *memFile) info(name string) fileInfo {
	return fileInfo{Name: name, Mode: f.mode, Size: int64(len(f.data)), ModTime: f.mtime}
}

func (m *memFS) readDir(p string) ([]fileInfo, error) {
	p = cleanPath(p)
	f, ok := m.files[p]
	if !ok {
		return nil, fmt.Errorf("read dir %s: %w", p, fs.ErrNotExist)
	}
	if !f.dir {
		return nil, fmt.Errorf("read dir %s: not a directory: %w", p, fs.ErrInvalid)
	}
	prefix := p + "/"
	if p == "/" {
		prefix = "/"
	}
	var out []fileInfo
	for k, v := range m.files {
		if k == p || !strings.HasPrefix(k, prefix) || strings.Contains(k[len(prefix):], "/") {
			continue
		}
		out = append(out, v.info(k[len(prefix):]))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func (m *memFS) readFile(p string) ([]byte, error) {
	p = cleanPath(p)
	f, ok := m.files[p]
	if !ok {
		return nil, fmt.Errorf("read %s: %w", p, fs.ErrNotExist)
	}
	if f.dir {
		return nil, fmt.Errorf("read %s: is a directory: %w", p, fs.ErrInvalid)
	}
	if f.gen != nil {
		return f.gen(), nil
	}
	return append([]byte(nil), f.data...), nil
}

func (m *memFS) writeFile(p string, data []byte, mode fs.FileMode, mtime time.Time) error {
	p = cleanPath(p)
	if p == "/dev/null" {
		return nil
	}
	parent, ok := m.files[path.Dir(p)]
	if !ok || !parent.dir {
		return fmt.Errorf("write %s: %w", p, fs.ErrNotExist)
	}
	if f, ok := m.files[p]; ok && f.dir {
		return fmt.Errorf("write %s: is a directory: %w", p, fs.ErrInvalid)
	}
	if mode&fs.ModePerm == 0 {
		mode |= 0o660
	}
	m.files[p] = &memFile{data: append([]byte(nil), data...), mode: mode &^ fs.ModeType, mtime: mtime}
	return nil
}

func (m *memFS) mkdirAll(p string, now time.Time) error {
	p = cleanPath(p)
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	cur := ""
	for _, part := range parts {
		cur += "/" + part
		if f, ok := m.files[cur]; ok {
			if !f.dir {
				return fmt.Errorf("mkdir %s: %w", cur, fs.ErrExist)
			}
			continue
		}
		m.files[cur] = &memFile{dir: true, mode: fs.ModeDir | 0o771, mtime: now}
	}
	return nil
}

func (m *memFS) remove(p string, recursive bool) error {
	p = cleanPath(p)
	f, ok := m.files[p]
	if !ok {
		return fmt.Errorf("remove %s: %w", p, fs.ErrNotExist)
	}
	if f.dir && !recursive {
		return fmt.Errorf("remove %s: is a directory: %w", p, fs.ErrInvalid)
	}
	delete(m.files, p)
	if f.dir {
		for k := range m.files {
			if strings.HasPrefix(k, p+"/") {
				delete(m.files, k)
			}
		}
	}
	return nil
}

// rename moves a file or a directory tree to a new path (mv); the target's directory must
// exist and a directory is never moved into itself.
func (m *memFS) rename(from, to string) error {
	from, to = cleanPath(from), cleanPath(to)
	f, ok := m.files[from]
	if !ok {
		return fmt.Errorf("rename %s: %w", from, fs.ErrNotExist)
	}
	if parent, ok := m.files[path.Dir(to)]; !ok || !parent.dir {
		return fmt.Errorf("rename %s: %w", to, fs.ErrNotExist)
	}
	if from == to {
		return nil
	}
	if f.dir && strings.HasPrefix(to, from+"/") {
		return fmt.Errorf("rename %s into itself: %w", from, fs.ErrInvalid)
	}
	if old, ok := m.files[to]; ok && old.dir != f.dir {
		return fmt.Errorf("rename %s over %s: %w", from, to, fs.ErrInvalid)
	}
	m.files[to] = f
	delete(m.files, from)
	if f.dir {
		for k, v := range m.files {
			if strings.HasPrefix(k, from+"/") {
				m.files[to+strings.TrimPrefix(k, from)] = v
				delete(m.files, k)
			}
		}
	}
	return nil
}
