package guard

import "unicode"

// Unicode's Default_Ignorable_Code_Point: characters a renderer draws as nothing (zero
// width spaces and joiners, direction controls, variation selectors, the combining
// grapheme joiner, Hangul fillers, Khmer inherent vowels, Mongolian free variation
// selectors, tags). A label is read without them: "Del\u034fete" draws "Delete".
//
// Go's unicode package has no table of the derived property, but it has what Unicode
// derives it from (DerivedCoreProperties.txt):
//
//	Other_Default_Ignorable_Code_Point + Cf + Variation_Selector
//	  - White_Space - FFF9..FFFB - 13430..13440 - Prepended_Concatenation_Mark
//
// TestIgnorableMatchesUnicode checks the result against the data file of unicode.Version.

// ignorableTable builds the Default_Ignorable_Code_Point set as a bit per code point.
func ignorableTable() []uint64 {
	set := make([]uint64, (unicode.MaxRune+1)/64)
	add := func(tab *unicode.RangeTable, on bool) {
		for _, rg := range tab.R16 {
			for r := rune(rg.Lo); r <= rune(rg.Hi); r += rune(rg.Stride) {
				setBit(set, r, on)
			}
		}
		for _, rg := range tab.R32 {
			for r := rune(rg.Lo); r <= rune(rg.Hi); r += rune(rg.Stride) {
				setBit(set, r, on)
			}
		}
	}
	add(unicode.Other_Default_Ignorable_Code_Point, true)
	add(unicode.Cf, true)
	add(unicode.Variation_Selector, true)
	add(unicode.White_Space, false)
	add(unicode.Prepended_Concatenation_Mark, false)
	for _, rg := range [][2]rune{{0xFFF9, 0xFFFB}, {0x13430, 0x13440}} {
		for r := rg[0]; r <= rg[1]; r++ {
			setBit(set, r, false)
		}
	}
	return set
}

func setBit(set []uint64, r rune, on bool) {
	if on {
		set[r/64] |= 1 << (r % 64)
	} else {
		set[r/64] &^= 1 << (r % 64)
	}
}

// ignorable reports whether r is a Default_Ignorable_Code_Point.
func (rd *textReader) ignorable(r rune) bool {
	return r >= 0 && r <= unicode.MaxRune && rd.ignorableSet[r/64]&(1<<(r%64)) != 0
}
