package event

import (
	"encoding/json"
	"testing"
)

// TestSpecificsShownAsAsked: a consent question shows its specifics in the words the
// questions have always used ("to: …; text: "…""), parts in a fixed order, a text quoted,
// empty parts left out, and "again" last.
func TestSpecificsShownAsAsked(t *testing.T) {
	for _, tc := range []struct {
		sp   Specifics
		want string
	}{
		{Specifics{To: "Bob Smith", Text: "Heads up: moved to 3pm"}, `to: Bob Smith; text: "Heads up: moved to 3pm"`},
		{Specifics{Items: []string{"椰果奶茶 ×1"}, Amount: "¥13", Payee: "com.fairy.shop"}, "items: 椰果奶茶 ×1; amount: ¥13; payee: com.fairy.shop"},
		{Specifics{Items: []string{"The oolong x2", "Gateau aux amandes x1"}, Amount: "¥36"}, "items: The oolong x2, Gateau aux amandes x1; amount: ¥36"},
		{Specifics{What: "Delete this event? · Dentist · Tue 10:00"}, "what: Delete this event? · Dentist · Tue 10:00"},
		{Specifics{Text: "see you; bring the map\n", To: "  Ana Lopez "}, `to: Ana Lopez; text: "see you; bring the map\n"`},
		{Specifics{Amount: "¥14", Again: 7}, "amount: ¥14; again: done once already in this task, at step 7"},
		{Specifics{Again: 7}, "again: done once already in this task, at step 7"},
		{Specifics{To: "  ", Items: []string{}}, ""},
		{Specifics{}, ""},
	} {
		if got := tc.sp.String(); got != tc.want {
			t.Errorf("%+v shown as %q, want %q", tc.sp, got, tc.want)
		}
		if tc.sp.IsZero() != (tc.want == "") {
			t.Errorf("%+v: IsZero %t, but the question shows %q", tc.sp, tc.sp.IsZero(), tc.want)
		}
	}
	// Each part's value is what a question must hold to name it: a text unquoted.
	parts := Specifics{To: "Bob", Text: `say "hi"`}.Parts()
	if len(parts) != 2 || parts[1].Key != "text" || parts[1].Shown != `"say \"hi\""` || parts[1].Value != `say "hi"` {
		t.Errorf("parts %+v", parts)
	}
}

// TestSpecificsRoundTrip: the specifics a run directory records with a held action and a
// consent read back as the same value (a reader of events.jsonl needs no parser of the
// question's words), and an action held with none records no "specifics" at all.
func TestSpecificsRoundTrip(t *testing.T) {
	sp := Specifics{To: "Alice Chen", Text: "see you; at 7", Items: []string{"tea ×1", "cake ×2"}, Amount: "¥36", Payee: "TeaPay", What: "Dentist", Again: 4}
	b, err := json.Marshal(ActionGuarded{Step: 3, Category: "send", Specifics: sp})
	if err != nil {
		t.Fatal(err)
	}
	var g ActionGuarded
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	if !g.Specifics.Equal(sp) || g.Specifics.String() != sp.String() {
		t.Errorf("read back %+v from %s, want %+v", g.Specifics, b, sp)
	}
	b, err = json.Marshal(InteractionEnded{Consent: &Consent{Granted: true, Category: "send", Action: "a", Specifics: sp}})
	if err != nil {
		t.Fatal(err)
	}
	var e InteractionEnded
	if err := json.Unmarshal(b, &e); err != nil || e.Consent == nil || !e.Consent.Specifics.Equal(sp) {
		t.Errorf("consent read back %+v (%v) from %s", e.Consent, err, b)
	}
	b, _ = json.Marshal(ActionGuarded{Category: "delete", Specifics: Specifics{Items: []string{}}})
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if _, has := m["specifics"]; has {
		t.Errorf("an action held with no specifics records %s", b)
	}
	if (Specifics{Items: []string{"a"}}).Equal(Specifics{Items: []string{"b"}}) || !(Specifics{}).Equal(Specifics{Items: []string{}}) {
		t.Error("Equal compares items by value")
	}
}
