package llm

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"time"
)

// exchange is one line of a recording (JSONL): the request as a key plus a readable, scrubbed
// copy with images replaced by their hashes, and the response exactly as the caller got it.
type exchange struct {
	Key      string         `json:"key"` // RequestKey of the request
	Role     Role           `json:"role"`
	Request  recordedInput  `json:"request"`
	Response recordedAnswer `json:"response"`
}

// recordedInput is the scrubbed, image-free copy of a request kept for people reading a
// recording; replay matches on the key alone.
type recordedInput struct {
	System   string            `json:"system,omitempty"`
	Messages []recordedMessage `json:"messages"`
	Schema   string            `json:"schema,omitempty"`
}

// recordedMessage is a message with its images replaced by hashes.
type recordedMessage struct {
	Role   string   `json:"role"`
	Text   string   `json:"text"`
	Images []string `json:"images,omitempty"` // "image/png sha256:… 12345 bytes"
}

// recordedAnswer is a Response as stored.
type recordedAnswer struct {
	Text      string  `json:"text"`
	Model     string  `json:"model"`
	Usage     Usage   `json:"usage"`
	LatencyNS int64   `json:"latency_ns"`
	Cost      float64 `json:"cost"`
}

// requestKey is the hash replay matches on: role, system prompt, messages (images by hash)
// and schema. Temperature and token limits are left out.
func requestKey(req Request) string {
	h := sha256.New()
	field := func(s string) { fmt.Fprintf(h, "%d:%s;", len(s), s) }
	field(string(req.Role))
	field(req.System)
	for _, m := range req.Messages {
		field(m.Role)
		field(m.Text)
		for _, img := range m.Images {
			field(img.MIME)
			field(imageHash(img.Data))
		}
	}
	if req.Schema != nil {
		field(req.Schema.Name)
		field(string(req.Schema.JSON))
	}
	return hex.EncodeToString(h.Sum(nil))
}

func imageHash(b []byte) string {
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}

// Scrubber removes secrets from text: the given literal secrets and anything shaped like an
// API key or bearer token.
type Scrubber struct {
	secrets []string
}

// NewScrubber returns a Scrubber for the given secrets (empty ones are ignored).
func NewScrubber(secrets ...string) *Scrubber {
	s := &Scrubber{}
	for _, x := range secrets {
		if x != "" {
			s.secrets = append(s.secrets, x)
		}
	}
	return s
}

var keyShapes = regexp.MustCompile(`(?i)\b(sk-[a-z0-9_\-*]{8,}|bearer\s+[a-z0-9._\-~+/=]{8,})`)

// redacted replaces every secret.
const redacted = "[redacted]"

// Scrub returns s without secrets.
func (sc *Scrubber) Scrub(s string) string {
	if sc != nil {
		for _, x := range sc.secrets {
			s = strings.ReplaceAll(s, x, redacted)
		}
	}
	return keyShapes.ReplaceAllString(s, redacted)
}

// Recorder appends exchanges to a JSONL stream. It is safe for concurrent use.
type Recorder struct {
	mu    sync.Mutex
	w     io.Writer
	scrub *Scrubber
}

// NewRecorder writes exchanges to w, scrubbing the given secrets (and key-shaped strings)
// from the readable request copy and the answer.
func NewRecorder(w io.Writer, secrets ...string) *Recorder {
	return &Recorder{w: w, scrub: NewScrubber(secrets...)}
}

// WithSecrets returns a Recorder on the same stream that also scrubs secrets; the adapter
// uses it to add its API key.
func (r *Recorder) WithSecrets(secrets ...string) *Recorder {
	all := append(append([]string(nil), r.scrub.secrets...), secrets...)
	return &Recorder{w: r.w, scrub: NewScrubber(all...)}
}

// Record appends one exchange as a JSON line.
func (r *Recorder) Record(req Request, resp Response) error {
	ex := exchange{
		Key:  requestKey(req),
		Role: req.Role,
		Request: recordedInput{
			System:   r.scrub.Scrub(req.System),
			Messages: make([]recordedMessage, 0, len(req.Messages)),
		},
		Response: recordedAnswer{
			Text:      r.scrub.Scrub(resp.Text),
			Model:     resp.Model,
			Usage:     resp.Usage,
			LatencyNS: int64(resp.Latency),
			Cost:      resp.Cost,
		},
	}
	if req.Schema != nil {
		ex.Request.Schema = req.Schema.Name
	}
	for _, m := range req.Messages {
		rm := recordedMessage{Role: m.Role, Text: r.scrub.Scrub(m.Text)}
		for _, img := range m.Images {
			rm.Images = append(rm.Images, fmt.Sprintf("%s %s %d bytes", img.MIME, imageHash(img.Data), len(img.Data)))
		}
		ex.Request.Messages = append(ex.Request.Messages, rm)
	}
	line, err := json.Marshal(ex)
	if err != nil {
		return fmt.Errorf("llm record: %w", err)
	}
	line = append(line, '\n')
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, err := r.w.Write(line); err != nil {
		return fmt.Errorf("llm record: write: %w", err)
	}
	return nil
}

