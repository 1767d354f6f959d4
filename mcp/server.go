package mcp

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fairy-go/fairy/executor/adb"
	"github.com/fairy-go/fairy/guard"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/rundir"
)

// protocolVersions are the MCP versions the server speaks. From 2026-07-28 on, a server
// may not send an elicitation request while it serves a call (it returns input requests
// and is called again); `run` asks the person in the middle of a task and `act` before a
// sensitive action, so the server stays with the versions where it can ask during a call.
// Clients of 2026-07-28 negotiate down to 2025-11-25 with the initialize handshake.
var protocolVersions = []string{"2025-11-25", "2025-06-18"}

// Phone is the device as the tools need it; *adb.Device (executor/adb) satisfies it.
type Phone interface {
	Dump(ctx context.Context) ([]byte, error)
	Screenshot(ctx context.Context) ([]byte, error)
	Tap(ctx context.Context, x, y int) error
	Swipe(ctx context.Context, x1, y1, x2, y2 int, d time.Duration) error
	Key(ctx context.Context, key string) error
	TypeText(ctx context.Context, text string) error
	Launch(ctx context.Context, pkg string) error
	Settle(ctx context.Context) error
	LongPress(ctx context.Context, x, y int, d time.Duration) error
	Apps(ctx context.Context) ([]adb.App, error)
	Close(ctx context.Context) error
}

// Knowledge is the knowledge file as the map and tricks tools read it; *knowledge.Store
// satisfies it.
type Knowledge interface {
	Apps() ([]knowledge.AppSummary, error)
	Map(app string) (*knowledge.Map, error)
	Path(app, from, to string) ([]knowledge.Transition, error)
	Tricks(app string, kind knowledge.Kind) ([]knowledge.Trick, error)
	Search(app string, kind knowledge.Kind, query string, k int) ([]knowledge.Hit, error)
	Close() error
}

// RunRequest is one instruction for Config.Run.
type RunRequest struct {
	Instruction string
	MaxSteps    int // 0: the configured limit
	// Dialoger asks the person (through the MCP client); Progress receives the run's
	// progress lines, each sent to the client as a progress notification.
	Dialoger interaction.Dialoger
	Progress io.Writer
}

// RunResult is what a run did: its summary (summary.json) and its run directory. Err is
// set when the task did not end done (failed, refused, stopped); the summary still says
// what happened.
type RunResult struct {
	Summary rundir.Summary
	Dir     string
	Err     error
}

// Config is what the server needs. Every function is called once per tool call; what it
// opens is closed when the call ends, so the server holds no phone and no knowledge file
// between calls.
type Config struct {
	// Version is fairy's version, reported to clients.
	Version string
	// Devices lists the adb server's devices.
	Devices func(ctx context.Context) ([]adb.DeviceInfo, error)
	// OpenPhone opens the configured phone.
	OpenPhone func(ctx context.Context) (Phone, error)
	// Guard judges the actions of the act tool; nil means the default policy.
	Guard *guard.Guard
	// Pixels reads what the tree does not describe from the screenshot (OCR), for the
	// screen tool and for the guard's judgement of act; nil: the tree alone.
	Pixels PixelReader
	// Run carries out an instruction with the configured model on the configured phone.
	// The error is for a run that could not start (no model configured, no device).
	Run func(ctx context.Context, r RunRequest) (RunResult, error)
	// OpenKnowledge opens the knowledge file for reading.
	OpenKnowledge func(ctx context.Context) (Knowledge, error)
	// Logger receives the server's diagnostics; nil discards them. Never stdout: on stdio
	// that is the protocol's channel.
	Logger *slog.Logger
}

// Server is fairy's MCP server. One Server serves any number of sessions; the phone is
// one, so a call that acts on it waits for no other: it is refused while a run holds it.
type Server struct {
	cfg    Config
	log    *slog.Logger
	server *sdk.Server

	mu  sync.Mutex
	run string // the instruction of the run that holds the phone, "" when none
}

// New checks cfg and builds the server with its tools.
func New(cfg Config) (*Server, error) {
	if cfg.Devices == nil || cfg.OpenPhone == nil || cfg.Run == nil || cfg.OpenKnowledge == nil {
		return nil, fmt.Errorf("%w: the server needs Devices, OpenPhone, Run and OpenKnowledge", errConfig)
	}
	if cfg.Guard == nil {
		g, err := guard.New(guard.DefaultPolicy())
		if err != nil {
			return nil, fmt.Errorf("mcp: %w", err)
		}
		cfg.Guard = g
	}
	s := &Server{cfg: cfg, log: cfg.Logger}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	version := cfg.Version
	if version == "" {
		version = "(devel)"
	}
	s.server = sdk.NewServer(&sdk.Implementation{Name: "fairy", Title: "fairy — Android GUI agent", Version: version}, &sdk.ServerOptions{
		Instructions:              instructions,
		Logger:                    s.log,
		Capabilities:              &sdk.ServerCapabilities{},
		SupportedProtocolVersions: protocolVersions,
	})
	s.addPhoneTools()
	s.addRunTool()
	s.addKnowledgeTools()
	return s, nil
}

