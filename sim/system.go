package sim

import (
	"fmt"
	"io/fs"
	"strings"
	"time"
)

// deviceFeatures are what `pm list features` prints (after "feature:"), in its order: the
// list of an sdk_gphone64_x86_64 emulator image of Android 13/14 (reqGlEsVersion first, then
// sorted), trimmed of vendor-only entries. Clients read it to tell a phone from a TV
// (android.software.leanback, android.hardware.type.television: absent here).
var deviceFeatures = []string{
	"reqGlEsVersion=0x30000",
	"android.hardware.audio.output",
	"android.hardware.bluetooth",
	"android.hardware.bluetooth_le",
	"android.hardware.camera",
	"android.hardware.camera.any",
	"android.hardware.camera.autofocus",
	"android.hardware.camera.front",
	"android.hardware.faketouch",
	"android.hardware.fingerprint",
	"android.hardware.location",
	"android.hardware.location.gps",
	"android.hardware.location.network",
	"android.hardware.microphone",
	"android.hardware.ram.normal",
	"android.hardware.screen.landscape",
	"android.hardware.screen.portrait",
	"android.hardware.sensor.accelerometer",
	"android.hardware.sensor.compass",
	"android.hardware.sensor.gyroscope",
	"android.hardware.sensor.light",
	"android.hardware.sensor.proximity",
	"android.hardware.telephony",
	"android.hardware.telephony.gsm",
	"android.hardware.touchscreen",
	"android.hardware.touchscreen.multitouch",
	"android.hardware.touchscreen.multitouch.distinct",
	"android.hardware.touchscreen.multitouch.jazzhand",
	"android.hardware.vulkan.compute",
	"android.hardware.vulkan.level=1",
	"android.hardware.vulkan.version=4198400",
	"android.hardware.wifi",
	"android.hardware.wifi.direct",
	"android.software.activities_on_secondary_displays",
	"android.software.app_widgets",
	"android.software.autofill",
	"android.software.backup",
	"android.software.cant_save_state",
	"android.software.companion_device_setup",
	"android.software.cts",
	"android.software.device_admin",
	"android.software.file_based_encryption",
	"android.software.home_screen",
	"android.software.input_methods",
	"android.software.live_wallpaper",
	"android.software.managed_users",
	"android.software.midi",
	"android.software.picture_in_picture",
	"android.software.print",
	"android.software.secure_lock_screen",
	"android.software.verified_boot",
	"android.software.voice_recognizers",
	"android.software.webview",
}

// systemFiles are the files of /system and /proc that clients stat, list or read: the
// shell and the binaries they look up with `which` or a sync STAT (adbkit, mobilecli), and
// the /proc files read for CPU, memory and kernel facts.
func systemFiles() map[string]string {
	files := map[string]string{
		"/proc/version": "Linux version 6.1.23-android14-4-00257-g7e35917775b8-ab9964412 " +
			"(build-user@build-host) (Android (9796371, based on r487747) clang version 17.0.0) #1 SMP PREEMPT Mon Apr 17 " +
			"20:50:58 UTC 2023\n",
		"/proc/loadavg": "0.84 0.61 0.52 2/1472 5012\n",
		"/proc/meminfo": "MemTotal:        2017504 kB\nMemFree:          155732 kB\n" +
			"MemAvailable:     895720 kB\nBuffers:            5480 kB\nCached:           815968 kB\n" +
			"SwapCached:         5112 kB\nActive:           556212 kB\nInactive:         856508 kB\n" +
			"SwapTotal:       1512124 kB\nSwapFree:        1402876 kB\n",
		"/proc/sys/kernel/osrelease": "6.1.23-android14-4-00257-g7e35917775b8-ab9964412\n",
	}
	var cpu strings.Builder
	for i := range 4 {
		if i > 0 {
			cpu.WriteString("\n")
		}
		cpu.WriteString("processor\t: " + string(rune('0'+i)) + "\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n" +
			"model\t\t: 85\nmodel name\t: Intel(R) Xeon(R) CPU @ 2.20GHz\ncpu MHz\t\t: 2199.998\ncache size\t: 39424 KB\n" +
			"flags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ss " +
			"ht syscall nx pdpe1gb rdtscp lm constant_tsc\nbogomips\t: 4399.99\n")
	}
	files["/proc/cpuinfo"] = cpu.String()
	return files
}

