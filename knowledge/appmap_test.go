package knowledge

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const chat = "com.example.chat"

var (
	tapCompose = Action{Kind: ActionTap, Target: Element{ResourceID: "com.example.chat:id/compose", Text: "Start chat", Class: "android.widget.Button"}}
	tapContact = Action{Kind: ActionTap, Target: Element{Text: "Alice", Class: "android.widget.TextView"}}
	back       = Action{Kind: ActionBack}
	scrollDown = Action{Kind: ActionSwipe, Args: map[string]string{"direction": "up"}}
	tapMenu    = Action{Kind: ActionTap, Target: Element{Desc: "More options"}}
)

// recordChat records a small map: list → compose → conversation, with a
// flaky shortcut list → conversation and a menu that does nothing.
func recordChat(t *testing.T, s *Store) {
	t.Helper()
	pages := []Page{
		{Activity: ".ConversationList", Signature: "s1", Description: "Conversation list", Elements: []Element{{ResourceID: "compose", Text: "Start chat"}}},
		{Activity: ".Compose", Signature: "s2", Description: "New conversation: pick a contact"},
		{Activity: ".Conversation", Signature: "s3", Description: "Conversation with one contact"},
	}
	for _, p := range pages {
		if _, err := s.RecordPage(chat, p); err != nil {
			t.Fatal(err)
		}
	}
	list, compose, conv := PageKey(".ConversationList", "s1"), PageKey(".Compose", "s2"), PageKey(".Conversation", "s3")
	rec := func(from, to string, a Action, eff Effect, ok bool) {
		t.Helper()
		if _, err := s.RecordTransition(chat, Transition{From: from, To: to, Action: a, Effect: eff}, ok); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		rec(list, compose, tapCompose, "", true)
		rec(compose, conv, tapContact, EffectNewPage, true)
	}
	rec(list, conv, Action{Kind: ActionTap, Target: Element{Text: "Alice"}}, EffectNewPage, true)
	for range 4 {
		rec(list, conv, Action{Kind: ActionTap, Target: Element{Text: "Alice"}}, EffectNewPage, false)
	}
	rec(conv, list, back, EffectNewPage, true)
	rec(list, list, scrollDown, EffectSamePage, true)
	rec(list, list, tapMenu, EffectNoChange, true)
}

func TestMapRecordAndReopen(t *testing.T) {
	s, path := openTemp(t, Options{})
	recordChat(t, s)
	m, err := s.Map(chat)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Pages) != 3 || len(m.Transitions) != 6 {
		t.Fatalf("map has %d pages, %d transitions; want 3, 6", len(m.Pages), len(m.Transitions))
	}
	if p := m.Pages[0]; p.ID != "p1" || p.Visits != 1 || p.Description != "Conversation list" || p.FirstSeen.IsZero() || p.LastSeen.Before(p.FirstSeen) {
		t.Fatalf("first page %+v", p)
	}
	effects := map[Effect]int{}
	for _, tr := range m.Transitions {
		effects[tr.Effect]++
	}
	if effects[EffectNewPage] != 4 || effects[EffectSamePage] != 1 || effects[EffectNoChange] != 1 {
		t.Fatalf("effects %v", effects)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, preload := range []bool{false, true} {
		s2, err := Open(path, Options{Preload: preload})
		if err != nil {
			t.Fatal(err)
		}
		m2, err := s2.Map(chat)
		s2.Close()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(m, m2); diff != "" {
			t.Fatalf("reopened map (preload %v) differs (-before +after):\n%s", preload, diff)
		}
	}
}

func TestMapGraph(t *testing.T) {
	s, _ := openTemp(t, Options{})
	recordChat(t, s)
	m, _ := s.Map(chat)
	g, err := m.Graph()
	if err != nil {
		t.Fatal(err)
	}
	order, _ := g.Order()
	size, _ := g.Size()
	if order != 3 || size != 5 { // list→compose, compose→conv, list→conv, conv→list, list→list
		t.Fatalf("graph order %d size %d, want 3 and 5", order, size)
	}
	e, err := g.Edge(PageKey(".ConversationList", "s1"), PageKey(".ConversationList", "s1"))
	if err != nil || len(e.Properties.Data.([]Transition)) != 2 {
		t.Fatalf("self-loop edge %+v, %v", e, err)
	}
}

func TestRecordInvalid(t *testing.T) {
	s, _ := openTemp(t, Options{})
	a, b := "A#1", "B#2"
	tap := Action{Kind: ActionTap}
	trans := []Transition{
		{From: a, Action: tap},
		{From: a, To: b},
		{From: a, To: a, Action: tap},
		{From: a, To: a, Action: tap, Effect: EffectNewPage},
		{From: a, To: b, Action: tap, Effect: EffectNoChange},
		{From: a, To: b, Action: tap, Effect: "teleport"},
	}
	for _, tr := range trans {
		if _, err := s.RecordTransition("com.a", tr, true); !errors.Is(err, ErrInvalid) {
			t.Errorf("RecordTransition(%+v) = %v, want ErrInvalid", tr, err)
		}
	}
	if _, err := s.RecordTransition("", Transition{From: a, To: b, Action: tap}, true); !errors.Is(err, ErrInvalid) {
		t.Errorf("empty app: %v", err)
	}
	if _, err := s.RecordPage("com.a", Page{}); !errors.Is(err, ErrInvalid) {
		t.Errorf("empty page: %v", err)
	}
	if apps, _ := s.Apps(); len(apps) != 0 {
		t.Errorf("invalid writes left apps %v", apps)
	}
}

func TestConcurrentUse(t *testing.T) {
	s, _ := openTemp(t, Options{})
	recordChat(t, s)
	seedTricks(t, s)
	done := make(chan error, 3)
	go func() {
		for i := range 50 {
			if _, err := s.RecordTransition(chat, Transition{From: PageKey(".Compose", "s2"), To: PageKey(".ConversationList", "s1"), Action: back}, i%2 == 0); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	go func() {
		for range 50 {
			if _, err := s.Path(chat, "p1", "p3"); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	go func() {
		for range 50 {
			if _, err := s.Search(chat, "", "send a message", 3); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	for range 3 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	m, _ := s.Map(chat)
	for _, tr := range m.Transitions {
		if tr.Action.Kind == ActionBack && tr.From == PageKey(".Compose", "s2") && (tr.Successes != 25 || tr.Failures != 25) {
			t.Fatalf("concurrent counts %+v", tr)
		}
	}
}
