package sim

// pm's commands for packages installed over adb: install (by path or from standard input),
// the install session commands, grant and revoke, clear, list instrumentation, and the
// dumpsys package record of such a package. The store they act on is packages.go.

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// pmInstall runs `pm install [OPTIONS] FILE` and `pm install [OPTIONS] -S SIZE` (the APK on
// standard input: what `adb install` streams). Any APK the phone can parse installs; the
// phone runs the code of none but the Appium UiAutomator2 server.
func pmInstall(p *Phone, c *cmdIO) int {
	o, ops, err := parseInstallOptions(c.args[2:])
	if err != nil {
		c.errorf("%v\n", err)
		return 1
	}
	var data []byte
	source := "-"
	switch {
	case o.size >= 0 && len(ops) == 0:
		if c.streamErr != nil {
			c.printf("Failure [INSTALL_FAILED_INVALID_APK: Failed to read the APK from standard input: %v]\n", c.streamErr)
			return 1
		}
		data = c.stdin
		if int64(len(data)) != o.size {
			c.printf("Failure [INSTALL_FAILED_INVALID_APK: Failed to read the APK from standard input: "+
				"%d of %d bytes arrived]\n", len(data), o.size)
			return 1
		}
	case len(ops) == 1:
		source = ops[0]
		data, err = p.fs.readFile(ops[0])
		if err != nil {
			c.errorf("Error: Can't open file: %s\n", ops[0])
			c.printf("Exception occurred while executing 'install':\njava.lang.IllegalArgumentException: Error: "+
				"Can't open file: %s\n", ops[0])
			return 1
		}
	default:
		c.errorf("Error: APK content must be streamed (-S SIZE) or a single path given\n")
		return 1
	}
	if fail := p.installAPK(data, o, source); fail != "" {
		c.printf("Failure [%s]\n", fail)
		return 1
	}
	c.printf("Success\n")
	return 0
}

// The open install sessions' bounds: their number (PackageInstallerService's for a caller
// that may install) and the bytes they hold together, which stay in memory until committed
// or abandoned.
const (
	maxSessions = 1024
	maxStaged   = 1 << 30
)

// staged is the bytes the open sessions hold.
func (s *packageStore) staged() int {
	n := 0
	for _, sess := range s.sessions {
		for _, b := range sess.splits {
			n += len(b)
		}
	}
	return n
}

