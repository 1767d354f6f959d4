package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/fairy-go/fairy/memory"
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
  confirm: [vale]
  rules:
    - {category: booking, type: 2, keywords: [reservar, book now]}
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
	tap := memory.Action{Type: memory.Tap, Index: 1}
	for _, tc := range []struct{ label, category string }{{"Abonar", "payment"}, {"Reservar", "booking"}, {"Pagar", "payment"}, {"Refresh", ""}} {
		v, hit := rc.Agent.Guard.Check(tap, &perception.Element{Label: tc.label, Text: tc.label, Clickable: true}, &perception.Screen{})
		if got := map[bool]string{true: v.Category}[hit]; got != tc.category {
			t.Errorf("%q: category %q, want %q", tc.label, got, tc.category)
		}
	}
	if _, err := load(bad); err == nil || !strings.Contains(err.Error(), "paymnet") {
		t.Errorf("a keyword for an unknown category: err = %v, want an error naming it", err)
	}
}
