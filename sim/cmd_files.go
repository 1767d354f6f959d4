package sim

import (
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"time"
)

// The toybox commands that read and change files: cat, ls, rm, mkdir, touch, mv (helpers
// pushed to a temporary name and moved into place), stat and which.

func cmdCat(p *Phone, c *cmdIO) int {
	_, ops := operands(c.args[1:])
	if len(ops) == 0 {
		_, _ = c.stdout.Write(c.stdin)
		return 0
	}
	st := 0
	for _, f := range ops {
		if f == "-" {
			_, _ = c.stdout.Write(c.stdin)
			continue
		}
		data, err := p.fs.readFile(f)
		if err != nil {
			if fi, serr := p.fs.stat(f); serr == nil && fi.Mode.IsDir() {
				c.errorf("cat: %s: Is a directory\n", f)
			} else {
				c.errorf("cat: %s: No such file or directory\n", f)
			}
			st = 1
			continue
		}
		_, _ = c.stdout.Write(data)
	}
	return st
}

func cmdLs(p *Phone, c *cmdIO) int {
	flags, ops := operands(c.args[1:])
	long := strings.Contains(flags, "l")
	all := strings.Contains(flags, "a")
	dirAsFile := strings.Contains(flags, "d")
	if len(ops) == 0 {
		ops = []string{"/"}
	}
	st := 0
	// list prints one listing as toybox does: with -l a "total" of 1K blocks for a directory
	// and columns as wide as their widest entry.
	list := func(entries []fileInfo, dir string, total bool) {
		if !long {
			for _, e := range entries {
				c.printf("%s\n", e.Name)
			}
			return
		}
		var wl, wu, wg, ws, blocks int
		for i, e := range entries {
			if e.Mode.IsDir() {
				entries[i].Size = 4096
			}
			u, g, _, _ := owner(path.Join(dir, e.Name))
			wu, wg = max(wu, len(u)), max(wg, len(g))
			wl = max(wl, 1)
			ws = max(ws, len(strconv.FormatInt(entries[i].Size, 10)))
			blocks += int((entries[i].Size + 4095) / 4096 * 4)
		}
		if total {
			c.printf("total %d\n", blocks)
		}
		for _, e := range entries {
			u, g, _, _ := owner(path.Join(dir, e.Name))
			links := "1"
			if e.Mode.IsDir() {
				links = "2"
			}
			c.printf("%s %*s %-*s %-*s %*d %s %s\n", modeString(e.Mode), wl, links, wu, u, wg, g, ws, e.Size,
				e.ModTime.Format("2006-01-02 15:04"), e.Name)
		}
	}
	for i, d := range ops {
		fi, err := p.fs.stat(d)
		if err != nil {
			c.errorf("ls: %s: No such file or directory\n", d)
			st = 1
			continue
		}
		if !fi.Mode.IsDir() || dirAsFile {
			fi.Name = d
			list([]fileInfo{fi}, "", false)
			continue
		}
		if len(ops) > 1 {
			if i > 0 {
				c.printf("\n")
			}
			c.printf("%s:\n", d)
		}
		entries, _ := p.fs.readDir(d)
		var shown []fileInfo
		if all {
			shown = append(shown, fileInfo{Name: ".", Mode: fi.Mode, ModTime: fi.ModTime}, fileInfo{Name: "..",
				Mode: fs.ModeDir | 0o755, ModTime: fi.ModTime})
		}
		for _, e := range entries {
			if all || !strings.HasPrefix(e.Name, ".") {
				shown = append(shown, e)
			}
		}
		list(shown, cleanPath(d), true)
	}
	return st
}

func modeString(m fs.FileMode) string {
	b := []byte("----------")
	if m.IsDir() {
		b[0] = 'd'
	} else if m&fs.ModeCharDevice != 0 {
		b[0] = 'c'
	}
	const rwx = "rwxrwxrwx"
	for i := 0; i < 9; i++ {
		if m&(1<<uint(8-i)) != 0 {
			b[i+1] = rwx[i]
		}
	}
	return string(b)
}

