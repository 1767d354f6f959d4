package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/fairy-go/fairy/llm"
	goai "github.com/sashabaranov/go-openai"
)

// Mode is how structured output is asked of an endpoint.
type Mode string

// The structured-output modes.
const (
	ModeJSONSchema Mode = "json_schema" // response_format json_schema (OpenAI, vLLM, recent Ollama)
	ModeJSONObject Mode = "json_object" // response_format json_object; the schema goes into the prompt
	ModeText       Mode = "text"        // no response_format; the schema goes into the prompt
)

// Defaults used for zero Config fields.
const (
	defaultTimeout       = 120 * time.Second
	defaultMaxRetries    = 3
	defaultRepairRetries = 1
	defaultFailoverAfter = 2
	defaultBackoffBase   = time.Second
	defaultBackoffMax    = 30 * time.Second
	defaultMaxRetryAfter = 60 * time.Second
	defaultMaxImageBytes = 4 << 20
	defaultConcurrency   = 4
	defaultModeSetting   = "llm.mode"
	// defaultMaxResponseBytes bounds one HTTP response body. A chat completion of even
	// 100k tokens is well under 1 MiB; anything near 8 MiB is an endpoint gone wrong.
	defaultMaxResponseBytes   = 8 << 20
	defaultMaxResponseSetting = "llm.max-response-bytes"
)

// Config configures a Client. Zero values take the defaults above; a negative MaxRetries or
// RepairRetries means none.
type Config struct {
	BaseURL       string              // e.g. "https://api.openai.com/v1", "http://localhost:11434/v1"
	APIKey        string              // may be empty for local endpoints; never logged
	Models        map[llm.Role]string // model per role
	DefaultModel  string              // for roles not in Models
	BackupModel   string              // takes over after FailoverAfter consecutive failures; "" = none
	FailoverAfter int

	Mode        Mode   // "" = json_schema
	ModeSetting string // the configuration key named in ErrModeRejected errors ("llm.mode")
	// NotStrict sends json_schema without "strict": for endpoints that reject strict
	// structured outputs. The default is strict: the endpoint must answer to the schema.
	NotStrict bool
	TextOnly  bool // always send plain-string content (images dropped), for endpoints that reject arrays

	Timeout       time.Duration // per attempt
	MaxRetries    int           // retries after the first attempt on 429/5xx/timeouts
	RepairRetries int           // retries that tell the model what was wrong with its JSON
	BackoffBase   time.Duration
	BackoffMax    time.Duration
	MaxRetryAfter time.Duration // cap on an endpoint's Retry-After

	MaxImageBytes int // raw bytes per image before base64

	// MaxResponseBytes bounds the bytes read of one response body (answer or error); a
	// larger one fails the call with a *ResponseTooLargeError, not retried. 0: the default.
	MaxResponseBytes   int64
	MaxResponseSetting string // the configuration key named in that error ("llm.max-response-bytes")

	Prices            llm.PriceTable
	Concurrency       int     // calls in flight at once
	RequestsPerSecond float64 // 0 = unlimited

	HTTPClient *http.Client                               // nil: a plain client; its Transport is wrapped, not changed
	Logger     *slog.Logger                               // nil: discard
	Recorder   *llm.Recorder                              // when set, every successful exchange is appended to it
	Sleep      func(context.Context, time.Duration) error // back-off sleep; nil: a timer
	Rand       func() float64                             // jitter in [0,1); nil: math/rand/v2
}

// maxErrDetail bounds the bytes of an endpoint's error quoted in errors and logs.
const maxErrDetail = 1000

// Log attribute keys.
const (
	logRole    = "role"
	logModel   = "model"
	logAttempt = "attempt"
	logDelay   = "delay"
	logErr     = "err"
	logTokens  = "tokens"
	logLatency = "latency"
)

// Client is an llm model backed by an OpenAI-compatible endpoint. Safe for concurrent use.
type Client struct {
	cfg      Config
	oa       *goai.Client
	sem      chan struct{}
	limit    *limiter
	textOnly atomic.Bool
	scrub    *llm.Scrubber
	log      *slog.Logger
	rec      *llm.Recorder
}

