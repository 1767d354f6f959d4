package sim

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The toybox commands adb clients run besides the ones in commands.go: mv (helpers pushed
// to a temporary name and moved into place), stat, which, ps, content, and app_process for
// pushed helpers, which cannot run on a virtual phone.

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
		format = "  File: %N\n  Size: %s\t Blocks: %b\t IO Blocks: %B\t%F\nDevice: fd05h/64773d\t Inode: %i\t Links: %h\nAccess: (%a/%A)\tUid: (%5u/%8U)\tGid: (%5g/%8G)\nAccess: %x\nModify: %y\nChange: %z"
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

// cmdPs lists init, system_server and one process per app with a task, as toybox ps -A.
func cmdPs(p *Phone, c *cmdIO) int {
	c.printf("USER           PID  PPID        VSZ    RSS WCHAN            ADDR S NAME                       \n")
	c.printf("root             1     0   10929016  12108 do_epoll_wait       0 S init\n")
	c.printf("system         612   356   15285112 236084 do_epoll_wait       0 S system_server\n")
	c.printf("u0_a108        801   356   13912340 168240 do_epoll_wait       0 S %s\n", systemUI)
	seen := map[string]bool{systemUI: true}
	pid := 1200
	for _, t := range p.tasks {
		if seen[t.pkg] {
			continue
		}
		seen[t.pkg] = true
		pid += 37
		c.printf("u0_a%-3d       %5d   356   13854812 112384 do_epoll_wait       0 S %s\n", 100+pid%90, pid, t.pkg)
	}
	c.printf("shell         %5d  2101   10793900   3840 0                   0 R ps\n", 4000+int(p.version%1000))
	return 0
}

// cmdContent answers `content query|insert|update|delete --uri content://settings/NS …`,
// the settings provider clients write rotation through.
func cmdContent(p *Phone, c *cmdIO) int {
	if len(c.args) < 2 {
		c.errorf("usage: adb shell content [subcommand] [options]\n")
		return 1
	}
	var uri, where string
	binds := map[string]string{}
	for i := 2; i+1 < len(c.args); i += 2 {
		switch c.args[i] {
		case "--uri":
			uri = c.args[i+1]
		case "--where":
			where = c.args[i+1]
		case "--bind":
			// name:type:value
			parts := strings.SplitN(c.args[i+1], ":", 3)
			if len(parts) == 3 {
				binds[parts[0]] = parts[2]
			}
		}
	}
	ns, ok := strings.CutPrefix(uri, "content://settings/")
	store := p.settings[ns]
	if !ok || store == nil {
		c.errorf("Error while accessing provider:%s\njava.lang.IllegalArgumentException: Unknown URI %s\n", strings.TrimPrefix(uri, "content://"), uri)
		return 1
	}
	switch c.args[1] {
	case "insert", "update":
		name := binds["name"]
		if name == "" {
			c.errorf("Error while accessing provider:settings\njava.lang.IllegalArgumentException: Invalid value: null\n")
			return 1
		}
		p.putSetting(ns, name, binds["value"])
	case "delete":
		if name := whereName(where); name != "" {
			delete(store, name)
			p.bump()
		}
	case "query":
		keys := make([]string, 0, len(store))
		for k := range store {
			if n := whereName(where); n == "" || n == k {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		if len(keys) == 0 {
			c.printf("No result found.\n")
		}
		for i, k := range keys {
			c.printf("Row: %d _id=%d, name=%s, value=%s\n", i, inode(ns+k)%500, k, store[k])
		}
	default:
		c.errorf("Unsupported operation: %s\n", c.args[1])
		return 1
	}
	return 0
}

// whereName reads name='KEY' from a content --where clause.
func whereName(where string) string {
	_, rest, ok := strings.Cut(where, "name=")
	if !ok {
		return ""
	}
	return strings.Trim(strings.Fields(rest + " ")[0], `'"`)
}

// cmdAppProcess stands for app_process, which runs a pushed dex or jar (CLASSPATH=… app_process
// / CLASS). The virtual phone runs no Dalvik code: it answers as a device on which the
// helper cannot start — the runtime aborts and the shell prints "Aborted" with status 134
// (SIGABRT), as in Genymobile/scrcpy#268 and #5178 (logcat: "ERROR: could not find class").
// The command ends at once: a client waiting for the helper's socket gets a clean failure,
// never a hang.
func cmdAppProcess(p *Phone, c *cmdIO) int {
	if len(c.args) < 3 {
		c.errorf("Usage: app_process [java-options] cmd-dir start-class-name [options]\n")
		return 1
	}
	c.errorf("Aborted \n")
	return 134
}
