package sim

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The package manager: pm list, path, install, resolve-activity and query-activities, which
// cmd package answers too.

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
		if len(c.args) >= 3 && c.args[2] == "instrumentation" {
			return p.listInstrumentation(c, c.args[3:])
		}
		if len(c.args) < 3 || (c.args[2] != "packages" && c.args[2] != "package") {
			c.errorf("Error: unknown list type '%s'\n", strings.Join(c.args[2:], " "))
			return 255
		}
		var flags string
		var ops []string
		versions := false
		for i := 3; i < len(c.args); i++ {
			switch a := c.args[i]; {
			case a == "--show-versioncode":
				versions = true
			case a == "--user" || a == "--uid":
				i++
			case strings.HasPrefix(a, "--"):
			case strings.HasPrefix(a, "-") && len(a) > 1:
				flags += a[1:]
			default:
				ops = append(ops, a)
			}
		}
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
			line := "package:" + e.pkg
			if strings.Contains(flags, "f") {
				line = "package:" + p.apkPath(e.pkg, e.system) + "=" + e.pkg
			}
			if versions {
				line += " versionCode:" + strconv.FormatInt(p.versionCode(e.pkg), 10)
			}
			if strings.Contains(flags, "U") {
				line += " uid:" + strconv.Itoa(10100+int(crc(e.pkg)%400))
			}
			lines = append(lines, line)
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
	case "install-create", "install-write", "install-commit", "install-abandon":
		return pmSession(p, c)
	case "grant", "revoke":
		return pmGrant(p, c)
	case "clear":
		return pmClear(p, c)
	case "uninstall":
		if pkg := c.args[len(c.args)-1]; len(c.args) > 2 && p.uninstall(pkg) {
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
	for _, pkg := range p.installedPackages() {
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
			c.printf("    priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n    %s\n",
				a.spec.shortComponent(a.spec.Activity))
			continue
		}
		c.printf("%s", resolveInfo(p, a, "    ", true))
	}
	return 0
}