// owner is the owner and group ls -l and stat show for a path.
func owner(p string) (user, group string, uid, gid int) {
	switch p = cleanPath(p); {
	case p == "/system/bin/sh" || strings.HasPrefix(p, "/system/bin/") && p != "/system/bin":
		return "root", "shell", 0, 2000
	case p == "/" || p == "/system" || p == "/system/bin" || strings.HasPrefix(p, "/system/") || strings.HasPrefix(p, "/proc"):
		return "root", "root", 0, 0
	case p == "/sdcard" || strings.HasPrefix(p, "/sdcard/"):
		return "u0_a140", "media_rw", 10140, 1023
	}
	return "shell", "shell", 2000, 2000
}

func cmdRm(p *Phone, c *cmdIO) int {
	flags, ops := operands(c.args[1:])
	if len(ops) == 0 {
		c.errorf("rm: Needs 1 argument (see \"rm --help\")\n")
		return 1
	}
	st := 0
	for _, f := range ops {
		err := p.fs.remove(f, strings.ContainsAny(flags, "rR"))
		if err != nil {
			if _, serr := p.fs.stat(f); serr == nil {
				c.errorf("rm: %s: is a directory\n", f)
				st = 1
			} else if !strings.Contains(flags, "f") {
				c.errorf("rm: %s: No such file or directory\n", f)
				st = 1
			}
		}
	}
	return st
}

func cmdMkdir(p *Phone, c *cmdIO) int {
	_, ops := operands(c.args[1:])
	for _, d := range ops {
		if err := p.fs.mkdirAll(d, p.cfg.Clock()); err != nil {
			c.errorf("mkdir: '%s': File exists\n", d)
			return 1
		}
	}
	return 0
}

func cmdTouch(p *Phone, c *cmdIO) int {
	_, ops := operands(c.args[1:])
	for _, f := range ops {
		data, _ := p.fs.readFile(f)
		if err := p.fs.writeFile(f, data, 0o660, p.cfg.Clock()); err != nil {
			c.errorf("touch: '%s': No such file or directory\n", f)
			return 1
		}
	}
	return 0
}

func cmdMv(p *Phone, c *cmdIO) int {
	_, ops := operands(c.args[1:])
	if len(ops) < 2 {
		c.errorf("mv: Needs 2 arguments (see \"mv --help\")\n")
		return 1
	}
	dst := ops[len(ops)-1]
	srcs := ops[:len(ops)-1]
	dstInfo, dstErr := p.fs.stat(dst)
	dstDir := dstErr == nil && dstInfo.Mode.IsDir()
	if len(srcs) > 1 && !dstDir {
		c.errorf("mv: '%s' not directory\n", dst)
		return 1
	}
	st := 0
	for _, src := range srcs {
		to := dst
		if dstDir {
			to = path.Join(dst, path.Base(cleanPath(src)))
		}
		if err := p.fs.rename(src, to); err != nil {
			if _, serr := p.fs.stat(src); serr != nil {
				c.errorf("mv: bad '%s': No such file or directory\n", src)
			} else {
				c.errorf("mv: '%s' to '%s': No such file or directory\n", src, to)
			}
			st = 1
		}
	}
	return st
}

func cmdStat(p *Phone, c *cmdIO) int {
	format := ""
	var ops []string
	for i := 1; i < len(c.args); i++ {
		switch a := c.args[i]; {
		case a == "-c" && i+1 < len(c.args):
			format = c.args[i+1]
			i++
		case strings.HasPrefix(a, "--format="):
			format = strings.TrimPrefix(a, "--format=")
		case strings.HasPrefix(a, "-") && len(a) > 1:
		default:
			ops = append(ops, a)
		}
	}
	if len(ops) == 0 {
		c.errorf("stat: Needs 1 argument (see \"stat --help\")\n")
		return 1
	}
	if format == "" {
		format = "  File: %N\n  Size: %s\t Blocks: %b\t IO Blocks: %B\t%F\nDevice: fd05h/64773d\t Inode: %i\t Links: %h\n" +
			"Access: (%a/%A)\tUid: (%5u/%8U)\tGid: (%5g/%8G)\nAccess: %x\nModify: %y\nChange: %z"
	}
	st := 0
	for _, f := range ops {
		fi, err := p.fs.stat(f)
		if err != nil {
			c.errorf("stat: '%s': No such file or directory\n", f)
			st = 1
			continue
		}
		c.printf("%s\n", statFormat(format, f, fi))
	}
	return st
}

