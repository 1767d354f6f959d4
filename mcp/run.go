package mcp

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fairy-go/fairy/event"
)

type runInput struct {
	Instruction string `json:"instruction" jsonschema:"what to do on the phone, in the person's words"`
	MaxSteps    int    `json:"max_steps,omitempty" jsonschema:"step limit per app task (default: the configured one)"`
}

// runOutput is the run tool's structured answer: the run's summary in brief.
type runOutput struct {
	Outcome    string   `json:"outcome" jsonschema:"done, failed, refused or stopped"`
	Reason     string   `json:"reason,omitempty"`
	Answer     string   `json:"answer,omitempty" jsonschema:"what the task answered, when it asked for information"`
	Steps      int      `json:"steps"`
	ModelCalls int      `json:"model_calls"`
	Questions  []string `json:"questions" jsonschema:"what the person was asked"`
	RunDir     string   `json:"run_dir,omitempty" jsonschema:"the run directory: trace.jsonl, screenshots, summary.json"`
}

func (s *Server) addRunTool() {
	sdk.AddTool(s.server, &sdk.Tool{
		Name: "run",
		Description: "Carry out an instruction on the phone with fairy's own agent and configured model: it plans, taps and types, " +
			"asks the person (through this client) when a choice or a sensitive action needs them, and learns from the run. " +
			"Progress arrives as notifications; the answer is the run's summary.",
		Annotations: &sdk.ToolAnnotations{DestructiveHint: ptr(true), OpenWorldHint: ptr(true)},
	}, func(ctx context.Context, req *sdk.CallToolRequest, in runInput) (*sdk.CallToolResult, runOutput, error) {
		in.Instruction = strings.TrimSpace(in.Instruction)
		if in.Instruction == "" {
			return nil, runOutput{}, fmt.Errorf("%w: instruction is empty: say what to do on the phone", errBadInput)
		}
		if in.MaxSteps < 0 {
			return nil, runOutput{}, fmt.Errorf("%w: max_steps %d: give a positive limit, or leave it out", errBadInput, in.MaxSteps)
		}
		if holder, ok := s.hold(in.Instruction); !ok {
			return nil, runOutput{}, fmt.Errorf("%w: a run is carrying out %q; wait for it to end", errBusy, holder)
		}
		defer s.release()
		progress := &progressWriter{ctx: ctx, session: req.Session, token: req.Params.GetProgressToken(), log: s.log}
		res, err := s.cfg.Run(ctx, RunRequest{Instruction: in.Instruction, MaxSteps: in.MaxSteps,
			Dialoger: elicitor{session: req.Session, log: s.log}, Progress: progress})
		progress.Flush()
		if err != nil {
			return nil, runOutput{}, err
		}
		sum := res.Summary
		out := runOutput{Outcome: string(sum.Outcome), Reason: sum.Reason, Answer: sum.Answer, Steps: sum.Steps,
			ModelCalls: sum.ModelCalls, Questions: sum.Questions, RunDir: res.Dir}
		if out.Questions == nil {
			out.Questions = []string{}
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%s", out.Outcome)
		if out.Reason != "" {
			fmt.Fprintf(&b, ": %s", out.Reason)
		}
		if out.Answer != "" {
			fmt.Fprintf(&b, "\nanswer: %s", out.Answer)
		}
		fmt.Fprintf(&b, "\n%d steps, %d model calls, %d questions", out.Steps, out.ModelCalls, len(out.Questions))
		if res.Dir != "" {
			fmt.Fprintf(&b, "\nrun directory: %s", res.Dir)
		}
		result := text(b.String())
		if res.Err != nil || sum.Outcome != event.OutcomeDone {
			// The task did not happen: the client's model must not read it as done.
			result.IsError = true
			if res.Err != nil && !strings.Contains(b.String(), res.Err.Error()) {
				result.Content = append(result.Content, &sdk.TextContent{Text: res.Err.Error()})
			}
		}
		return result, out, nil
	})
}

// progressWriter sends each line written to it as a progress notification of the call
// (none when the client asked for no progress).
type progressWriter struct {
	ctx     context.Context
	session *sdk.ServerSession
	token   any
	log     *slog.Logger

	mu   sync.Mutex
	buf  bytes.Buffer
	sent float64
}

func (w *progressWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	for {
		line, err := w.buf.ReadString('\n')
		if err != nil {
			// An unfinished line waits for its end.
			w.buf.Reset()
			w.buf.WriteString(line)
			return len(p), nil
		}
		w.send(line)
	}
}

// Flush sends what is left of an unfinished line.
func (w *progressWriter) Flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.buf.Len() > 0 {
		w.send(w.buf.String())
		w.buf.Reset()
	}
}

func (w *progressWriter) send(line string) {
	line = strings.TrimSpace(line)
	if line == "" || w.token == nil || w.session == nil {
		return
	}
	w.sent++
	err := w.session.NotifyProgress(w.ctx, &sdk.ProgressNotificationParams{ProgressToken: w.token, Progress: w.sent, Message: line})
	if err != nil && w.ctx.Err() == nil {
		w.log.Debug("mcp: progress notification", "err", err)
	}
}
