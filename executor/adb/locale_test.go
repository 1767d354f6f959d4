package adb

import (
	"context"
	"testing"

	"github.com/fairy-go/fairy/sim"
)

// TestLocale: the phone's language is read from its properties: the one the language
// picker sets (the virtual phone's settings command sets it, as the picker does), else
// the older language and country pair, else the factory's.
func TestLocale(t *testing.T) {
	p := newPhone(t, sim.Config{})
	host, port := hostFace(t, p)
	d := openDevice(t, Config{Host: host, Port: port})
	ctx := context.Background()
	if got, err := d.Locale(ctx); err != nil || got != "en-US" {
		t.Fatalf("Locale = %q, %v; want en-US", got, err)
	}
	if _, _, err := d.RawShell(ctx, "settings put system system_locales th-TH,en-US"); err != nil {
		t.Fatal(err)
	}
	if got, err := d.Locale(ctx); err != nil || got != "th-TH" {
		t.Fatalf("Locale after choosing Thai = %q, %v; want th-TH", got, err)
	}
	for _, tc := range []struct{ props, want string }{
		{"[persist.sys.language]: [ja]\n[persist.sys.country]: [JP]\n[ro.product.locale]: [en-US]\n", "ja-JP"},
		{"[ro.product.locale]: [ko-KR]\r\n", "ko-KR"},
		{"[persist.sys.locale]: []\n[ro.product.locale]: [ar-EG]\n", "ar-EG"},
		{"garbage\n[persist.sys.locale: x\n", ""},
	} {
		if got := localeOf(tc.props); got != tc.want {
			t.Errorf("localeOf(%q) = %q, want %q", tc.props, got, tc.want)
		}
	}
}
