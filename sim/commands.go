package sim

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

type command func(p *Phone, c *cmdIO) int

// dispatch runs one simple command. Everything but sleep and sh runs under the phone's lock.
func (p *Phone) dispatch(c *cmdIO) (int, error) {
	name := c.args[0]
	if i := strings.LastIndexByte(name, '/'); i >= 0 && strings.HasPrefix(name, "/system/") {
		name = name[i+1:]
	}
	switch name {
	case "sleep":
		if len(c.args) < 2 {
			c.errorf("sleep: Need 1 argument\n")
			return 1, nil
		}
		secs, err := strconv.ParseFloat(c.args[1], 64)
		if err != nil || secs < 0 {
			c.errorf("sleep: invalid number '%s'\n", c.args[1])
			return 1, nil
		}
		if err := p.cfg.Sleep(c.ctx, time.Duration(secs*float64(time.Second))); err != nil {
			return 130, fmt.Errorf("sim shell sleep: %w", err)
		}
		return 0, nil
	case "sh", "bash", "mksh":
		if len(c.args) >= 3 && c.args[1] == "-c" {
			if c.env.depth > 8 {
				c.errorf("/system/bin/sh: too deep\n")
				return 1, nil
			}
			sub := &shellEnv{ctx: c.ctx, p: p, vars: maps.Clone(c.env.vars), depth: c.env.depth + 1}
			return sub.runLine(c.args[2], c.stdin, c.stdout)
		}
		if len(c.args) == 1 && len(c.stdin) > 0 {
			sub := &shellEnv{ctx: c.ctx, p: p, vars: maps.Clone(c.env.vars), depth: c.env.depth + 1}
			return sub.runLine(string(c.stdin), nil, c.stdout)
		}
		return 0, nil
	case "nohup", "exec", "setsid":
		// Runs the rest of the line as the command (nohup CMD …: a pushed helper started in
		// the background).
		if len(c.args) < 2 {
			c.errorf("%s: Needs 1 argument (see \"%s --help\")\n", name, name)
			return 1, nil
		}
		c.args = c.args[1:]
		return p.dispatch(c)
	case "exit":
		st := c.env.status
		if len(c.args) > 1 {
			st, _ = strconv.Atoi(c.args[1])
		}
		c.env.vars["__exit"] = "1"
		return st & 0xff, nil
	}
	if name == "am" && len(c.args) > 1 && c.args[1] == "instrument" {
		return p.amInstrument(c) // blocks while the instrumentation runs: not under the lock
	}
	cmd, ok := p.cmds[name]
	if !ok {
		c.errorf("/system/bin/sh: %s: not found\n", c.args[0])
		return 127, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return cmd(p, c), nil
}

// newCommandTable lists the phone's commands (a fresh table per phone: no package state).
func newCommandTable() map[string]command {
	return map[string]command{
		"echo": cmdEcho, "true": func(*Phone, *cmdIO) int { return 0 }, "false": func(*Phone, *cmdIO) int { return 1 },
		"cat": cmdCat, "rm": cmdRm, "ls": cmdLs, "mkdir": cmdMkdir, "touch": cmdTouch,
		"grep": cmdGrep, "head": cmdHead, "tail": cmdTail, "wc": cmdWc, "base64": cmdBase64,
		"id": func(_ *Phone, c *cmdIO) int {
			c.printf("uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input),1007(log),1011(adb),1015(sdcard_rw),1028(sdcard_r),1078(ext_data_rw),1079(ext_obb_rw),3001(net_bt_admin),3002(net_bt),3003(inet),3006(net_bw_stats),3009(readproc),3011(uhid),3012(readtracefs) context=u:r:shell:s0\n")
			return 0
		},
		"whoami": func(_ *Phone, c *cmdIO) int { c.printf("shell\n"); return 0 },
		"pwd":    func(_ *Phone, c *cmdIO) int { c.printf("/\n"); return 0 },
		"date": func(p *Phone, c *cmdIO) int {
			c.printf("%s\n", p.cfg.Clock().Format("Mon Jan  2 15:04:05 MST 2006"))
			return 0
		},
		"uiautomator": cmdUiautomator, "screencap": cmdScreencap, "input": cmdInput,
		"am": cmdAm, "monkey": cmdMonkey, "pm": cmdPm, "cmd": cmdCmd, "dumpsys": cmdDumpsys,
		"wm": cmdWm, "getprop": cmdGetprop, "setprop": cmdSetprop, "settings": cmdSettings, "ime": cmdIme,
		"fairy-sim": cmdFairySim,
		"mv":        cmdMv, "stat": cmdStat, "which": cmdWhich, "ps": cmdPs, "content": cmdContent,
		"app_process": cmdAppProcess, "app_process64": cmdAppProcess,
	}
}

func cmdEcho(_ *Phone, c *cmdIO) int {
	args := c.args[1:]
	nl := true
	if len(args) > 0 && args[0] == "-n" {
		nl = false
		args = args[1:]
	}
	c.printf("%s", strings.Join(args, " "))
	if nl {
		c.printf("\n")
	}
	return 0
}

func operands(args []string) (flags string, ops []string) {
	for i, a := range args {
		if a == "--" {
			return flags, append(ops, args[i+1:]...)
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			flags += a[1:]
			continue
		}
		ops = append(ops, a)
	}
	return flags, ops
}

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
			c.printf("%s %*s %-*s %-*s %*d %s %s\n", modeString(e.Mode), wl, links, wu, u, wg, g, ws, e.Size, e.ModTime.Format("2006-01-02 15:04"), e.Name)
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
			shown = append(shown, fileInfo{Name: ".", Mode: fi.Mode, ModTime: fi.ModTime}, fileInfo{Name: "..", Mode: fs.ModeDir | 0o755, ModTime: fi.ModTime})
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

func inputText(c *cmdIO, p *Phone, ops []string) ([]byte, bool) {
	if len(ops) == 0 {
		return c.stdin, true
	}
	var all []byte
	for _, f := range ops {
		data, err := p.fs.readFile(f)
		if err != nil {
			c.errorf("%s: %s: No such file or directory\n", c.args[0], f)
			return nil, false
		}
		all = append(all, data...)
	}
	return all, true
}

func splitLines(b []byte) []string {
	s := string(b)
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func cmdGrep(p *Phone, c *cmdIO) int {
	var pat string
	ignore, invert, count, fixed := false, false, false, false
	after := 0
	var files []string
	args := c.args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-A" && i+1 < len(args):
			after, _ = strconv.Atoi(args[i+1])
			i++
		case a == "-e" && i+1 < len(args):
			pat = args[i+1]
			i++
		case strings.HasPrefix(a, "-") && len(a) > 1 && pat == "":
			for _, f := range a[1:] {
				switch f {
				case 'i':
					ignore = true
				case 'v':
					invert = true
				case 'c':
					count = true
				case 'F':
					fixed = true
				}
			}
		case pat == "":
			pat = a
		default:
			files = append(files, a)
		}
	}
	if pat == "" {
		c.errorf("usage: grep [-ABcEFilnoqrsvwxZz] [-A NUM] [-m MAX] [-B NUM] [-C NUM] PATTERN [FILE...]\n")
		return 2
	}
	if fixed {
		pat = regexp.QuoteMeta(pat)
	}
	if ignore {
		pat = "(?i)" + pat
	}
	re, err := regexp.Compile(pat)
	if err != nil {
		c.errorf("grep: bad regex '%s'\n", pat)
		return 2
	}
	data, ok := inputText(c, p, files)
	if !ok {
		return 2
	}
	n, left := 0, 0
	for _, l := range splitLines(data) {
		m := re.MatchString(strings.TrimSuffix(l, "\n")) != invert
		if m {
			n++
			left = after
			if !count {
				c.printf("%s", l)
				if !strings.HasSuffix(l, "\n") {
					c.printf("\n")
				}
			}
			continue
		}
		if left > 0 && !count {
			c.printf("%s", l)
			left--
		}
	}
	if count {
		c.printf("%d\n", n)
	}
	if n == 0 {
		return 1
	}
	return 0
}

