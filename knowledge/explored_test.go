package knowledge

import (
	"bytes"
	"errors"
	"testing"
)

// TestPageExplored: a crawler's visit is counted on a recorded page, survives export and
// import (the larger count wins), and a page off the map is refused.
func TestPageExplored(t *testing.T) {
	s, _ := openTemp(t, Options{})
	p := Page{Activity: ".Settings", Signature: "sig-main", Description: "Settings"}
	key := PageKey(p.Activity, p.Signature)
	err := s.Update(func(tx *Tx) error {
		if _, err := tx.RecordPage("com.android.settings", p); err != nil {
			return err
		}
		if err := tx.PageExplored("com.android.settings", key); err != nil {
			return err
		}
		return tx.PageExplored("com.android.settings", key)
	})
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.Map("com.android.settings")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Pages) != 1 || m.Pages[0].Explored != 2 {
		t.Fatalf("pages = %+v, want one page explored twice", m.Pages)
	}
	err = s.Update(func(tx *Tx) error { return tx.PageExplored("com.android.settings", "nowhere") })
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("explored on a page off the map: err = %v, want ErrNotFound", err)
	}

	var buf bytes.Buffer
	if err := s.Export(&buf); err != nil {
		t.Fatal(err)
	}
	dst, _ := openTemp(t, Options{})
	if err := dst.Update(func(tx *Tx) error { _, err := tx.RecordPage("com.android.settings", p); return err }); err != nil {
		t.Fatal(err)
	}
	if _, err := dst.Import(&buf); err != nil {
		t.Fatal(err)
	}
	m, err = dst.Map("com.android.settings")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Pages) != 1 || m.Pages[0].Explored != 2 {
		t.Fatalf("imported pages = %+v, want the explored count kept", m.Pages)
	}
}
