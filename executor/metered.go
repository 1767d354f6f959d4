package executor

import (
	"context"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/llm"
)

// RoleChecker is the role (and schema name) of the finish check.
const RoleChecker llm.Role = "checker"

// Metered wraps a Model: every call is added to Meter and published as a ModelCalled event.
// Calls of the extractor role are off the critical path; all others are on it.
type Metered struct {
	Model Model
	Meter *llm.Meter
	Bus   *event.Bus
}

// Generate implements Model.
func (m Metered) Generate(ctx context.Context, req llm.Request) (llm.Response, error) {
	resp, err := m.Model.Generate(ctx, req)
	ev := event.ModelCalled{Role: string(req.Role), Critical: req.Role != llm.RoleExtractor, Model: resp.Model,
		PromptTokens: resp.Usage.PromptTokens, CompletionTokens: resp.Usage.CompletionTokens, Cost: resp.Cost,
		LatencyMS: float64(resp.Latency.Microseconds()) / 1000}
	if err != nil {
		ev.Err = err.Error()
	} else if m.Meter != nil {
		m.Meter.Add(req.Role, resp)
	}
	m.Bus.Publish(ev)
	return resp, err
}
