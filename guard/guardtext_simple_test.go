package guard

import (
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// TestSimpleAgreesWithNormFull: a label simple passes over is one normLabel's steps leave
// as it is: every character simpleSet marks, and a sample of others (spaces, marks,
// look-alikes, capitals, CJK, य after a vowel), alone, between ASCII words and beside
// one another; and the labels of the crowded page pass (but the Thai, whose tone marks
// NFKC may reorder).
func TestSimpleAgreesWithNormFull(t *testing.T) {
	rd := defaultGuard(t).textReader
	sample := []rune{' ', 'a', 'Z', '\t', 0x7F, 0xA0, 0xB7, 0xC9, 0xE9, 0x0301, 0x0410, 0x0430, 0x03B1, 0x0251, 0x0622, 0x064B,
		0x0627, 0x0901, 0x092F, 0x093E, 0x0947, 0x0940, 0x0905, 0x0E48, 0x0E02, 0x200B, 0x200D, 0x202E, 0x2019, 0x3000, 0x4E2D,
		0x6587, 0xAC00, 0xFB01, 0xFF21, 0xFE0F, 0x115F, 0x1F5D1, utf8.RuneError}
	check := func(s string) {
		if rd.simple(s) && rd.normFull(s) != s {
			t.Fatalf("%q (%U) passed as simple but normLabel's steps give %q", s, []rune(s), rd.normFull(s))
		}
	}
	for r := rune(utf8.RuneSelf); r < 1<<16; r++ {
		if r%7 != 0 && rd.simpleSet[r/64]&(1<<(r%64)) == 0 {
			continue
		}
		c := string(r)
		check(c)
		check("Pay " + c)
		check(c + " now")
		check("x" + c + "Y")
		for _, o := range sample {
			check(c + string(o))
			check(string(o) + c)
			check(c + " " + string(o))
			check(string(o) + " " + c)
		}
	}
	check("\xff Pay")
	for _, s := range []string{"Bubble tea #1 · $1.99", "珍珠奶茶 #1 · $1.99", "شاي #1 · $1.99", "चाय #1 · $1.99"} {
		if !rd.simple(s) {
			t.Errorf("%q is left as it is by normLabel but not passed over", s)
		}
	}
}

// TestNFKCStableThaiMarks: a text of Thai or Lao marks that nfkcStable passes over is in
// NFKC, after every seventh character of the Basic Multilingual Plane and beside one
// another in either order; and the Thai label of the crowded page is passed over.
func TestNFKCStableThaiMarks(t *testing.T) {
	rd := newTextReader()
	var marks []rune
	for r := rune(0x0E00); r < 0x0F00; r++ {
		if rd.markCCC[r-0x0E00] != 0 {
			marks = append(marks, r)
		}
	}
	if len(marks) < 10 {
		t.Fatalf("only %d Thai and Lao marks known: %U", len(marks), marks)
	}
	for b := rune(0x20); b < 1<<16; b += 7 {
		for _, m := range marks {
			for _, m2 := range append([]rune{'a'}, marks...) {
				s := string(b) + string(m) + string(m2)
				if rd.nfkcStable(s) && !norm.NFKC.IsNormalString(s) {
					t.Fatalf("%q (%U) passed as stable but NFKC gives %q", s, []rune(s), norm.NFKC.String(s))
				}
			}
		}
	}
	for _, s := range []string{"ชาไข่มุก #1 · $1.99", "ກິນເຂົ້າ"} {
		if !rd.nfkcStable(s) {
			t.Errorf("%q is in NFKC but not passed over", s)
		}
	}
	if s := "ก\u0E48\u0E38"; rd.nfkcStable(s) { // tone mark (107) before a vowel below (103)
		t.Errorf("%q is not in NFKC (%q) but was passed over", s, norm.NFKC.String(s))
	}
}

// TestRuneSets: the tables isDigit, isUpper and isLower read agree with unicode's
// functions on every character of the Basic Multilingual Plane, and lower's cased with
// unicode.ToLower.
func TestRuneSets(t *testing.T) {
	for r := rune(0); r < 1<<16; r++ {
		if isDigit(r) != unicode.IsDigit(r) || isUpper(r) != unicode.IsUpper(r) || isLower(r) != unicode.IsLower(r) {
			t.Fatalf("%U: digit %v upper %v lower %v, unicode says %v %v %v", r, isDigit(r), isUpper(r), isLower(r),
				unicode.IsDigit(r), unicode.IsUpper(r), unicode.IsLower(r))
		}
		if r >= utf8.RuneSelf && (cased()[r/64]&(1<<(r%64)) != 0) != (unicode.ToLower(r) != r) {
			t.Fatalf("%U: cased %v", r, cased()[r/64]&(1<<(r%64)) != 0)
		}
	}
}