// systemBinaries are the /system/bin files a client may stat (a sync STAT of /system/bin/sh
// is how some clients probe a device) with their sizes on an Android 14 x86_64 image.
var systemBinaries = map[string]int{
	"sh": 330464, "toybox": 1143384, "app_process64": 30080, "uiautomator": 301, "screencap": 31464,
	"input": 198, "am": 195, "pm": 195, "monkey": 212, "settings": 204, "cmd": 14840, "dumpsys": 48984,
	"wm": 195, "getprop": 18936, "ime": 197, "content": 207,
}

// seedSystem adds the system files and /proc to a fresh file system; clock drives the
// counters of /proc/stat and /proc/uptime, which clients sample (adbkit's openProcStat).
func seedSystem(m *memFS, now time.Time, clock func() time.Time) {
	boot := now.Add(-time.Hour).Truncate(time.Minute)
	m.files["/proc/uptime"] = &memFile{mode: 0o444, mtime: boot, gen: func() []byte {
		up := clock().Sub(boot).Seconds()
		return []byte(fmt.Sprintf("%.2f %.2f\n", up, up*3.7))
	}}
	m.files["/proc/stat"] = &memFile{mode: 0o444, mtime: boot, gen: func() []byte { return procStat(clock().Sub(boot)) }}
	for _, d := range []string{"/proc", "/proc/sys", "/proc/sys/kernel", "/system/etc", "/vendor", "/apex", "/product"} {
		m.files[d] = &memFile{dir: true, mode: fs.ModeDir | 0o755, mtime: boot}
	}
	m.files["/system"].mode = fs.ModeDir | 0o755
	m.files["/system/bin"].mode = fs.ModeDir | 0o751
	for name, size := range systemBinaries {
		m.files["/system/bin/"+name] = &memFile{data: make([]byte, size), mode: 0o755, mtime: time.Date(2009, 1, 1, 0, 0,
			0, 0, time.UTC)}
	}
	m.files["/system/bin/app_process"] = m.files["/system/bin/app_process64"]
	for p, text := range systemFiles() {
		m.files[p] = &memFile{data: []byte(text), mode: 0o444, mtime: boot}
	}
}

// procStat renders /proc/stat after up of uptime on four CPUs at 100 ticks a second: a
// phone idling at about 6% load (user 3%, nice 0.3%, system 2.5%, iowait 0.2%).
func procStat(up time.Duration) []byte {
	ticks := int64(up / (10 * time.Millisecond))
	line := func(name string, t int64) string {
		user, nice, sys, iowait, irq := t*30/1000, t*3/1000, t*25/1000, t*2/1000, t*1/1000
		idle := t - user - nice - sys - iowait - irq
		return fmt.Sprintf("%s %d %d %d %d %d 0 %d 0 0 0\n", name, user, nice, sys, idle, iowait, irq)
	}
	var b strings.Builder
	b.WriteString(strings.Replace(line("cpu", 4*ticks), "cpu ", "cpu  ", 1))
	for i := range 4 {
		b.WriteString(line(fmt.Sprintf("cpu%d", i), ticks))
	}
	fmt.Fprintf(&b, "intr %d 0 9 0 0 0 0 3 0 1 0 0 0 0 0 0 0\nctxt %d\nbtime %d\nprocesses %d\nprocs_running 2\n"+
		"procs_blocked 0\nsoftirq %d 2 %d 3 5617 0 0 1181 229487 0 201651\n",
		ticks*3, ticks*6, 1700000000, 5000+ticks/100, ticks*2, ticks/2)
	return []byte(b.String())
}
