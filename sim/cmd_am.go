package sim

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The activity manager: am start, force-stop, broadcast and instrument, and monkey's launch
// of an app.

func cmdAm(p *Phone, c *cmdIO) int {
	if len(c.args) < 2 {
		c.errorf("Activity manager (activity) commands:\n  help\n      Print this help text.\n" +
			"  start [-D] [-N] [-W] [-P <FILE>] [--start-profiler <FILE>] <INTENT>\n  force-stop <PACKAGE>\n" +
			"  broadcast [--user <USER_ID> | all | current] <INTENT>\n")
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
		if pkg == uiServerPackage || pkg == uiServerTestPackage {
			p.stopUIServerLocked()
		}
		if pkg == settingsHelperPackage {
			p.pkgs.helperRunning = false
		}
		if p.packageKnown(pkg) {
			p.logf("system", pidSystemServer, 'I', "ActivityManager", "Force stopping %s appid=%d user=0: from pid %d", pkg,
				10100+int(crc(pkg)%400), pidShell)
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

func amStart(p *Phone, c *cmdIO, args []string) int {
	in := parseIntent(args)
	c.printf("Starting: %s\n", in)
	if p.startSettingsHelper(c, in) {
		return 0
	}
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
		if p.pkgs.pkgs[pkg] != nil {
			// Installed over adb: a phone would run it; this one runs no code of it.
			c.errorf("Error: Activity not started, the virtual phone runs no code of %s (installed over adb): "+
				"only its declared apps run\n", pkg)
			return 1
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
		c.printf("Status: ok\nLaunchState: COLD\nActivity: %s\nTotalTime: %d\nWaitTime: %d\nComplete\n",
			top.app.spec.shortComponent(top.spec.Activity), el, el+4)
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

// amInstrument runs `am instrument [-w] [-r] [-e K V]… COMPONENT`. Only the Appium
// UiAutomator2 server's runner is known. With -w it returns when the server stops (or
// the shell ends: the UiAutomation connection lives in the am process, so the server
// dies with it); without -w, or as a background job, it returns at once and the server
// keeps running until it is force-stopped.
func (p *Phone) amInstrument(c *cmdIO) (int, error) {
	wait := false
	comp := ""
	for i := 2; i < len(c.args); i++ {
		switch a := c.args[i]; a {
		case "-w":
			wait = true
		case "-e":
			i += 2
		case "-r", "-m", "--no-window-animation", "--no-hidden-api-checks", "--no-restart":
		case "--user", "-p", "--abi":
			i++
		default:
			if !strings.HasPrefix(a, "-") {
				comp = a
			}
		}
	}
	p.mu.Lock()
	p.uia2.init()
	if comp != UIServerRunner || !p.uia2.installed[uiServerTestPackage] || !p.uia2.installed[uiServerPackage] {
		p.mu.Unlock()
		c.printf("INSTRUMENTATION_STATUS: Error=Unable to find instrumentation info for: ComponentInfo{%s}\n"+
			"INSTRUMENTATION_STATUS_CODE: -1\nandroid.util.AndroidException: INSTRUMENTATION_FAILED: %s\n", comp, comp)
		return 1, nil
	}
	// A new instrumentation of the same package replaces the running one.
	p.stopUIServerLocked()
	p.uia2.running = true
	p.uia2.starts++
	p.uia2.served = 0
	p.uia2.mjpeg = mjpegConfig{} // ServerConfig's overrides live in the server's process
	stop := make(chan struct{})
	p.uia2.stop = stop
	p.mu.Unlock()
	if !wait || c.ctx.Value(bgJobKey{}) != nil {
		return 0, nil
	}
	select {
	case <-stop:
		c.printf("INSTRUMENTATION_RESULT: shortMsg=Process crashed.\nINSTRUMENTATION_CODE: 0\n")
		return 0, nil
	case <-c.ctx.Done():
		p.mu.Lock()
		if p.uia2.stop == stop {
			p.stopUIServerLocked()
		}
		p.mu.Unlock()
		return 130, fmt.Errorf("sim am instrument: %w", c.ctx.Err())
	}
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
	c.printf("Events injected: 1\n## Network stats: elapsed time=%dms (0ms mobile, 0ms wifi, "+
		"%dms not connected)\n", 18, 18)
	return 0
}
