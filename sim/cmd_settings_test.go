package sim

import "testing"

func TestSettingsPutGet(t *testing.T) {
	p := newPhone(t)
	sh(t, p, "settings put global bluetooth_on 1")
	if out, _ := sh(t, p, "settings get global bluetooth_on"); out != "1\n" {
		t.Fatalf("got %q", out)
	}
	if p.Setting("global/bluetooth_on") != "1" || p.Setting("bluetooth_on") != "1" {
		t.Fatal("Setting does not see the put")
	}
}
