package knowledge

import (
	"bytes"
	"strings"
	"testing"
)

func TestRenderings(t *testing.T) {
	s, _ := openTemp(t, Options{})
	recordChat(t, s)
	m, _ := s.Map(chat)
	tests := []struct {
		name  string
		write func(*bytes.Buffer) error
		want  []string
	}{
		{"dot", func(b *bytes.Buffer) error { return m.WriteDOT(b) }, []string{
			`digraph "com.example.chat" {`, "rankdir=TB;", `"p1" [label="p1: Conversation list"`, `"p2" [label="p2: New conversation:\npick a contact"`,
			`"p1" -> "p2" [label="tap id=compose \"Start\nchat\" (3✓ 0✗)"]`, `"p1" -> "p3" [label="tap \"Alice\" (1✓ 4✗)", color=red]`,
			`"p1" -> "p1" [label="2 actions stay", tooltip="swipe direction=\"up\" (1✓ 0✗)\ntap desc=\"More options\" (1✓ 0✗)", style=dashed]`,
			`"p3" -> "p1" [taillabel="back (1✓ 0✗)", labelfontsize=8, labelfontcolor=gray30, constraint=false, color=gray50]`}},
		{"mermaid", func(b *bytes.Buffer) error { return m.WriteMermaid(b) }, []string{
			"flowchart LR", `p1["p1: Conversation list"]`, `p1 -->|"tap id=compose #quot;Start chat#quot; (3✓ 0✗)"| p2`, `p1 -.->|`}},
		{"json", func(b *bytes.Buffer) error { return m.WriteJSON(b) }, []string{
			`"app": "com.example.chat"`, `"effect": "same-page-changed"`, `"resource_id": "com.example.chat:id/compose"`}},
		{"table", func(b *bytes.Buffer) error { return m.WriteTable(b) }, []string{
			"App com.example.chat: 3 pages, 6 transitions", "PAGE", "p1    1", `tap id=compose "Start chat"`, "no-change"}},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		if err := tt.write(&b); err != nil {
			t.Fatal(err)
		}
		for _, w := range tt.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s output lacks %q:\n%s", tt.name, w, b.String())
			}
		}
	}
}
