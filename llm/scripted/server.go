package scripted

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"text/template"

	"github.com/fairy-go/fairy/grounding"
	"github.com/fairy-go/fairy/llm"
)

// ModelName is the model the scripted server answers as, and its system_fingerprint.
const ModelName = "fairy-scripted"

// Options tune a Server. The zero value works.
type Options struct {
	Logger *slog.Logger // nil: discard
	Model  string       // "" = ModelName
	// Grounding makes the decider answer as a model of that family would, in coordinates
	// ("" or "som": fairy's numbered actions, as the rules write them).
	Grounding grounding.Family
}

// Server is a deterministic OpenAI-compatible chat-completions endpoint that answers from
// rules. It serves POST …/chat/completions and GET …/models. Safe for concurrent use.
type Server struct {
	rules  []*compiled
	log    *slog.Logger
	model  string
	family grounding.Family

	mu    sync.Mutex
	fired []int
	calls int
}

// NewServer checks the rules and builds a Server.
func NewServer(rules []Rule, opts Options) (*Server, error) {
	c, err := compile(rules)
	if err != nil {
		return nil, err
	}
	s := &Server{rules: c, log: opts.Logger, model: opts.Model, family: opts.Grounding, fired: make([]int, len(c))}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.model == "" {
		s.model = ModelName
	}
	return s, nil
}

// Unused lists the names of rules that never fired, to check a script ran to its end.
func (s *Server) Unused() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for i, n := range s.fired {
		if n == 0 {
			out = append(out, s.rules[i].Name)
		}
	}
	return out
}

// Calls is the number of chat requests served so far.
func (s *Server) Calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case strings.HasSuffix(r.URL.Path, "/chat/completions"):
		if r.Method != http.MethodPost {
			writeError(w, http.StatusMethodNotAllowed, "method_not_allowed", "use POST for chat completions")
			return
		}
		s.chat(w, r)
	case strings.HasSuffix(r.URL.Path, "/models"):
		writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": []map[string]any{
			{"id": s.model, "object": "model", "created": 0, "owned_by": "fairy (scripted, not a real model)"},
		}})
	default:
		writeError(w, http.StatusNotFound, "not_found", "the scripted model serves POST /v1/chat/completions and "+
			"GET /v1/models")
	}
}

// wireRequest is the part of a chat-completions request the server reads.
type wireRequest struct {
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	ResponseFormat *struct {
		Type       string `json:"type"`
		JSONSchema *struct {
			Name string `json:"name"`
		} `json:"json_schema"`
	} `json:"response_format"`
}

type wirePart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// data is what an answer template sees as ".".
type data struct {
	Role   string // the request's role
	System string // the system prompt
	Prompt string // the non-system messages' text, joined by blank lines
	Times  int    // how many times this rule has fired, this time included (1-based)
	Call   int    // the server's request number (1-based)
}

var roleMarker = regexp.MustCompile(`(?m)` + regexp.QuoteMeta(llm.RoleMarker) + `(\S+)`)

func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	var req wireRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<20)).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, "invalid_json", "scripted: read request: "+err.Error())
		return
	}
	var system, prompt strings.Builder
	images := 0
	for _, m := range req.Messages {
		text, n := contentText(m.Content)
		images += n
		if m.Role == "system" || m.Role == "developer" {
			system.WriteString(text)
			continue
		}
		if prompt.Len() > 0 {
			prompt.WriteString("\n\n")
		}
		prompt.WriteString(text)
	}
	role := ""
	if rf := req.ResponseFormat; rf != nil && rf.JSONSchema != nil {
		role = rf.JSONSchema.Name
	}
	if role == "" {
		if m := roleMarker.FindStringSubmatch(system.String()); m != nil {
			role = m[1]
		}
	}
	d := data{Role: role, System: system.String(), Prompt: prompt.String()}

	s.mu.Lock()
	s.calls++
	d.Call = s.calls
	rule, groups := s.pick(d)
	if rule >= 0 {
		s.fired[rule]++
		d.Times = s.fired[rule]
	}
	s.mu.Unlock()

	log := s.log.With(slog.Int("call", d.Call), slog.String("role", role))
	if rule < 0 {
		if strings.Contains(d.System, llm.CheckMarker) {
			log.Info("scripted request: model check")
			s.answer(w, d, images, `{"ok": true}`)
			return
		}
		msg := fmt.Sprintf("%v for role %q (of %d rules); prompt starts: %q", errNoRule, role, len(s.rules),
			llm.Head(d.Prompt, 300))
		if role == string(llm.RolePlanner) {
			// The planner sees the instruction first: no rule for it means the script does
			// not know the instruction, whatever it knows of the apps.
			msg = fmt.Sprintf("%v: the scripted model (not a real model) answers only what its rules cover; %s",
				errNoInstructionRule, msg)
		}
		log.Warn("scripted request: no rule matches", slog.String("prompt", llm.Head(d.Prompt, 120)))
		writeError(w, http.StatusBadRequest, "no_rule_matched", msg)
		return
	}
	c := s.rules[rule]
	text, err := c.render(d, groups)
	if err != nil {
		log.Warn("scripted request: template failed", slog.String("rule", c.Name), slog.String("err", err.Error()))
		writeError(w, http.StatusBadRequest, "template_failed",
			fmt.Sprintf("scripted: rule %q for role %q: %v; prompt starts: %q", c.Name, role, err, llm.Head(d.Prompt, 300)))
		return
	}
	if role == string(llm.RoleDecider) && s.family.Coordinates() {
		if text, err = inFamily(s.family, text, d.Prompt); err != nil {
			log.Warn("scripted request: no way to say it", slog.String("rule", c.Name), slog.String("err", err.Error()))
			writeError(w, http.StatusBadRequest, "template_failed", fmt.Sprintf("scripted: rule %q for role %q: %v",
				c.Name, role, err))
			return
		}
	}
	log.Info("scripted request", slog.String("rule", c.Name), slog.Int("times", d.Times))
	s.answer(w, d, images, text)
}

