package replay

import "strings"

// minFuzzy is the benchmark's fuzzy match: difflib's similarity ratio at least 0.9, case
// ignored (android_world's fuzzy_match_lib).
const minFuzzy = 0.9

// FuzzyMatch reports whether a and b are the same label up to small differences: the
// Ratcliff/Obershelp ratio of their runes, case ignored, is at least 0.9.
func FuzzyMatch(a, b string) bool {
	x, y := []rune(strings.ToLower(a)), []rune(strings.ToLower(b))
	if len(x)+len(y) == 0 {
		return true
	}
	return 2*float64(matching(x, y))/float64(len(x)+len(y)) >= minFuzzy
}

// matching counts the runes of the matching blocks of x and y: the longest common run,
// then the same on each side of it.
func matching(x, y []rune) int {
	if len(x) == 0 || len(y) == 0 {
		return 0
	}
	bi, bj, n := 0, 0, 0
	prev := make([]int, len(y)+1)
	for i := 1; i <= len(x); i++ {
		cur := make([]int, len(y)+1)
		for j := 1; j <= len(y); j++ {
			if x[i-1] == y[j-1] {
				cur[j] = prev[j-1] + 1
				if cur[j] > n {
					bi, bj, n = i-cur[j], j-cur[j], cur[j]
				}
			}
		}
		prev = cur
	}
	if n == 0 {
		return 0
	}
	return n + matching(x[:bi], y[:bj]) + matching(x[bi+n:], y[bj+n:])
}
