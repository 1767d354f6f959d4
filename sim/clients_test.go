package sim

import (
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// The shell answers the commands third-party adb clients run (adbkit, mobile-mcp's two
// robots, mobilecli, uiautomator2) with the output and status of a real Android 14 device.
func TestClientShellCommands(t *testing.T) {
	p := newPhone(t)
	tests := []struct {
		line   string
		status int
		want   string // regexp the whole output must match
	}{
		{"pm list features | head -2", 0, `^feature:reqGlEsVersion=0x30000\nfeature:android\.hardware\.audio\.output\n$`},
		{"pm list features | grep -c feature:", 0, `^[3-9][0-9]\n$`},
		{"settings get system user_rotation", 0, `^0\n$`},
		{"settings get system accelerometer_rotation", 0, `^0\n$`},
		{"settings get global window_animation_scale", 0, `^1\.0\n$`},
		{"settings get global animator_duration_scale", 0, `^1\.0\n$`},
		{"settings get secure no_such_key", 0, `^null\n$`},
		{"echo hi > /data/local/tmp/helper.tmp", 0, `^$`},
		{"mv /data/local/tmp/helper.tmp /data/local/tmp/helper.dex", 0, `^$`},
		{"cat /data/local/tmp/helper.dex", 0, `^hi\n$`},
		{"ls /data/local/tmp/helper.tmp", 1, `^ls: /data/local/tmp/helper.tmp: No such file or directory\n$`},
		{"mv /data/local/tmp/none /data/local/tmp/x", 1, `^mv: bad '/data/local/tmp/none': No such file or directory\n$`},
		{"mkdir /data/local/tmp/dir", 0, `^$`},
		{"mv /data/local/tmp/helper.dex /data/local/tmp/dir", 0, `^$`},
		{"ls /data/local/tmp/dir", 0, `^helper.dex\n$`},
		{"ls -l /data/local/tmp", 0, `^total 4\ndrwxrwx--x 2 shell shell 4096 \d{4}-\d\d-\d\d \d\d:\d\d dir\n$`},
		{"ls -l /data/local/tmp/dir", 0, `^total 4\n-rw-rw---- 1 shell shell 3 \d{4}-\d\d-\d\d \d\d:\d\d helper.dex\n$`},
		{"ls -l /system/bin/sh", 0, `^-rwxr-xr-x 1 root shell 330464 2009-01-01 00:00 /system/bin/sh\n$`},
		{"stat -c '%s %a %U:%G %F' /system/bin/sh", 0, `^330464 755 root:shell regular file\n$`},
		{"stat /system/bin/sh", 0, `^  File: '/system/bin/sh'\n  Size: 330464\t Blocks: 648\t IO Blocks: 4096\tregular file\nDevice: [^\n]+\nAccess: \(755/-rwxr-xr-x\)\tUid: \(    0/    root\)\tGid: \( 2000/   shell\)\nAccess: 2009-01-01 00:00:00\.000000000 \+0000\nModify: [^\n]+\nChange: [^\n]+\n$`},
		{"stat /nope", 1, `^stat: '/nope': No such file or directory\n$`},
		{"which sh mv stat ls", 0, `^/system/bin/sh\n/system/bin/mv\n/system/bin/stat\n/system/bin/ls\n$`},
		{"which nosuchtool", 1, `^$`},
		{"cat /proc/version", 0, `^Linux version 6\.1\.\d+-android14[^\n]+\n$`},
		{"grep -c processor /proc/cpuinfo", 0, `^4\n$`},
		{"head -1 /proc/meminfo", 0, `^MemTotal: +\d+ kB\n$`},
		{"head -1 /proc/stat", 0, `^cpu  \d+ \d+ \d+ \d+`},
		{"ps -A | head -2", 0, `^USER +PID +PPID +VSZ +RSS +WCHAN +ADDR S NAME +\nroot +1 +0 `},
		{"content insert --uri content://settings/system --bind name:s:user_rotation --bind value:i:1", 0, `^$`},
		{"settings get system user_rotation", 0, `^1\n$`},
		{"content query --uri content://settings/system --where \"name='user_rotation'\"", 0, `^Row: 0 _id=\d+, name=user_rotation, value=1\n$`},
		{"content insert --uri content://nope/x --bind name:s:a --bind value:s:b", 1, `^Error while accessing provider:nope/x\njava\.lang\.IllegalArgumentException: Unknown URI content://nope/x\n$`},
		// A pushed helper cannot start: the runtime aborts at once (status 134), never a hang;
		// started in the background, the job's start is 0 and the helper never answers.
		{"CLASSPATH=/data/local/tmp/dir/helper.dex app_process / com.example.Main", 134, `^Aborted \n$`},
		{"CLASSPATH=/data/local/tmp/dir/helper.dex nohup app_process / com.example.Main >/dev/null 2>&1 &", 0, `^$`},
		{"app_process", 1, `^Usage: app_process`},
	}
	for _, tt := range tests {
		out, st := sh(t, p, tt.line)
		if st != tt.status || !regexp.MustCompile(tt.want).MatchString(out) {
			t.Errorf("%s\n  status %d, output %q\n  want status %d, output matching %s", tt.line, st, out, tt.status, tt.want)
		}
	}
}

// A sync STAT of the system paths clients probe finds them, as on a device.
func TestSystemPathsStat(t *testing.T) {
	p := newPhone(t)
	for _, path := range []string{"/system/bin/sh", "/system/bin/app_process", "/system/bin/toybox", "/proc/version"} {
		fi, err := p.Stat(path)
		if err != nil {
			t.Errorf("stat %s: %v", path, err)
			continue
		}
		if strings.HasPrefix(path, "/system/bin/") && (fi.Mode.Perm() != 0o755 || fi.Size == 0) {
			t.Errorf("stat %s: mode %v size %d, want an executable", path, fi.Mode, fi.Size)
		}
	}
	list, err := p.ReadDir("/system/bin")
	if err != nil || len(list) < 10 {
		t.Errorf("list /system/bin: %d entries, %v", len(list), err)
	}
}

// The formats added for clients have their real twins in testdata/android-corpus/shell.
func TestClientOutputsMatchCorpus(t *testing.T) {
	p := newPhone(t)
	real, err := os.ReadFile("../testdata/android-corpus/shell/pm-list-features-galaxy-note10-android10-truncated.txt")
	if err != nil {
		t.Fatal(err)
	}
	ours, _ := sh(t, p, "pm list features")
	line := regexp.MustCompile(`^feature:(reqGlEsVersion=0x[0-9a-f]+|[a-z][a-z0-9_.]*(=\d+)?)$`)
	for _, out := range []string{string(real), ours} {
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if !strings.HasPrefix(lines[0], "feature:reqGlEsVersion=0x") || !sort.StringsAreSorted(lines[1:]) {
			t.Errorf("pm list features: want reqGlEsVersion first, then sorted names:\n%s", out)
		}
		for _, l := range lines {
			if !line.MatchString(l) {
				t.Errorf("pm list features line %q", l)
			}
		}
	}
	aborted, err := os.ReadFile("../testdata/android-corpus/shell/app_process-helper-cannot-start-aborted.txt")
	if err != nil {
		t.Fatal(err)
	}
	if out, st := sh(t, p, "CLASSPATH=/data/local/tmp/x.jar app_process / com.example.Server 1.0"); out != string(aborted) || st != 134 {
		t.Errorf("app_process: %q (status %d), want the real device's %q (134)", out, st, aborted)
	}
}
