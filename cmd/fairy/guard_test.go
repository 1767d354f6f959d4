package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/perception"
)

// TestGuardConfig: the config's guard section extends the default vocabulary (a word per
// category, a generic confirm, a new category); a typo in a category is an error.
func TestGuardConfig(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yaml")
	body := `guard:
  keywords:
    payment: [abonar]
  page:
    payment: [betaalverzoek]
  confirm: [vale]
  dismiss: [laat maar]
  rules:
    - {category: booking, type: 2, keywords: [reservar, book now]}
    - {category: payment, type: 1, keywords: [], ids: ['^com\.example\.bank:id/(btn_)?approve$']}
`
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(good, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("guard:\n  keywords:\n    paymnet: [abonar]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	load := func(cfg string) (runConfig, error) {
		s := newSettings(strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{}, envMap(map[string]string{"HOME": dir}))
		root := s.rootCmd()
		var rc runConfig
		var err error
		root.RunE = func(cmd *cobra.Command, _ []string) error { rc, err = s.runConfig(cmd); return nil }
		root.SetArgs([]string{"--config", cfg})
		if e := root.Execute(); e != nil {
			t.Fatal(e)
		}
		return rc, err
	}
	rc, err := load(good)
	if err != nil || rc.Agent.Guard == nil {
		t.Fatalf("guard from config: %v (guard %v)", err, rc.Agent.Guard)
	}
	tap := event.Action{Type: event.Tap, Index: 1}
	for _, tc := range []struct{ label, category string }{{"Abonar", "payment"}, {"Reservar", "booking"}, {"Pagar", "payment"}, {"Refresh", ""}} {
		v, hit := rc.Agent.Guard.Check(tap, &perception.Element{Label: tc.label, Text: tc.label, Clickable: true}, &perception.Screen{})
		if got := map[bool]string{true: v.Category}[hit]; got != tc.category {
			t.Errorf("%q: category %q, want %q", tc.label, got, tc.category)
		}
	}
	approve := &perception.Element{Label: "OK", Text: "OK", ResourceID: "com.example.bank:id/btn_approve", Clickable: true}
	if v, hit := rc.Agent.Guard.Check(tap, approve, &perception.Screen{}); !hit || v.Category != "payment" {
		t.Errorf("an app's button named by its resource id: %+v, %v", v, hit)
	}
	// A page word from the config makes a page with an amount one that pays: its bottom
	// button in a language the vocabulary lacks is held, a way out from the config is not.
	page := &perception.Screen{Context: []string{"Betaalverzoek", "€ 12,50"}, Elements: []perception.Element{
		{Index: 1, Label: "Laat maar", Text: "Laat maar", Class: "android.widget.Button", Clickable: true, Bounds: perception.Bounds{Y1: 2000, Y2: 2100}},
		{Index: 2, Label: "Akkoord en betalen", Text: "Akkoord en betalen", Class: "android.widget.Button", Clickable: true, Bounds: perception.Bounds{Y1: 2200, Y2: 2300}}}}
	if v, hit := rc.Agent.Guard.Check(tap, &page.Elements[1], page); !hit || v.Category != "payment" {
		t.Errorf("the bottom button of a page with a configured page word: %+v, %v", v, hit)
	}
	out := &perception.Screen{Context: page.Context, Elements: page.Elements[:1]} // the way out alone, at the bottom
	if v, hit := rc.Agent.Guard.Check(tap, &out.Elements[0], out); hit {
		t.Errorf("a configured way out is held: %+v", v)
	}
	if _, err := load(bad); err == nil || !strings.Contains(err.Error(), "paymnet") {
		t.Errorf("a keyword for an unknown category: err = %v, want an error naming it", err)
	}
}