// pmSession runs install-create, install-write, install-commit and install-abandon: the
// session form `adb install-multiple` (and `adb install` of split APKs) uses.
func pmSession(p *Phone, c *cmdIO) int {
	p.pkgs.init()
	sessionArg := func(s string) (int, *installSession, bool) {
		id, err := strconv.Atoi(s)
		sess := p.pkgs.sessions[id]
		if err != nil || sess == nil {
			c.errorf("Error: Unable to open session %s: java.lang.SecurityException: Caller has no access to session %s\n", s, s)
			return 0, nil, false
		}
		return id, sess, true
	}
	switch c.args[1] {
	case "install-create":
		o, _, err := parseInstallOptions(c.args[2:])
		if err != nil {
			c.errorf("%v\n", err)
			return 1
		}
		if len(p.pkgs.sessions) >= maxSessions { // PackageInstallerService's bound for a caller
			c.errorf("Error: java.lang.IllegalStateException: Too many active sessions for UID 2000 (commit or abandon them: " +
				"pm install-abandon ID)\n")
			return 1
		}
		p.pkgs.nextSess += 7919
		id := p.pkgs.nextSess
		p.pkgs.sessions[id] = &installSession{opts: o, splits: map[string][]byte{}}
		c.printf("Success: created install session [%d]\n", id)
		return 0
	case "install-write":
		o, ops, err := parseInstallOptions(c.args[2:])
		if err != nil {
			c.errorf("%v\n", err)
			return 1
		}
		if len(ops) < 2 {
			c.errorf("Error: install-write needs a session id and a split name\n")
			return 1
		}
		_, sess, ok := sessionArg(ops[0])
		if !ok {
			return 1
		}
		var data []byte
		switch {
		case len(ops) >= 3 && ops[2] != "-":
			data, err = p.fs.readFile(ops[2])
			if err != nil {
				c.errorf("Error: Can't open file: %s\n", ops[2])
				return 1
			}
		case c.streamErr != nil:
			c.errorf("Error: Failed to write; %v\n", c.streamErr)
			return 1
		default:
			data = c.stdin
			if o.size >= 0 && int64(len(data)) != o.size {
				c.errorf("Error: Failed to write; %d of %d bytes arrived\n", len(data), o.size)
				return 1
			}
		}
		if staged := p.pkgs.staged() - len(sess.splits[ops[1]]) + len(data); staged > maxStaged {
			c.errorf("Error: Failed to write; java.io.IOException: Requested internal only, but not enough space: "+
				"the open sessions would hold %d MiB, over %d MiB (commit or abandon them)\n", staged>>20, maxStaged>>20)
			return 1
		}
		if _, seen := sess.splits[ops[1]]; !seen {
			sess.order = append(sess.order, ops[1])
		}
		sess.splits[ops[1]] = data
		c.printf("Success: streamed %d bytes\n", len(data))
		return 0
	case "install-commit":
		if len(c.args) < 3 {
			c.errorf("Error: install-commit needs a session id\n")
			return 1
		}
		id, sess, ok := sessionArg(c.args[len(c.args)-1])
		if !ok {
			return 1
		}
		delete(p.pkgs.sessions, id)
		if len(sess.order) == 0 {
			c.printf("Failure [INSTALL_FAILED_INVALID_APK: No packages staged in session %d]\n", id)
			return 1
		}
		// The base APK names the package; splits of the same package ride along.
		base := sess.splits[sess.order[0]]
		for _, name := range sess.order {
			if info, err := readAPK(sess.splits[name]); err == nil && !strings.Contains(name, "split") && info.pkg != "" {
				base = sess.splits[name]
				break
			}
		}
		if fail := p.installAPK(base, sess.opts, sess.order[0]); fail != "" {
			c.printf("Failure [%s]\n", fail)
			return 1
		}
		c.printf("Success\n")
		return 0
	case "install-abandon":
		if len(c.args) < 3 {
			c.errorf("Error: install-abandon needs a session id\n")
			return 1
		}
		id, _, ok := sessionArg(c.args[len(c.args)-1])
		if !ok {
			return 1
		}
		delete(p.pkgs.sessions, id)
		c.printf("Success\n")
		return 0
	}
	return 255
}

// dumpsysInstalled prints `dumpsys package PKG` for a package installed over adb, with the
// fields clients read: versionCode, versionName, the install times, the permissions and
// whether each is granted. False when pkg was not installed over adb.
func (p *Phone) dumpsysInstalled(c *cmdIO, name string) bool {
	p.pkgs.init()
	pkg := p.pkgs.pkgs[name]
	if pkg == nil {
		return false
	}
	i := pkg.info
	ts := func(t time.Time) string { return t.Format("2006-01-02 15:04:05") }
	c.printf("Packages:\n  Package [%s] (%s):\n    userId=%d\n    pkg=Package{%s %s}\n    codePath=%s\n"+
		"    resourcePath=%s\n    primaryCpuAbi=null\n    secondaryCpuAbi=null\n"+
		"    versionCode=%d minSdk=%d targetSdk=%d\n    versionName=%s\n    flags=[ DEBUGGABLE HAS_CODE "+
		"ALLOW_CLEAR_USER_DATA ALLOW_BACKUP ]\n    dataDir=/data/user/0/%s\n    timeStamp=%s\n    firstInstallTime=%s\n"+
		"    lastUpdateTime=%s\n    installerPackageName=%s\n",
		i.pkg, hash7(int(crc(i.pkg)+2)), pkg.uid, hash7(int(crc(i.pkg)+3)), i.pkg, strings.TrimSuffix(pkg.codePath,
			"/base.apk"), strings.TrimSuffix(pkg.codePath, "/base.apk"),
		i.versionCode, i.minSdk, i.targetSdk, i.versionName, i.pkg, ts(pkg.lastTime), ts(pkg.firstTime), ts(pkg.lastTime),
		defaultStr(pkg.installer, "null"))
	if len(i.permissions) > 0 {
		c.printf("    requested permissions:\n")
		for _, perm := range i.permissions {
			c.printf("      %s\n", perm)
		}
		c.printf("    install permissions:\n")
		for _, perm := range i.permissions {
			if !runtimePermissions[perm] {
				c.printf("      %s: granted=true\n", perm)
			}
		}
	}
	c.printf("    User 0: ceDataInode=%d installed=true hidden=false suspended=false distractionFlags=0 stopped=false "+
		"notLaunched=false enabled=0 instant=false virtual=false\n", 40000+crc(i.pkg)%9000)
	var runtime []string
	for _, perm := range i.permissions {
		if runtimePermissions[perm] {
			runtime = append(runtime, perm)
		}
	}
	if len(runtime) > 0 {
		c.printf("      runtime permissions:\n")
		for _, perm := range runtime {
			granted := pkg.grantAll || pkg.granted[perm]
			if pkg.revoked[perm] {
				granted = false
			}
			c.printf("        %s: granted=%t, flags=[ USER_SENSITIVE_WHEN_GRANTED|USER_SENSITIVE_WHEN_DENIED]\n", perm, granted)
		}
	}
	return true
}