// Replay answers requests from a recording. Identical requests are answered in the order
// they were recorded; once a request's answers are used up the last one is repeated. A
// request not in the recording fails with ErrReplayMiss. Safe for concurrent use.
type Replay struct {
	mu      sync.Mutex
	answers map[string][]recordedAnswer
	inputs  map[Role][]recordedInput // what was asked, per role, to explain a miss
	served  map[string]int
	total   int
}

// LoadReplay reads a recording written by a Recorder.
func LoadReplay(r io.Reader) (*Replay, error) {
	rp := &Replay{answers: map[string][]recordedAnswer{}, inputs: map[Role][]recordedInput{}, served: map[string]int{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var ex exchange
		if err := json.Unmarshal([]byte(line), &ex); err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", errRecording, n, err)
		}
		if ex.Key == "" {
			return nil, fmt.Errorf("%w: line %d: no key", errRecording, n)
		}
		rp.answers[ex.Key] = append(rp.answers[ex.Key], ex.Response)
		rp.inputs[ex.Role] = append(rp.inputs[ex.Role], ex.Request)
		rp.total++
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("llm load replay: %w", err)
	}
	return rp, nil
}

// Len is the number of recorded exchanges.
func (rp *Replay) Len() int { return rp.total }

// Generate answers req from the recording.
func (rp *Replay) Generate(ctx context.Context, req Request) (Response, error) {
	if err := ctx.Err(); err != nil {
		return Response{}, fmt.Errorf("llm replay: %w", err)
	}
	key := requestKey(req)
	rp.mu.Lock()
	defer rp.mu.Unlock()
	list := rp.answers[key]
	if len(list) == 0 {
		prompt := ""
		if n := len(req.Messages); n > 0 {
			prompt = req.Messages[n-1].Text
		}
		if why := rp.changed(req); why != "" {
			return Response{}, fmt.Errorf("%w: %w: role %q: %s", ErrReplayMiss, ErrPromptChanged, req.Role, why)
		}
		return Response{}, fmt.Errorf("%w: role %q, key %s, prompt starts %q", ErrReplayMiss, req.Role, key[:12],
			head(prompt, 300))
	}
	i := min(rp.served[key], len(list)-1)
	rp.served[key]++
	a := list[i]
	return Response{
		Text:    a.Text,
		Model:   a.Model,
		Usage:   a.Usage,
		Latency: time.Duration(a.LatencyNS),
		Cost:    a.Cost,
	}, nil
}

// changed explains a miss by the recorded request of the same role that is nearest to req
// (the longest common start): which part of the prompt differs, at which line, recorded
// and now. "" when the recording has no request of that role.
func (rp *Replay) changed(req Request) string {
	now := []string{req.System}
	for _, m := range req.Messages {
		now = append(now, m.Text)
	}
	best, bestLen := -1, -1
	var bestParts []string
	for i, in := range rp.inputs[req.Role] {
		parts := []string{in.System}
		for _, m := range in.Messages {
			parts = append(parts, m.Text)
		}
		n := commonStart(strings.Join(parts, "\x00"), strings.Join(now, "\x00"))
		if n > bestLen {
			best, bestLen, bestParts = i, n, parts
		}
	}
	if best < 0 {
		return ""
	}
	for p := 0; p < max(len(now), len(bestParts)); p++ {
		var was, is string
		if p < len(bestParts) {
			was = bestParts[p]
		}
		if p < len(now) {
			is = now[p]
		}
		if was == is {
			continue
		}
		part := "the system prompt"
		if p > 0 {
			part = fmt.Sprintf("message %d", p)
		}
		wl, il := strings.Split(was, "\n"), strings.Split(is, "\n")
		for l := 0; l < max(len(wl), len(il)); l++ {
			var a, b string
			if l < len(wl) {
				a = wl[l]
			}
			if l < len(il) {
				b = il[l]
			}
			if a != b {
				return fmt.Sprintf("the prompt changed since the recording: %s differs at line %d: "+
					"recorded %q, now %q (record the run again)",
					part, l+1, head(a, 160), head(b, 160))
			}
		}
	}
	return "the prompt changed since the recording in its images or schema (record the run again)"
}

// commonStart is the length of the common prefix of a and b.
func commonStart(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}