func headTailN(args []string) (int, []string) {
	n := 10
	var files []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-n" && i+1 < len(args):
			n, _ = strconv.Atoi(strings.TrimPrefix(args[i+1], "+"))
			i++
		case strings.HasPrefix(a, "-n"):
			n, _ = strconv.Atoi(a[2:])
		case strings.HasPrefix(a, "-") && len(a) > 1:
			n, _ = strconv.Atoi(a[1:])
		default:
			files = append(files, a)
		}
	}
	return n, files
}

func cmdHead(p *Phone, c *cmdIO) int {
	n, files := headTailN(c.args[1:])
	data, ok := inputText(c, p, files)
	if !ok {
		return 1
	}
	lines := splitLines(data)
	c.printf("%s", strings.Join(lines[:min(n, len(lines))], ""))
	return 0
}

func cmdTail(p *Phone, c *cmdIO) int {
	n, files := headTailN(c.args[1:])
	data, ok := inputText(c, p, files)
	if !ok {
		return 1
	}
	lines := splitLines(data)
	c.printf("%s", strings.Join(lines[max(0, len(lines)-n):], ""))
	return 0
}

func cmdWc(p *Phone, c *cmdIO) int {
	flags, files := operands(c.args[1:])
	data, ok := inputText(c, p, files)
	if !ok {
		return 1
	}
	lines := bytes.Count(data, []byte("\n"))
	switch {
	case strings.Contains(flags, "l"):
		c.printf("%d\n", lines)
	case strings.Contains(flags, "c"):
		c.printf("%d\n", len(data))
	default:
		c.printf("%7d %7d %7d\n", lines, len(strings.Fields(string(data))), len(data))
	}
	return 0
}

func cmdBase64(p *Phone, c *cmdIO) int {
	flags, files := operands(c.args[1:])
	data, ok := inputText(c, p, files)
	if !ok {
		return 1
	}
	if strings.Contains(flags, "d") {
		out, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(string(data)), ""))
		if err != nil {
			c.errorf("base64: bad input\n")
			return 1
		}
		_, _ = c.stdout.Write(out)
		return 0
	}
	enc := base64.StdEncoding.EncodeToString(data)
	for len(enc) > 76 {
		c.printf("%s\n", enc[:76])
		enc = enc[76:]
	}
	c.printf("%s\n", enc)
	return 0
}

// ---- uiautomator and screencap ----

func cmdUiautomator(p *Phone, c *cmdIO) int {
	if len(c.args) < 2 || c.args[1] != "dump" {
		c.errorf("Usage: uiautomator <subcommand> [options]\n\nAvailable subcommands:\n\nhelp: displays help message\n\nruntest: executes UI automation tests\n    runtest <class spec> [options]\n\ndump: creates an XML dump of current UI hierarchy\n    dump [--verbose][file]\n      [--compressed]: dumps compressed layout information.\n      [file]: the location where the dumped XML should be stored, default is\n      /sdcard/window_dump.xml\n\nevents: prints out accessibility events until terminated\n")
		if len(c.args) < 2 {
			return 1
		}
		return 0
	}
	file := "/sdcard/window_dump.xml"
	for _, a := range c.args[2:] {
		if !strings.HasPrefix(a, "--") {
			file = a
		}
	}
	if p.faults.Idle > 0 {
		limit := p.faults.IdleRun
		if limit <= 0 {
			limit = 2
		}
		if p.idleRun < limit && p.rng.Float64() < p.faults.Idle {
			p.idleRun++
			// AccessibilityNodeInfoDumper prints this to stderr and the command still exits 0.
			c.errorf("ERROR: could not get idle state.\n")
			return 0
		}
		p.idleRun = 0
	}
	xml := p.dumpLocked()
	switch cleanPath(file) {
	case "/dev/tty", "/dev/stdout", "/proc/self/fd/1":
		_, _ = c.stdout.Write(xml)
	default:
		if err := p.fs.writeFile(file, xml, 0o660, p.cfg.Clock()); err != nil {
			c.errorf("java.io.FileNotFoundException: %s: open failed: ENOENT (No such file or directory)\n", file)
			return 0
		}
	}
	c.printf("UI hierchary dumped to: %s\n", file)
	return 0
}

func cmdScreencap(p *Phone, c *cmdIO) int {
	pngOut := false
	var file string
	for _, a := range c.args[1:] {
		switch {
		case a == "-p":
			pngOut = true
		case strings.HasPrefix(a, "-"):
		default:
			file = a
		}
	}
	if file != "" && strings.HasSuffix(file, ".png") {
		pngOut = true
	}
	var data []byte
	if pngOut {
		b, err := p.screenshotLocked()
		if err != nil {
			c.errorf("Error: %v\n", err)
			return 1
		}
		data = b
	} else {
		img := p.renderLocked()
		hdr := make([]byte, 16)
		putLE(hdr[0:], uint32(img.Rect.Dx()))
		putLE(hdr[4:], uint32(img.Rect.Dy()))
		putLE(hdr[8:], 1) // PIXEL_FORMAT_RGBA_8888
		putLE(hdr[12:], 0)
		data = append(hdr, img.Pix...)
	}
	if file == "" {
		_, _ = c.stdout.Write(data)
		return 0
	}
	if err := p.fs.writeFile(file, data, 0o660, p.cfg.Clock()); err != nil {
		c.errorf("Error opening file: %s (No such file or directory)\n", file)
		return 1
	}
	return 0
}

