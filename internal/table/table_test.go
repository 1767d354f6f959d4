package table

import (
	"strings"
	"testing"
	"text/tabwriter"
)

func TestWidth(t *testing.T) {
	tests := []struct {
		s    string
		want int
	}{
		{"", 0},
		{"Settings", 8},
		{"美食外卖", 8},
		{"珍珠奶茶 Bubble tea ¥15", 23},
		{"ｆｕｌｌ", 8},       // fullwidth Latin
		{"카카오톡", 8},       // Hangul
		{"café", 4},       // precomposed
		{"cafe\u0301", 4}, // combining acute accent
		{"a\u200bb", 2},   // zero-width space
		{"🙂", 2},
	}
	for _, tt := range tests {
		if got := Width(tt.s); got != tt.want {
			t.Errorf("Width(%q) = %d, want %d", tt.s, got, tt.want)
		}
	}
}

// TestColumnsLineUp: every cell of a column starts at the same terminal column, whatever
// its script; with one-width text the output is tabwriter's.
func TestColumnsLineUp(t *testing.T) {
	rows := "ID\tAPP\tTEXT\n" +
		"t1\tcom.fairy.shop\t珍珠奶茶 is the bubble tea.\n" +
		"t12\t美食外卖\tTap 我的订单 for orders.\n" +
		"t3\tcafe\u0301\tplain\n"
	var b strings.Builder
	w := NewWriter(&b)
	if _, err := w.Write([]byte(rows)); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines:\n%s", len(lines), b.String())
	}
	// The display column where each cell starts.
	starts := func(line string, cells []string) []int {
		var out []int
		col := 0
		rest := line
		for _, c := range cells {
			i := strings.Index(rest, c)
			if i < 0 {
				t.Fatalf("cell %q not in %q", c, line)
			}
			col += Width(rest[:i])
			out = append(out, col)
			col += Width(c)
			rest = rest[i+len(c):]
		}
		return out
	}
	want := starts(lines[0], []string{"ID", "APP", "TEXT"})
	for i, cells := range [][]string{{"t1", "com.fairy.shop", "珍珠奶茶"}, {"t12", "美食外卖", "Tap"}, {"t3", "cafe\u0301", "plain"}} {
		got := starts(lines[i+1], cells)
		for j := range got {
			if got[j] != want[j] {
				t.Errorf("row %d column %d starts at %d, header at %d:\n%s", i+1, j, got[j], want[j], b.String())
			}
		}
	}

	// ASCII: the same bytes as tabwriter.
	ascii := "PACKAGE\tLABEL\tPAGES\ncom.android.settings\tSettings\t12\ncom.x\t\t3\ntrailing:\tvalue\n"
	var tb, ob strings.Builder
	tw := tabwriter.NewWriter(&tb, 0, 4, 2, ' ', 0)
	tw.Write([]byte(ascii))
	tw.Flush()
	ow := NewWriter(&ob)
	ow.Write([]byte(ascii))
	ow.Flush()
	if tb.String() != ob.String() {
		t.Errorf("ASCII table differs from tabwriter's:\n%s---\n%s", ob.String(), tb.String())
	}
}
