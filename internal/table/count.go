package table

import "strconv"

// Count writes n with the singular or the plural noun, as a table's cells and the lines
// around them say it: "1 step", "3 steps".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
