package sim

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"io/fs"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// manifestAttr is one attribute of a test manifest element: a string, or an int (typed).
type manifestAttr struct {
	name  string
	str   string
	value int
	isInt bool
}

type manifestElem struct {
	name  string
	attrs []manifestAttr
}

// buildAPK writes a zip holding a binary AndroidManifest.xml of elems (AOSP's
// ResourceTypes.h chunks: a UTF-8 string pool, then one start-element chunk each).
func buildAPK(t *testing.T, elems ...manifestElem) []byte {
	t.Helper()
	le := binary.LittleEndian
	var pool []string
	idx := func(s string) uint32 {
		if i := slices.Index(pool, s); i >= 0 {
			return uint32(i)
		}
		pool = append(pool, s)
		return uint32(len(pool) - 1)
	}
	var body []byte
	for _, e := range elems {
		var attrs []byte
		for _, a := range e.attrs {
			var b [20]byte
			le.PutUint32(b[0:], 0xffffffff)
			le.PutUint32(b[4:], idx(a.name))
			le.PutUint16(b[12:], 8)
			if a.isInt {
				le.PutUint32(b[8:], 0xffffffff)
				b[15] = 0x10
				le.PutUint32(b[16:], uint32(a.value))
			} else {
				s := idx(a.str)
				le.PutUint32(b[8:], s)
				b[15] = 0x03
				le.PutUint32(b[16:], s)
			}
			attrs = append(attrs, b[:]...)
		}
		chunk := make([]byte, 36, 36+len(attrs))
		le.PutUint16(chunk[0:], 0x0102)
		le.PutUint16(chunk[2:], 16)
		le.PutUint32(chunk[4:], uint32(36+len(attrs)))
		le.PutUint32(chunk[16:], 0xffffffff)
		le.PutUint32(chunk[20:], idx(e.name))
		le.PutUint16(chunk[24:], 20)
		le.PutUint16(chunk[26:], 20)
		le.PutUint16(chunk[28:], uint16(len(e.attrs)))
		body = append(body, append(chunk, attrs...)...)
	}
	var strs []byte
	offsets := make([]byte, 4*len(pool))
	for i, s := range pool {
		le.PutUint32(offsets[4*i:], uint32(len(strs)))
		strs = append(strs, byte(len(s)), byte(len(s)))
		strs = append(strs, s...)
		strs = append(strs, 0)
	}
	for len(strs)%4 != 0 {
		strs = append(strs, 0)
	}
	sp := make([]byte, 28)
	le.PutUint16(sp[0:], 0x0001)
	le.PutUint16(sp[2:], 28)
	le.PutUint32(sp[4:], uint32(28+len(offsets)+len(strs)))
	le.PutUint32(sp[8:], uint32(len(pool)))
	le.PutUint32(sp[16:], 1<<8)
	le.PutUint32(sp[20:], uint32(28+len(offsets)))
	sp = append(append(sp, offsets...), strs...)
	doc := make([]byte, 8)
	le.PutUint16(doc[0:], 0x0003)
	le.PutUint16(doc[2:], 8)
	doc = append(append(doc, sp...), body...)
	le.PutUint32(doc[4:], uint32(len(doc)))

	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	w, err := zw.Create("AndroidManifest.xml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(doc); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return zb.Bytes()
}

func testAPK(t *testing.T, pkg string, versionCode int, versionName string) []byte {
	return buildAPK(t,
		manifestElem{"manifest", []manifestAttr{{name: "versionCode", value: versionCode, isInt: true}, {name: "versionName", str: versionName}, {name: "package", str: pkg}}},
		manifestElem{"uses-sdk", []manifestAttr{{name: "minSdkVersion", value: 24, isInt: true}, {name: "targetSdkVersion", value: 34, isInt: true}}},
		manifestElem{"uses-permission", []manifestAttr{{name: "name", str: "android.permission.INTERNET"}}},
		manifestElem{"uses-permission", []manifestAttr{{name: "name", str: "android.permission.CAMERA"}}},
		manifestElem{"instrumentation", []manifestAttr{{name: "name", str: "androidx.test.runner.AndroidJUnitRunner"}, {name: "targetPackage", str: pkg}}},
	)
}

// TestReadAPK reads what pm needs from a binary manifest: package, versions, SDKs,
// permissions and the instrumentation runner.
func TestReadAPK(t *testing.T) {
	info, err := readAPK(testAPK(t, "org.example.notes", 42, "4.2.0"))
	if err != nil {
		t.Fatal(err)
	}
	if info.pkg != "org.example.notes" || info.versionCode != 42 || info.versionName != "4.2.0" || info.minSdk != 24 || info.targetSdk != 34 {
		t.Errorf("manifest read as %+v", info)
	}
	if !slices.Equal(info.permissions, []string{"android.permission.INTERNET", "android.permission.CAMERA"}) {
		t.Errorf("permissions %q", info.permissions)
	}
	if len(info.instrumentations) != 1 || info.instrumentations[0] != (apkInstrumentation{"androidx.test.runner.AndroidJUnitRunner", "org.example.notes"}) {
		t.Errorf("instrumentations %+v", info.instrumentations)
	}
	if _, err := readAPK([]byte("PK\x03\x04 not really")); err == nil {
		t.Error("a broken zip parsed")
	}
}

// TestPmInstall installs an APK by path, from standard input (-S, as adb install streams
// it) and through an install session; lists it with its version; grants; refuses what a
// phone refuses with pm's reasons; uninstalls it.
func TestPmInstall(t *testing.T) {
	p := newPhone(t)
	apk := testAPK(t, "org.example.notes", 42, "4.2.0")
	if err := p.WriteFile("/data/local/tmp/notes.apk", apk, 0o644, fixedNow); err != nil {
		t.Fatal(err)
	}
	if out, st := sh(t, p, "pm install -r -g /data/local/tmp/notes.apk"); st != 0 || out != "Success\n" {
		t.Fatalf("pm install FILE: %d %q", st, out)
	}
	if out, _ := sh(t, p, "pm list packages -3 --show-versioncode org.example"); out != "package:org.example.notes versionCode:42\n" {
		t.Errorf("pm list packages: %q", out)
	}
	dump, _ := sh(t, p, "dumpsys package org.example.notes")
	for _, want := range []string{"versionCode=42 minSdk=24 targetSdk=34", "versionName=4.2.0", "android.permission.INTERNET: granted=true", "android.permission.CAMERA: granted=true"} {
		if !strings.Contains(dump, want) {
			t.Errorf("dumpsys package lacks %q:\n%s", want, dump)
		}
	}
	if out, _ := sh(t, p, "pm list instrumentation"); out != "instrumentation:org.example.notes/androidx.test.runner.AndroidJUnitRunner (target=org.example.notes)\n" {
		t.Errorf("pm list instrumentation: %q", out)
	}
	if out, st := sh(t, p, "pm revoke org.example.notes android.permission.CAMERA"); st != 0 {
		t.Errorf("pm revoke: %d %q", st, out)
	}
	if dump, _ := sh(t, p, "dumpsys package org.example.notes"); !strings.Contains(dump, "android.permission.CAMERA: granted=false") {
		t.Errorf("CAMERA still granted after pm revoke:\n%s", dump)
	}

	// Standard input: a newer version, piped (adb install streams it the same way).
	v2 := testAPK(t, "org.example.notes", 43, "4.3.0")
	if err := p.WriteFile("/data/local/tmp/v2.apk", v2, 0o644, fixedNow); err != nil {
		t.Fatal(err)
	}
	if out, st := sh(t, p, fmt.Sprintf("cat /data/local/tmp/v2.apk | cmd package install -S %d", len(v2))); st != 0 || out != "Success\n" {
		t.Fatalf("cmd package install -S: %d %q", st, out)
	}
	if out, _ := sh(t, p, "pm list packages --show-versioncode org.example.notes"); !strings.Contains(out, "versionCode:43") {
		t.Errorf("after the update: %q", out)
	}
	if out, st := sh(t, p, fmt.Sprintf("cat /data/local/tmp/v2.apk | pm install -S %d", len(v2)+10)); st != 1 || !strings.Contains(out, fmt.Sprintf("%d of %d bytes", len(v2), len(v2)+10)) {
		t.Errorf("a short stream: %d %q", st, out)
	}
	if out, st := sh(t, p, "pm install /data/local/tmp/notes.apk"); st != 1 || !strings.Contains(out, "INSTALL_FAILED_VERSION_DOWNGRADE") {
		t.Errorf("a downgrade: %d %q", st, out)
	}

	// A session: create, write from stdin, commit.
	out, _ := sh(t, p, "pm install-create -r")
	var id int
	if _, err := fmt.Sscanf(out, "Success: created install session [%d]", &id); err != nil {
		t.Fatalf("install-create: %q", out)
	}
	sess := testAPK(t, "org.example.maps", 7, "0.7")
	if err := p.WriteFile("/data/local/tmp/maps.apk", sess, 0o644, fixedNow); err != nil {
		t.Fatal(err)
	}
	if out, st := sh(t, p, fmt.Sprintf("cat /data/local/tmp/maps.apk | pm install-write -S %d %d base.apk -", len(sess), id)); st != 0 || !strings.HasPrefix(out, "Success: streamed") {
		t.Fatalf("install-write: %d %q", st, out)
	}
	if out, st := sh(t, p, fmt.Sprintf("pm install-commit %d", id)); st != 0 || out != "Success\n" {
		t.Fatalf("install-commit: %d %q", st, out)
	}
	if out, _ := sh(t, p, "pm list packages -3"); !strings.Contains(out, "package:org.example.maps\n") {
		t.Errorf("the session's package is not listed: %q", out)
	}
	if out, st := sh(t, p, fmt.Sprintf("pm install-commit %d", id)); st == 0 || !strings.Contains(out, "Unable to open session") {
		t.Errorf("a committed session committed again: %d %q", st, out)
	}

	// What a phone refuses.
	for name, data := range map[string][]byte{
		"text.apk":  []byte("just text\n"),
		"bad.apk":   testAPK(t, "../../x.pkg", 1, "1"),
		"shell.apk": testAPK(t, "com.android.settings", 1, "1"),
	} {
		if err := p.WriteFile("/data/local/tmp/"+name, data, fs.FileMode(0o644), fixedNow); err != nil {
			t.Fatal(err)
		}
		out, st := sh(t, p, "pm install /data/local/tmp/"+name)
		want := map[string]string{"text.apk": "INSTALL_PARSE_FAILED_NOT_APK", "bad.apk": "INSTALL_PARSE_FAILED_BAD_PACKAGE_NAME", "shell.apk": "INSTALL_FAILED_UPDATE_INCOMPATIBLE"}[name]
		if st != 1 || !strings.HasPrefix(out, "Failure ["+want) {
			t.Errorf("pm install %s: %d %q, want Failure [%s", name, st, out, want)
		}
	}

	if out, st := sh(t, p, "pm uninstall org.example.notes"); st != 0 || out != "Success\n" {
		t.Errorf("pm uninstall: %d %q", st, out)
	}
	if out, _ := sh(t, p, "pm list packages org.example.notes"); out != "" {
		t.Errorf("listed after uninstall: %q", out)
	}
}

// TestAppops keeps an app op's mode per package as AppOpsService's shell command does.
func TestAppops(t *testing.T) {
	p := newPhone(t)
	if out, st := sh(t, p, "appops set com.android.settings PROJECT_MEDIA allow"); st != 0 || out != "" {
		t.Fatalf("appops set: %d %q", st, out)
	}
	if out, st := sh(t, p, "appops set com.android.settings android:mock_location 1"); st != 0 || out != "" {
		t.Fatalf("appops set android:mock_location: %d %q", st, out)
	}
	if out, _ := sh(t, p, "appops get com.android.settings"); out != "MOCK_LOCATION: ignore\nPROJECT_MEDIA: allow\n" && out != "PROJECT_MEDIA: allow\nMOCK_LOCATION: ignore\n" {
		t.Errorf("appops get: %q", out)
	}
	if out, _ := sh(t, p, "cmd appops get com.android.settings PROJECT_MEDIA"); out != "PROJECT_MEDIA: allow\n" {
		t.Errorf("cmd appops get OP: %q", out)
	}
	if out, st := sh(t, p, "appops set com.android.settings NO_SUCH_OP allow"); st != 255 || !strings.Contains(out, "Unknown operation string: NO_SUCH_OP") {
		t.Errorf("unknown op: %d %q", st, out)
	}
	if out, st := sh(t, p, "appops set org.nowhere CAMERA allow"); st != 255 || !strings.Contains(out, "No UID for org.nowhere") {
		t.Errorf("unknown package: %d %q", st, out)
	}
	sh(t, p, "appops reset com.android.settings")
	if out, _ := sh(t, p, "appops get com.android.settings"); out != "No operations.\n" {
		t.Errorf("after reset: %q", out)
	}
}

// TestInstalledAppStart: starting an app installed over adb says the phone cannot run it,
// rather than that it does not exist.
func TestInstalledAppStart(t *testing.T) {
	p := newPhone(t)
	if err := p.WriteFile("/data/local/tmp/notes.apk", testAPK(t, "org.example.notes", 1, "1.0"), 0o644, fixedNow); err != nil {
		t.Fatal(err)
	}
	if out, st := sh(t, p, "pm install /data/local/tmp/notes.apk"); st != 0 {
		t.Fatalf("pm install: %d %q", st, out)
	}
	out, st := sh(t, p, "am start -n org.example.notes/.MainActivity")
	if st != 1 || !strings.Contains(out, "runs no code of org.example.notes (installed over adb)") {
		t.Errorf("am start of an installed app: %d %q", st, out)
	}
}

// TestPmClear: pm clear gives an app back the data it was installed with, including what
// survives a force-stop (Maps' answered location permission).
func TestPmClear(t *testing.T) {
	p := newPhone(t)
	launch(t, p, "com.fairy.maps")
	tap(t, p, "While using the app")
	sh(t, p, "am force-stop com.fairy.maps")
	launch(t, p, "com.fairy.maps")
	if has(t, p, "While using the app") {
		t.Fatal("the answered permission did not survive a force-stop")
	}
	if out, st := sh(t, p, "pm clear com.fairy.maps"); st != 0 || out != "Success\n" {
		t.Fatalf("pm clear: %d %q", st, out)
	}
	launch(t, p, "com.fairy.maps")
	if !has(t, p, "While using the app") {
		t.Error("after pm clear Maps does not ask for the location again")
	}
	if out, st := sh(t, p, "pm clear org.nowhere"); st != 1 || out != "Failed\n" {
		t.Errorf("pm clear of a missing package: %d %q", st, out)
	}
}

// TestStreamedSizeNotPreallocated: `cmd package install -S N` followed by a few bytes
// takes memory for the bytes that came, not for the N announced (a client may announce
// 256 MB from many shells and send nothing).
func TestStreamedSizeNotPreallocated(t *testing.T) {
	c := &cmdIO{stream: strings.NewReader("PK\x03\x04 ten")}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	c.readStreamed([]string{"pm", "install", "-S", strconv.Itoa(maxAPK)})
	runtime.ReadMemStats(&after)
	if c.streamErr == nil || !strings.Contains(c.streamErr.Error(), fmt.Sprintf("ended after 8 of %d bytes", maxAPK)) {
		t.Errorf("a short stream: %v", c.streamErr)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 4<<20 {
		t.Errorf("announcing %d bytes and sending 8 allocated %d bytes", maxAPK, grew)
	}
	c = &cmdIO{stream: strings.NewReader("abc")}
	c.readStreamed([]string{"pm", "install", "-S", "3"})
	if c.streamErr != nil || string(c.stdin) != "abc" {
		t.Errorf("a whole stream: %q %v", c.stdin, c.streamErr)
	}
}

// TestReadAPKRefusesBombs: an APK of many AndroidManifest.xml entries, or of one that
// inflates past the bound, is refused without inflating them all.
func TestReadAPKRefusesBombs(t *testing.T) {
	one := testAPK(t, "org.example.notes", 1, "1")
	zr, err := zip.NewReader(bytes.NewReader(one), int64(len(one)))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := zr.File[0].Open()
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := io.ReadAll(rc)
	write := func(entries ...[]byte) []byte {
		var zb bytes.Buffer
		zw := zip.NewWriter(&zb)
		for _, e := range entries {
			w, err := zw.Create("AndroidManifest.xml")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.Write(e); err != nil {
				t.Fatal(err)
			}
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		return zb.Bytes()
	}
	for name, apk := range map[string][]byte{
		"two manifests": write(doc, doc),
		"a 9 MiB one":   write(append(slices.Clone(doc), make([]byte, 9<<20)...)),
	} {
		if _, err := readAPK(apk); err == nil {
			t.Errorf("%s: read", name)
		} else if !strings.Contains(err.Error(), "AndroidManifest.xml") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestInstallSessionsBounded: sessions that are never committed hold their APKs in the
// phone's memory; their number and their bytes are bounded, with pm's way of saying so.
func TestInstallSessionsBounded(t *testing.T) {
	p := newPhone(t)
	for i := range maxSessions {
		if out, st := sh(t, p, "pm install-create"); st != 0 {
			t.Fatalf("session %d: %d %q", i, st, out)
		}
	}
	if out, st := sh(t, p, "pm install-create"); st == 0 || !strings.Contains(out, "Too many active sessions") {
		t.Errorf("session %d: %d %q", maxSessions+1, st, out)
	}

	p = newPhone(t)
	big := make([]byte, 200<<20)
	if err := p.WriteFile("/data/local/tmp/big.apk", big, 0o644, fixedNow); err != nil {
		t.Fatal(err)
	}
	big = nil
	refused := false
	for i := range 8 {
		out, _ := sh(t, p, "pm install-create")
		var id int
		if _, err := fmt.Sscanf(out, "Success: created install session [%d]", &id); err != nil {
			t.Fatalf("install-create: %q", out)
		}
		out, st := sh(t, p, fmt.Sprintf("pm install-write %d base.apk /data/local/tmp/big.apk", id))
		if st != 0 {
			if !strings.Contains(out, "not enough space") || i != 5 {
				t.Errorf("write %d: %d %q", i, st, out)
			}
			refused = true
			break
		}
	}
	if !refused {
		t.Error("8 sessions of 200 MiB each held in memory")
	}
}
