package knowledge

import (
	"errors"
	"math"
	"slices"
	"testing"
)

func TestTerms(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Send a message to Alice", []string{"send", "message", "alice"}},
		{"In Messages, tap the compose button", []string{"message", "tap", "compose", "button"}},
		{"Tapping the tabs; searched stories", []string{"tap", "tab", "search", "story"}},
		{"Alice's inbox", []string{"alice", "inbox"}},
		{"点一杯珍珠奶茶", []string{"点一", "一杯", "杯珍", "珍珠", "珠奶", "奶茶"}},
		{"在WeChat里发消息", []string{"在", "wechat", "里发", "发消", "消息"}},
		{"ＳＥＮＤ　１２３", []string{"send", "123"}},
		{"", nil},
		{"  ,,, !!", nil},
	}
	for _, tt := range tests {
		if got := terms(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("Terms(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTokenizer(t *testing.T) {
	ids := Tokenizer{Stop: map[string]bool{"app": true, "button": true}, Camel: true}
	tests := []struct {
		name string
		tk   Tokenizer
		in   string
		want []string
	}{
		{"zero value is Terms", Tokenizer{}, "WeChat settingsButton", []string{"wechat", "settingsbutton"}},
		{"camelCase", ids, "PlayStore settingsButton", []string{"play", "store", "setting"}},
		{"snake_case and dots", ids, "com.android.settings:id/switch_widget", []string{"com", "android", "setting", "id", "switch", "widget"}},
		{"stop words before stemming", ids, "app apps buttons", []string{"app", "button"}},
		{"English stop words still dropped", ids, "Turn off the Wi-Fi", []string{"turn", "wi", "fi"}},
		{"apostrophe then camel", ids, "Bob'sPhone", []string{"bob", "phone"}},
		{"CJK beside an id", ids, "打开wifiToggle", []string{"打开", "wifi", "toggle"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.tk.Terms(tt.in); !slices.Equal(got, tt.want) {
				t.Errorf("Terms(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func seedTricks(t *testing.T, s *Store) map[string]string {
	t.Helper()
	ids := map[string]string{}
	for name, tr := range map[string]Trick{
		"compose":  {App: "com.google.android.apps.messaging", Kind: KindAction, Text: "In Messages, tap the compose button (Start chat) at the bottom right, then type the contact's name."},
		"archive":  {App: "com.google.android.apps.messaging", Kind: KindAction, Text: "Long-press a conversation to archive or delete it."},
		"mplan":    {App: "com.google.android.apps.messaging", Kind: KindPlanning, Text: "To send a message: open the conversation, type, then press send."},
		"bubble":   {App: "com.tea.shop", Kind: KindAction, Text: "在菜单里搜索珍珠奶茶，然后点加入购物车。"},
		"pay":      {App: "com.tea.shop", Kind: KindAction, Text: "付款前确认收货地址和优惠券。"},
		"teaplan":  {App: "com.tea.shop", Kind: KindPlanning, Text: "先选门店，再点饮品，最后结算。"},
		"perm":     {App: Common, Kind: KindRecovery, Text: "If a permission dialog appears, tap Allow only while using the app."},
		"keyboard": {App: Common, Kind: KindAction, Text: "Hide the keyboard with Back before tapping buttons it covers."},
	} {
		got, err := s.AddTrick(tr)
		if err != nil {
			t.Fatal(err)
		}
		ids[name] = got.ID
	}
	return ids
}

func TestSearchEnglishAndChinese(t *testing.T) {
	s, _ := openTemp(t, Options{})
	ids := seedTricks(t, s)
	tests := []struct {
		name  string
		app   string
		kind  Kind
		query string
		want  string // top hit
		none  bool
	}{
		{"english action", "com.google.android.apps.messaging", KindAction, "send a message to Alice", "compose", false},
		{"english planning", "com.google.android.apps.messaging", KindPlanning, "send a message to Alice", "mplan", false},
		{"english delete", "com.google.android.apps.messaging", KindAction, "delete the conversation with Bob", "archive", false},
		{"chinese", "com.tea.shop", KindAction, "点一杯珍珠奶茶", "bubble", false},
		{"chinese pay", "com.tea.shop", "", "帮我付款", "pay", false},
		{"common recovery via app", "com.tea.shop", KindRecovery, "permission dialog blocks the screen", "perm", false},
		{"common keyboard", "com.google.android.apps.messaging", "", "the keyboard covers the send button", "keyboard", false},
		{"other app's tricks stay out", "com.tea.shop", KindAction, "compose", "", true},
		{"no shared term", "com.tea.shop", KindAction, "weather forecast", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hits, err := s.Search(tt.app, tt.kind, tt.query, 3)
			if err != nil {
				t.Fatal(err)
			}
			if tt.none {
				if len(hits) != 0 {
					t.Fatalf("Search(%q) = %v, want none", tt.query, hits)
				}
				return
			}
			if len(hits) == 0 || hits[0].Trick.ID != ids[tt.want] {
				t.Fatalf("Search(%q) top = %v, want %s (%s)", tt.query, hits, tt.want, ids[tt.want])
			}
			for _, h := range hits {
				if h.Trick.App != tt.app && h.Trick.App != Common {
					t.Errorf("hit from app %s", h.Trick.App)
				}
				if tt.kind != "" && h.Trick.Kind != tt.kind {
					t.Errorf("hit of kind %s", h.Trick.Kind)
				}
			}
		})
	}
}

func TestSearchTopKAndScoreWeighting(t *testing.T) {
	s, _ := openTemp(t, Options{})
	a, _ := s.AddTrick(Trick{App: "com.a", Kind: KindAction, Text: "Tap the search icon to find a contact."})
	b, _ := s.AddTrick(Trick{App: "com.a", Kind: KindAction, Text: "Tap the search icon to find a contact quickly."})
	for range 5 {
		if _, err := s.RecordUse(b.ID, true); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Demote(a.ID); err != nil {
		t.Fatal(err)
	}
	hits, err := s.Search("com.a", KindAction, "find a contact", 1)
	if err != nil || len(hits) != 1 || hits[0].Trick.ID != b.ID {
		t.Fatalf("top-1 = %v, %v; want the proven trick %s", hits, err, b.ID)
	}
	if hits, _ := s.Search("com.a", KindAction, "find", 0); hits != nil {
		t.Fatalf("k=0 gave %v", hits)
	}
	hits, _ = s.Search("com.a", "", "", 10)
	if len(hits) != 2 || hits[0].Trick.ID != b.ID {
		t.Fatalf("empty query = %v, want both by score", hits)
	}
}

func TestTrickLifecycle(t *testing.T) {
	s, _ := openTemp(t, Options{})
	tr, err := s.AddTrick(Trick{App: "com.a", Kind: "recovery", Text: "  If the app crashes, relaunch it.  ",
		Provenance: Provenance{Instruction: "open a", RunID: "r1", Outcome: "failure"}})
	if err != nil {
		t.Fatal(err)
	}
	if tr.ID != "t1" || tr.Kind != KindRecovery || tr.Text != "If the app crashes, relaunch it." || tr.Score != 0.5 || tr.Provenance.Time.IsZero() {
		t.Fatalf("added %+v", tr)
	}
	tr, _ = s.RecordUse(tr.ID, true)
	tr, _ = s.RecordUse(tr.ID, false)
	if tr.Uses != 2 || tr.Successes != 1 || tr.Score != 0.5 {
		t.Fatalf("after uses %+v", tr)
	}
	tr, _ = s.Demote(tr.ID)
	if tr.Demotions != 1 || math.Abs(tr.Score-0.25) > 1e-9 {
		t.Fatalf("after demote %+v", tr)
	}
	got, err := s.Trick(tr.ID)
	if err != nil || got.Score != tr.Score {
		t.Fatalf("Trick(%s) = %+v, %v", tr.ID, got, err)
	}
	if err := s.DeleteTrick(tr.ID); err != nil {
		t.Fatal(err)
	}
	for _, f := range []func() error{
		func() error { _, err := s.Trick(tr.ID); return err },
		func() error { return s.DeleteTrick(tr.ID) },
		func() error { _, err := s.RecordUse(tr.ID, true); return err },
		func() error { _, err := s.Demote("nope"); return err },
	} {
		if err := f(); !errors.Is(err, ErrNotFound) {
			t.Errorf("on deleted trick: %v, want ErrNotFound", err)
		}
	}
	// IDs are not reused after a delete.
	if tr2, _ := s.AddTrick(Trick{App: "com.a", Kind: KindAction, Text: "x"}); tr2.ID != "t2" {
		t.Fatalf("next ID %s, want t2", tr2.ID)
	}
}

func TestAddTrickInvalid(t *testing.T) {
	s, _ := openTemp(t, Options{})
	for _, tr := range []Trick{
		{App: "com.a", Kind: KindAction},
		{Kind: KindAction, Text: "x"},
		{App: "com.a", Kind: "bogus", Text: "x"},
		{App: "com.a", Kind: KindAction, Text: "x", Uses: 1, Successes: 2},
	} {
		if _, err := s.AddTrick(tr); !errors.Is(err, ErrInvalid) {
			t.Errorf("AddTrick(%+v) = %v, want ErrInvalid", tr, err)
		}
	}
}

func TestUpsertMergesNearDuplicates(t *testing.T) {
	s, _ := openTemp(t, Options{})
	first, merged, err := s.UpsertTrick(Trick{App: "com.a", Kind: KindAction, Text: "Tap the search icon at the top to search the menu.", Uses: 1, Successes: 1})
	if err != nil || merged {
		t.Fatalf("first upsert: %v merged=%v", err, merged)
	}
	tests := []struct {
		name   string
		trick  Trick
		merged bool
	}{
		{"reworded", Trick{App: "com.a", Kind: KindAction, Text: "Tap the search icon at the top of the menu to search it quickly.", Uses: 1}, true},
		{"other kind", Trick{App: "com.a", Kind: KindPlanning, Text: "Tap the search icon at the top to search the menu."}, false},
		{"other app", Trick{App: "com.b", Kind: KindAction, Text: "Tap the search icon at the top to search the menu."}, false},
		{"different tip", Trick{App: "com.a", Kind: KindAction, Text: "Swipe left on an order to cancel it."}, false},
		{"chinese dup", Trick{App: "com.a", Kind: KindAction, Text: "在菜单里搜索珍珠奶茶"}, false},
		{"chinese dup again", Trick{App: "com.a", Kind: KindAction, Text: "在菜单里搜索珍珠奶茶。"}, true},
	}
	for _, tt := range tests {
		got, merged, err := s.UpsertTrick(tt.trick)
		if err != nil || merged != tt.merged {
			t.Errorf("%s: merged=%v err=%v, want merged=%v", tt.name, merged, err, tt.merged)
		}
		if tt.name == "reworded" {
			if got.ID != first.ID || got.Merges != 1 || got.Uses != 2 || got.Successes != 1 || got.Text != tt.trick.Text {
				t.Errorf("merged trick %+v", got)
			}
		}
	}
	all, _ := s.Tricks("", "")
	if len(all) != 5 {
		t.Fatalf("%d tricks after upserts, want 5", len(all))
	}
}