// New checks cfg and builds a Client.
func New(cfg Config) (*Client, error) {
	if cfg.BaseURL == "" {
		return nil, fmt.Errorf("%w: no base URL (e.g. https://api.openai.com/v1)", ErrConfig)
	}
	if cfg.Mode == "" {
		cfg.Mode = ModeJSONSchema
	}
	switch cfg.Mode {
	case ModeJSONSchema, ModeJSONObject, ModeText:
	default:
		return nil, fmt.Errorf("%w: mode %q: use json_schema, json_object or text", ErrConfig, cfg.Mode)
	}
	if cfg.ModeSetting == "" {
		cfg.ModeSetting = defaultModeSetting
	}
	if cfg.MaxResponseBytes <= 0 {
		cfg.MaxResponseBytes = defaultMaxResponseBytes
	}
	if cfg.MaxResponseSetting == "" {
		cfg.MaxResponseSetting = defaultMaxResponseSetting
	}
	if cfg.DefaultModel == "" && len(cfg.Models) == 0 {
		return nil, fmt.Errorf("%w: no model: set a default model or one per role", ErrConfig)
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&cfg.Timeout, defaultTimeout)
	def(&cfg.BackoffBase, defaultBackoffBase)
	def(&cfg.BackoffMax, defaultBackoffMax)
	def(&cfg.MaxRetryAfter, defaultMaxRetryAfter)
	defInt := func(n *int, v int) {
		switch {
		case *n == 0:
			*n = v
		case *n < 0:
			*n = 0
		}
	}
	defInt(&cfg.MaxRetries, defaultMaxRetries)
	defInt(&cfg.RepairRetries, defaultRepairRetries)
	if cfg.FailoverAfter <= 0 {
		cfg.FailoverAfter = defaultFailoverAfter
	}
	if cfg.MaxImageBytes <= 0 {
		cfg.MaxImageBytes = defaultMaxImageBytes
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = defaultConcurrency
	}
	if cfg.Sleep == nil {
		cfg.Sleep = sleep
	}
	if cfg.Rand == nil {
		cfg.Rand = rand.Float64
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}

	hc := &http.Client{}
	if cfg.HTTPClient != nil {
		c := *cfg.HTTPClient
		hc = &c
	}
	base := hc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	hc.Transport = &transport{base: base, maxBody: cfg.MaxResponseBytes, maxBodySetting: cfg.MaxResponseSetting}

	oc := goai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	oc.HTTPClient = hc

	c := &Client{
		cfg:   cfg,
		oa:    goai.NewClientWithConfig(oc),
		sem:   make(chan struct{}, cfg.Concurrency),
		scrub: llm.NewScrubber(cfg.APIKey),
		log:   log,
	}
	if cfg.RequestsPerSecond > 0 {
		c.limit = &limiter{interval: time.Duration(float64(time.Second) / cfg.RequestsPerSecond), sleep: cfg.Sleep}
	}
	if cfg.Recorder != nil {
		c.rec = cfg.Recorder.WithSecrets(cfg.APIKey)
	}
	c.textOnly.Store(cfg.TextOnly)
	return c, nil
}

// ModelFor is the model that answers role.
func (c *Client) ModelFor(role llm.Role) string {
	if m := c.cfg.Models[role]; m != "" {
		return m
	}
	return c.cfg.DefaultModel
}

// failure kinds of one attempt.
type failure int

const (
	failFatal failure = iota
	failCanceled
	failRateLimited
	failServer
	failTimeout
	failMode
	failArray
	failTooLarge
	failAuth
)

