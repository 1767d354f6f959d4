package mcp

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fairy-go/fairy/interaction"
)

// consenter asks the person to allow one sensitive action; elicitor is one.
type consenter interface {
	// consent reports whether the person said yes; why says, when not, what happened
	// ("the person declined", "the client cannot ask the person", …).
	consent(ctx context.Context, message string) (granted bool, why string)
}

// elicitor asks the person through the MCP client (elicitation), and is the Dialoger of
// the runs the run tool starts.
type elicitor struct {
	session *sdk.ServerSession
	log     *slog.Logger
}

// answerField is the one field of every elicitation form.
const answerField = "answer"

// form is an elicitation schema of one required answer field.
func form(prop map[string]any) map[string]any {
	return map[string]any{
		"type":       "object",
		"properties": map[string]any{answerField: prop},
		"required":   []string{answerField},
	}
}

// yesNoForm asks for yes or no.
var yesNoForm = form(map[string]any{"type": "string", "title": "Your answer", "enum": []string{"yes", "no"}})

// elicit asks and returns the answer; ok is false when there is none, with why.
func (e elicitor) elicit(ctx context.Context, message string, schema map[string]any) (answer string, ok bool, why string) {
	if ip := e.session.InitializeParams(); ip == nil || ip.Capabilities == nil || ip.Capabilities.Elicitation == nil {
		return "", false, "this client cannot ask the person (it does not support MCP elicitation)"
	}
	res, err := e.session.Elicit(ctx, &sdk.ElicitParams{Message: message, RequestedSchema: schema})
	if err != nil {
		if ctx.Err() != nil {
			return "", false, "the call ended before the person answered"
		}
		e.log.Warn("mcp: elicitation failed", "err", err)
		return "", false, fmt.Sprintf("the client could not ask the person (%v)", err)
	}
	switch res.Action {
	case "accept":
		a, _ := res.Content[answerField].(string)
		if a = strings.TrimSpace(a); a == "" {
			return "", false, "the person gave an empty answer"
		}
		return a, true, ""
	case "decline":
		return "", false, "the person declined"
	}
	return "", false, "the person dismissed the question"
}

// consent implements consenter: only an explicit yes grants.
func (e elicitor) consent(ctx context.Context, message string) (bool, string) {
	a, ok, why := e.elicit(ctx, message, yesNoForm)
	if !ok {
		return false, why
	}
	if !strings.EqualFold(a, "yes") {
		return false, "the person said " + a
	}
	return true, ""
}

// Ask implements interaction.Dialoger. A consent question without an answer is answered
// "no" (the run goes on without the action); any other question without an answer ends
// the run with interaction.ErrNoAnswer.
func (e elicitor) Ask(ctx context.Context, q interaction.Question) (string, error) {
	msg := q.Text
	if q.Covers != "" {
		msg += "\n(a yes allows this once: " + q.Covers + ")"
	}
	switch q.Kind {
	case interaction.YesNo:
		if ok, why := e.consent(ctx, msg); !ok {
			e.log.Info("mcp: no consent", "why", why)
			return "no", nil
		}
		return "yes", nil
	case interaction.Options:
		if len(q.Options) > 0 {
			a, ok, why := e.elicit(ctx, msg, form(map[string]any{"type": "string", "title": "Your choice", "enum": unique(q.Options)}))
			if !ok {
				return "", fmt.Errorf("%w: %s", interaction.ErrNoAnswer, why)
			}
			return a, nil
		}
	}
	a, ok, why := e.elicit(ctx, msg, form(map[string]any{"type": "string", "title": "Your answer"}))
	if !ok {
		return "", fmt.Errorf("%w: %s", interaction.ErrNoAnswer, why)
	}
	return a, nil
}

// unique drops repeated options (an enum must not repeat).
func unique(opts []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, o := range opts {
		if !seen[o] {
			seen[o] = true
			out = append(out, o)
		}
	}
	return out
}
