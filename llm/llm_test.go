package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

func TestExtractJSON(t *testing.T) {
	const obj = `{"a": "x } y", "b": {"c": [1, 2]}}`
	tests := []struct {
		name, in, want string
		err            error
	}{
		{"plain", obj, obj, nil},
		{"spaces", "\n  " + obj + "\n", obj, nil},
		{"fence", "```json\n" + obj + "\n```", obj, nil},
		{"fence unclosed", "```json\n" + obj, obj, nil},
		{"second fence", "```\nnot json\n```\n```json\n" + obj + "\n```", obj, nil},
		{"prose", "Here you go: " + obj + ". Anything else?", obj, nil},
		{"brace in string", `Answer {"t": "a { b"} ok`, `{"t": "a { b"}`, nil},
		{"escaped quote", `x {"t": "say \"}\""} y`, `{"t": "say \"}\""}`, nil},
		{"stray brace first", `use {this} then {"k": 1}`, `{"k": 1}`, nil},
		{"array", `[1, 2]`, "", ErrNoJSON},
		{"none", `I cannot do that.`, "", ErrNoJSON},
		{"broken", `{"a": }`, "", ErrNoJSON},
		{"empty", ``, "", ErrNoJSON},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ExtractJSON(tt.in)
			if !errors.Is(err, tt.err) || got != tt.want {
				t.Errorf("ExtractJSON(%q) = %q, %v; want %q, %v", tt.in, got, err, tt.want, tt.err)
			}
		})
	}
}

func FuzzExtractJSON(f *testing.F) {
	for _, s := range []string{`{"a":1}`, "```json\n{}\n```", `x {"a":"}"} y`, `{{{`, `"\"{`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ExtractJSON(s)
		if err != nil {
			return
		}
		var m map[string]any
		if json.Unmarshal([]byte(got), &m) != nil || !strings.Contains(s, got) {
			t.Fatalf("ExtractJSON(%q) = %q: not an object from the input", s, got)
		}
	})
}

func TestCheckJSON(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","required":["action","index"]}`)
	tests := []struct{ text, want string }{
		{`{"action":"tap","index":1}`, ""},
		{`{"action":"tap"}`, `missing required key(s) "index" (present: "action")`},
		{`{}`, `"action", "index" (present: none)`},
		{`null`, "null is not a JSON object"},
		{`[1]`, "not a JSON object"},
	}
	for _, tt := range tests {
		err := CheckJSON(tt.text, schema)
		if tt.want == "" {
			if err != nil {
				t.Errorf("CheckJSON(%s) = %v", tt.text, err)
			}
			continue
		}
		if !errors.Is(err, ErrSchema) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("CheckJSON(%s) = %v, want %q", tt.text, err, tt.want)
		}
	}
	if err := CheckJSON(`{"a":1}`, nil); err != nil {
		t.Errorf("no schema: %v", err)
	}
}

func TestPriceTable(t *testing.T) {
	pt := PriceTable{"gpt-4o": {PromptPerM: 2.5, CompletionPerM: 10}, "gpt-4o-mini": {PromptPerM: 0.15, CompletionPerM: 0.6}}
	tests := []struct {
		model string
		u     Usage
		want  float64
	}{
		{"gpt-4o", Usage{PromptTokens: 1000, CompletionTokens: 200}, 0.0045},
		{"gpt-4o-2024-08-06", Usage{PromptTokens: 2_000_000}, 5},
		{"gpt-4o-mini-2024-07-18", Usage{PromptTokens: 1_000_000, CompletionTokens: 1_000_000}, 0.75},
		{"qwen-max", Usage{PromptTokens: 1000}, 0},
	}
	for _, tt := range tests {
		if got := pt.Cost(tt.model, tt.u); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("Cost(%s, %+v) = %v, want %v", tt.model, tt.u, got, tt.want)
		}
	}
}

func TestScrubber(t *testing.T) {
	s := NewScrubber("hunter2-local-secret", "")
	in := "key hunter2-local-secret and sk-proj-abcdef0123456789 and Authorization: Bearer abc.def.ghi123"
	out := s.Scrub(in)
	for _, leak := range []string{"hunter2", "sk-proj-abc", "abc.def"} {
		if strings.Contains(out, leak) {
			t.Errorf("Scrub left %q: %s", leak, out)
		}
	}
}

func TestReplayOrderAndMiss(t *testing.T) {
	var buf bytes.Buffer
	rec := NewRecorder(&buf, "topsecret")
	req := Request{Role: RoleDecider, System: "sys topsecret", Messages: []Message{{Role: "user", Text: "screen"}}}
	for i := range 2 {
		if err := rec.Record(req, Response{Text: fmt.Sprintf(`{"n":%d}`, i), Model: "m", Latency: 1234567 * time.Nanosecond, Cost: 0.1 + 0.2}); err != nil {
			t.Fatal(err)
		}
	}
	if strings.Contains(buf.String(), "topsecret") {
		t.Errorf("recording holds a secret: %s", buf.String())
	}
	rp, err := LoadReplay(&buf)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for range 3 {
		r, err := rp.Generate(t.Context(), req)
		if err != nil {
			t.Fatal(err)
		}
		if r.Latency != 1234567*time.Nanosecond || r.Cost != 0.1+0.2 {
			t.Errorf("latency %v cost %v not round-tripped", r.Latency, r.Cost)
		}
		got = append(got, r.Text)
	}
	if want := `[{"n":0} {"n":1} {"n":1}]`; fmt.Sprint(got) != want {
		t.Errorf("answers %v, want %s", got, want)
	}
	other := req
	other.Schema = &Schema{Name: "decider"}
	if _, err := rp.Generate(t.Context(), other); !errors.Is(err, ErrReplayMiss) {
		t.Errorf("err = %v, want ErrReplayMiss", err)
	}
	if _, err := LoadReplay(strings.NewReader("{\"key\":\"a\"}\nnot json\n")); !errors.Is(err, errRecording) || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("err = %v, want ErrRecording at line 2", err)
	}
}

func TestMeter(t *testing.T) {
	var m Meter
	m.Add(RoleDecider, Response{Usage: Usage{PromptTokens: 10, CompletionTokens: 2}, Cost: 0.5, Latency: time.Second})
	m.Add(RoleDecider, Response{Usage: Usage{PromptTokens: 5}, Cost: 0.25})
	m.Add(RolePlanner, Response{Usage: Usage{CompletionTokens: 1}})
	if d := m.ByRole()[RoleDecider]; d.Calls != 2 || d.Usage.Total() != 17 || d.Cost != 0.75 {
		t.Errorf("decider tally %+v", d)
	}
	if tot := m.Total(); tot.Calls != 3 || tot.Usage.Total() != 18 || tot.Latency != time.Second {
		t.Errorf("total %+v", tot)
	}
}

func ExampleExtractJSON() {
	obj, err := ExtractJSON("Sure! ```json\n{\"action\": \"tap\", \"index\": 7}\n``` Hope that helps.")
	fmt.Println(obj, err)
	// Output: {"action": "tap", "index": 7} <nil>
}

func ExamplePriceTable_Cost() {
	prices := PriceTable{"gpt-4o": {PromptPerM: 2.5, CompletionPerM: 10}}
	fmt.Printf("$%.4f\n", prices.Cost("gpt-4o-2024-08-06", Usage{PromptTokens: 1000, CompletionTokens: 200}))
	// Output: $0.0045
}