// Generate sends req and returns the answer; with a Schema, Text is the JSON object.
func (c *Client) Generate(ctx context.Context, req llm.Request) (llm.Response, error) {
	start := time.Now()
	model := c.ModelFor(req.Role)
	if model == "" {
		return llm.Response{}, fmt.Errorf("%w: no model for role %q and no default model", ErrConfig, req.Role)
	}
	log := c.log.With(slog.String(logRole, string(req.Role)))
	fail := func(sentinel error, format string, args ...any) (llm.Response, error) {
		msg := c.scrub.Scrub(fmt.Sprintf(format, args...))
		return llm.Response{}, fmt.Errorf("%w: role %q: %s", sentinel, req.Role, msg)
	}

	select {
	case c.sem <- struct{}{}:
		defer func() { <-c.sem }()
	case <-ctx.Done():
		return fail(ctx.Err(), "waiting for a free slot (concurrency %d)", c.cfg.Concurrency)
	}

	msgs, err := c.messages(req)
	if err != nil {
		return fail(err, "prepare messages")
	}

	var (
		usage    llm.Usage
		cost     float64
		current  = model
		retries  int
		repairs  int
		failures int // consecutive, for the backup model
	)
	for {
		if c.limit != nil {
			if err := c.limit.wait(ctx); err != nil {
				return fail(err, "rate limit wait")
			}
		}
		cr := c.chatRequest(current, req, msgs)
		resp, info, err := c.attempt(ctx, cr)
		if err != nil {
			kind := c.classify(ctx, err, info, cr)
			// An error body can be megabytes (a proxy's page, a runaway answer): quote its head.
			detail := llm.Head(c.scrub.Scrub(err.Error()), maxErrDetail)
			switch kind {
			case failCanceled:
				return fail(ctx.Err(), "model %q: %s", current, detail)
			case failMode:
				return fail(errModeRejected, "model %q refused structured-output mode %q (%s): set %s to %s",
					current, c.cfg.Mode, detail, c.cfg.ModeSetting, otherModes(c.cfg.Mode))
			case failArray:
				if !c.textOnly.Load() && hasArrayContent(cr) {
					c.textOnly.Store(true)
					log.Warn("endpoint rejects array content; sending plain text from now on, images dropped",
						slog.String(logModel, current), slog.String(logErr, detail))
					if msgs, err = c.messages(req); err != nil {
						return fail(err, "prepare messages")
					}
					msgs = append(msgs, repairTail(cr.Messages, len(msgs))...)
					continue
				}
				return fail(ErrRejected, "model %q: %s", current, detail)
			case failFatal:
				return fail(ErrRejected, "model %q: %s", current, detail)
			case failAuth:
				return fail(ErrAuth, "model %q: %s", current, detail)
			case failTooLarge:
				// Not retried: no chat completion comes near the cap, so the endpoint (or a
				// proxy before it) is broken, and another try would read up to the cap again.
				var tl *responseTooLargeError
				errors.As(err, &tl)
				out := *tl
				out.Role, out.Model = req.Role, current
				return llm.Response{}, &out
			}
			retries++
			failures++
			if retries > c.cfg.MaxRetries {
				return fail(kindSentinel(kind), "model %q: gave up after %d attempts: %s", current, retries, detail)
			}
			delay := c.backoff(retries, info)
			log.Warn("model call failed; retrying", slog.String(logModel, current), slog.Int(logAttempt, retries),
				slog.Duration(logDelay, delay), slog.String(logErr, detail))
			if err := c.cfg.Sleep(ctx, delay); err != nil {
				return fail(err, "model %q: back-off: %s", current, detail)
			}
			if failures >= c.cfg.FailoverAfter && c.cfg.BackupModel != "" && current != c.cfg.BackupModel {
				log.Warn("switching to the backup model", slog.String(logModel, current), slog.String("backup", c.cfg.BackupModel))
				current, failures = c.cfg.BackupModel, 0
			}
			continue
		}
		failures = 0
		u := llm.Usage{PromptTokens: resp.Usage.PromptTokens, CompletionTokens: resp.Usage.CompletionTokens}
		usage = usage.Add(u)
		cost += c.cost(resp.Model, current, u)
		answerModel := resp.Model
		if answerModel == "" {
			answerModel = current
		}
		if len(resp.Choices) == 0 {
			return fail(errBadAnswer, "model %q: no choices in the answer", current)
		}
		text := resp.Choices[0].Message.Content
		if req.Schema != nil {
			obj, perr := llm.ExtractJSON(text)
			if perr == nil {
				perr = llm.CheckJSON(obj, req.Schema.JSON)
			}
			if perr != nil {
				if repairs >= c.cfg.RepairRetries {
					return fail(errBadAnswer, "model %q: %s after %d repair(s); answer starts %q",
						current, perr, repairs, llm.Head(text, 200))
				}
				repairs++
				log.Warn("unusable JSON answer; asking for a repair", slog.String(logModel, current),
					slog.Int(logAttempt, repairs), slog.String(logErr, c.scrub.Scrub(perr.Error())))
				msgs = append(msgs,
					goai.ChatCompletionMessage{Role: goai.ChatMessageRoleAssistant, Content: text},
					goai.ChatCompletionMessage{Role: goai.ChatMessageRoleUser, Content: repairPrompt(req.Schema, perr)})
				continue
			}
			text = obj
		}
		out := llm.Response{Text: text, Model: answerModel, Usage: usage, Latency: time.Since(start), Cost: cost}
		log.Debug("model answered", slog.String(logModel, answerModel), slog.Int(logTokens, usage.Total()),
			slog.Duration(logLatency, out.Latency))
		if c.rec != nil {
			if err := c.rec.Record(req, out); err != nil {
				log.Error("recording the exchange failed", slog.String(logErr, c.scrub.Scrub(err.Error())))
			}
		}
		return out, nil
	}
}

