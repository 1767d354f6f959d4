package guard

import (
	"testing"

	"github.com/fairy-go/fairy/perception"
)

// TestGuardReadsDisplayOrder: a label is read as a person sees it. A right-to-left
// override draws "yaP" as Pay and "lla eteleD" as Delete all; an isolate or an override
// around a word that reads the same either way changes nothing; Arabic and Hebrew stay
// readable in their own direction.
func TestGuardReadsDisplayOrder(t *testing.T) {
	g := defaultGuard(t)
	plain := &perception.Screen{Signature: "x"}
	for _, tc := range []struct{ label, category string }{
		{"\u202eyaP", "payment"},
		{"\u202ella eteleD", "delete"},
		{"\u202eyaP\u202c now", "payment"},
		{"Tap to \u202ddnes\u202c", ""}, // a left-to-right override draws "dnes" as stored
		{"\u202ednes\u202c", "send"},
		{"\u2067Pay\u2069", "payment"},
		{"\u202bحذف\u202c", "delete"},
		{"حذف", "delete"},
		{"\u202eyadhtriB\u202c", ""}, // "Birthday": no word of the guard's, drawn or not
	} {
		if got := attackTap(g, button(1, tc.label, 1000), plain); got != tc.category {
			t.Errorf("tap %+q: category %q, want %q", tc.label, got, tc.category)
		}
	}
}

// TestGuardDropsIgnorables: every Default_Ignorable_Code_Point inside "Delete" is dropped,
// whatever its general category (a combining mark, a Hangul filler letter, a format
// character or a variation selector).
func TestGuardDropsIgnorables(t *testing.T) {
	g := defaultGuard(t)
	plain := &perception.Screen{Signature: "x"}
	for _, r := range []rune{0x034F, 0xFE0F, 0xFE00, 0xE0100, 0x115F, 0x1160, 0x3164, 0xFFA0, 0x17B4, 0x17B5,
		0x180B, 0x180C, 0x180D, 0x180E, 0x180F, 0x200B, 0x2060, 0x2065, 0xFEFF, 0xE0041, 0x1BCA0} {
		label := "Del" + string(r) + "ete"
		if got := attackTap(g, button(1, label, 1000), plain); got != "delete" {
			t.Errorf("tap %+q (U+%04X inside): category %q, want delete", label, r, got)
		}
	}
}

// TestGuardReadsAccentedLatin: an accent on a word the guard does not know otherwise is
// read past (Páy is Pay, Dėlete is Delete); words that need their marks keep them.
func TestGuardReadsAccentedLatin(t *testing.T) {
	g := defaultGuard(t)
	plain := &perception.Screen{Signature: "x"}
	pay := &perception.Screen{Signature: "p", Context: []string{"Tổng cộng", "150.000₫"}}
	for _, tc := range []struct {
		label    string
		s        *perception.Screen
		category string
	}{
		{"Páy", plain, "payment"}, {"Dėlete", plain, "delete"}, {"Sénd", plain, "send"}, {"PÁY NOW", plain, "payment"},
		{"Gửi", plain, "send"}, {"Xóa", plain, "delete"}, {"Xác nhận", plain, ""}, {"Thanh toán", pay, "payment"},
		{"Café", plain, ""}, {"Résumé", plain, ""}, {"Pâté", plain, ""},
	} {
		if got := attackTap(g, button(1, tc.label, 1000), tc.s); got != tc.category {
			t.Errorf("tap %q: category %q, want %q", tc.label, got, tc.category)
		}
	}
}
