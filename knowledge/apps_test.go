package knowledge

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAppsAndMetadata(t *testing.T) {
	s, _ := openTemp(t, Options{})
	recordChat(t, s)
	if _, err := s.PutApp(App{Package: chat, Label: "Chat", LauncherActivity: ".ConversationList"}); err != nil {
		t.Fatal(err)
	}
	a, err := s.PutApp(App{Package: chat, Description: "Send and read text messages."})
	if err != nil || a.Label != "Chat" || a.LauncherActivity != ".ConversationList" || a.Description == "" {
		t.Fatalf("merged metadata %+v, %v", a, err)
	}
	if _, err := s.PutApp(App{Package: "com.tea.shop", Label: "Tea"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutApp(App{Package: Common}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("PutApp(common) = %v", err)
	}
	if _, err := s.AddTrick(Trick{App: chat, Kind: KindAction, Text: "x"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetApp("com.none"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("GetApp(none) = %v", err)
	}
	list, _ := s.ListApps()
	if len(list) != 2 || list[0].Package != chat {
		t.Fatalf("ListApps = %+v", list)
	}
	apps, err := s.Apps()
	if err != nil {
		t.Fatal(err)
	}
	want := []AppSummary{
		{Package: chat, Label: "Chat", Pages: 3, Transitions: 6, Tricks: 1},
		{Package: "com.tea.shop", Label: "Tea"},
	}
	if diff := cmp.Diff(want, apps); diff != "" {
		t.Fatalf("Apps (-want +got):\n%s", diff)
	}
}
