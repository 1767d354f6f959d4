package sim

import (
	"bytes"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"time"
)

// The phone's command table and how a simple command runs; each family of commands has a
// cmd_*.go file (cmd_files.go: cat, ls, mv, stat…; cmd_am.go, cmd_pm.go, cmd_input.go…).

// command runs one command of the table with the phone's lock held and returns its status.
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
	case "export":
		// export NAME=VALUE…: adb logcat sends `export ANDROID_LOG_TAGS=""; exec logcat …`.
		for _, a := range c.args[1:] {
			if k, v, ok := strings.Cut(a, "="); ok && k != "" {
				c.env.vars[k] = v
			}
		}
		return 0, nil
	case "logcat":
		return cmdLogcat(p, c), nil // follows the log: takes the lock for each look
	}
	if name == "am" && len(c.args) > 1 && c.args[1] == "instrument" {
		return p.amInstrument(c) // blocks while the instrumentation runs: not under the lock
	}
	switch {
	case name == "pm":
		c.readStreamed(c.args)
	case name == "cmd" && len(c.args) > 1 && c.args[1] == "package":
		c.readStreamed(c.args[1:])
	}
	cmd, ok := p.cmds[name]
	if !ok {
		c.errorf("/system/bin/sh: %s: not found\n", c.args[0])
		return 127, nil
	}
	// The command's output is written after the lock is released: a write to the client
	// may wait for the client's flow control (adbd's OKAY), and the connection that carries
	// that OKAY may itself be waiting for the lock to open a socket (a forwarded port).
	var out, errOut bytes.Buffer
	locked := *c
	locked.stdout, locked.stderr = &out, &errOut
	if c.stderr == c.stdout {
		locked.stderr = &out
	}
	st := p.runLocked(cmd, &locked)
	if out.Len() > 0 {
		_, _ = c.stdout.Write(out.Bytes())
	}
	if errOut.Len() > 0 {
		_, _ = c.stderr.Write(errOut.Bytes())
	}
	return st, nil
}

// runLocked runs cmd with the phone's lock held.
func (p *Phone) runLocked(cmd command, c *cmdIO) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return cmd(p, c)
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
		"appops":      cmdAppops,
		"app_process": cmdAppProcess, "app_process64": cmdAppProcess,
	}
}

// operands splits a command's arguments into its single-letter flags (run together) and its
// operands; "--" ends the flags.
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

// cmdCmd is `cmd SERVICE …`, the binder-service form of pm, am, input, settings and ime.
func cmdCmd(p *Phone, c *cmdIO) int {
	if len(c.args) < 2 {
		c.errorf("cmd: No service specified; use -l to list all running services. Use -w to start and wait for a service.\n")
		return 20
	}
	switch c.args[1] {
	case "package":
		sub := &cmdIO{ctx: c.ctx, env: c.env, args: append([]string{"pm"}, c.args[2:]...), stdin: c.stdin, stream: c.stream,
			streamErr: c.streamErr, stdout: c.stdout, stderr: c.stderr}
		return cmdPm(p, sub)
	case "activity":
		sub := &cmdIO{ctx: c.ctx, env: c.env, args: append([]string{"am"}, c.args[2:]...), stdin: c.stdin, stream: c.stream,
			streamErr: c.streamErr, stdout: c.stdout, stderr: c.stderr}
		return cmdAm(p, sub)
	case "input":
		sub := &cmdIO{ctx: c.ctx, env: c.env, args: append([]string{"input"}, c.args[2:]...), stdin: c.stdin,
			stream: c.stream, streamErr: c.streamErr, stdout: c.stdout, stderr: c.stderr}
		return cmdInput(p, sub)
	case "settings":
		sub := &cmdIO{ctx: c.ctx, env: c.env, args: append([]string{"settings"}, c.args[2:]...), stdin: c.stdin,
			stream: c.stream, streamErr: c.streamErr, stdout: c.stdout, stderr: c.stderr}
		return cmdSettings(p, sub)
	case "appops":
		sub := &cmdIO{ctx: c.ctx, env: c.env, args: append([]string{"appops"}, c.args[2:]...), stdin: c.stdin,
			stdout: c.stdout, stderr: c.stderr}
		return cmdAppops(p, sub)
	case "notification":
		return cmdNotification(p, c)
	case "input_method":
		sub := &cmdIO{ctx: c.ctx, env: c.env, args: append([]string{"ime"}, c.args[2:]...), stdin: c.stdin,
			stream: c.stream, streamErr: c.streamErr, stdout: c.stdout, stderr: c.stderr}
		return cmdIme(p, sub)
	}
	c.errorf("Can't find service: %s\n", c.args[1])
	return 20
}