// repairTail returns the messages of old beyond the first n (the repair turns added so far),
// so that a fallback rebuild keeps them.
func repairTail(old []goai.ChatCompletionMessage, n int) []goai.ChatCompletionMessage {
	if len(old) <= n {
		return nil
	}
	return old[n:]
}

func repairPrompt(s *llm.Schema, problem error) string {
	return fmt.Sprintf("Your previous answer could not be used: %s. "+
		"Reply again with only one JSON object that follows the %q schema and holds all its required keys, "+
		"with no prose and no code fences.", problem, s.Name)
}

func otherModes(m Mode) string {
	switch m {
	case ModeJSONSchema:
		return `"json_object" or "text"`
	case ModeJSONObject:
		return `"text"`
	}
	return `"text"`
}

func kindSentinel(k failure) error {
	switch k {
	case failRateLimited:
		return errRateLimited
	case failTimeout:
		return errTimeout
	}
	return errServer
}

func (c *Client) cost(answerModel, asked string, u llm.Usage) float64 {
	if p, ok := c.cfg.Prices.Lookup(answerModel); ok && answerModel != "" {
		return p.Cost(u)
	}
	return c.cfg.Prices.Cost(asked, u)
}

// attempt makes one HTTP call bounded by the per-attempt timeout.
func (c *Client) attempt(
	ctx context.Context, cr goai.ChatCompletionRequest,
) (goai.ChatCompletionResponse, *attemptInfo, error) {
	info := &attemptInfo{}
	actx, cancel := context.WithTimeout(context.WithValue(ctx, attemptKey{}, info), c.cfg.Timeout)
	defer cancel()
	resp, err := c.oa.CreateChatCompletion(actx, cr)
	if err == nil && actx.Err() != nil {
		err = actx.Err()
	}
	return resp, info, err
}

// classify sorts an attempt's error.
func (c *Client) classify(ctx context.Context, err error, info *attemptInfo, cr goai.ChatCompletionRequest) failure {
	if ctx.Err() != nil {
		return failCanceled
	}
	var tooLarge *responseTooLargeError
	if errors.As(err, &tooLarge) {
		return failTooLarge
	}
	status := info.status
	msg := strings.ToLower(err.Error())
	var apiErr *goai.APIError
	var reqErr *goai.RequestError
	switch {
	case errors.As(err, &apiErr):
		status = apiErr.HTTPStatusCode
		msg = strings.ToLower(apiErr.Message)
	case errors.As(err, &reqErr):
		status = reqErr.HTTPStatusCode
		msg = strings.ToLower(string(reqErr.Body))
	}
	switch {
	case status == http.StatusTooManyRequests:
		return failRateLimited
	case status >= 500:
		return failServer
	case status == http.StatusRequestTimeout:
		return failTimeout
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return failAuth
	case status >= 400:
		if hasArrayContent(cr) && mentionsArray(msg) {
			return failArray
		}
		if cr.ResponseFormat != nil && mentionsMode(msg) {
			return failMode
		}
		return failFatal
	}
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		return failTimeout
	}
	// Broken connections, garbled bodies: worth another try.
	return failServer
}

func mentionsMode(msg string) bool {
	for _, w := range []string{"response_format", "json_schema", "json_object", "structured output", "response format"} {
		if strings.Contains(msg, w) {
			return true
		}
	}
	return false
}

func mentionsArray(msg string) bool {
	if strings.Contains(msg, "image_url") || strings.Contains(msg, "multimodal") || strings.Contains(msg, "image input") {
		return true
	}
	return strings.Contains(msg, "content") &&
		(strings.Contains(msg, "array") || strings.Contains(msg, "string") || strings.Contains(msg, "list"))
}

func hasArrayContent(cr goai.ChatCompletionRequest) bool {
	for _, m := range cr.Messages {
		if len(m.MultiContent) > 0 {
			return true
		}
	}
	return false
}

// backoff is the delay before retry n (1-based): the endpoint's Retry-After when given (capped),
// else exponential from BackoffBase with jitter in [d/2, d).
func (c *Client) backoff(n int, info *attemptInfo) time.Duration {
	if info.retryAfter > 0 {
		return min(info.retryAfter, c.cfg.MaxRetryAfter)
	}
	d := float64(c.cfg.BackoffBase) * math.Pow(2, float64(n-1))
	d = math.Min(d, float64(c.cfg.BackoffMax))
	return time.Duration(d/2 + c.cfg.Rand()*d/2)
}

