package spell

import "fmt"

// Closest returns the word of known closest to word when it is close enough to be the one
// meant (at most two edits, or a third of word's length), and ok. A word that is itself
// known, or is far from every known word, gives "", false.
func Closest(word string, known []string) (string, bool) {
	best, bestD := "", -1
	for _, k := range known {
		d := Distance(word, k)
		if bestD < 0 || d < bestD || (d == bestD && k < best) {
			best, bestD = k, d
		}
	}
	if bestD <= 0 {
		return "", false
	}
	if bestD <= 2 || bestD*3 <= len(word) {
		return best, true
	}
	return "", false
}

// DidYouMean is Closest as the end of a message: ` (did you mean "x"?)`, or "".
func DidYouMean(word string, known []string) string {
	if k, ok := Closest(word, known); ok {
		return fmt.Sprintf(" (did you mean %q?)", k)
	}
	return ""
}

// Distance is the optimal-string-alignment distance between a and b, in runes:
// insertions, deletions, substitutions and swaps of two neighbours each cost 1 ("defualt"
// is one swap from "default").
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range rb {
		d[0][j+1] = j + 1
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
