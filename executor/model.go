package executor

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/prompts"
)

// call sends a rendered prompt under role and decodes the JSON answer into out; keys the
// answer lacks keep their zero values (the callers check what they need). An answer that
// is not usable JSON is asked for once more, with the problem named.
func call(ctx context.Context, m Model, role llm.Role, p prompts.Prompt, images []llm.Image, out any) error {
	req := llm.Request{Role: role, System: p.System, Schema: &p.Schema,
		Messages: []llm.Message{{Role: "user", Text: p.User, Images: images}}}
	var problem error
	for attempt := 0; attempt < 2; attempt++ {
		if problem != nil {
			req.Messages = append(req.Messages[:1],
				llm.Message{Role: "user", Text: prompts.AskAgain(problem, p.Schema.Name)})
		}
		resp, err := m.Generate(ctx, req)
		if err != nil {
			return fmt.Errorf("%s model: %w", role, err)
		}
		text, err := llm.ExtractJSON(resp.Text)
		if err == nil {
			err = json.Unmarshal([]byte(text), out)
		}
		if v, ok := out.(prompts.Validator); ok && err == nil {
			err = v.Validate()
		}
		if err == nil {
			return nil
		}
		problem = err
	}
	return fmt.Errorf("%w: %s: %w", errBadAnswer, role, problem)
}
