package sim

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Packages installed over adb (pm install, cmd package install -S from the stream adb
// install sends, install sessions). The phone keeps what their manifests say (package,
// version, permissions, instrumentation) and lists them as a phone does; it runs none of
// their code, except the Appium UiAutomator2 server's, which it emulates (uia2.go). Like
// that server they survive Reset: a factory state of the apps' data, not a reflash.

// maxAPK bounds an APK the phone accepts (Play's own limit for a base APK is 200 MB).
const maxAPK = 256 << 20

// installedPkg is one package installed over adb.
type installedPkg struct {
	info      apkInfo
	size      int
	firstTime time.Time
	lastTime  time.Time
	installer string
	grantAll  bool            // installed with -g: its runtime permissions granted
	granted   map[string]bool // pm grant
	revoked   map[string]bool // pm revoke
	codePath  string
	uid       int
}

// installSession is an open `pm install-create` session: its APKs by split name.
type installSession struct {
	opts   installOptions
	splits map[string][]byte
	order  []string
}

// packageStore is the phone's installed packages and open sessions; it lives under the
// phone's lock.
type packageStore struct {
	pkgs     map[string]*installedPkg
	sessions map[int]*installSession
	nextSess int
	appOps   map[string]map[string]string // package → op → mode (appops set)
	// listeners are the notification listeners allowed (cmd notification allow_listener).
	listeners map[string]bool
	// idleAllow are the packages kept out of Doze (dumpsys deviceidle whitelist +PKG).
	idleAllow map[string]bool
	// helperRunning: Appium Settings' foreground service runs (appium_settings.go).
	helperRunning bool
	helperStarted time.Time
}

func (s *packageStore) init() {
	if s.pkgs == nil {
		s.pkgs = map[string]*installedPkg{}
		s.sessions = map[int]*installSession{}
		s.appOps = map[string]map[string]string{}
		s.nextSess = 1021312400 // session ids on a phone are large, random-looking numbers
	}
}

// installOptions are pm install's options the phone acts on.
type installOptions struct {
	replace   bool   // -r (the default since Android 7; kept for the message)
	test      bool   // -t: test packages allowed
	grant     bool   // -g: grant every runtime permission
	downgrade bool   // -d
	size      int64  // -S: the APK's bytes on standard input
	installer string // -i
	user      string
}

// parseInstallOptions reads pm install's (and install-create's) options, in order, and
// returns the operands left. An unknown option is an error, worded as pm words it.
func parseInstallOptions(args []string) (installOptions, []string, error) {
	var o installOptions
	o.size = -1
	var ops []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		value := func() (string, error) {
			if i+1 >= len(args) {
				return "", fmt.Errorf("Error: option %s requires an argument", a)
			}
			i++
			return args[i], nil
		}
		switch a {
		case "-r", "--replace-existing":
			o.replace = true
		case "-t":
			o.test = true
		case "-g", "--grant-all-permissions":
			o.grant = true
		case "-d":
			o.downgrade = true
		case "-l", "-f", "-R", "--dont-kill", "--full", "--instant", "--ephemeral", "--restrict-permissions",
			"--force-queryable", "--skip-verification", "--skip-enable", "--bypass-low-target-sdk-block",
			"--no-streaming", "--streaming", "--force-non-staged", "--staged", "--apex", "--enable-rollback",
			"--wait", "--no-wait", "--preload", "--force-uuid", "--disable-auto-install-dependencies":
		case "-S":
			v, err := value()
			if err != nil {
				return o, nil, err
			}
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 0 {
				return o, nil, fmt.Errorf("Error: invalid size %q: -S takes the APK's size in bytes", v)
			}
			o.size = n
		case "-i", "--installer":
			v, err := value()
			if err != nil {
				return o, nil, err
			}
			o.installer = v
		case "--user":
			v, err := value()
			if err != nil {
				return o, nil, err
			}
			o.user = v
		case "-p", "--pkg", "--originating-uri", "--referrer", "--abi", "--install-location", "--install-reason",
			"--update-ownership", "--staged-ready-timeout", "--apex-staged-ready-timeout", "--rollback-impact":
			if _, err := value(); err != nil {
				return o, nil, err
			}
		case "--":
			ops = append(ops, args[i+1:]...)
			return o, ops, nil
		default:
			if strings.HasPrefix(a, "-") && a != "-" {
				return o, nil, fmt.Errorf("Error: Unknown option: %s", a)
			}
			ops = append(ops, a)
		}
	}
	return o, ops, nil
}

