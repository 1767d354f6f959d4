package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"runtime/debug"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/fairy-go/fairy/executor/adb"
	"github.com/fairy-go/fairy/live"
	"github.com/fairy-go/fairy/mcp"
)

// mcpDeps are the hooks of `fairy mcp`.
type mcpDeps struct {
	Config        func(cmd *cobra.Command) (runConfig, error)
	OpenDevice    func(ctx context.Context) (*adb.Device, error) // the resolved target
	Target        func() deviceTarget
	KnowledgePath knowledgeRef
	Stdin         io.Reader
	Stdout        io.Writer
	Stderr        io.Writer
	// Getenv reads FAIRY_MCP_TOKEN (the bearer token of --http) and FAIRY_WATCH_TOKEN.
	Getenv func(string) string
}

// newMCPCmd builds `fairy mcp`.
func newMCPCmd(d mcpDeps) *cobra.Command {
	var addr string
	var watch watchFlags
	cmd := &cobra.Command{
		Use:   "mcp [--http ADDR]",
		Short: "Serve fairy's tools to AI clients over the Model Context Protocol (stdio, or streamable HTTP)",
		Long: `fairy mcp serves the phone to an MCP client (Claude Desktop, Cursor, an agent framework):
devices, screen, act, apps, run, map and tricks. On stdio by default (the client starts it);
with --http ADDR as a streamable HTTP endpoint. Sensitive actions are asked of the person
through the client and refused without their yes.

The HTTP endpoint wants "Authorization: Bearer TOKEN" on every request: the token is
FAIRY_MCP_TOKEN, or a random one printed at start. It refuses a request from a web page of
another origin and one that names another host than the loopback address it serves (DNS
rebinding), and it refuses to listen on an address other machines reach without
FAIRY_MCP_TOKEN. It keeps at most 32 sessions, each closed after 30 minutes without a
request.

With --watch, each run the client starts is shown on a live page (see fairy run --watch); its
questions can be answered on the page too, and its Stop ends that run.`,
		Example: `  fairy mcp
  fairy mcp -s emulator-5554 --knowledge ~/fairy.db
  fairy mcp --http ` + mcpHTTPExample,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rc, err := d.Config(cmd)
			if err != nil {
				return withExit(2, err)
			}
			getenv := d.Getenv
			if getenv == nil {
				getenv = func(string) string { return "" }
			}
			mw := &mcpWatch{}
			wt, ctx, err := startWatch(cmd.Context(), watch, "fairy mcp", getenv(envWatchToken), d.Stderr, d.Stderr,
				rc.Agent.Logger)
			if err != nil {
				return err
			}
			if wt != nil {
				defer wt.close(ctx, nil)
				mw.w = wt
				wt.onStop = mw.stop
			}
			srv, err := mcp.New(mcpConfig(d, rc, mw))
			if err != nil {
				return withExit(2, err)
			}
			if addr != "" {
				return serveMCPHTTP(ctx, srv, addr, getenv(envMCPToken), d.Stderr)
			}
			err = srv.ServeIO(ctx, io.NopCloser(d.Stdin), nopWriteCloser{d.Stdout})
			switch {
			case err == nil, errors.Is(err, io.EOF):
				return nil // the client closed the pipe: the session is over
			case ctx.Err() != nil:
				return err
			}
			return fmt.Errorf("mcp session ended: %w (a client speaks JSON-RPC 2.0 on stdin, one message a line)", err)
		},
	}
	watch.add(cmd, "each run the client starts")
	cmd.Flags().StringVar(&addr, "http", "", "serve streamable HTTP on `ADDR` "+
		"(host:port, e.g. "+mcpHTTPExample+"; fairy model serve takes 8765) instead of stdio")
	return cmd
}

// mcpHTTPExample is the address the help and the README give for `fairy mcp --http`: not
// 8765, where `fairy model serve` listens by default, so the two run side by side.
const mcpHTTPExample = "127.0.0.1:8766"

