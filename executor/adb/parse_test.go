package adb

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/fairy-go/fairy/internal/testenv"
)

const corpus = "../../testdata/android-corpus/shell"

func readCorpus(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpus, name))
	if err != nil {
		testenv.Missing(t, "corpus: %v", err)
	}
	return string(b)
}

func TestParseDevices(t *testing.T) {
	tests := []struct {
		file string
		want []DeviceInfo
	}{
		{"adb-devices-empty.txt", nil},
		{"adb-devices-offline.txt", []DeviceInfo{{Serial: "cf264b8f", State: "offline"}}},
		{"adb-devices-3-devices-tab-separated.txt", []DeviceInfo{{Serial: "cf264b8f", State: "device"}, {Serial: "emulator-5554", State: "device"}, {Serial: "10.129.164.6:5555", State: "device"}}},
		{"adb-devices-l-huawei-transport-id.txt", []DeviceInfo{{Serial: "UYT5T18414003349", State: "device", USB: "1114112X", Product: "ALP-AL00", Model: "ALP_AL00", Device: "HWALP", TransportID: "23"}}},
		{"adb-devices-l-nexus7-2015-trailing-space.txt", []DeviceInfo{{Serial: "0a388e93", State: "device", USB: "1-1", Product: "razor", Model: "Nexus_7", Device: "flo"}}},
	}
	for _, tt := range tests {
		if got := parseDevices(readCorpus(t, tt.file)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.file, got, tt.want)
		}
	}
	got := parseDevices("abc\tno permissions (user in plugdev group); see [http://developer.android.com/tools/device.html]\nxyz unauthorized transport_id:3\n")
	if len(got) != 2 || got[0].State != "no permissions (user in plugdev group); see [http://developer.android.com/tools/device.html]" || got[1].State != "unauthorized" || got[1].TransportID != "3" {
		t.Errorf("states: %+v", got)
	}
}

func TestParseForeground(t *testing.T) {
	tests := []struct{ file, pkg, act string }{
		{"dumpsys-activity-activities-grep-ResumedActivity-android12plus.derived.txt", "com.mediatek.camera", "com.mediatek.camera.CameraLauncher"},
		{"dumpsys-activity-mResumedActivity-grep-cm13.txt", "com.cyanogenmod.trebuchet", "com.android.launcher3.Launcher"},
		{"dumpsys-activity-activities-grep-mCurrentFocus.derived.txt", "com.mediatek.camera", "com.mediatek.camera.CameraLauncher"},
		{"dumpsys-window-windows-grep-focus-android8.txt", "com.google.android.apps.photos", "com.google.android.apps.photos.home.HomeActivity"},
		{"dumpsys-window-windows-tail-android4-carunit.txt", "com.example", "com.example.UI.play.PlayActivity"},
		{"dumpsys-activity-activities-mediatek-480x800.txt", "", ""},
		{"dumpsys-window-windows-vivo-utf16le-crlf.txt", "", ""},
	}
	for _, tt := range tests {
		pkg, act, ok := parseForeground(readCorpus(t, tt.file))
		if tt.pkg == "" {
			if !ok || pkg == "" || act == "" {
				t.Errorf("%s: nothing found", tt.file)
			}
			continue
		}
		if pkg != tt.pkg || act != tt.act {
			t.Errorf("%s: %q %q %v, want %q %q", tt.file, pkg, act, ok, tt.pkg, tt.act)
		}
	}
	if _, _, ok := parseForeground(readCorpus(t, "dumpsys-activity-pkg-not-running-error.txt")); ok {
		t.Errorf("error text parsed as a foreground")
	}
}

func TestParseScreenInfo(t *testing.T) {
	out := readCorpus(t, "wm-size-with-override.txt") + sectionMark + readCorpus(t, "wm-density-with-override.txt") + sectionMark + "  mCurrentRotation=ROTATION_90\n"
	si, err := parseScreenInfo(out)
	if err != nil || si != (ScreenInfo{Width: 480, Height: 1024, Density: 160, Rotation: 1, Landscape: true}) {
		t.Errorf("parseScreenInfo = %+v, %v", si, err)
	}
	if _, err := parseScreenInfo("garbage"); err == nil {
		t.Error("no size accepted")
	}
}

