package icons

import "testing"

// BenchmarkMatch: one picture of each sensitive icon (48px, an icon of 24dp at xhdpi, in a
// button twice its size), matched afresh each time (nothing remembered; the references at
// that scale rendered once), and matched again (remembered by its pixels' hash).
func BenchmarkMatch(b *testing.B) {
	f, codes := iconFont(b)
	for _, ref := range references {
		if ref.word == "" {
			continue
		}
		img, r := drawIcon(b, f, codes[ref.name], 48, looks[1])
		m := NewMatcher()
		if _, ok := m.Match(img, r); !ok {
			b.Fatalf("%s not matched", ref.name)
		}
		b.Run(ref.name, func(b *testing.B) {
			for b.Loop() {
				m.mu.Lock()
				clear(m.seen)
				m.mu.Unlock()
				m.Match(img, r)
			}
		})
		b.Run(ref.name+"/remembered", func(b *testing.B) {
			for b.Loop() {
				m.Match(img, r)
			}
		})
	}
}
