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
	"time"

	"github.com/spf13/cobra"

	"github.com/fairy-go/fairy/executor/adb"
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
}

// newMCPCmd builds `fairy mcp`.
func newMCPCmd(d mcpDeps) *cobra.Command {
	var addr string
	cmd := &cobra.Command{
		Use:   "mcp [--http ADDR]",
		Short: "Serve fairy's tools to AI clients over the Model Context Protocol (stdio, or streamable HTTP)",
		Long: `fairy mcp serves the phone to an MCP client (Claude Desktop, Cursor, an agent framework):
devices, screen, act, apps, run, map and tricks. On stdio by default (the client starts it);
with --http ADDR as a streamable HTTP endpoint. Sensitive actions are asked of the person
through the client and refused without their yes.`,
		Example: `  fairy mcp
  fairy mcp -s emulator-5554 --knowledge ~/fairy.db
  fairy mcp --http ` + mcpHTTPExample,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rc, err := d.Config(cmd)
			if err != nil {
				return withExit(2, err)
			}
			srv, err := mcp.New(mcpConfig(d, rc))
			if err != nil {
				return withExit(2, err)
			}
			ctx := cmd.Context()
			if addr != "" {
				return serveMCPHTTP(ctx, srv, addr, d.Stderr)
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
	cmd.Flags().StringVar(&addr, "http", "", "serve streamable HTTP on `ADDR` (host:port, e.g. "+mcpHTTPExample+"; fairy model serve takes 8765) instead of stdio")
	return cmd
}

// mcpHTTPExample is the address the help and the README give for `fairy mcp --http`: not
// 8765, where `fairy model serve` listens by default, so the two run side by side.
const mcpHTTPExample = "127.0.0.1:8766"

// mcpConfig wires the server's hooks to the device layer, the agent and the knowledge file.
func mcpConfig(d mcpDeps, rc runConfig) mcp.Config {
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
			sum, err := runAgent(ctx, agentSetup{Config: cfg, Knowledge: kn, Device: dev, Dialoger: r.Dialoger, Out: r.Progress}, r.Instruction)
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

// serveMCPHTTP serves streamable HTTP on addr until ctx ends.
func serveMCPHTTP(ctx context.Context, srv *mcp.Server, addr string, stderr io.Writer) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return withExit(2, fmt.Errorf("listen on %s: %w (choose another --http address)", addr, err))
	}
	hs := &http.Server{Handler: srv.HTTPHandler(), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stderr, "fairy mcp: serving streamable HTTP on http://%s/\n", ln.Addr())
	if ip := ln.Addr().(*net.TCPAddr).IP; !ip.IsLoopback() {
		fmt.Fprintln(stderr, "fairy mcp: warning: the address is not loopback and the endpoint has no authentication: anyone who reaches it can drive the phone")
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