// fileType is stat's %F.
func fileType(fi fileInfo) string {
	switch {
	case fi.Mode.IsDir():
		return "directory"
	case fi.Mode&fs.ModeCharDevice != 0:
		return "character special file"
	case fi.Mode&fs.ModeSymlink != 0:
		return "symbolic link"
	case fi.Size == 0:
		return "regular empty file"
	}
	return "regular file"
}

// statTime is how toybox stat prints a time: nanoseconds and the zone offset.
func statTime(t time.Time) string { return t.Format("2006-01-02 15:04:05.000000000 -0700") }

// inode is a stable inode number for a path.
func inode(p string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(p); i++ {
		h = (h ^ uint32(p[i])) * 16777619
	}
	return h%900000 + 1000
}

// statFormat expands stat -c sequences: %n %N %s %b %B %F %i %h %a %A %u %U %g %G %x %y %z
// %X %Y %Z and widths such as %5u.
func statFormat(format, name string, fi fileInfo) string {
	user, group, uid, gid := owner(name)
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		if format[i] != '%' || i+1 >= len(format) {
			b.WriteByte(format[i])
			continue
		}
		j := i + 1
		for j < len(format) && (format[j] == '-' || format[j] >= '0' && format[j] <= '9') {
			j++
		}
		if j >= len(format) {
			b.WriteString(format[i:])
			break
		}
		width := format[i+1 : j]
		var v string
		switch format[j] {
		case 'n':
			v = name
		case 'N':
			v = "'" + name + "'"
		case 's':
			v = strconv.FormatInt(fi.Size, 10)
		case 'b':
			v = strconv.FormatInt((fi.Size+4095)/4096*8, 10)
		case 'B':
			v = "4096"
		case 'F':
			v = fileType(fi)
		case 'i':
			v = strconv.FormatUint(uint64(inode(cleanPath(name))), 10)
		case 'h':
			v = "1"
			if fi.Mode.IsDir() {
				v = "2"
			}
		case 'a':
			v = strconv.FormatUint(uint64(fi.Mode.Perm()), 8)
		case 'A':
			v = modeString(fi.Mode)
		case 'u':
			v = strconv.Itoa(uid)
		case 'U':
			v = user
		case 'g':
			v = strconv.Itoa(gid)
		case 'G':
			v = group
		case 'x', 'y', 'z':
			v = statTime(fi.ModTime)
		case 'X', 'Y', 'Z':
			v = strconv.FormatInt(fi.ModTime.Unix(), 10)
		case '%':
			v = "%"
		default:
			v = format[i : j+1]
		}
		if width != "" {
			v = fmt.Sprintf("%"+width+"s", v)
		}
		b.WriteString(v)
		i = j
	}
	return b.String()
}

func cmdWhich(p *Phone, c *cmdIO) int {
	_, ops := operands(c.args[1:])
	st := 0
	for _, name := range ops {
		// sleep and sh are files of /system/bin too; exit is a shell builtin only.
		if _, ok := p.cmds[name]; ok || name == "sleep" || name == "sh" {
			c.printf("/system/bin/%s\n", name)
			continue
		}
		if fi, err := p.fs.stat(name); err == nil && strings.Contains(name, "/") && !fi.Mode.IsDir() && fi.Mode&0o111 != 0 {
			c.printf("%s\n", name)
			continue
		}
		st = 1
	}
	return st
}