func TestLauncherFromDumpsys(t *testing.T) {
	got, ok := launcherFromDumpsys(readCorpus(t, "dumpsys-package-grep-A1-MAIN.derived.txt"), "com.aidestinymaster")
	if !ok || got != "com.aidestinymaster/.app.MainActivity" {
		t.Errorf("launcherFromDumpsys = %q %v", got, ok)
	}
	if c := componentRE.FindStringSubmatch("priority=0 preferredOrder=0\ncom.android.settings/.Settings\n"); c == nil || c[1] != "com.android.settings" {
		t.Errorf("componentRE = %q", c)
	}
}

func TestExtractDump(t *testing.T) {
	tests := []struct{ out, xml, msg string }{
		{`<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"></hierarchy>UI hierchary dumped to: /dev/tty` + "\n", `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"></hierarchy>`, ""},
		{"ERROR: could not get idle state.\n", "", "ERROR: could not get idle state."},
		{"ERROR: null root node returned by UiTestAutomationBridge.\n", "", "ERROR: null root node returned by UiTestAutomationBridge."},
		{"UI hierchary dumped to: /dev/tty\n", "", "UI hierchary dumped to: /dev/tty"},
	}
	for _, tt := range tests {
		xml, msg := extractDump([]byte(tt.out))
		if string(xml) != tt.xml || msg != tt.msg {
			t.Errorf("extractDump(%q) = %q, %q", tt.out, xml, msg)
		}
	}
	if !isDumperError("ERROR: could not get idle state.") || isDumperError("UI hierchary dumped to: /dev/tty") {
		t.Error("isDumperError")
	}
}

func TestCheckPNG(t *testing.T) {
	enc := func(c color.Color) []byte {
		img := image.NewRGBA(image.Rect(0, 0, 108, 240))
		for i := range img.Pix {
			img.Pix[i] = 0xff
		}
		for y := 0; y < 240; y++ {
			for x := 0; x < 108; x++ {
				img.Set(x, y, c)
			}
		}
		var b bytes.Buffer
		_ = png.Encode(&b, img)
		return b.Bytes()
	}
	if black, err := checkPNG(enc(color.Black)); err != nil || !black {
		t.Errorf("black = %v, %v", black, err)
	}
	if black, err := checkPNG(enc(color.White)); err != nil || black {
		t.Errorf("white = %v, %v", black, err)
	}
	good := enc(color.White)
	for _, bad := range [][]byte{nil, []byte("Error: no display"), good[:len(good)/2]} {
		if _, err := checkPNG(bad); err == nil {
			t.Errorf("checkPNG(%d bytes) accepted", len(bad))
		}
	}
}

func TestInputTextArgs(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"a b", []string{"a%sb"}},
		{"100%s", []string{"100%", "s"}},
		{"%%s", []string{"%%", "s"}},
		{"% s", []string{"%%ss"}},
		{"plain", []string{"plain"}},
	}
	for _, tt := range tests {
		if got := inputTextArgs(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("inputTextArgs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestQuoteAndKeys(t *testing.T) {
	if got := join("input", "text", "it's $(x)"); got != `input text 'it'\''s $(x)'` {
		t.Errorf("Join = %s", got)
	}
	for k, want := range map[string]string{"back": "4", "ENTER": "66", "KEYCODE_home": "KEYCODE_HOME", "187": "187"} {
		if got, err := keyCode(k); err != nil || got != want {
			t.Errorf("KeyCode(%q) = %q, %v", k, got, err)
		}
	}
	names := KeyNames()
	if len(names) < 20 || !slices.IsSorted(names) || !slices.Contains(names, "back") || !slices.Contains(names, "app_switch") {
		t.Errorf("KeyNames = %v", names)
	}
	for _, k := range names {
		if _, err := keyCode(k); err != nil {
			t.Errorf("KeyNames lists %q, which KeyCode refuses: %v", k, err)
		}
	}
}