// mcpConfig wires the server's hooks to the device layer, the agent and the knowledge file.
func mcpConfig(d mcpDeps, rc runConfig, mw *mcpWatch) mcp.Config {
	stderr := d.Stderr
	return mcp.Config{
		Version: moduleVersion(),
		Devices: func(ctx context.Context) ([]adb.DeviceInfo, error) {
			return adb.Devices(ctx, adbConfig(d.Target()))
		},
		OpenPhone: func(ctx context.Context) (mcp.Phone, error) {
			dev, err := d.OpenDevice(ctx)
			if err != nil {
				return nil, err
			}
			return dev, nil
		},
		Guard:  rc.Agent.Guard,
		Pixels: rc.Agent.Pixels,
		Run: func(ctx context.Context, r mcp.RunRequest) (mcp.RunResult, error) {
			cfg := rc
			if cfg.Model == nil {
				return mcp.RunResult{}, errNoModel
			}
			if r.MaxSteps > 0 {
				cfg.Agent.Limits.MaxSteps = r.MaxSteps
			}
			kn, err := openRunKnowledge(cfg.Knowledge, cfg.KnowledgeDefault, cfg.Agent.Clock, stderr, cfg.Etcd)
			if err != nil {
				return mcp.RunResult{}, err
			}
			dev, err := d.OpenDevice(ctx)
			if err != nil {
				kn.close()
				return mcp.RunResult{}, err // it names the device: "open device SERIAL: …"
			}
			defer dev.Close(context.WithoutCancel(ctx))
			ctx, panel, done := mw.start(ctx, r.Instruction)
			defer done()
			person := r.Dialoger
			if panel != nil {
				person = live.First{r.Dialoger, panel}
			}
			sum, err := runAgent(ctx, agentSetup{Config: cfg, Knowledge: kn, Device: dev, Dialoger: person, Out: r.Progress,
				Watch: panelHandler(panel)}, r.Instruction)
			if err != nil && errors.Is(context.Cause(ctx), errStopped) {
				err = fmt.Errorf("%w: the run directory and the knowledge file are kept", errStopped)
			}
			var ee *exitError
			if errors.As(err, &ee) && ee.code == 2 {
				return mcp.RunResult{}, err // the run could not start
			}
			res := mcp.RunResult{Summary: sum, Err: err}
			if sum.RunID != "" {
				res.Dir = filepath.Join(cfg.RunsDir, sum.RunID)
			}
			return res, nil
		},
		OpenKnowledge: func(context.Context) (mcp.Knowledge, error) {
			st, err := openKnowledge(d.KnowledgePath, false)
			if errors.Is(err, errNoKnowledge) {
				return nil, fmt.Errorf("%w: %w", mcp.ErrNoKnowledge, err)
			}
			if err != nil {
				return nil, err
			}
			return st, nil
		},
		Logger: rc.Agent.Logger,
	}
}

// serveMCPHTTP serves streamable HTTP on addr until ctx ends, behind the token (token, or
// a random one it prints) and the Origin and Host checks (live.Access).
func serveMCPHTTP(ctx context.Context, srv *mcp.Server, addr, token string, stderr io.Writer) error {
	return serveMCPHTTPWith(ctx, srv, addr, token, mcp.HTTPOptions{}, stderr, nil)
}

// serveMCPHTTPWith is serveMCPHTTP with the session bounds, telling ready its address.
func serveMCPHTTPWith(ctx context.Context, srv *mcp.Server, addr, token string, o mcp.HTTPOptions, stderr io.Writer,
	ready func(net.Addr)) error {
	if err := live.CheckAddr(addr, token != ""); err != nil {
		if errors.Is(err, live.ErrNotLoopback) {
			err = fmt.Errorf("%w (set %s; clients send it as \"Authorization: Bearer TOKEN\")", err, envMCPToken)
		}
		return withExit(exitUsage, err)
	}
	random := token == ""
	if random {
		t, err := live.NewToken()
		if err != nil {
			return err
		}
		token = t
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return withExit(2, fmt.Errorf("listen on %s: %w (choose another --http address)", addr, err))
	}
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	access := live.Access{Token: token, Loopback: live.IsLoopback(host), Port: port}
	hs := &http.Server{Handler: access.Protect(srv.HTTPHandler(o)), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stderr, "fairy mcp: serving streamable HTTP on http://%s/\n", ln.Addr())
	if random {
		fmt.Fprintf(stderr, "fairy mcp: clients send \"Authorization: Bearer %s\" (a random token; set %s to choose it)\n",
			token, envMCPToken)
	} else {
		fmt.Fprintf(stderr, "fairy mcp: clients send \"Authorization: Bearer\" with the token of %s\n", envMCPToken)
	}
	if ready != nil {
		ready(ln.Addr())
	}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		shut, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(shut)
		<-done
		return nil
	}
}

// moduleVersion is the module version from the build info ("(devel)" in a work tree).
func moduleVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		return cmp.Or(bi.Main.Version, "(devel)")
	}
	return "(devel)"
}

// nopWriteCloser leaves the command's stdout open when the session closes.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// mcpWatch is `fairy mcp --watch`: each run the client starts gets a panel on the live
// page, and the page's Stop ends the run under way (not the server).
type mcpWatch struct {
	w      *watching
	mu     sync.Mutex
	cancel context.CancelCauseFunc // the run under way's
}

// start gives a run its panel and a context the page's Stop ends; done ends both. Without
// --watch it returns ctx, no panel and a no-op.
func (m *mcpWatch) start(ctx context.Context, instruction string) (context.Context, *live.Panel, func()) {
	if m == nil || m.w == nil {
		return ctx, nil, func() {}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	m.mu.Lock()
	m.cancel = cancel
	m.mu.Unlock()
	panel := m.w.panel(instruction)
	return ctx, panel, func() {
		m.mu.Lock()
		m.cancel = nil
		m.mu.Unlock()
		cancel(nil)
	}
}

// stop ends the run under way, if any.
func (m *mcpWatch) stop() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.cancel != nil {
		fmt.Fprintln(m.w.stderr, msgStopped)
		m.cancel(errStopped)
	}
}
