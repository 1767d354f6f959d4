package guard

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// TestIgnorableMatchesUnicode: the guard's Default_Ignorable_Code_Point table, derived from
// Go's unicode tables, is the property as Unicode's DerivedCoreProperties.txt of the same
// version lists it (testdata/guard/DerivedCoreProperties-DI.txt, its section).
func TestIgnorableMatchesUnicode(t *testing.T) {
	f, err := os.Open("testdata/guard/DerivedCoreProperties-DI.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[rune]bool{}
	sc := bufio.NewScanner(f)
	version := ""
	for sc.Scan() {
		line := sc.Text()
		if v, ok := strings.CutPrefix(line, "# DerivedCoreProperties-"); ok {
			version = strings.TrimSuffix(v, ".txt")
		}
		if line, _, _ = strings.Cut(line, "#"); strings.TrimSpace(line) == "" {
			continue
		}
		cps, prop, _ := strings.Cut(line, ";")
		if strings.TrimSpace(prop) != "Default_Ignorable_Code_Point" {
			t.Fatalf("a line of another property: %q", line)
		}
		lo, hi, ok := strings.Cut(strings.TrimSpace(cps), "..")
		if !ok {
			hi = lo
		}
		a, err1 := strconv.ParseUint(lo, 16, 32)
		b, err2 := strconv.ParseUint(hi, 16, 32)
		if err1 != nil || err2 != nil {
			t.Fatalf("bad line %q", line)
		}
		for r := rune(a); r <= rune(b); r++ {
			want[r] = true
		}
	}
	if version != unicode.Version {
		t.Fatalf("the data is Unicode %s, Go's tables %s: refresh testdata/guard/DerivedCoreProperties-DI.txt from Unicode %s's DerivedCoreProperties.txt", version, unicode.Version, unicode.Version)
	}
	if len(want) != 4174 {
		t.Fatalf("%d code points read, want the file's total, 4174", len(want))
	}
	rd := newTextReader()
	bad := 0
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if rd.ignorable(r) != want[r] && bad < 10 {
			bad++
			t.Errorf("U+%04X: ignorable %t, Unicode says %t", r, rd.ignorable(r), want[r])
		}
	}
}