func isReasoningModel(m string) bool {
	for _, p := range []string{"o1", "o3", "o4", "gpt-5"} {
		if strings.HasPrefix(m, p) {
			return true
		}
	}
	return false
}

// chatRequest builds the go-openai request for model.
func (c *Client) chatRequest(
	model string, req llm.Request, msgs []goai.ChatCompletionMessage,
) goai.ChatCompletionRequest {
	cr := goai.ChatCompletionRequest{Model: model, Messages: msgs}
	if isReasoningModel(model) {
		cr.MaxCompletionTokens = req.MaxTokens
	} else {
		cr.MaxTokens = req.MaxTokens
		if req.Temperature != nil {
			cr.Temperature = *req.Temperature
		}
	}
	if req.Schema != nil {
		switch c.cfg.Mode {
		case ModeJSONSchema:
			schema := req.Schema.JSON
			if len(schema) == 0 {
				schema = json.RawMessage(`{"type":"object"}`)
			}
			cr.ResponseFormat = &goai.ChatCompletionResponseFormat{
				Type: goai.ChatCompletionResponseFormatTypeJSONSchema,
				JSONSchema: &goai.ChatCompletionResponseFormatJSONSchema{
					Name: req.Schema.Name, Schema: schema, Strict: !c.cfg.NotStrict,
				},
			}
		case ModeJSONObject:
			cr.ResponseFormat = &goai.ChatCompletionResponseFormat{Type: goai.ChatCompletionResponseFormatTypeJSONObject}
		}
	}
	return cr
}

// systemPrompt adds the schema instructions and the role marker the mode needs.
func (c *Client) systemPrompt(req llm.Request) string {
	var b strings.Builder
	b.WriteString(req.System)
	schemaTravels := req.Schema != nil && c.cfg.Mode == ModeJSONSchema
	if req.Schema != nil && !schemaTravels {
		schema := string(req.Schema.JSON)
		if schema == "" {
			schema = `{"type":"object"}`
		}
		fmt.Fprintf(&b, "\n\nAnswer with one JSON object only, no prose and no code fences. "+
			"It must follow this JSON schema (%s):\n%s", req.Schema.Name, schema)
	}
	if !schemaTravels && req.Role != "" {
		b.WriteString("\n\n" + llm.RoleMarker + string(req.Role))
	}
	return strings.TrimLeft(b.String(), "\n")
}

// messages converts req to go-openai messages: plain strings for text-only turns, parts with
// data-URL images otherwise (or, once the endpoint has refused arrays, text with a note).
func (c *Client) messages(req llm.Request) ([]goai.ChatCompletionMessage, error) {
	out := make([]goai.ChatCompletionMessage, 0, len(req.Messages)+1)
	if sys := c.systemPrompt(req); sys != "" {
		out = append(out, goai.ChatCompletionMessage{Role: goai.ChatMessageRoleSystem, Content: sys})
	}
	textOnly := c.textOnly.Load()
	for i, m := range req.Messages {
		role := m.Role
		if role == "" {
			role = goai.ChatMessageRoleUser
		}
		if len(m.Images) == 0 || textOnly {
			text := m.Text
			if len(m.Images) > 0 {
				text += fmt.Sprintf("\n[%d image(s) omitted: this endpoint takes text only]", len(m.Images))
			}
			out = append(out, goai.ChatCompletionMessage{Role: role, Content: text})
			continue
		}
		parts := make([]goai.ChatMessagePart, 0, len(m.Images)+1)
		if m.Text != "" {
			parts = append(parts, goai.ChatMessagePart{Type: goai.ChatMessagePartTypeText, Text: m.Text})
		}
		for j, img := range m.Images {
			url, err := dataURL(img, c.cfg.MaxImageBytes)
			if err != nil {
				return nil, fmt.Errorf("message %d image %d: %w", i+1, j+1, err)
			}
			parts = append(parts, goai.ChatMessagePart{Type: goai.ChatMessagePartTypeImageURL,
				ImageURL: &goai.ChatMessageImageURL{URL: url}})
		}
		out = append(out, goai.ChatCompletionMessage{Role: role, MultiContent: parts})
	}
	return out, nil
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