// streamedSize is the number of bytes a pm command line reads from its standard input
// (`install -S N`, `install-write -S N … -`), or -1 when it reads none.
func streamedSize(args []string) int64 {
	if len(args) < 2 {
		return -1
	}
	switch args[1] {
	case "install", "install-write":
	default:
		return -1
	}
	o, ops, err := parseInstallOptions(args[2:])
	if err != nil || o.size < 0 {
		return -1
	}
	if args[1] == "install-write" && len(ops) >= 3 && ops[2] != "-" {
		return -1 // install-write SESSION NAME PATH reads the file
	}
	return o.size
}

// readStreamed reads the APK bytes a pm command takes on its input before the command
// runs (without the phone's lock: the transfer takes the link's time, not the phone's).
func (c *cmdIO) readStreamed(args []string) {
	n := streamedSize(args)
	if n < 0 || c.stdin != nil || c.stream == nil {
		return
	}
	if n > maxAPK {
		c.streamErr = fmt.Errorf("the APK is %d bytes, over the phone's %d MiB limit", n, maxAPK>>20)
		return
	}
	// Memory grows with what arrives, not with what a client announces: -S 256000000
	// followed by nothing, from many shells at once, must not take 256 MB each.
	buf := bytes.NewBuffer(make([]byte, 0, min(n, 1<<20)))
	got, err := io.Copy(buf, io.LimitReader(c.stream, n))
	if err != nil || got < n {
		c.streamErr = fmt.Errorf("the input ended after %d of %d bytes", got, n)
		return
	}
	c.stdin = buf.Bytes()
}

// installAPK installs an APK's bytes, as PackageManagerService commits a session: it
// returns the failure pm prints between "Failure [" and "]", or "" on success.
func (p *Phone) installAPK(apk []byte, o installOptions, source string) string {
	p.pkgs.init()
	info, err := readAPK(apk)
	if err != nil {
		return "INSTALL_PARSE_FAILED_NOT_APK: Failed to parse " + source + ": " + strings.TrimPrefix(err.Error(),
			errBadAPK.Error()+": ")
	}
	if !validPackageName(info.pkg) {
		return "INSTALL_PARSE_FAILED_BAD_PACKAGE_NAME: Invalid manifest package: " + strconv.Quote(info.pkg)
	}
	if info.minSdk > sdkLevel {
		return fmt.Sprintf("INSTALL_FAILED_OLDER_SDK: Failed parse during installPackageLI: "+
			"/data/app/vmdl.tmp/base.apk (at Binary XML file line #7): Requires newer sdk version #%d "+
			"(current version is #%d)", info.minSdk, sdkLevel)
	}
	if p.apps[info.pkg] != nil || slices.ContainsFunc(extraPackages, func(e struct {
		pkg    string
		system bool
	}) bool {
		return e.pkg == info.pkg
	}) {
		return "INSTALL_FAILED_UPDATE_INCOMPATIBLE: Existing package " + info.pkg + " signatures do not match newer " +
			"version; ignoring!"
	}
	now := p.cfg.Clock()
	old := p.pkgs.pkgs[info.pkg]
	if old != nil && old.info.versionCode > info.versionCode && !o.downgrade {
		return fmt.Sprintf("INSTALL_FAILED_VERSION_DOWNGRADE: Downgrade detected: "+
			"Update version code %d is older than current %d", info.versionCode, old.info.versionCode)
	}
	pkg := &installedPkg{info: info, size: len(apk), firstTime: now, lastTime: now, installer: o.installer,
		grantAll: o.grant,
		codePath: p.apkPath(info.pkg, false), uid: 10100 + int(crc(info.pkg)%400)}
	if old != nil {
		pkg.firstTime = old.firstTime
		pkg.grantAll = old.grantAll || o.grant
	}
	if info.pkg == uiServerPackage || info.pkg == uiServerTestPackage {
		if p.uia2.running {
			p.stopUIServerLocked() // an update kills the running process
		}
		p.uiServerInstall(info.pkg)
	}
	if info.pkg == settingsHelperPackage {
		p.pkgs.helperRunning = false // an update kills the running process
	}
	p.pkgs.pkgs[info.pkg] = pkg
	p.logf("system", pidSystemServer, 'I', "PackageManager", "installPackageLI: %s versionCode=%d versionName=%s",
		info.pkg, info.versionCode, info.versionName)
	return ""
}

