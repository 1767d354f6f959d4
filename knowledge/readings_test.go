package knowledge

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// TestReadings: a reading keeps the facts read off a content (newest value per key), an
// unknown content has none, and past maxReadings an app's oldest readings go.
func TestReadings(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s, err := Open(filepath.Join(t.TempDir(), "k.db"), Options{Clock: func() time.Time { now = now.Add(time.Second); return now }, noSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	key := ReadingKey("Order a tea", "sig", "- \"¥15\"")
	if key == ReadingKey("Order a coffee", "sig", "- \"¥15\"") || key == ReadingKey("", "sig", "- \"¥15\"") {
		t.Fatal("the instruction is not part of the key")
	}
	if _, ok, err := s.Reading("com.shop", key); ok || err != nil {
		t.Fatalf("unknown content: ok %v, %v", ok, err)
	}
	if err := s.PutReading("com.shop", key, []Fact{{Key: "price", Value: "¥15"}, {Key: " ", Value: "x"}}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutReading("com.shop", key, []Fact{{Key: "price", Value: "¥16"}, {Key: "size", Value: "large"}}); err != nil {
		t.Fatal(err)
	}
	r, ok, err := s.Reading("com.shop", key)
	if !ok || err != nil || r.Reads != 2 || len(r.Facts) != 2 || r.Facts[0] != (Fact{"price", "¥16"}) || r.Facts[1] != (Fact{"size", "large"}) {
		t.Fatalf("reading = %+v, %v, %v", r, ok, err)
	}
	if err := s.PutReading("", key, nil); err == nil {
		t.Error("a reading without an app was stored")
	}
	for i := range maxReadings {
		if err := s.PutReading("com.notes", fmt.Sprint(i), nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.PutReading("com.notes", "one more", nil); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.Reading("com.notes", "0"); ok {
		t.Error("the oldest reading was kept past the cap")
	}
	if _, ok, _ := s.Reading("com.notes", "one more"); !ok {
		t.Error("the newest reading was not kept")
	}
	if _, ok, _ := s.Reading("com.notes", fmt.Sprint(maxReadings-1)); !ok {
		t.Error("a recent reading was dropped")
	}
}
