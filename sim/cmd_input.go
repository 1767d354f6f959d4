package sim

import (
	"strconv"
	"strings"
	"time"
)

// input: touch and key events from the shell (what they do to the screen is input.go's).

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
				c.errorf("Exception occurred while executing 'text':\njava.lang.NullPointerException: " +
					"Attempt to get length of null array\n\tat com.android.server.input.InputShellCommand.sendText(InputShellCommand.java:313)\n\tat com.android.server.input.InputShellCommand.runText(InputShellCommand.java:270)\n\tat com.android.server.input.InputShellCommand.onCommand(InputShellCommand.java:198)\n\tat com.android.modules.utils.BasicShellCommandHandler.exec(BasicShellCommandHandler.java:97)\n\tat android.os.ShellCommand.exec(ShellCommand.java:38)\n\tat com.android.server.input.InputManagerService.onShellCommand(InputManagerService.java:2921)\n\tat android.os.Binder.shellCommand(Binder.java:1092)\n\tat android.os.Binder.onTransact(Binder.java:912)\n")
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