// uninstall removes a package installed over adb; false when there is none.
func (p *Phone) uninstall(pkg string) bool {
	p.pkgs.init()
	_, ok := p.pkgs.pkgs[pkg]
	if !ok && !p.uia2.installed[pkg] {
		return false
	}
	if pkg == uiServerPackage || pkg == uiServerTestPackage {
		p.stopUIServerLocked()
		delete(p.uia2.installed, pkg)
	}
	if pkg == settingsHelperPackage {
		p.pkgs.helperRunning = false
	}
	p.logf("system", pidSystemServer, 'I', "PackageManager", "Removing package %s", pkg)
	delete(p.pkgs.pkgs, pkg)
	delete(p.pkgs.appOps, pkg)
	return true
}

// sdkLevel is the phone's ro.build.version.sdk.
const sdkLevel = 34

// validPackageName checks a manifest's package as PackageParser does: two or more
// segments of [A-Za-z][A-Za-z0-9_]*, dot-separated.
func validPackageName(name string) bool {
	parts := strings.Split(name, ".")
	if len(parts) < 2 {
		return false
	}
	for _, s := range parts {
		if s == "" {
			return false
		}
		for i, r := range s {
			letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
			if !letter && (i == 0 || !(r >= '0' && r <= '9' || r == '_')) {
				return false
			}
		}
	}
	return true
}

// installedPackages lists the packages installed over adb in install order of name.
func (p *Phone) installedPackages() []string {
	p.pkgs.init()
	var out []string
	for pkg := range p.pkgs.pkgs {
		out = append(out, pkg)
	}
	for _, pkg := range []string{uiServerPackage, uiServerTestPackage} {
		if p.uia2.installed[pkg] && p.pkgs.pkgs[pkg] == nil {
			out = append(out, pkg)
		}
	}
	slices.Sort(out)
	return out
}

// runtimePermissions are the dangerous permissions a phone grants at run time (and -g
// grants at install): the rest of a manifest's permissions are granted at install.
var runtimePermissions = map[string]bool{
	"android.permission.ACCESS_FINE_LOCATION": true, "android.permission.ACCESS_COARSE_LOCATION": true,
	"android.permission.ACCESS_BACKGROUND_LOCATION": true, "android.permission.CAMERA": true,
	"android.permission.RECORD_AUDIO": true, "android.permission.READ_CONTACTS": true,
	"android.permission.WRITE_CONTACTS": true, "android.permission.GET_ACCOUNTS": true,
	"android.permission.READ_PHONE_STATE": true, "android.permission.CALL_PHONE": true,
	"android.permission.READ_CALL_LOG": true, "android.permission.WRITE_CALL_LOG": true,
	"android.permission.SEND_SMS": true, "android.permission.RECEIVE_SMS": true, "android.permission.READ_SMS": true,
	"android.permission.READ_CALENDAR": true, "android.permission.WRITE_CALENDAR": true,
	"android.permission.READ_EXTERNAL_STORAGE": true, "android.permission.WRITE_EXTERNAL_STORAGE": true,
	"android.permission.READ_MEDIA_IMAGES": true, "android.permission.READ_MEDIA_VIDEO": true,
	"android.permission.READ_MEDIA_AUDIO": true, "android.permission.POST_NOTIFICATIONS": true,
	"android.permission.BODY_SENSORS": true, "android.permission.ACTIVITY_RECOGNITION": true,
	"android.permission.BLUETOOTH_CONNECT": true, "android.permission.BLUETOOTH_SCAN": true,
	"android.permission.NEARBY_WIFI_DEVICES": true, "android.permission.READ_PHONE_NUMBERS": true,
	"android.permission.ACCESS_MEDIA_LOCATION": true, "android.permission.ANSWER_PHONE_CALLS": true,
}

// versionCode is a package's version code as pm lists it.
func (p *Phone) versionCode(pkg string) int64 {
	if i := p.pkgs.pkgs[pkg]; i != nil {
		return i.info.versionCode
	}
	if a := p.apps[pkg]; a != nil {
		return 1
	}
	return int64(sdkLevel)
}
