package executor

import (
	"testing"

	"github.com/fairy-go/fairy/prompts"
)

// said is what notes say to the model, as the prompts render them.
func said(t *testing.T, ns ...prompts.Note) string {
	t.Helper()
	set, err := prompts.Load()
	if err != nil {
		t.Fatal(err)
	}
	s, err := set.NoteText(ns...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
