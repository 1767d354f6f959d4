package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/fairy-go/fairy/executor"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/fairy-go/fairy/internal/table"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/llm/openai"
	"github.com/fairy-go/fairy/llm/scripted"
	"github.com/spf13/cobra"
)

// modelDeps are the lead's hooks for `fairy model`.
type modelDeps struct {
	// Config resolves the model settings (base URL, key, models per role, mode, prices, …)
	// from flags, config file and environment.
	Config func(cmd *cobra.Command) (openai.Config, error)
	// Logger is the configured logger (nil: discard).
	Logger func() *slog.Logger
	// Grounding is model.grounding, checked; Probes is where probes are remembered.
	Grounding func(cmd *cobra.Command) (string, error)
	Probes    func() (probeStore, error)
}

// newModelCmd builds `fairy model check` and `fairy model serve`.
func newModelCmd(d modelDeps) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "model",
		Short: "Check the configured models, probe a grounding model's frame, or serve the scripted model",
		// The root command reports errors; these stay quiet when the command runs alone (tests).
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	cmd.AddCommand(newModelCheckCmd(d), newModelServeCmd(d), newModelProbeCmd(d))
	return cmd
}

func (d modelDeps) logger() *slog.Logger {
	if d.Logger != nil {
		if l := d.Logger(); l != nil {
			return l
		}
	}
	return slog.New(slog.DiscardHandler)
}

// checkSchema is the tiny answer `fairy model check` asks for.
var checkSchema = json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}`)

func newModelCheckCmd(d modelDeps) *cobra.Command {
	var timeout time.Duration
	var roles []string
	var format string
	cmd := &cobra.Command{
		Use:   "check [--role R]... [--timeout D] [--format table|json]",
		Short: "Send each role's model a tiny request and report ok, latency and tokens",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkFormat(format); err != nil {
				return err
			}
			cfg, err := d.Config(cmd)
			if err != nil {
				return withExit(2, err)
			}
			cfg.MaxRetries = -1 // a check reports what the endpoint does now
			cfg.RepairRetries = -1
			if cfg.Logger == nil {
				cfg.Logger = d.logger()
			}
			c, err := openai.New(cfg)
			if err != nil {
				return withExit(2, err)
			}
			list := append(llm.Roles(), executor.RoleChecker) // the finish check is a role too
			if len(roles) > 0 {
				list = list[:0]
				for _, r := range roles {
					list = append(list, llm.Role(r))
				}
			}
			failures := checkModels(cmd.Context(), c, list, timeout, format, cmd)
			if len(failures) == 0 {
				return nil
			}
			err = fmt.Errorf("%d of %d role(s) failed the model check", len(failures), len(list))
			for _, f := range failures {
				if errors.Is(f, openai.ErrAuth) {
					// A refused key is configuration (exit 2), not a model that fails.
					err = fmt.Errorf("%w: %w", err, f)
					break
				}
			}
			return withExit(exitFailed, err)
		},
	}
	cmd.Flags().DurationVar(&timeout, "timeout", 60*time.Second, "time allowed per role")
	cmd.Flags().StringSliceVar(&roles, "role", nil, "check only these roles (default: all)")
	_ = cmd.RegisterFlagCompletionFunc("role", completeRoles)
	addFormatFlag(cmd, &format)
	return cmd
}

// checkModels runs the check for each role, prints a table (or JSON) and returns the
// failures.
func checkModels(ctx context.Context, c *openai.Client, roles []llm.Role, timeout time.Duration, format string,
	cmd *cobra.Command) []error {
	var failed []error
	rows := make([]roleCheckJSON, 0, len(roles))
	for _, role := range roles {
		cctx, cancel := context.WithTimeout(ctx, timeout)
		resp, err := c.Generate(cctx, llm.Request{
			Role: role,
			System: llm.CheckMarker + ": this is a connectivity check. Reply with the JSON object {\"ok\": " +
				"true} and nothing else.",
			Messages:  []llm.Message{{Role: "user", Text: "ping"}},
			Schema:    &llm.Schema{Name: string(role), JSON: checkSchema},
			MaxTokens: 50,
		})
		cancel()
		if err != nil {
			failed = append(failed, err)
			rows = append(rows, roleCheckJSON{Role: string(role), Model: c.ModelFor(role), Error: err.Error()})
			if ctx.Err() != nil {
				break
			}
			continue
		}
		rows = append(rows, roleCheckJSON{Role: string(role), Model: resp.Model, OK: true,
			LatencyMS:    resp.Latency.Milliseconds(),
			PromptTokens: resp.Usage.PromptTokens, CompletionTokens: resp.Usage.CompletionTokens, Cost: resp.Cost})
	}
	if isJSON(format) {
		_ = writeJSON(cmd.OutOrStdout(), rows)
		return failed
	}
	tw := table.NewWriter(cmd.OutOrStdout())
	fmt.Fprintln(tw, "ROLE\tMODEL\tRESULT\tLATENCY\tTOKENS\tCOST\tERROR")
	for _, r := range rows {
		if !r.OK {
			fmt.Fprintf(tw, "%s\t%s\tFAIL\t-\t-\t-\t%s\n", r.Role, table.Escape(r.Model), table.Escape(r.Error))
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\tok\t%s\t%d+%d\t$%.6f\t\n", r.Role, r.Model, time.Duration(r.LatencyMS)*time.Millisecond,
			r.PromptTokens, r.CompletionTokens, r.Cost)
	}
	_ = tw.Flush()
	return failed
}

func newModelServeCmd(d modelDeps) *cobra.Command {
	var rulesPath, addr string
	cmd := &cobra.Command{
		Use:   "serve --rules FILE [--addr A]",
		Short: "Serve the scripted model (an OpenAI-compatible endpoint answering from a rules file)",
		Long: `Serve the scripted model: a deterministic OpenAI-compatible endpoint (POST /v1/chat/completions,
GET /v1/models) that answers from a rules file. It is not a real model; its answers say so
(model "fairy-scripted"). See the rules format in docs/virtual-phone.md or 'go doc github.com/fairy-go/fairy/llm/scripted'.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if rulesPath == "" {
				return withExit(2, errors.New("model serve: pass --rules FILE"))
			}
			rules, err := scripted.LoadRules(rulesPath)
			if err != nil {
				return withExit(2, err)
			}
			srv, err := scripted.NewServer(rules, scripted.Options{Logger: d.logger()})
			if err != nil {
				return withExit(2, err)
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return withExit(2, fmt.Errorf("model serve: listen on %s: %w", addr, err))
			}
			return serveScripted(cmd.Context(), ln, srv, len(rules), cmd)
		},
	}
	cmd.Flags().StringVar(&rulesPath, "rules", "", "rules file (YAML)")
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8765", "listen address")
	return cmd
}

// serveScripted serves until ctx ends, then shuts down gracefully.
func serveScripted(ctx context.Context, ln net.Listener, h http.Handler, nrules int, cmd *cobra.Command) error {
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(cmd.OutOrStdout(), "scripted model %q (not a real model) with %d rules at http://%s/v1\n",
		scripted.ModelName, nrules, ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("model serve: %w", err)
	case <-ctx.Done():
	}
	// Answers in flight get a moment to finish; a connection a client opened but never used
	// (http.StateNew) would hold Shutdown for seconds, so after the grace it is closed.
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), serveGrace)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		if !errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("model serve: shutdown: %w", err)
		}
		_ = hs.Close()
	}
	<-errc
	return nil
}

// serveGrace is how long `fairy model serve` lets answers in flight finish on Ctrl-C.
const serveGrace = 500 * time.Millisecond
