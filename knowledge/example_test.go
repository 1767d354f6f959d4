package knowledge

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"
)

func Example() {
	dir, err := os.MkdirTemp("", "fairy-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	clock := func() time.Time { return time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC) }
	s, err := Open(filepath.Join(dir, "knowledge.db"), Options{Clock: clock})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	// Learn a trick and find it again, in English and in Chinese.
	_, _ = s.AddTrick(Trick{App: "com.example.chat", Kind: KindAction,
		Text: "In Messages, tap the compose button, then type the contact's name."})
	_, _ = s.AddTrick(Trick{App: "com.example.tea", Kind: KindAction,
		Text: "在菜单里搜索珍珠奶茶，然后点加入购物车。"})
	hits, _ := s.Search("com.example.chat", KindAction, "send a message to Alice", 3)
	fmt.Println(hits[0].Trick.ID, hits[0].Trick.Text)
	hits, _ = s.Search("com.example.tea", "", "点一杯珍珠奶茶", 3)
	fmt.Println(hits[0].Trick.ID, hits[0].Trick.Text)

	// Learn two transitions of the App Map and ask for a path.
	list, compose, conv := PageKey(".List", "a"), PageKey(".Compose", "b"), PageKey(".Chat", "c")
	_, _ = s.RecordTransition("com.example.chat", Transition{From: list, To: compose,
		Action: Action{Kind: ActionTap, Target: Element{ResourceID: "compose"}}}, true)
	_, _ = s.RecordTransition("com.example.chat", Transition{From: compose, To: conv,
		Action: Action{Kind: ActionTap, Target: Element{Text: "Alice"}}}, true)
	path, _ := s.Path("com.example.chat", list, conv)
	for _, t := range path {
		fmt.Println(t.Action)
	}
	// Output:
	// t1 In Messages, tap the compose button, then type the contact's name.
	// t2 在菜单里搜索珍珠奶茶，然后点加入购物车。
	// tap id=compose
	// tap "Alice"
}

func Example_terms() {
	fmt.Println(terms("Tapping Alice's messages"))
	fmt.Println(terms("点一杯珍珠奶茶"))
	// Output:
	// [tap alice message]
	// [点一 一杯 杯珍 珍珠 珠奶 奶茶]
}

func ExampleTokenizer() {
	ids := Tokenizer{Stop: map[string]bool{"id": true, "button": true}, Camel: true}
	fmt.Println(ids.Terms("com.example:id/wifiToggle Wi-Fi button"))
	// Output:
	// [com example wifi toggle wi fi]
}
