package replay

import (
	"strings"
	"testing"
)

const networkPage = `- [1] button "Navigate up"
- "Network & internet"
- [2] item "Wi-Fi" id=switch_row
  - "Off"
  - [3] switch id=switch_widget unchecked
- [4] item "Mobile data" id=switch_row
  - "On"
  - [5] switch id=switch_widget checked
- [6] checkbox "Airplane mode" checked
`

// TestTogglesByTheirRowsLabel: a switch without a label of its own is its row's; one with
// a label is its own.
func TestTogglesByTheirRowsLabel(t *testing.T) {
	got := Toggles(networkPage)
	want := map[string]bool{"Wi-Fi": false, "Mobile data": true, "Airplane mode": true}
	if len(got) != len(want) {
		t.Fatalf("toggles %v, want %v", got, want)
	}
	for l, w := range want {
		if g, ok := got[l]; !ok || g != w {
			t.Errorf("toggle %q = %v (%t), want %v", l, g, ok, w)
		}
	}
}

// TestEndMiss: the end page's state is compared, toggles and labels: Wi-Fi off where the
// routine ended with it on is a miss, a row still shown that ended gone too.
func TestEndMiss(t *testing.T) {
	for _, tc := range []struct {
		name string
		end  End
		want string
	}{
		{"same state", End{Toggles: map[string]bool{"Wi-Fi": false, "Mobile data": true}}, ""},
		{"switch in the other state", End{Toggles: map[string]bool{"Wi-Fi": true}}, `"Wi-Fi" is off`},
		{"no such switch", End{Toggles: map[string]bool{"Bluetooth": true}}, `no toggle "Bluetooth"`},
		{"row gone as learned", End{Labels: map[string]bool{"Lunch": false}}, ""},
		{"row still there", End{Labels: map[string]bool{"Mobile data": false}}, `"Mobile data" is still on the page`},
		{"row shown as learned", End{Labels: map[string]bool{"mobile data": true}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.end.Miss(networkPage)
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Errorf("Miss = %q, want %q", got, tc.want)
			}
		})
	}
}
