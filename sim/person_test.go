package sim

import (
	"os"
	"strings"
	"testing"
)

// TestPersonSignsInByHand: a person's fingers and thumbs (TouchID, TypeKeys) get through
// a sign-in with a password and a one-time code on the phone, and the dump never shows the
// password (a masked field).
func TestPersonSignsInByHand(t *testing.T) {
	data, err := os.ReadFile("../eval/testdata/handover/apps/bank.yaml")
	if err != nil {
		t.Fatal(err)
	}
	app, err := ParseApp(data)
	if err != nil {
		t.Fatal(err)
	}
	base, err := DefaultApps()
	if err != nil {
		t.Fatal(err)
	}
	apps, err := MergeApps(base, []*AppSpec{app})
	if err != nil {
		t.Fatal(err)
	}
	p, err := New(Config{Seed: 1, Apps: apps})
	if err != nil {
		t.Fatal(err)
	}
	sh := func(cmd string) string {
		var out strings.Builder
		if _, err := p.Shell(t.Context(), cmd, &out); err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
		return out.String()
	}
	sh("monkey -p com.fairy.bank -c android.intent.category.LAUNCHER 1")
	if err := p.TypeKeys("x"); err == nil {
		t.Error("typed with no field focused")
	}
	const pw, code = "Quay-Lantern-7£", "731905"
	if !p.TouchID("password") {
		t.Fatal("no password field on the sign-in page")
	}
	if err := p.TypeKeys(pw); err != nil {
		t.Fatal(err)
	}
	dump := sh("uiautomator dump /dev/tty")
	if strings.Contains(dump, pw) || !strings.Contains(dump, `password="true"`) {
		t.Errorf("the dump shows the password or no password field:\n%s", dump)
	}
	if !p.TouchID("com.fairy.bank:id/sign_in") || !p.Shows("otp_code") {
		t.Fatalf("Sign in did not open the code page:\n%s", sh("uiautomator dump /dev/tty"))
	}
	if !p.TouchID("otp_code") || p.TypeKeys(code) != nil || !p.TouchID("verify") {
		t.Fatal("could not enter the code")
	}
	if !p.Shows("checking") || p.Shows("password") {
		t.Errorf("not signed in:\n%s", sh("uiautomator dump /dev/tty"))
	}
	if p.TouchID("no_such_id") {
		t.Error("touched an element that is not there")
	}
}
