package knowledge

import (
	"bytes"
	"errors"
	"testing"
)

// TestDeedsShared: a deed recorded through one Store is listed by another Store open on
// the same file (a second agent sharing the knowledge), with the activity of its page; it
// stays when the action is later seen doing nothing, shows in `fairy map show`'s table,
// travels through export and import, and a deed of no known category is refused.
func TestDeedsShared(t *testing.T) {
	const app = "com.example.tidy"
	a, path := openTemp(t, Options{})
	b, err := Open(path, Options{Clock: fakeClock()})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, err := b.Deeds(app); err != nil { // b caches the map before a writes
		t.Fatal(err)
	}
	from := PageKey(".Main", "s-en")
	goBtn := Action{Kind: ActionTap, Target: Element{ResourceID: app + ":id/go", Text: "Go", Class: "android.widget.Button"}}
	sortBtn := Action{Kind: ActionTap, Target: Element{ResourceID: app + ":id/sort", Text: "Sort", Class: "android.widget.Button"}}
	deed := Deed{Category: "delete", Evidence: "deleted a row", X: 540, Y: 2000}
	if _, err := a.RecordTransition(app, Transition{From: from, To: from, Action: goBtn, Effect: EffectSamePage, Deed: deed}, true); err != nil {
		t.Fatal(err)
	}
	if _, err := a.RecordTransition(app, Transition{From: from, To: from, Action: sortBtn, Effect: EffectSamePage}, true); err != nil {
		t.Fatal(err)
	}
	// The list was empty the next time: nothing gone, yet Go still deletes.
	if _, err := a.RecordTransition(app, Transition{From: from, To: from, Action: goBtn, Effect: EffectNoChange}, true); err != nil {
		t.Fatal(err)
	}
	got, err := b.Deeds(app)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Category != "delete" || got[0].Target.ResourceID != app+":id/go" || got[0].Activity != ".Main" ||
		got[0].X != 540 || got[0].Seen != 1 {
		t.Fatalf("the second store lists %+v; want Go's delete on .Main at (540,2000)", got)
	}

	m, err := b.Map(app)
	if err != nil {
		t.Fatal(err)
	}
	var table bytes.Buffer
	if err := m.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(table.Bytes(), []byte("no-change; delete: deleted a row")) {
		t.Errorf("fairy map show does not say what Go did:\n%s", table.String())
	}

	var doc bytes.Buffer
	if err := a.Export(&doc); err != nil {
		t.Fatal(err)
	}
	c, _ := openTemp(t, Options{})
	if _, err := c.Import(bytes.NewReader(doc.Bytes())); err != nil {
		t.Fatal(err)
	}
	if got, err := c.Deeds(app); err != nil || len(got) != 1 || got[0].Category != "delete" {
		t.Errorf("imported deeds %+v, %v; want Go's delete", got, err)
	}

	bad := Transition{From: from, To: from, Action: sortBtn, Effect: EffectSamePage, Deed: Deed{Category: "trust me"}}
	if _, err := a.RecordTransition(app, bad, true); !errors.Is(err, ErrInvalid) {
		t.Errorf("a deed of category %q: %v; want ErrInvalid", bad.Deed.Category, err)
	}
}
