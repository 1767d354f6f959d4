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
//
// The types to know: Role (planner, replanner, decider, interactor, extractor,
// learner, the simulated user, the judge: each may have its own model in the config);
// Request and Response; Meter (zero value ready, safe for concurrent use), which adds up
// calls, tokens, cost and latency per role over a run, priced by a PriceTable; ExtractJSON
// and CheckJSON, which take a JSON answer out of prose and check it against the role's
// schema; Recorder and Replay, which record a run's model exchanges and play them back as
// a regression test (a request not in the recording fails with ErrReplayMiss); ScreenOf,
// which reads the numbered elements back out of a prompt's screen text, for the scripted
// model and the error injector.
//
// Caveats: an answer is text from outside and is never trusted: callers extract and check
// it, and ask again with what was wrong (prompts.AskAgain) before acting on it. Secrets
// given to a Recorder (API keys) are scrubbed from what it writes.
package llm
