package knowledge

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPathPrefersReliableEdges(t *testing.T) {
	s, _ := openTemp(t, Options{})
	recordChat(t, s)
	path, err := s.Path(chat, "p1", "p3")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tr := range path {
		got = append(got, tr.Action.String())
	}
	want := []string{`tap id=compose "Start chat"`, `tap "Alice"`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("path (-want +got):\n%s", diff)
	}
	// Once the direct tap has worked often enough, it wins.
	for range 20 {
		if _, err := s.RecordTransition(chat, Transition{From: PageKey(".ConversationList", "s1"), To: PageKey(".Conversation", "s3"),
			Action: Action{Kind: ActionTap, Target: Element{Text: "Alice"}}}, true); err != nil {
			t.Fatal(err)
		}
	}
	path, err = s.Path(chat, ".ConversationList#", PageKey(".Conversation", "s3"))
	if err != nil || len(path) != 1 {
		t.Fatalf("path after reinforcement: %v, %v", path, err)
	}
	if path, err := s.Path(chat, "p2", "p2"); err != nil || len(path) != 0 {
		t.Fatalf("path to itself: %v, %v", path, err)
	}
}

func TestPathErrors(t *testing.T) {
	s, _ := openTemp(t, Options{})
	recordChat(t, s)
	if _, err := s.RecordPage(chat, Page{Activity: ".Settings", Signature: "s9"}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		app, from, to string
		want          error
	}{
		{chat, "p1", "p4", ErrNoPath},
		{chat, "p1", "p99", ErrNotFound},
		{chat, ".Co", "p1", ErrAmbiguous},
		{"com.unknown", "p1", "p2", ErrNotFound},
	}
	for _, tt := range tests {
		if _, err := s.Path(tt.app, tt.from, tt.to); !errors.Is(err, tt.want) {
			t.Errorf("Path(%s, %s, %s) = %v, want %v", tt.app, tt.from, tt.to, err, tt.want)
		}
	}
}
