package explore

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fairy-go/fairy/perception"
)

// swipeDuration is the scroll gesture's length, as the executor's.
const swipeDuration = 300 * time.Millisecond

// describe is a page's short name for progress lines: its first short static text (the
// title bar, usually), else its activity's last part.
func describe(s *perception.Screen) string {
	for _, t := range s.Context {
		if t = strings.TrimSpace(t); t != "" && utf8.RuneCountInString(t) <= 40 {
			return t
		}
	}
	a := s.Activity
	if i := strings.LastIndexAny(a, "./$"); i >= 0 {
		a = a[i+1:]
	}
	if a == "" {
		return s.Package
	}
	return a
}