// instructions tell a client's model how the tools fit together.
const instructions = `fairy drives an Android phone. Read the phone with "screen": a numbered list of the elements on screen. Act with "act" on an element number from the latest "screen" (or on coordinates); each act returns the next screen. Sensitive actions (pay, delete, send, order, grant a permission) are asked of the person first and refused without their yes. "run" carries out a whole instruction with fairy's own model and asks the person when it must. "map" and "tricks" read what fairy learned about apps.`

// ServeIO serves one session on r and w (newline-delimited JSON-RPC, as on stdio) until
// the client disconnects or ctx ends.
func (s *Server) ServeIO(ctx context.Context, r io.ReadCloser, w io.WriteCloser) error {
	err := s.server.Run(ctx, &sdk.IOTransport{Reader: r, Writer: w})
	if err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// Bounds of the streamable HTTP transport's sessions: a client that opens sessions and
// never closes them (3,000 initialize calls) must not grow the server without end.
const (
	defaultMaxSessions    = 32
	defaultSessionTimeout = 30 * time.Minute
)

// HTTPOptions bound the sessions of the streamable HTTP transport.
type HTTPOptions struct {
	// MaxSessions is how many sessions may be open at once; a client that starts one more
	// is refused (503) until one ends or expires. 0: defaultMaxSessions.
	MaxSessions int
	// SessionTimeout closes a session that sent no request for this long (the client
	// starts a new one). 0: defaultSessionTimeout.
	SessionTimeout time.Duration
}

// HTTPHandler serves the streamable HTTP transport: each client session gets its own
// stream on the one server, at most o.MaxSessions at once, each closed when idle for
// o.SessionTimeout. It checks no Origin, Host or token: the caller puts it behind that.
func (s *Server) HTTPHandler(o HTTPOptions) http.Handler {
	if o.MaxSessions <= 0 {
		o.MaxSessions = defaultMaxSessions
	}
	if o.SessionTimeout <= 0 {
		o.SessionTimeout = defaultSessionTimeout
	}
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.server },
		&sdk.StreamableHTTPOptions{SessionTimeout: o.SessionTimeout, Logger: s.log})
	var starting sync.Mutex // one new session at a time, so the count cannot be raced past the cap
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Header.Get("Mcp-Session-Id") != "" {
			h.ServeHTTP(w, r)
			return
		}
		starting.Lock()
		defer starting.Unlock()
		if n := s.sessions(); n >= o.MaxSessions {
			s.log.Warn("mcp: session refused: too many open", slog.Int("open", n))
			w.Header().Set("Retry-After", "60")
			http.Error(w, fmt.Sprintf("fairy mcp: %d sessions are open, the most it keeps: close one (DELETE with its Mcp-Session-Id) or wait for an idle one to expire (%s)", n, o.SessionTimeout), http.StatusServiceUnavailable)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// sessions counts the server's open sessions.
func (s *Server) sessions() int {
	n := 0
	for range s.server.Sessions() {
		n++
	}
	return n
}

// hold marks the phone as held by a run; false (and the holder) when another run holds it.
func (s *Server) hold(instruction string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.run != "" {
		return s.run, false
	}
	s.run = instruction
	return "", true
}

func (s *Server) release() {
	s.mu.Lock()
	s.run = ""
	s.mu.Unlock()
}

// busy returns an error when a run holds the phone: an act in the middle of a run would
// pull the screen from under the agent.
func (s *Server) busy() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.run != "" {
		return fmt.Errorf("%w: a run is carrying out %q; wait for it to end", errBusy, s.run)
	}
	return nil
}

// withPhone opens the phone, runs f and closes it.
func (s *Server) withPhone(ctx context.Context, f func(Phone) error) error {
	p, err := s.cfg.OpenPhone(ctx)
	if err != nil {
		return err
	}
	defer p.Close(context.WithoutCancel(ctx))
	return f(p)
}

// withKnowledge opens the knowledge file, runs f and closes it at once.
func (s *Server) withKnowledge(ctx context.Context, f func(Knowledge) error) error {
	k, err := s.cfg.OpenKnowledge(ctx)
	if err != nil {
		return err
	}
	err = f(k)
	if cerr := k.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("close knowledge file: %w", cerr)
	}
	return err
}

// ptr returns a pointer to v (the SDK's optional hints are pointers).
func ptr[T any](v T) *T { return &v }

// text is a tool result of one text block.
func text(s string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
}
