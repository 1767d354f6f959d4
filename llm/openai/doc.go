// Package openai is fairy's model adapter for any OpenAI-compatible chat-completions endpoint
// (OpenAI, Azure, OpenRouter, DashScope, Ollama, vLLM, fairy's scripted model, …). It is the
// only package that imports github.com/sashabaranov/go-openai.
//
// A Client turns an llm.Request into one chat completion and back:
//
//   - the model is chosen per role (Config.Models, else Config.DefaultModel);
//   - structured output per endpoint (Config.Mode): "json_schema" sends the schema as
//     response_format with the schema's name, "json_object" asks for a JSON object, "text"
//     sends nothing special; in the last two the schema and a role marker
//     (llm.RoleMarker) go into the system prompt. The answer is always extracted tolerantly
//     (code fences, prose around the object) and checked (a JSON object holding the schema's
//     required top-level keys); a bad answer gets a bounded repair retry that tells the model
//     what was wrong;
//   - 429 (honouring Retry-After), 5xx, broken connections and timeouts are retried with
//     exponential back-off and jitter; after Config.FailoverAfter consecutive failures the
//     Config.BackupModel takes over;
//   - an endpoint refusing the mode fails at once with ErrModeRejected naming the setting;
//     an endpoint refusing array content makes the client fall back to plain-string content
//     (images dropped) for the rest of its life;
//   - images go as data URLs, re-encoded as JPEG and downscaled when over Config.MaxImageBytes;
//   - every Response carries usage, latency and cost (Config.Prices);
//   - Config.Concurrency and Config.RequestsPerSecond bound the load;
//   - a response body (answer or error) over Config.MaxResponseBytes (8 MiB by default) is
//     cut off while it is read and fails the call at once with a *ResponseTooLargeError, so
//     a runaway endpoint costs neither memory nor retries; errors quote only the head of an
//     endpoint's error body;
//   - the API key is scrubbed from every error and log line;
//   - Config.Recorder appends every exchange to a recording that llm.Replay serves back.
package openai
