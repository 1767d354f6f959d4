package llm

import (
	"encoding/json"
	"time"
)

// Role names the agent part that asks the model; each role may use its own model.
type Role string

// The roles of fairy's agent. For agent calls the Schema name equals the role.
const (
	RolePlanner    Role = "planner"
	RoleReplanner  Role = "replanner"
	RoleDecider    Role = "decider"
	RoleInteractor Role = "interactor"
	RoleExtractor  Role = "extractor"
	RoleLearner    Role = "learner"
	RoleUser       Role = "user"
	RoleJudge      Role = "judge"
)

// Roles lists every role in a stable order.
func Roles() []Role {
	return []Role{RolePlanner, RoleReplanner, RoleDecider, RoleInteractor, RoleExtractor, RoleLearner, RoleUser, RoleJudge}
}

// RoleMarker is the line prefix the adapter appends to the system prompt (followed by the role)
// whenever the role cannot travel as the JSON schema's name, i.e. in json_object and text
// modes or without a schema. The scripted model reads the role back from it.
const RoleMarker = "fairy-role: "

// CheckMarker appears in the system prompt of the tiny request sent by `fairy model check`;
// the scripted model answers such requests with {"ok": true} when no rule matches them.
const CheckMarker = "fairy-model-check"

// Request is one model call.
type Request struct {
	Role        Role
	System      string
	Messages    []Message
	Schema      *Schema  // when set, the answer must be one JSON object of this schema
	Temperature *float32 // nil: the endpoint's default
	MaxTokens   int      // 0: the endpoint's default
}

// Message is one turn of the conversation after the system prompt.
type Message struct {
	Role   string // "user" or "assistant"
	Text   string
	Images []Image
}

// Image is an encoded picture (PNG or JPEG) attached to a message.
type Image struct {
	MIME string // "image/png", "image/jpeg"
	Data []byte
}

// Schema is a named JSON schema the answer must follow. Name is what the scripted model
// matches its rules on.
type Schema struct {
	Name string
	JSON json.RawMessage
}

// Response is a model's answer.
type Response struct {
	Text    string // the JSON object text when the request had a Schema
	Model   string // the model that answered, as the endpoint names it
	Usage   Usage
	Latency time.Duration // wall time of the call, retries included
	Cost    float64       // USD, from the price table; 0 when the model has no price
}

// Usage counts tokens.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

// Total is prompt plus completion tokens.
func (u Usage) Total() int { return u.PromptTokens + u.CompletionTokens }

// Add returns the sum of two usages.
func (u Usage) Add(v Usage) Usage {
	return Usage{PromptTokens: u.PromptTokens + v.PromptTokens, CompletionTokens: u.CompletionTokens + v.CompletionTokens}
}
