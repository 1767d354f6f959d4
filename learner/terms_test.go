package learner

import (
	"maps"
	"slices"
	"testing"
)

func TestTerms(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Open the Notifications page", []string{"notification"}},
		{"com.android.settings:id/wifiToggle", []string{"setting", "toggle", "wifi"}},
		{"Apps", []string{"app"}}, // stop words are checked before stemming
		{"tap the Send button", []string{"send"}},
		{"打开通知", []string{"开通", "打开", "通知"}},
		{"", nil},
	}
	for _, tt := range tests {
		got := slices.Sorted(maps.Keys(terms(tt.in)))
		if !slices.Equal(got, tt.want) {
			t.Errorf("terms(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
