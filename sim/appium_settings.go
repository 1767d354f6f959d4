package sim

import (
	"fmt"
	"slices"
	"strings"
)

// Appium Settings (npm io.appium.settings, Apache-2.0): the helper app Appium's Android
// drivers install beside the UiAutomator2 server. Its launcher activity starts its
// foreground service and finishes at once (it is translucent: the screen does not change);
// the driver then waits for `dumpsys activity services io.appium.settings` to show
// isForeground=true. The phone emulates that much of it once its APK is installed.

const (
	settingsHelperPackage = "io.appium.settings"
	settingsHelperService = settingsHelperPackage + "/.ForegroundService"
)

// startSettingsHelper handles am start of the helper's activity; false when comp is not
// the helper's (or it is not installed).
func (p *Phone) startSettingsHelper(c *cmdIO, in intent) bool {
	pkg := in.pkg
	if in.component != "" {
		pkg, _, _ = strings.Cut(in.component, "/")
	}
	if pkg != settingsHelperPackage || p.pkgs.pkgs[settingsHelperPackage] == nil {
		return false
	}
	p.pkgs.helperRunning = true
	p.pkgs.helperStarted = p.cfg.Clock()
	p.logf("system", pidSystemServer, 'I', "ActivityTaskManager", "START u0 {act=%s cat=[%s] flg=0x10000000 cmp=%s} "+
		"from uid 2000", defaultStr(in.action, "android.intent.action.MAIN"), strings.Join(in.categories, ","), in.component)
	p.logf("system", pidSystemServer, 'I', "ActivityManager", "Start proc %d:%s/u0a%d for next-top-activity {%s}",
		p.helperPid(), settingsHelperPackage, p.pkgs.pkgs[settingsHelperPackage].uid-10000, in.component)
	if in.wait {
		c.printf("Status: ok\nLaunchState: COLD\nActivity: %s\nTotalTime: 212\nWaitTime: 216\nComplete\n", in.component)
	}
	return true
}

func (p *Phone) helperPid() int { return 5000 + int(crc(settingsHelperPackage)%900) }

// dumpsysServices prints `dumpsys activity services [PKG|COMPONENT]`: the helper's
// foreground service while it runs.
func (p *Phone) dumpsysServices(c *cmdIO, filter string) {
	c.printf("ACTIVITY MANAGER SERVICES (dumpsys activity services)\n")
	match := filter == "" || filter == settingsHelperPackage || filter == settingsHelperService ||
		filter == settingsHelperPackage+"/"+settingsHelperPackage+".ForegroundService"
	pkg := p.pkgs.pkgs[settingsHelperPackage]
	if !p.pkgs.helperRunning || pkg == nil || !match {
		c.printf("  (nothing)\n")
		return
	}
	ago := p.cfg.Clock().Sub(p.pkgs.helperStarted).Round(1e6)
	c.printf(`  User 0 active services:
  * ServiceRecord{%[1]s u0 %[2]s}
    intent={cmp=%[2]s}
    packageName=%[3]s
    processName=%[3]s
    baseDir=%[4]s
    dataDir=/data/user/0/%[3]s
    app=ProcessRecord{%[5]s %[6]d:%[3]s/u0a%[7]d}
    isForeground=true foregroundId=1 foregroundNoti=Notification(channel=main_channel shortcut=null contentView=null vibrate=null sound=null defaults=0x0 flags=0x62 color=0x00000000 vis=PRIVATE)
    createTime=-%[8]s ago startingBgTimeout=--
    lastActivity=-%[8]s ago restartTime=-%[8]s ago createdFromFg=true
    startRequested=true delayedStop=false stopIfKilled=false callStart=true lastStartId=1

  Connection bindings to services:
    (none)
`, hash7(int(crc(settingsHelperService))), settingsHelperService, settingsHelperPackage, strings.TrimSuffix(pkg.codePath, "/base.apk"),
		hash7(p.helperPid()), p.helperPid(), pkg.uid-10000, fmtAgo(ago))
}

// fmtAgo words a duration as dumpsys does: 1m2s345ms.
func fmtAgo(d interface{ Milliseconds() int64 }) string {
	ms := d.Milliseconds()
	var b strings.Builder
	if ms >= 60000 {
		fmt.Fprintf(&b, "%dm", ms/60000)
		ms %= 60000
	}
	if ms >= 1000 || b.Len() > 0 {
		fmt.Fprintf(&b, "%ds", ms/1000)
		ms %= 1000
	}
	fmt.Fprintf(&b, "%dms", ms)
	return b.String()
}

// cmdNotification is `cmd notification`: notification listeners allowed and disallowed
// (Appium allows its helper's NLService to read notifications).
func cmdNotification(p *Phone, c *cmdIO) int {
	if len(c.args) < 3 {
		c.printf("usage: cmd notification SUBCMD [args]\n\nSUBCMDs:\n  allow_listener COMPONENT [user_id " +
			"(current user if not specified)]\n  disallow_listener COMPONENT [user_id (current user if not specified)]\n")
		return 0
	}
	switch c.args[2] {
	case "allow_listener", "disallow_listener", "allow_assistant", "disallow_assistant":
		if len(c.args) < 4 || !strings.Contains(c.args[3], "/") {
			c.errorf("Invalid listener - must be a ComponentName\n")
			return 255
		}
		if p.pkgs.listeners == nil {
			p.pkgs.listeners = map[string]bool{}
		}
		p.pkgs.listeners[c.args[3]] = strings.HasPrefix(c.args[2], "allow")
		return 0
	}
	c.errorf("Unknown command: %s\n", c.args[2])
	return 255
}

// dumpsysDeviceIdle answers `dumpsys deviceidle whitelist [+PKG|-PKG]…` (Appium keeps its
// packages out of Doze) and `dumpsys deviceidle` alone.
func (p *Phone) dumpsysDeviceIdle(c *cmdIO) int {
	if len(c.args) < 3 || c.args[2] != "whitelist" {
		c.printf("  Settings:\n    light_after_inactive_to=+3m0s0ms\n  mLightEnabled=true  mDeepEnabled=true\n" +
			"  mForceIdle=false\n  mScreenOn=true\n  mCharging=true\n  mState=ACTIVE mLightState=ACTIVE\n")
		return 0
	}
	if p.pkgs.idleAllow == nil {
		p.pkgs.idleAllow = map[string]bool{}
	}
	if len(c.args) == 3 {
		for _, pkg := range []string{"com.android.providers.calendar", "com.android.phone", "com.android.shell"} {
			c.printf("system-excidle,%s,%d\n", pkg, 1000+int(crc(pkg)%100))
		}
		var user []string
		for pkg := range p.pkgs.idleAllow {
			user = append(user, pkg)
		}
		slices.Sort(user)
		for _, pkg := range user {
			c.printf("user,%s,%d\n", pkg, 10100+int(crc(pkg)%400))
		}
		return 0
	}
	for _, a := range c.args[3:] {
		if len(a) < 2 || (a[0] != '+' && a[0] != '-') {
			c.printf("Package must be prefixed with +, -, or =: %s\n", a)
			return 255
		}
		pkg := a[1:]
		if a[0] == '+' {
			if !p.packageKnown(pkg) {
				c.printf("Unknown package: %s\n", pkg)
				continue
			}
			p.pkgs.idleAllow[pkg] = true
			c.printf("Added: %s\n", pkg)
			continue
		}
		delete(p.pkgs.idleAllow, pkg)
		c.printf("Removed: %s\n", pkg)
	}
	return 0
}