// pmGrant runs `pm grant|revoke PKG PERMISSION` for a package installed over adb.
func pmGrant(p *Phone, c *cmdIO) int {
	_, ops := operands(c.args[2:])
	if len(ops) < 2 {
		c.errorf("Error: no package or permission specified\n")
		return 255
	}
	p.pkgs.init()
	pkg := p.pkgs.pkgs[ops[0]]
	if pkg == nil {
		if p.packageKnown(ops[0]) {
			return 0 // a built-in app: its permissions are its own business
		}
		c.errorf("Exception occurred while executing '%s':\njava.lang.IllegalArgumentException: Unknown package: %s\n",
			c.args[1], ops[0])
		return 255
	}
	perm := ops[1]
	if !slices.Contains(pkg.info.permissions, perm) {
		c.errorf("Exception occurred while executing '%s':\njava.lang.SecurityException: "+
			"Package %s has not requested permission %s\n", c.args[1], ops[0], perm)
		return 255
	}
	if !runtimePermissions[perm] {
		c.errorf("Exception occurred while executing '%s':\njava.lang.SecurityException: "+
			"Permission %s requested by %s is not a changeable permission type\n", c.args[1], perm, ops[0])
		return 255
	}
	if pkg.granted == nil {
		pkg.granted, pkg.revoked = map[string]bool{}, map[string]bool{}
	}
	grant := c.args[1] == "grant"
	pkg.granted[perm], pkg.revoked[perm] = grant, !grant
	return 0
}

// listInstrumentation prints `pm list instrumentation [-f] [TARGET]`: the runners the
// installed packages declare (the UiAutomator2 server's test package declares Appium's).
func (p *Phone) listInstrumentation(c *cmdIO, args []string) int {
	flags, ops := operands(args)
	type runner struct{ pkg, name, target string }
	var list []runner
	for _, pkg := range p.installedPackages() {
		if i := p.pkgs.pkgs[pkg]; i != nil {
			for _, in := range i.info.instrumentations {
				list = append(list, runner{pkg, in.name, in.target})
			}
		} else if pkg == uiServerTestPackage { // installed from the start (Config.UIServer)
			list = append(list, runner{pkg, "androidx.test.runner.AndroidJUnitRunner", uiServerPackage})
		}
	}
	for _, r := range list {
		if len(ops) > 0 && ops[0] != r.target {
			continue
		}
		if strings.Contains(flags, "f") {
			c.printf("instrumentation:%s=%s/%s (target=%s)\n", p.apkPath(r.pkg, false), r.pkg, r.name, r.target)
			continue
		}
		c.printf("instrumentation:%s/%s (target=%s)\n", r.pkg, r.name, r.target)
	}
	return 0
}

// pmClear runs `pm clear PKG`: the app is stopped and its data goes back to what it was
// installed with (Appium clears the app under test before a session without noReset).
func pmClear(p *Phone, c *cmdIO) int {
	_, ops := operands(c.args[2:])
	if len(ops) != 1 {
		c.errorf("Error: no package specified\n")
		return 255
	}
	pkg := ops[0]
	if a := p.apps[pkg]; a != nil && pkg != p.home {
		p.forceStop(pkg)
		p.apps[pkg] = newAppState(p, a.spec)
		p.bump()
		c.printf("Success\n")
		return 0
	}
	if p.packageKnown(pkg) {
		c.printf("Success\n")
		return 0
	}
	c.printf("Failed\n")
	return 1
}