func putLE(b []byte, v uint32) {
	b[0], b[1], b[2], b[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
}

// ---- input ----

const inputUsage = `Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]

The sources are:
      dpad
      keyboard
      mouse
      touchpad
      gamepad
      touchnavigation
      joystick
      touchscreen
      stylus
      trackball

-d: specify the display ID.
      (Default: -1 for key event, 0 for motion event if not specified.)
The commands and default sources are:
      text <string> (Default: keyboard)
      keyevent [--longpress|--doubletap|--async|--delay <duration between keycodes in ms>] <key code number or name> ... (Default: keyboard)
      tap <x> <y> (Default: touchscreen)
      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      draganddrop <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      press (Default: trackball)
      roll <dx> <dy> (Default: trackball)
      motionevent <DOWN|UP|MOVE|CANCEL> <x> <y> (Default: touchscreen)
      keycombination [-t duration(ms)] <key code 1> <key code 2> ... (Default: keyboard, the key order is important here.)
`

func coord(s string) (int, bool) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, false
	}
	return int(f), true
}

func cmdInput(p *Phone, c *cmdIO) int {
	args := c.args[1:]
	for len(args) > 0 {
		switch args[0] {
		case "touchscreen", "keyboard", "mouse", "touchpad", "dpad", "gamepad", "stylus", "trackball", "joystick", "touchnavigation":
			args = args[1:]
			continue
		case "-d":
			if len(args) > 1 {
				args = args[2:]
				continue
			}
		}
		break
	}
	if len(args) == 0 {
		c.errorf("%s", inputUsage)
		return 1
	}
	bad := func() int {
		c.errorf("Error: Invalid arguments for command: %s\n%s", args[0], inputUsage)
		return 1
	}
	nums := func(from, n int) ([]int, bool) {
		if len(args) < from+n {
			return nil, false
		}
		out := make([]int, n)
		for i := 0; i < n; i++ {
			v, ok := coord(args[from+i])
			if !ok {
				return nil, false
			}
			out[i] = v
		}
		return out, true
	}
	switch args[0] {
	case "tap":
		v, ok := nums(1, 2)
		if !ok || len(args) != 3 {
			return bad()
		}
		p.tap(v[0], v[1])
	case "swipe", "draganddrop":
		v, ok := nums(1, 4)
		if !ok || len(args) > 6 {
			return bad()
		}
		d := 300 * time.Millisecond
		if len(args) == 6 {
			ms, err := strconv.Atoi(args[5])
			if err != nil || ms < 0 {
				return bad()
			}
			d = time.Duration(ms) * time.Millisecond
		}
		p.swipe(v[0], v[1], v[2], v[3], d)
	case "text":
		if len(args) < 2 {
			return bad()
		}
		// Only the first argument is typed, as InputShellCommand does.
		text := androidText(args[1])
		clean := strings.Builder{}
		for _, r := range text {
			if typable(r) {
				clean.WriteRune(r)
				continue
			}
			if !p.faults.NonASCIISilent {
				c.errorf("Exception occurred while executing 'text':\njava.lang.NullPointerException: Attempt to get length of null array\n\tat com.android.server.input.InputShellCommand.sendText(InputShellCommand.java:313)\n\tat com.android.server.input.InputShellCommand.runText(InputShellCommand.java:270)\n\tat com.android.server.input.InputShellCommand.onCommand(InputShellCommand.java:198)\n\tat com.android.modules.utils.BasicShellCommandHandler.exec(BasicShellCommandHandler.java:97)\n\tat android.os.ShellCommand.exec(ShellCommand.java:38)\n\tat com.android.server.input.InputManagerService.onShellCommand(InputManagerService.java:2921)\n\tat android.os.Binder.shellCommand(Binder.java:1092)\n\tat android.os.Binder.onTransact(Binder.java:912)\n")
				return 255
			}
		}
		if s := clean.String(); s != "" {
			p.typeText(s)
		}
	case "keyevent":
		long := false
		var codes []int
		for i := 1; i < len(args); i++ {
			a := args[i]
			switch a {
			case "--longpress":
				long = true
				continue
			case "--doubletap", "--async":
				continue
			case "--delay":
				i++
				continue
			}
			code, ok := parseKey(a)
			if !ok {
				c.errorf("Error: Unknown keycode: %s\n", a)
				return 1
			}
			codes = append(codes, code)
		}
		if len(codes) == 0 {
			return bad()
		}
		for _, code := range codes {
			p.key(code, long)
		}
	case "keycombination":
		var codes []int
		for i := 1; i < len(args); i++ {
			if args[i] == "-t" {
				i++
				continue
			}
			code, ok := parseKey(args[i])
			if !ok {
				c.errorf("Error: Unknown keycode: %s\n", args[i])
				return 1
			}
			codes = append(codes, code)
		}
		if len(codes) < 2 {
			return bad()
		}
		p.keyCombination(codes)
	case "motionevent":
		if len(args) != 4 {
			return bad()
		}
		v, ok := nums(2, 2)
		if !ok {
			return bad()
		}
		switch strings.ToUpper(args[1]) {
		case "DOWN":
			p.motionDown = &motion{x: v[0], y: v[1], at: p.cfg.Clock()}
		case "UP":
			if d := p.motionDown; d != nil {
				p.motionDown = nil
				p.swipe(d.x, d.y, v[0], v[1], p.cfg.Clock().Sub(d.at))
			}
		case "CANCEL":
			p.motionDown = nil
		case "MOVE":
		default:
			return bad()
		}
	case "press", "roll":
	default:
		c.errorf("Error: Unknown command: %s\n%s", args[0], inputUsage)
		return 1
	}
	return 0
}

// ---- am, monkey, pm, cmd ----

func (p *Phone) resolveComponent(comp string) (*appState, *ScreenSpec, bool) {
	pkg, act, ok := strings.Cut(comp, "/")
	if !ok {
		return nil, nil, false
	}
	a := p.apps[pkg]
	if a == nil {
		return nil, nil, false
	}
	full := a.spec.component(act)
	if full == a.spec.component(a.spec.Activity) {
		return a, nil, true
	}
	for _, s := range a.spec.Screens {
		if a.spec.component(s.Activity) == full && !s.Dialog {
			return a, s, true
		}
	}
	return nil, nil, false
}

