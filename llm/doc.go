// Package llm holds fairy's own model types: a Request (role, system prompt, messages with
// text and images, an optional named JSON schema), a Response (text, model, usage, latency,
// cost), a price table, tolerant JSON extraction and checking, and record/replay of model
// exchanges.
//
// No type of any client library appears here. The go-openai adapter lives in llm/openai and
// the scripted stand-in model in llm/scripted. Consumers declare the one-method interface
// they need:
//
//	type model interface {
//		Generate(ctx context.Context, req llm.Request) (llm.Response, error)
//	}
//
// which *openai.Client and *llm.Replay both implement.
package llm
