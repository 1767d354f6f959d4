package scripted_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/llm/openai"
	"github.com/fairy-go/fairy/llm/scripted"
)

// A chat app in three screens; the element numbering shifts between them, and the script
// names elements by label only.
const (
	inbox = `Screen (com.example.chat):
- "Chats"
- [1] button "Search" id=search
- [2] item "Alice" id=row
- [3] item "Bob" id=row
- [4] button "New chat" id=fab`
	thread = `Screen (com.example.chat):
- [1] button "Back" id=up
- "Bob"
- [2] input "" id=compose_text focused
- [3] button "Send" id=send_btn`
	threadTyped = `Screen (com.example.chat):
- [1] button "Back" id=up
- [2] button "Call"
- "Bob"
- [3] input "Hi \"Bob\"" id=compose_text focused
- [4] button "Send" id=send_btn`
)

const chatRules = `
rules:
  - name: plan
    role: planner
    match: 'Send "(.+)" to (\w+)'
    answer: |
      {"tasks": [{"app": "chat", "task": {{json (printf "tell %s %s" (match 2) (match 1))}}}]}
  - name: open the thread
    role: decider
    match: ['tell (\w+)', 'Chats']
    answer: '{"action": "tap", "index": {{index (match 1)}}, "why": "open {{match 1}}"}'
  - name: type
    role: decider
    match: ['tell \w+ (.+)', 'id=compose_text']
    not: 'input "Hi'
    answer: '{"action": "type", "index": {{index "compose_text"}}, "text": {{json (match 1)}}}'
  - name: send
    role: decider
    match: 'input "Hi'
    times: 1
    answer: '{"action": "tap", "index": {{index "send"}}, "has_call": {{has "Call"}}, "label": {{json (label 3)}}}'
  - name: done
    role: decider
    answer: '{"action": "done", "index": 0}'
`

var schemas = map[llm.Role]json.RawMessage{
	llm.RolePlanner: json.RawMessage(`{"type":"object","required":["tasks"]}`),
	llm.RoleDecider: json.RawMessage(`{"type":"object","required":["action","index"]}`),
}

func request(role llm.Role, prompt string) llm.Request {
	return llm.Request{
		Role:     role,
		System:   "You are fairy's " + string(role) + ".",
		Messages: []llm.Message{{Role: "user", Text: prompt}},
		Schema:   &llm.Schema{Name: string(role), JSON: schemas[role]},
	}
}