func cmdAm(p *Phone, c *cmdIO) int {
	if len(c.args) < 2 {
		c.errorf("Activity manager (activity) commands:\n  help\n      Print this help text.\n  start [-D] [-N] [-W] [-P <FILE>] [--start-profiler <FILE>] <INTENT>\n  force-stop <PACKAGE>\n  broadcast [--user <USER_ID> | all | current] <INTENT>\n")
		return 1
	}
	switch c.args[1] {
	case "start", "start-activity":
		return amStart(p, c, c.args[2:])
	case "force-stop", "kill":
		if len(c.args) < 3 {
			c.errorf("Error: no package specified\n")
			return 255
		}
		pkg := c.args[len(c.args)-1]
		if pkg == UIServerPackage || pkg == UIServerTestPackage {
			p.stopUIServerLocked()
		}
		p.forceStop(pkg)
		return 0
	case "broadcast":
		return amBroadcast(p, c, c.args[2:])
	case "stack", "task":
		return 0
	}
	c.errorf("Unknown command: %s\n", c.args[1])
	return 255
}

// intent is the part of an am intent the phone understands.
type intent struct {
	action, component, pkg string
	categories             []string
	extras                 map[string]string
	hasExtras              bool
	wait                   bool
}

func parseIntent(args []string) intent {
	in := intent{extras: map[string]string{}}
	for i := 0; i < len(args); i++ {
		a := args[i]
		next := func() string {
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		switch a {
		case "-a":
			in.action = next()
		case "-n":
			in.component = next()
		case "-c":
			in.categories = append(in.categories, next())
		case "-W":
			in.wait = true
		case "--es", "--ei", "--ez", "--el", "--ef", "--eu", "-e":
			k := next()
			in.extras[k] = next()
			in.hasExtras = true
		case "--esa", "--eia":
			k := next()
			in.extras[k] = next()
			in.hasExtras = true
		case "-f", "--user", "-d", "-t", "-p", "--receiver-permission":
			v := next()
			if a == "-p" {
				in.pkg = v
			}
		default:
			if !strings.HasPrefix(a, "-") && in.component == "" && strings.Contains(a, "/") {
				in.component = a
			} else if !strings.HasPrefix(a, "-") && in.pkg == "" {
				in.pkg = a
			}
		}
	}
	return in
}

func (in intent) String() string {
	var parts []string
	if in.action != "" {
		parts = append(parts, "act="+in.action)
	}
	if len(in.categories) > 0 {
		parts = append(parts, "cat=["+strings.Join(in.categories, ",")+"]")
	}
	if in.pkg != "" && in.component == "" {
		parts = append(parts, "pkg="+in.pkg)
	}
	if in.component != "" {
		parts = append(parts, "cmp="+in.component)
	}
	if in.hasExtras {
		parts = append(parts, "(has extras)")
	}
	return "Intent { " + strings.Join(parts, " ") + " }"
}

func amStart(p *Phone, c *cmdIO, args []string) int {
	in := parseIntent(args)
	c.printf("Starting: %s\n", in)
	comp := in.component
	if comp == "" && in.pkg != "" {
		if a := p.apps[in.pkg]; a != nil {
			comp = a.spec.Package + "/" + a.spec.Activity
		}
	}
	a, s, ok := p.resolveComponent(comp)
	if !ok {
		if comp == "" {
			c.errorf("Error: Activity not started, unable to resolve %s\n", in)
			return 1
		}
		pkg, act, _ := strings.Cut(comp, "/")
		if strings.HasPrefix(act, ".") {
			act = pkg + act
		}
		c.errorf("Error type 3\nError: Activity class {%s/%s} does not exist.\n", pkg, act)
		return 1
	}
	start := p.cfg.Clock()
	if s == nil {
		existed, _ := p.launch(a.spec.Package)
		if existed && a.spec.Package != p.home {
			c.printf("Warning: Activity not started, its current task has been brought to the front\n")
		}
	} else {
		if p.findTask(a.spec.Package) == nil {
			_, _ = p.launch(a.spec.Package)
		}
		p.push(a, s, nil)
	}
	if in.wait {
		el := int(p.cfg.Clock().Sub(start).Milliseconds()) + 180
		top := p.top()
		c.printf("Status: ok\nLaunchState: COLD\nActivity: %s\nTotalTime: %d\nWaitTime: %d\nComplete\n", top.app.spec.shortComponent(top.spec.Activity), el, el+4)
	}
	return 0
}

func amBroadcast(p *Phone, c *cmdIO, args []string) int {
	in := parseIntent(args)
	c.printf("Broadcasting: Intent { %s flg=0x400000%s }\n", strings.TrimSuffix(strings.TrimPrefix(strings.ReplaceAll(in.String(), " (has extras)", ""), "Intent { "), " }"), map[bool]string{true: " (has extras)", false: ""}[in.hasExtras])
	// ADB Keyboard's receiver only acts while it is the current, bound input method.
	if slices.Contains(p.imes, imeADB) && p.currentIME == imeADB {
		switch in.action {
		case "ADB_INPUT_TEXT":
			p.typeText(in.extras["msg"])
		case "ADB_INPUT_B64":
			if b, err := base64.StdEncoding.DecodeString(in.extras["msg"]); err == nil {
				p.typeText(string(b))
			}
		case "ADB_CLEAR_TEXT":
			p.clearField()
		case "ADB_INPUT_CODE":
			if code, err := strconv.Atoi(in.extras["code"]); err == nil {
				p.key(code, false)
			}
		case "ADB_EDITOR_CODE":
			p.submit()
		}
	}
	c.printf("Broadcast completed: result=0\n")
	return 0
}

func cmdMonkey(p *Phone, c *cmdIO) int {
	args := c.args[1:]
	for _, a := range args {
		c.printf("  bash arg: %s\n", a)
	}
	c.printf("args: [%s]\n", strings.Join(args, ", "))
	for _, a := range args {
		c.printf(" arg: %q\n", a)
	}
	var pkgs, cats []string
	for i := 0; i < len(args)-1; i++ {
		switch args[i] {
		case "-p":
			pkgs = append(pkgs, args[i+1])
			c.printf("data=%q\n", args[i+1])
			i++
		case "-c":
			cats = append(cats, args[i+1])
			c.printf("data=%q\n", args[i+1])
			i++
		}
	}
	_ = cats
	var target *appState
	for _, pkg := range pkgs {
		if a := p.apps[pkg]; a != nil && !a.spec.Hidden {
			target = a
			break
		}
	}
	if target == nil {
		c.errorf("** No activities found to run, monkey aborted.\n")
		return 252
	}
	_, _ = p.launch(target.spec.Package)
	c.printf("Events injected: 1\n## Network stats: elapsed time=%dms (0ms mobile, 0ms wifi, %dms not connected)\n", 18, 18)
	return 0
}

var extraPackages = []struct {
	pkg    string
	system bool
}{
	{"android", true}, {systemUI, true}, {gboardPkg, true}, {"com.google.android.permissioncontroller", true},
	{"com.android.providers.settings", true}, {"com.android.shell", true}, {"com.android.phone", true},
	{"com.android.providers.contacts", true}, {"com.android.providers.calendar", true},
}

func (p *Phone) packageList() []struct {
	pkg    string
	system bool
} {
	var out []struct {
		pkg    string
		system bool
	}
	out = append(out, extraPackages...)
	for _, pkg := range p.uiServerPackages() {
		out = append(out, struct {
			pkg    string
			system bool
		}{pkg, false})
	}
	for _, pkg := range p.order {
		out = append(out, struct {
			pkg    string
			system bool
		}{pkg, p.apps[pkg].spec.System})
	}
	if slices.Contains(p.imes, imeADB) {
		out = append(out, struct {
			pkg    string
			system bool
		}{adbKbdPkg, false})
	}
	return out
}

func (p *Phone) apkPath(pkg string, system bool) string {
	if system {
		name := pkg[strings.LastIndexByte(pkg, '.')+1:]
		name = strings.ToUpper(name[:1]) + name[1:]
		return "/system/app/" + name + "/" + name + ".apk"
	}
	h := fmt.Sprintf("%08x", crc(pkg))
	return "/data/app/~~" + h + "Fairy" + h[:4] + "==/" + pkg + "-" + h[4:] + "sim" + h[:6] + "==/base.apk"
}

func crc(s string) uint32 {
	var h uint32 = 2166136261
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

func cmdPm(p *Phone, c *cmdIO) int {
	if len(c.args) < 2 {
		c.errorf("Package manager (package) commands:\n  help\n    Print this help text.\n")
		return 1
	}
	switch c.args[1] {
	case "list":
		if len(c.args) >= 3 && c.args[2] == "features" {
			for _, f := range deviceFeatures {
				c.printf("feature:%s\n", f)
			}
			return 0
		}
		if len(c.args) < 3 || (c.args[2] != "packages" && c.args[2] != "package") {
			c.errorf("Error: unknown list type '%s'\n", strings.Join(c.args[2:], " "))
			return 255
		}
		flags, ops := operands(c.args[3:])
		filter := ""
		if len(ops) > 0 {
			filter = ops[0]
		}
		var lines []string
		for _, e := range p.packageList() {
			if strings.Contains(flags, "3") && e.system || strings.Contains(flags, "s") && !e.system {
				continue
			}
			if filter != "" && !strings.Contains(e.pkg, filter) {
				continue
			}
			if strings.Contains(flags, "f") {
				lines = append(lines, "package:"+p.apkPath(e.pkg, e.system)+"="+e.pkg)
			} else {
				lines = append(lines, "package:"+e.pkg)
			}
		}
		for _, l := range lines {
			c.printf("%s\n", l)
		}
		return 0
	case "path":
		if len(c.args) < 3 {
			c.errorf("Error: no package specified\n")
			return 255
		}
		for _, e := range p.packageList() {
			if e.pkg == c.args[len(c.args)-1] {
				c.printf("package:%s\n", p.apkPath(e.pkg, e.system))
				return 0
			}
		}
		return 1
	case "install":
		return pmInstall(p, c)
	case "uninstall":
		if pkg := c.args[len(c.args)-1]; len(c.args) > 2 && p.uia2.installed[pkg] {
			p.stopUIServerLocked()
			delete(p.uia2.installed, pkg)
			c.printf("Success\n")
			return 0
		}
		c.printf("Failure [DELETE_FAILED_INTERNAL_ERROR]\n")
		return 1
	case "resolve-activity":
		return resolveActivity(p, c, c.args[2:])
	case "query-activities":
		return queryActivities(p, c, c.args[2:])
	}
	c.errorf("Unknown command: %s\n", c.args[1])
	return 255
}

func cmdCmd(p *Phone, c *cmdIO) int {
	if len(c.args) < 2 {
		c.errorf("cmd: No service specified; use -l to list all running services. Use -w to start and wait for a service.\n")
		return 20
	}
	switch c.args[1] {
	case "package":
		sub := &cmdIO{ctx: c.ctx, env: c.env, args: append([]string{"pm"}, c.args[2:]...), stdin: c.stdin, stdout: c.stdout, stderr: c.stderr}
		return cmdPm(p, sub)
	case "activity":
		sub := &cmdIO{ctx: c.ctx, env: c.env, args: append([]string{"am"}, c.args[2:]...), stdin: c.stdin, stdout: c.stdout, stderr: c.stderr}
		return cmdAm(p, sub)
	case "input":
		sub := &cmdIO{ctx: c.ctx, env: c.env, args: append([]string{"input"}, c.args[2:]...), stdin: c.stdin, stdout: c.stdout, stderr: c.stderr}
		return cmdInput(p, sub)
	case "settings":
		sub := &cmdIO{ctx: c.ctx, env: c.env, args: append([]string{"settings"}, c.args[2:]...), stdin: c.stdin, stdout: c.stdout, stderr: c.stderr}
		return cmdSettings(p, sub)
	case "input_method":
		sub := &cmdIO{ctx: c.ctx, env: c.env, args: append([]string{"ime"}, c.args[2:]...), stdin: c.stdin, stdout: c.stdout, stderr: c.stderr}
		return cmdIme(p, sub)
	}
	c.errorf("Can't find service: %s\n", c.args[1])
	return 20
}

func resolveActivity(p *Phone, c *cmdIO, args []string) int {
	brief := false
	var rest []string
	for _, a := range args {
		if a == "--brief" {
			brief = true
			continue
		}
		rest = append(rest, a)
	}
	in := parseIntent(rest)
	pkg := in.pkg
	if in.component != "" {
		pkg, _, _ = strings.Cut(in.component, "/")
	}
	a := p.apps[pkg]
	if a == nil || a.spec.Hidden {
		c.printf("No activity found\n")
		return 0
	}
	s := a.spec
	comp := s.shortComponent(s.Activity)
	if brief {
		c.printf("priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n%s\n", comp)
		return 0
	}
	c.printf("%s", resolveInfo(p, a, "", false))
	return 0
}

// resolveInfo renders a ResolveInfo as PackageManagerShellCommand prints it (ResolveInfo.dump
// with each line after prefix). With labels, the activity and its application carry the
// app's label as nonLocalizedLabel (an app whose android:label is a literal string) rather
// than a resource id: query-activities shows them, so a client gets labels without aapt.
func resolveInfo(p *Phone, a *appState, prefix string, labels bool) string {
	s := a.spec
	pkg := s.Package
	label := "labelRes=0x7f110029 nonLocalizedLabel=null"
	if labels && s.Label != "" {
		label = "labelRes=0x0 nonLocalizedLabel=" + s.Label
	}
	uid := 10100 + int(crc(pkg)%400)
	body := fmt.Sprintf(`priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false
ActivityInfo:
  name=%[1]s
  packageName=%[2]s
  %[5]s icon=0x7f0e0000 banner=0x0
  enabled=true exported=true directBootAware=false
  taskAffinity=%[2]s targetActivity=null persistableMode=PERSIST_ROOT_ONLY
  launchMode=0 flags=0x200 privateFlags=0x0 theme=0x7f120132
  screenOrientation=-1 configChanges=0x40000da3 softInputMode=0x12
  lockTaskLaunchMode=LOCK_TASK_LAUNCH_MODE_DEFAULT
  resizeMode=RESIZE_MODE_RESIZEABLE_VIA_SDK_VERSION
  ApplicationInfo:
    name=%[2]s.App
    packageName=%[2]s
    %[5]s icon=0x7f0e0000 banner=0x0
    className=%[2]s.App
    processName=%[2]s
    taskAffinity=%[2]s
    uid=%[3]d flags=0x3088be44 privateFlags=0x8c001000 theme=0x0
    requiresSmallestWidthDp=0 compatibleWidthLimitDp=0 largestWidthLimitDp=0
    sourceDir=%[4]s
`, s.component(s.Activity), pkg, uid, p.apkPath(pkg, s.System), label)
	if prefix == "" {
		return body
	}
	var b strings.Builder
	for line := range strings.Lines(body) {
		b.WriteString(prefix + line)
	}
	return b.String()
}

// queryActivities answers `cmd package query-activities [--brief] [--components] INTENT`
// as Android 7+ does for the intents the phone knows: MAIN/LAUNCHER lists every launchable
// app in install order; a package (-p or a trailing name) narrows it.
func queryActivities(p *Phone, c *cmdIO, args []string) int {
	brief, components := false, false
	var rest []string
	for _, a := range args {
		switch a {
		case "--brief":
			brief = true
		case "--components":
			components = true
		default:
			rest = append(rest, a)
		}
	}
	in := parseIntent(rest)
	launcher := in.action == "" || in.action == "android.intent.action.MAIN"
	for _, cat := range in.categories {
		if cat != "android.intent.category.LAUNCHER" && cat != "android.intent.category.DEFAULT" {
			launcher = false
		}
	}
	var found []*appState
	if launcher {
		for _, pkg := range p.order {
			a := p.apps[pkg]
			if a == nil || a.spec.Hidden || a.spec.Home {
				continue
			}
			if in.pkg != "" && in.pkg != pkg {
				continue
			}
			if in.component != "" && !strings.HasPrefix(in.component, pkg+"/") {
				continue
			}
			found = append(found, a)
		}
	}
	if len(found) == 0 {
		c.printf("No activities found\n")
		return 0
	}
	if components {
		for _, a := range found {
			c.printf("%s\n", a.spec.shortComponent(a.spec.Activity))
		}
		return 0
	}
	c.printf("%d activities found:\n", len(found))
	for i, a := range found {
		c.printf("  Activity #%d:\n", i)
		if brief {
			c.printf("    priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n    %s\n", a.spec.shortComponent(a.spec.Activity))
			continue
		}
		c.printf("%s", resolveInfo(p, a, "    ", true))
	}
	return 0
}

// ---- dumpsys ----

func hash7(n int) string { return fmt.Sprintf("%07x", (uint32(n)*2654435761)>>4) }

// activityRecord renders an ActivityRecord as Android 12+ prints it.
func activityRecord(t *task, inst *screenInst) string {
	return fmt.Sprintf("ActivityRecord{%s u0 %s} t%d}", hash7(inst.id), inst.app.spec.shortComponent(inst.spec.Activity), t.id)
}

// frontActivity is the top non-dialog screen of the front task (a dialog is not an activity).
func (p *Phone) frontActivity() (*task, *screenInst) {
	t := p.front()
	for i := len(t.stack) - 1; i >= 0; i-- {
		if !t.stack[i].spec.Dialog || i == 0 {
			return t, t.stack[i]
		}
	}
	return t, t.stack[0]
}

func cmdDumpsys(p *Phone, c *cmdIO) int {
	if len(c.args) < 2 {
		c.printf("Currently running services:\n  activity\n  input_method\n  package\n  window\n")
		return 0
	}
	t, inst := p.frontActivity()
	switch c.args[1] {
	case "window":
		win := fmt.Sprintf("Window{%s u0 %s/%s}", hash7(inst.id+77), inst.app.spec.Package, inst.app.spec.component(inst.spec.Activity))
		c.printf("WINDOW MANAGER WINDOWS (dumpsys window windows)\n")
		c.printf("  Window #0 Window{%s u0 StatusBar}:\n    mDisplayId=0 rootTaskId=1 mSession=Session{1a2b3c4 1234:u0a10042} mClient=android.os.BinderProxy@5d6e7f8\n    mOwnerUid=10042 showForAllUsers=true package=com.android.systemui appop=NONE\n", hash7(1))
		n := 1
		if p.kbShown && p.top().focus != "" {
			c.printf("  Window #%d Window{%s u0 InputMethod}:\n    mDisplayId=0 rootTaskId=1 mSession=Session{2b3c4d5 2345:u0a10099} mClient=android.os.BinderProxy@6e7f809\n    mOwnerUid=10099 showForAllUsers=true package=%s appop=NONE\n", n, hash7(2), strings.SplitN(p.currentIME, "/", 2)[0])
			n++
		}
		c.printf("  Window #%d %s:\n    mDisplayId=0 rootTaskId=%d mSession=Session{3c4d5e6 %d:u0a%d} mClient=android.os.BinderProxy@7f8091a\n    mOwnerUid=%d showForAllUsers=false package=%s appop=NONE\n    mAttrs={(0,0)(fillxfill) sim={adjust=resize forwardNavigation} ty=BASE_APPLICATION wanim=0x10302fd\n      fl=LAYOUT_IN_SCREEN LAYOUT_INSET_DECOR SPLIT_TOUCH HARDWARE_ACCELERATED DRAWS_SYSTEM_BAR_BACKGROUNDS%s}\n    Requested w=%d h=%d mLayoutSeq=%d\n    mActivityRecord=%s\n",
			n, win, t.id, 4000+t.id, 100+t.id, 10100+t.id, inst.app.spec.Package, map[bool]string{true: " SECURE", false: ""}[inst.spec.Secure], p.cfg.Width, p.cfg.Height, p.version%1000, activityRecord(t, inst))
		c.printf("\nWINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n  Display: mDisplayId=0 rootTasks=%d\n    init=%dx%d %ddpi cur=%dx%d app=%dx%d rng=%dx%d-%dx%d\n",
			len(p.tasks), p.cfg.Width, p.cfg.Height, p.cfg.Density, p.cfg.Width, p.cfg.Height, p.cfg.Width, p.cfg.Height-p.metrics().nb, p.cfg.Width, p.cfg.Width, p.cfg.Height, p.cfg.Height)
		c.printf("  mCurrentFocus=%s\n  mFocusedApp=%s\n", win, activityRecord(t, inst))
		c.printf("  mInputMethodWindow=Window{%s u0 InputMethod}\n", hash7(2))
		return 0
	case "activity":
		if len(c.args) > 2 && c.args[2] != "activities" && c.args[2] != "a" && c.args[2] != "top" && c.args[2] != "recents" {
			c.printf("Unknown command: %s\nBad activity command, or no activities match: %s\nUse -h for help.\n", c.args[2], c.args[2])
			return 0
		}
		c.printf("ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\nDisplay #0 (activities from top to bottom):\n")
		for i := len(p.tasks) - 1; i >= 0; i-- {
			tk := p.tasks[i]
			a := p.apps[tk.pkg]
			visible := i == len(p.tasks)-1
			c.printf("  * Task{%s #%d type=%s A=%d:%s U=0 visible=%t visibleRequested=%t mode=fullscreen translucent=false sz=%d}\n",
				hash7(tk.id+500), tk.id, map[bool]string{true: "home", false: "standard"}[tk.pkg == p.home], 10100+tk.id, tk.pkg, visible, visible, len(tk.stack))
			var acts []*screenInst
			for _, si := range tk.stack {
				if !si.spec.Dialog {
					acts = append(acts, si)
				}
			}
			if visible && len(acts) > 0 {
				c.printf("    mResumedActivity: %s\n", activityRecord(tk, acts[len(acts)-1]))
			}
			for j := len(acts) - 1; j >= 0; j-- {
				si := acts[j]
				c.printf("    * Hist  #%d: %s\n      packageName=%s processName=%s\n      launchedFromUid=10081 launchedFromPackage=com.android.launcher3 launchedFromFeature=null userId=0\n      Intent { act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] flg=0x10200000 pkg=%s cmp=%s }\n",
					j, activityRecord(tk, si), a.spec.Package, a.spec.Package, a.spec.Package, a.spec.shortComponent(si.spec.Activity))
			}
		}
		c.printf("\n  ResumedActivity: %s\n", activityRecord(t, inst))
		c.printf("  mFocusedApp=%s\n", activityRecord(t, inst))
		return 0
	case "input_method":
		shown := p.kbShown && p.top().focus != ""
		c.printf("Current Input Method Manager state:\n  Input Methods: mMethodMapUpdateCount=1\n")
		for _, id := range p.imes {
			c.printf("  InputMethod #%d:\n    mId=%s mSettingsActivityName=null mIsVrOnly=false mSupportsSwitchingToNextInputMethod=false\n", slices.Index(p.imes, id), id)
		}
		c.printf("  mCurMethodId=%s\n  mCurrentSubtype=null\n  mCurSeq=%d mCurClient=ClientState{%s uid=%d pid=%d displayId=0}\n  mCurFocusedWindow=Window{%s u0 %s/%s}\n  mShowRequested=%t mShowExplicitlyRequested=false mShowForced=false mInputShown=%t\n  mInFullscreenMode=false\n  mSystemReady=true mInteractive=true\n",
			p.currentIME, p.version%100+1, hash7(inst.id+9), 10100+t.id, 4000+t.id, hash7(inst.id+77), inst.app.spec.Package, inst.app.spec.component(inst.spec.Activity), shown, shown)
		return 0
	case "package":
		if len(c.args) > 2 {
			a := p.apps[c.args[2]]
			if a == nil {
				c.printf("Unable to find package: %s\n", c.args[2])
				return 0
			}
			s := a.spec
			c.printf("Activity Resolver Table:\n  Non-Data Actions:\n      android.intent.action.MAIN:\n        %s %s filter %s\n          Action: \"android.intent.action.MAIN\"\n          Category: \"android.intent.category.LAUNCHER\"\n\nPackages:\n  Package [%s] (%s):\n    userId=%d\n    versionCode=1 minSdk=24 targetSdk=34\n    versionName=%s\n    dataDir=/data/user/0/%s\n",
				hash7(int(crc(s.Package))), s.shortComponent(s.Activity), hash7(int(crc(s.Package)+1)), s.Package, hash7(int(crc(s.Package)+2)), 10100+int(crc(s.Package)%400), defaultStr(s.Version, "1.0"), s.Package)
			return 0
		}
	}
	return 0
}

func defaultStr(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// ---- wm, getprop, settings, ime ----

func cmdWm(p *Phone, c *cmdIO) int {
	if len(c.args) < 2 {
		c.errorf("Window manager (window) commands:\n  help\n  size [reset|WxH|WdpxHdp] [-d DISPLAY_ID]\n  density [reset|DENSITY] [-d DISPLAY_ID]\n")
		return 1
	}
	switch c.args[1] {
	case "size":
		if len(c.args) > 2 {
			if c.args[2] == "reset" {
				p.wmSize = ""
			} else {
				p.wmSize = c.args[2]
			}
			return 0
		}
		c.printf("Physical size: %dx%d\n", p.cfg.Width, p.cfg.Height)
		if p.wmSize != "" {
			c.printf("Override size: %s\n", p.wmSize)
		}
	case "density":
		if len(c.args) > 2 {
			if c.args[2] == "reset" {
				p.wmDensity = ""
			} else {
				p.wmDensity = c.args[2]
			}
			return 0
		}
		c.printf("Physical density: %d\n", p.cfg.Density)
		if p.wmDensity != "" {
			c.printf("Override density: %s\n", p.wmDensity)
		}
	default:
		c.errorf("Unknown command: %s\n", c.args[1])
		return 255
	}
	return 0
}

func cmdGetprop(p *Phone, c *cmdIO) int {
	if len(c.args) >= 2 {
		v, ok := p.props[c.args[1]]
		if !ok && len(c.args) >= 3 {
			v = c.args[2]
		}
		c.printf("%s\n", v)
		return 0
	}
	keys := make([]string, 0, len(p.props))
	for k := range p.props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		c.printf("[%s]: [%s]\n", k, p.props[k])
	}
	return 0
}

func cmdSetprop(p *Phone, c *cmdIO) int {
	if len(c.args) != 3 {
		c.errorf("usage: setprop NAME VALUE\n")
		return 1
	}
	if strings.HasPrefix(c.args[1], "ro.") {
		c.errorf("Failed to set property '%s' to '%s'.\nSee dmesg for error reason.\n", c.args[1], c.args[2])
		return 1
	}
	p.props[c.args[1]] = c.args[2]
	return 0
}

func cmdSettings(p *Phone, c *cmdIO) int {
	args := c.args[1:]
	for len(args) > 0 && (args[0] == "--user" || args[0] == "--lineage") {
		if len(args) < 2 {
			break
		}
		args = args[2:]
	}
	usage := func() int {
		c.errorf("Settings provider (settings) commands:\n  help\n      Print this help text.\n  get [--user <USER_ID> | current] NAMESPACE KEY\n      Retrieve the current value of KEY.\n  put [--user <USER_ID> | current] NAMESPACE KEY VALUE [TAG] [default]\n      Change the contents of KEY to VALUE.\n  delete [--user <USER_ID> | current] NAMESPACE KEY\n      Delete the entry for KEY.\n  list [--user <USER_ID> | current] NAMESPACE\n      Print all defined keys.\n      NAMESPACE is one of {system, secure, global}, case-insensitive\n")
		return 255
	}
	if len(args) < 2 {
		return usage()
	}
	ns := strings.ToLower(args[1])
	store, ok := p.settings[ns]
	if !ok {
		return usage()
	}
	switch args[0] {
	case "get":
		if len(args) < 3 {
			return usage()
		}
		v, ok := store[args[2]]
		if !ok {
			v = "null"
		}
		c.printf("%s\n", v)
	case "put":
		if len(args) < 4 {
			return usage()
		}
		p.putSetting(ns, args[2], args[3])
	case "delete":
		if len(args) < 3 {
			return usage()
		}
		_, had := store[args[2]]
		delete(store, args[2])
		c.printf("Deleted %d rows\n", map[bool]int{true: 1, false: 0}[had])
	case "list":
		keys := make([]string, 0, len(store))
		for k := range store {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			c.printf("%s=%s\n", k, store[k])
		}
	default:
		return usage()
	}
	return 0
}

// putSetting stores one setting (settings put, content insert).
func (p *Phone) putSetting(ns, key, value string) {
	p.settings[ns][key] = value
	if ns == "secure" && key == "default_input_method" && slices.Contains(p.imes, value) {
		p.currentIME = value
	}
	p.bump()
}

func (p *Phone) syncIMESettings() {
	var enabled []string
	for _, id := range p.imes {
		if p.enabledIME[id] {
			enabled = append(enabled, id)
		}
	}
	p.settings["secure"]["enabled_input_methods"] = strings.Join(enabled, ":")
	p.settings["secure"]["default_input_method"] = p.currentIME
}

func cmdIme(p *Phone, c *cmdIO) int {
	if len(c.args) < 2 {
		c.errorf("ime <command>:\n  list [-a] [-s]\n  enable [--user <USER_ID>] <ID>\n  disable [--user <USER_ID>] <ID>\n  set [--user <USER_ID>] <ID>\n  reset [--user <USER_ID>]\n")
		return 1
	}
	lastArg := c.args[len(c.args)-1]
	switch c.args[1] {
	case "list":
		flags, _ := operands(c.args[2:])
		for _, id := range p.imes {
			if !strings.Contains(flags, "a") && !p.enabledIME[id] {
				continue
			}
			if strings.Contains(flags, "s") {
				c.printf("%s\n", id)
				continue
			}
			pkg := strings.SplitN(id, "/", 2)[0]
			c.printf("%s:\n  mId=%s mSettingsActivityName=null mIsVrOnly=false mSupportsSwitchingToNextInputMethod=false\n  mIsDefaultResId=0x0\n  Service:\n    priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n    ServiceInfo:\n      name=%s\n      packageName=%s\n      enabled=true exported=true directBootAware=false\n      permission=android.permission.BIND_INPUT_METHOD\n", id, id, strings.SplitN(id, "/", 2)[1], pkg)
		}
		return 0
	case "enable", "disable":
		if !slices.Contains(p.imes, lastArg) || len(c.args) < 3 {
			c.errorf("Unknown input method %s cannot be enabled for user #0\n", lastArg)
			return 255
		}
		en := c.args[1] == "enable"
		was := p.enabledIME[lastArg]
		p.enabledIME[lastArg] = en
		if !en && p.currentIME == lastArg {
			p.currentIME = imeGboard
		}
		p.syncIMESettings()
		state := map[bool]string{true: "enabled", false: "disabled"}[en]
		if was == en {
			c.printf("Input method %s: already %s for user #0\n", lastArg, state)
		} else {
			c.printf("Input method %s: now %s for user #0\n", lastArg, state)
		}
		p.bump()
		return 0
	case "set":
		if !slices.Contains(p.imes, lastArg) || !p.enabledIME[lastArg] || len(c.args) < 3 {
			c.errorf("Unknown input method %s cannot be selected for user #0\n", lastArg)
			return 255
		}
		p.currentIME = lastArg
		p.syncIMESettings()
		p.bump()
		c.printf("Input method %s selected for user #0\n", lastArg)
		return 0
	case "reset":
		p.currentIME = imeGboard
		p.enabledIME = map[string]bool{imeGboard: true}
		p.syncIMESettings()
		p.bump()
		c.printf("Reset current and enabled IMEs for user #0\n  Selected: %s\n   Enabled: %s\n", imeGboard, imeGboard)
		return 0
	}
	c.errorf("Unknown command: %s\n", c.args[1])
	return 255
}

// ---- fairy-sim: the phone-only service for evaluations ----

const fairySimUsage = `usage: fairy-sim state [COLLECTION|PACKAGE]   print app state as JSON
       fairy-sim settings                     print settings as JSON
       fairy-sim reset                        factory-reset the phone
       fairy-sim faults [SPEC]                print or set the faults
` + fairySimSetupUsage

func cmdFairySim(p *Phone, c *cmdIO) int {
	if len(c.args) < 2 {
		c.errorf("%s", fairySimUsage)
		return 1
	}
	enc := func(v any) int {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			c.errorf("fairy-sim: %v\n", err)
			return 1
		}
		c.printf("%s\n", b)
		return 0
	}
	if st, ok := cmdFairySimSetup(p, c); ok {
		return st
	}
	switch c.args[1] {
	case "state":
		st := p.stateLocked()
		if len(c.args) > 2 {
			key := c.args[2]
			if app, ok := st.Apps[key]; ok {
				return enc(app)
			}
			recs, err := p.recordsLocked(key)
			if err != nil {
				c.errorf("fairy-sim: unknown collection %s\n", key)
				return 1
			}
			return enc(recs)
		}
		return enc(st)
	case "settings":
		return enc(p.settings)
	case "reset":
		if err := p.reset(); err != nil {
			c.errorf("fairy-sim: %v\n", err)
			return 1
		}
		c.printf("reset\n")
		return 0
	case "faults":
		if len(c.args) > 2 {
			f, err := ParseFaults(c.args[2])
			if err != nil {
				c.errorf("fairy-sim: %v\n", err)
				return 1
			}
			p.faults = f
		}
		c.printf("%s\n", p.faults)
		return 0
	}
	c.errorf("%s", fairySimUsage)
	return 1
}