// pick returns the first rule that matches d and its capture groups, or -1. Called with s.mu held.
func (s *Server) pick(d data) (int, []string) {
	for i, c := range s.rules {
		if c.Role != "" && c.Role != "*" && c.Role != d.Role {
			continue
		}
		if c.Times > 0 && s.fired[i] >= c.Times {
			continue
		}
		groups := []string{""}
		ok := true
		for _, re := range c.match {
			m := re.FindStringSubmatch(d.Prompt)
			if m == nil {
				ok = false
				break
			}
			if len(groups) == 1 {
				groups[0] = m[0]
			}
			groups = append(groups, m[1:]...)
		}
		for _, re := range c.not {
			if ok && re.MatchString(d.Prompt) {
				ok = false
			}
		}
		if ok {
			return i, groups
		}
	}
	return -1, nil
}

// stubFuncs lets templates parse; render replaces them with request-bound ones.
var stubFuncs = template.FuncMap{
	"index": func(string) (int, error) { return 0, nil },
	"has":   func(string) bool { return false },
	"label": func(int) (string, error) { return "", nil },
	"match": func(int) (string, error) { return "", nil },
	"json":  func(any) (string, error) { return "", nil },
}

func (c *compiled) render(d data, groups []string) (string, error) {
	screen := parseScreen(d.Prompt)
	funcs := template.FuncMap{
		"index": func(q string) (int, error) {
			e, ok := find(screen, q)
			if !ok {
				return 0, fmt.Errorf("%w: %q (%s)", errNoElement, q, describe(screen))
			}
			return e.Index, nil
		},
		"has": func(q string) bool { _, ok := find(screen, q); return ok },
		"label": func(n int) (string, error) {
			for _, e := range screen {
				if e.Index == n {
					return e.Label, nil
				}
			}
			return "", fmt.Errorf("%w: index %d (%s)", errNoElement, n, describe(screen))
		},
		"match": func(n int) (string, error) {
			if n < 0 || n >= len(groups) {
				return "", fmt.Errorf("match %d: the rule's patterns have %d group(s)", n, len(groups)-1)
			}
			return groups[n], nil
		},
		"json": func(v any) (string, error) {
			b, err := json.Marshal(v)
			return string(b), err
		},
	}
	t, err := c.tmpl.Clone()
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if err := t.Funcs(funcs).Execute(&b, d); err != nil {
		// Unwrap text/template's ExecError to the function's own message.
		var ee template.ExecError
		if errors.As(err, &ee) && ee.Err != nil {
			return "", ee.Err
		}
		return "", err
	}
	return strings.TrimSpace(b.String()), nil
}

// answer writes a chat completion. Token counts are deterministic: bytes/4 rounded up, plus
// 85 per image.
func (s *Server) answer(w http.ResponseWriter, d data, images int, text string) {
	prompt := (len(d.System)+len(d.Prompt)+3)/4 + 85*images
	completion := (len(text) + 3) / 4
	writeJSON(w, http.StatusOK, map[string]any{
		"id":                 fmt.Sprintf("scripted-%d", d.Call),
		"object":             "chat.completion",
		"created":            0,
		"model":              s.model,
		"system_fingerprint": ModelName,
		"choices": []map[string]any{{
			"index":         0,
			"message":       map[string]any{"role": "assistant", "content": text},
			"finish_reason": "stop",
		}},
		"usage": map[string]int{"prompt_tokens": prompt, "completion_tokens": completion,
			"total_tokens": prompt + completion},
	})
}

// contentText reads a message's content, a string or an array of parts; it returns the
// text and the number of images.
func contentText(raw json.RawMessage) (string, int) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", 0
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, 0
	}
	var parts []wirePart
	if json.Unmarshal(raw, &parts) != nil {
		return "", 0
	}
	var texts []string
	images := 0
	for _, p := range parts {
		switch p.Type {
		case "text":
			texts = append(texts, p.Text)
		case "image_url", "input_image":
			images++
		}
	}
	return strings.Join(texts, "\n"), images
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, code, msg string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{
		"message": msg, "type": "invalid_request_error", "param": nil, "code": code,
	}})
}