func newScripted(t *testing.T, rules string, logs io.Writer) (*scripted.Server, *httptest.Server) {
	t.Helper()
	rs, err := scripted.ParseRules([]byte(rules))
	if err != nil {
		t.Fatalf("ParseRules: %v", err)
	}
	if logs == nil {
		logs = io.Discard
	}
	s, err := scripted.NewServer(rs, scripted.Options{Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil {
		t.Fatalf("NewServer: %v", err)
	}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, srv
}

func client(t *testing.T, url string, mode openai.Mode, rec *llm.Recorder) *openai.Client {
	t.Helper()
	c, err := openai.New(openai.Config{
		BaseURL: url + "/v1", APIKey: "sk-scripted-test-key-000000", DefaultModel: "whatever", Mode: mode,
		Prices: llm.PriceTable{scripted.ModelName: {PromptPerM: 1, CompletionPerM: 4}}, Recorder: rec,
		Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() },
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

type step struct {
	role   llm.Role
	prompt string
	want   string
}

var chatSession = []step{
	{llm.RolePlanner, `Instruction: Send "Hi Bob" to Bob`, `{"tasks": [{"app": "chat", "task": "tell Bob Hi Bob"}]}`},
	{llm.RoleDecider, "Task: tell Bob Hi Bob\n" + inbox, `{"action": "tap", "index": 3, "why": "open Bob"}`},
	{llm.RoleDecider, "Task: tell Bob Hi Bob\n" + thread, `{"action": "type", "index": 2, "text": "Hi Bob"}`},
	{llm.RoleDecider, "Task: tell Bob Hi Bob\nPrevious screen:\n" + thread + "\nNow:\n" + threadTyped,
		`{"action": "tap", "index": 4, "has_call": true, "label": "Hi \"Bob\""}`},
	{llm.RoleDecider, "Task: tell Bob Hi Bob\n" + threadTyped, `{"action": "done", "index": 0}`}, // "send" fired once
}

func TestScriptThroughAdapter(t *testing.T) {
	for _, mode := range []openai.Mode{openai.ModeJSONSchema, openai.ModeJSONObject, openai.ModeText} {
		t.Run(string(mode), func(t *testing.T) {
			var logs bytes.Buffer
			s, srv := newScripted(t, chatRules, &logs)
			c := client(t, srv.URL, mode, nil)
			for i, st := range chatSession {
				resp, err := c.Generate(t.Context(), request(st.role, st.prompt))
				if err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				if resp.Text != st.want {
					t.Errorf("step %d: answer %s\nwant          %s", i, resp.Text, st.want)
				}
				if resp.Model != scripted.ModelName || resp.Usage.PromptTokens == 0 || resp.Usage.CompletionTokens != (len(st.want)+3)/4 {
					t.Errorf("step %d: model %q usage %+v", i, resp.Model, resp.Usage)
				}
				if want := (float64(resp.Usage.PromptTokens) + 4*float64(resp.Usage.CompletionTokens)) / 1e6; resp.Cost != want {
					t.Errorf("step %d: cost %v, want %v", i, resp.Cost, want)
				}
			}
			if u := s.Unused(); len(u) != 0 {
				t.Errorf("rules never used: %v", u)
			}
			if n := strings.Count(logs.String(), "scripted request"); n != len(chatSession) {
				t.Errorf("%d requests logged, want %d:\n%s", n, len(chatSession), logs.String())
			}
		})
	}
}

// TestUnmatchedRequest: a request no rule matches is rejected with the role and the
// prompt's head; a planner's says the script has no rule for the instruction.
func TestUnmatchedRequest(t *testing.T) {
	_, srv := newScripted(t, chatRules, nil)
	c := client(t, srv.URL, openai.ModeJSONSchema, nil)
	prompt := "Task: order pizza\n" + strings.Repeat("filler ", 100)
	_, err := c.Generate(t.Context(), request(llm.RolePlanner, prompt))
	if !errors.Is(err, openai.ErrRejected) {
		t.Fatalf("err = %v, want ErrRejected", err)
	}
	for _, want := range []string{"no rule for this instruction", "not a real model", "no rule matches", `role "planner"`, "Task: order pizza", "…"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	if strings.Contains(err.Error(), strings.Repeat("filler ", 60)) {
		t.Errorf("error quotes more than the prompt head: %v", err)
	}
}

func TestTemplateFailure(t *testing.T) {
	_, srv := newScripted(t, `rules: [{role: decider, name: tap gone, answer: '{"index": {{index "Checkout"}}}'}]`, nil)
	c := client(t, srv.URL, openai.ModeJSONSchema, nil)
	_, err := c.Generate(t.Context(), request(llm.RoleDecider, inbox))
	for _, want := range []string{`rule "tap gone"`, `"Checkout"`, `[3] "Bob"`, "no such element"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
}

func TestRecordReplay(t *testing.T) {
	_, srv := newScripted(t, chatRules, nil)
	var rec bytes.Buffer
	c := client(t, srv.URL, openai.ModeJSONSchema, llm.NewRecorder(&rec))
	var live []llm.Response
	for _, st := range chatSession {
		req := request(st.role, st.prompt)
		req.Messages[0].Images = []llm.Image{{MIME: "image/png", Data: []byte("\x89PNG fake screenshot " + st.prompt)}}
		resp, err := c.Generate(t.Context(), req)
		if err != nil {
			t.Fatal(err)
		}
		live = append(live, resp)
	}
	if strings.Contains(rec.String(), "sk-scripted-test-key") || strings.Contains(rec.String(), "fake screenshot") {
		t.Fatalf("recording holds the key or raw image bytes:\n%s", rec.String())
	}
	if got := strings.Count(rec.String(), "\n"); got != len(chatSession) {
		t.Fatalf("recording has %d lines, want %d", got, len(chatSession))
	}

	rp, err := llm.LoadReplay(bytes.NewReader(rec.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range chatSession {
		req := request(st.role, st.prompt)
		req.Messages[0].Images = []llm.Image{{MIME: "image/png", Data: []byte("\x89PNG fake screenshot " + st.prompt)}}
		got, err := rp.Generate(t.Context(), req)
		if err != nil {
			t.Fatalf("replay step %d: %v", i, err)
		}
		if got != live[i] {
			t.Errorf("replay step %d = %+v, want %+v", i, got, live[i])
		}
	}
	// A different screenshot is a different request.
	req := request(llm.RoleDecider, chatSession[1].prompt)
	req.Messages[0].Images = []llm.Image{{MIME: "image/png", Data: []byte("other")}}
	if _, err := rp.Generate(t.Context(), req); !errors.Is(err, llm.ErrReplayMiss) || !strings.Contains(err.Error(), `role "decider"`) {
		t.Errorf("err = %v, want ErrReplayMiss naming the role", err)
	}
}

func TestServerEndpoints(t *testing.T) {
	_, srv := newScripted(t, chatRules, nil)
	resp, err := http.Get(srv.URL + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), scripted.ModelName) {
		t.Errorf("models: %d %s", resp.StatusCode, body)
	}

	// Raw request: array content, no response_format, role marker; the check marker answers.
	raw := `{"model":"m","messages":[{"role":"system","content":"` + llm.CheckMarker + `\n` + llm.RoleMarker + `judge"},` +
		`{"role":"user","content":[{"type":"text","text":"ping"},{"type":"image_url","image_url":{"url":"data:image/png;base64,AA=="}}]}]}`
	resp, err = http.Post(srv.URL+"/v1/chat/completions", "application/json", strings.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Model             string `json:"model"`
		SystemFingerprint string `json:"system_fingerprint"`
		Choices           []struct {
			Message struct{ Content string } `json:"message"`
		} `json:"choices"`
		Usage struct {
			PromptTokens int `json:"prompt_tokens"`
		} `json:"usage"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if out.Model != scripted.ModelName || out.SystemFingerprint != scripted.ModelName || out.Choices[0].Message.Content != `{"ok": true}` {
		t.Errorf("check answer = %+v", out)
	}
	sys := len(llm.CheckMarker + "\n" + llm.RoleMarker + "judge")
	if want := (sys+len("ping")+3)/4 + 85; out.Usage.PromptTokens != want {
		t.Errorf("prompt tokens = %d, want %d", out.Usage.PromptTokens, want)
	}

	for _, tc := range []struct {
		method, path, body string
		status             int
	}{
		{"GET", "/v1/chat/completions", "", 405},
		{"POST", "/v1/chat/completions", "{not json", 400},
		{"GET", "/v1/nothing", "", 404},
	} {
		req, _ := http.NewRequestWithContext(t.Context(), tc.method, srv.URL+tc.path, strings.NewReader(tc.body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status || !strings.Contains(string(b), `"error"`) {
			t.Errorf("%s %s: %d %s, want %d with an error object", tc.method, tc.path, resp.StatusCode, b, tc.status)
		}
	}
}

func TestParseRulesErrors(t *testing.T) {
	tests := []struct{ name, doc, want string }{
		{"empty", ``, "no rules"},
		{"yaml", `rules: [`, "bad rules"},
		{"regex", `rules: [{name: r1, match: '(['}]`, `r1: match "(["`},
		{"not regex", `rules: [{match: 'a', not: '*'}]`, `rule 1: not "*"`},
		{"template", `rules: [{name: t, answer: '{{index'}]`, "t: answer template"},
		{"unknown func", `rules: [{name: t, answer: '{{where "x"}}'}]`, `function "where" not defined`},
		{"times", `rules: [{name: t, times: -1}]`, "times -1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := scripted.ParseRules([]byte(tt.doc))
			if !errors.Is(err, scripted.ErrRules) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want ErrRules with %q", err, tt.want)
			}
		})
	}
}

func TestLookupOrder(t *testing.T) {
	screen := `- [1] button "Send later" id=later
- [2] button "send" id=send_now
- [3] button "Send" id=primary
  - [4] text "Settings" id=send
- [5] image id=avatar`
	tests := []struct{ q, want string }{
		{"Send", "3"},     // exact label beats everything
		{"send", "2"},     // exact label (case matters first)
		{"SEND", "2"},     // case-insensitive label equality before substring
		{"later", "1"},    // substring of a label
		{"avatar", "5"},   // id substring
		{"send_now", "2"}, // exact id
		{"Settings", "4"}, // nested line
		{"ettings", "4"},  // substring
		{"primary", "3"},  // exact id
		{"#4", "4"},       // the element numbered 4
		{"#9", "missing"}, // no element 9
		{"Checkout", "missing"},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			doc := `rules: [{answer: '{{if has ` + jsonQ(tt.q) + `}}{{index ` + jsonQ(tt.q) + `}}{{else}}missing{{end}}'}]`
			_, srv := newScripted(t, doc, nil)
			c := client(t, srv.URL, openai.ModeText, nil)
			resp, err := c.Generate(t.Context(), llm.Request{Role: llm.RoleDecider, Messages: []llm.Message{{Text: screen}}})
			if err != nil {
				t.Fatal(err)
			}
			if resp.Text != tt.want {
				t.Errorf("index %q = %s, want %s", tt.q, resp.Text, tt.want)
			}
		})
	}
}

func jsonQ(s string) string { b, _ := json.Marshal(s); return string(b) }
