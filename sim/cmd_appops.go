package sim

import (
	"slices"
	"strconv"
	"strings"
)

// appops: the app-op modes a package runs under (AppOpsService's shell command: set, get,
// reset). Appium's driver sets PROJECT_MEDIA for its settings helper before it records
// the screen. The phone keeps the modes and prints them back; nothing else reads them.

// appOpNames are AppOpsManager's op names (Android 14), in op-code order: an op is named by
// its name, its android:… public name or its code.
var appOpNames = strings.Fields(`COARSE_LOCATION FINE_LOCATION GPS VIBRATE READ_CONTACTS WRITE_CONTACTS
READ_CALL_LOG WRITE_CALL_LOG READ_CALENDAR WRITE_CALENDAR WIFI_SCAN POST_NOTIFICATION NEIGHBORING_CELLS
CALL_PHONE READ_SMS WRITE_SMS RECEIVE_SMS RECEIVE_EMERGECY_SMS RECEIVE_MMS RECEIVE_WAP_PUSH SEND_SMS
READ_ICC_SMS WRITE_ICC_SMS WRITE_SETTINGS SYSTEM_ALERT_WINDOW ACCESS_NOTIFICATIONS CAMERA RECORD_AUDIO
PLAY_AUDIO READ_CLIPBOARD WRITE_CLIPBOARD TAKE_MEDIA_BUTTONS TAKE_AUDIO_FOCUS AUDIO_MASTER_VOLUME
AUDIO_VOICE_VOLUME AUDIO_RING_VOLUME AUDIO_MEDIA_VOLUME AUDIO_ALARM_VOLUME AUDIO_NOTIFICATION_VOLUME
AUDIO_BLUETOOTH_VOLUME WAKE_LOCK MONITOR_LOCATION MONITOR_HIGH_POWER_LOCATION GET_USAGE_STATS
MUTE_MICROPHONE TOAST_WINDOW PROJECT_MEDIA ACTIVATE_VPN WRITE_WALLPAPER ASSIST_STRUCTURE
ASSIST_SCREENSHOT READ_PHONE_STATE ADD_VOICEMAIL USE_SIP PROCESS_OUTGOING_CALLS USE_FINGERPRINT
BODY_SENSORS READ_CELL_BROADCASTS MOCK_LOCATION READ_EXTERNAL_STORAGE WRITE_EXTERNAL_STORAGE
TURN_SCREEN_ON GET_ACCOUNTS RUN_IN_BACKGROUND AUDIO_ACCESSIBILITY_VOLUME READ_PHONE_NUMBERS
REQUEST_INSTALL_PACKAGES PICTURE_IN_PICTURE INSTANT_APP_START_FOREGROUND ANSWER_PHONE_CALLS
RUN_ANY_IN_BACKGROUND CHANGE_WIFI_STATE REQUEST_DELETE_PACKAGES BIND_ACCESSIBILITY_SERVICE
ACCEPT_HANDOVER MANAGE_IPSEC_TUNNELS START_FOREGROUND BLUETOOTH_SCAN USE_BIOMETRIC
ACTIVITY_RECOGNITION SMS_FINANCIAL_TRANSACTIONS READ_MEDIA_AUDIO WRITE_MEDIA_AUDIO READ_MEDIA_VIDEO
WRITE_MEDIA_VIDEO READ_MEDIA_IMAGES WRITE_MEDIA_IMAGES LEGACY_STORAGE ACCESS_ACCESSIBILITY
READ_DEVICE_IDENTIFIERS ACCESS_MEDIA_LOCATION QUERY_ALL_PACKAGES MANAGE_EXTERNAL_STORAGE
INTERACT_ACROSS_PROFILES ACTIVATE_PLATFORM_VPN LOADER_USAGE_STATS deprecated
AUTO_REVOKE_PERMISSIONS_IF_UNUSED AUTO_REVOKE_MANAGED_BY_INSTALLER NO_ISOLATED_STORAGE
PHONE_CALL_MICROPHONE PHONE_CALL_CAMERA RECORD_AUDIO_HOTWORD MANAGE_ONGOING_CALLS MANAGE_CREDENTIALS
USE_ICC_AUTH_WITH_DEVICE_IDENTIFIER RECORD_AUDIO_OUTPUT SCHEDULE_EXACT_ALARM FINE_LOCATION_SOURCE
COARSE_LOCATION_SOURCE MANAGE_MEDIA BLUETOOTH_CONNECT UWB_RANGING ACTIVITY_RECOGNITION_SOURCE
BLUETOOTH_ADVERTISE RECORD_INCOMING_PHONE_AUDIO NEARBY_WIFI_DEVICES ESTABLISH_VPN_SERVICE
ESTABLISH_VPN_MANAGER ACCESS_RESTRICTED_SETTINGS RECEIVE_SOUNDTRIGGER_AUDIO`)

var appOpModes = []string{"allow", "ignore", "deny", "default", "foreground"}

