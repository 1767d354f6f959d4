package sim

import (
	"strings"
	"testing"
)

func TestAmStartAndForeground(t *testing.T) {
	p := newPhone(t)
	out, st := sh(t, p, "am start -n com.android.settings/.Settings")
	if st != 0 || out != "Starting: Intent { cmp=com.android.settings/.Settings }\n" {
		t.Fatalf("am start: %d %q", st, out)
	}
	if pkg, act := p.Foreground(); pkg != "com.android.settings" || act != ".Settings" {
		t.Fatalf("foreground %s %s", pkg, act)
	}
	out, _ = sh(t, p, "am start -n com.android.settings/.Settings")
	if !strings.Contains(out, "Warning: Activity not started, its current task has been brought to the front") {
		t.Fatalf("second am start: %q", out)
	}
	out, _ = sh(t, p, "dumpsys activity activities | grep mResumedActivity")
	if !strings.Contains(out, "u0 com.android.settings/.Settings} t") {
		t.Fatalf("mResumedActivity: %q", out)
	}
	sh(t, p, "am force-stop com.android.settings")
	if pkg, _ := p.Foreground(); pkg != "com.android.launcher3" {
		t.Fatalf("after force-stop foreground is %s", pkg)
	}
	// an inner activity
	sh(t, p, "am start -n com.android.settings/.Settings\\$DisplaySettingsActivity")
	if p.ScreenID() != "display" {
		t.Fatalf("screen %s", p.ScreenID())
	}
}
