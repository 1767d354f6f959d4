package guard

import (
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// TestNFKCStableAgreesWithNorm: a text nfkcStable passes over is in NFKC: every third
// character of the Basic Multilingual Plane it marks, before and after a sample of others
// and of combining marks; and the labels of the crowded page.
func TestNFKCStableAgreesWithNorm(t *testing.T) {
	rd := newTextReader()
	var sample []rune
	for r := rune(0x80); r < 0x3100; r += 97 {
		sample = append(sample, r)
	}
	sample = append(sample, 0x0301, 0x0308, 0x0654, 0x0655, 0x093C, 0x09BE, 0x0B3E, 0x0BBE, 0x0CD5, 0x0D3E, 0x0E48, 0x3099, 0xAC00, 0x1161, 0x11A8, 0xFB01, 0xFF21)
	for r := rune(utf8.RuneSelf); r < 1<<16; r += 3 {
		if rd.stable[r/64]&(1<<(r%64)) == 0 {
			continue
		}
		for _, o := range sample {
			for _, s := range []string{string(r) + string(o), string(o) + string(r)} {
				if rd.nfkcStable(s) && !norm.NFKC.IsNormalString(s) {
					t.Fatalf("%q (%U %U) passed as stable but NFKC gives %q", s, []rune(s)[0], []rune(s)[1], norm.NFKC.String(s))
				}
			}
		}
	}
	for _, s := range []string{"Bubble tea #1 · $1.99", "珍珠奶茶", "Чай с молоком", "شاي", "Trà sữa", "चाय"} {
		if !rd.nfkcStable(s) {
			t.Errorf("%q is in NFKC but not passed over", s)
		}
	}
	for _, s := range []string{"ﬁle", "Ｐａｙ", "e\u0301", "ا\u0654"} {
		if rd.nfkcStable(s) {
			t.Errorf("%q is not in NFKC but was passed over", s)
		}
	}
}