// appOp resolves an op argument to its name.
func appOp(arg string) (string, bool) {
	if n, err := strconv.Atoi(arg); err == nil {
		if n >= 0 && n < len(appOpNames) && appOpNames[n] != "deprecated" {
			return appOpNames[n], true
		}
		return "", false
	}
	name := strings.ToUpper(strings.TrimPrefix(arg, "android:"))
	if slices.Contains(appOpNames, name) && name != "DEPRECATED" {
		return name, true
	}
	return "", false
}

// packageKnown is whether pkg is installed (built in, system or over adb).
func (p *Phone) packageKnown(pkg string) bool {
	return slices.ContainsFunc(p.packageList(), func(e struct {
		pkg    string
		system bool
	}) bool {
		return e.pkg == pkg
	})
}

func cmdAppops(p *Phone, c *cmdIO) int {
	usage := func() int {
		c.printf("AppOps service (appops) commands:\n  help\n    Print this help text.\n" +
			"  start [--user <USER_ID>] [--attribution <ATTRIBUTION_TAG>] <PACKAGE | UID> <OP> \n" +
			"  stop [--user <USER_ID>] [--attribution <ATTRIBUTION_TAG>] <PACKAGE | UID> <OP> \n" +
			"  set [--user <USER_ID>] <[--uid] PACKAGE | UID> <OP> <MODE>\n  get [--user <USER_ID>] [--attribution " +
			"<ATTRIBUTION_TAG>] <PACKAGE | UID> [<OP>]\n  query-op [--user <USER_ID>] <OP> [<MODE>]\n" +
			"  reset [--user <USER_ID>] [<PACKAGE>]\n")
		return 0
	}
	if len(c.args) < 2 {
		return usage()
	}
	var ops []string
	for i := 2; i < len(c.args); i++ {
		switch a := c.args[i]; a {
		case "--user", "--attribution":
			i++
		case "--uid":
		default:
			ops = append(ops, a)
		}
	}
	p.pkgs.init()
	noUID := func(pkg string) int {
		c.errorf("Error: No UID for %s in user 0\n", pkg)
		return 255
	}
	switch c.args[1] {
	case "help":
		return usage()
	case "set":
		if len(ops) < 3 {
			c.errorf("Error: Mode not specified.\n")
			return 255
		}
		op, ok := appOp(ops[1])
		if !ok {
			c.errorf("Error: Unknown operation string: %s\n", ops[1])
			return 255
		}
		mode := ops[2]
		if !slices.Contains(appOpModes, mode) {
			if n, err := strconv.Atoi(mode); err != nil || n < 0 || n >= len(appOpModes) {
				c.errorf("Error: Mode %s is not valid\n", mode)
				return 255
			} else {
				mode = appOpModes[n]
			}
		}
		if !p.packageKnown(ops[0]) {
			return noUID(ops[0])
		}
		if p.pkgs.appOps[ops[0]] == nil {
			p.pkgs.appOps[ops[0]] = map[string]string{}
		}
		p.pkgs.appOps[ops[0]][op] = mode
		return 0
	case "get":
		if len(ops) < 1 {
			c.errorf("Error: Package name not specified.\n")
			return 255
		}
		if !p.packageKnown(ops[0]) {
			return noUID(ops[0])
		}
		set := p.pkgs.appOps[ops[0]]
		if len(ops) > 1 {
			op, ok := appOp(ops[1])
			if !ok {
				c.errorf("Error: Unknown operation string: %s\n", ops[1])
				return 255
			}
			mode, ok := set[op]
			if !ok {
				c.printf("%s: default\n", op)
				return 0
			}
			c.printf("%s: %s\n", op, mode)
			return 0
		}
		if len(set) == 0 {
			c.printf("No operations.\n")
			return 0
		}
		for _, op := range appOpNames {
			if mode, ok := set[op]; ok {
				c.printf("%s: %s\n", op, mode)
			}
		}
		return 0
	case "reset":
		if len(ops) > 0 {
			delete(p.pkgs.appOps, ops[0])
		} else {
			clear(p.pkgs.appOps)
		}
		return 0
	case "query-op":
		if len(ops) < 1 {
			c.errorf("Error: Operation not specified.\n")
			return 255
		}
		op, ok := appOp(ops[0])
		if !ok {
			c.errorf("Error: Unknown operation string: %s\n", ops[0])
			return 255
		}
		want := "allow"
		if len(ops) > 1 {
			want = ops[1]
		}
		var pkgs []string
		for pkg, set := range p.pkgs.appOps {
			if set[op] == want {
				pkgs = append(pkgs, pkg)
			}
		}
		if len(pkgs) == 0 {
			c.printf("No operations.\n")
			return 0
		}
		slices.Sort(pkgs)
		for _, pkg := range pkgs {
			c.printf("%s\n", pkg)
		}
		return 0
	case "start", "stop", "write-settings", "read-settings":
		return 0
	}
	c.errorf("Unknown command: %s\n", c.args[1])
	return 255
}
