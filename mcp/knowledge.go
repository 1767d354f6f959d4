package mcp

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fairy-go/fairy/knowledge"
)

// mapInput is the map tool's arguments. Its verb is named action, as in act and tricks;
// command, its old name, is still accepted.
type mapInput struct {
	Action  string `json:"action,omitempty" jsonschema:"what to do: list (apps with what was learned), show (one app's pages and transitions) or path (the known way between two pages)"`
	Command string `json:"command,omitempty" jsonschema:"the old name of action, still accepted"`
	Package string `json:"package,omitempty" jsonschema:"the app's package (show, path)"`
	From    string `json:"from,omitempty" jsonschema:"path: the page to start from (an ID like p3, a page key, or a key prefix)"`
	To      string `json:"to,omitempty" jsonschema:"path: the page to reach"`
}

// tricksInput is the tricks tool's arguments; command is action's old name.
type tricksInput struct {
	Action  string `json:"action,omitempty" jsonschema:"what to do: list (best first) or search (most relevant to query first)"`
	Command string `json:"command,omitempty" jsonschema:"the old name of action, still accepted"`
	Package string `json:"package,omitempty" jsonschema:"only this app's tricks (or common); all apps when left out"`
	Kind    string `json:"kind,omitempty" jsonschema:"only this kind: planning, action or error-recovery"`
	Query   string `json:"query,omitempty" jsonschema:"search: an instruction, sub-goal or error text, in any language"`
	Limit   int    `json:"limit,omitempty" jsonschema:"at most this many tricks (default 20)"`
}

// trickRow is one trick in the tricks tool's answer.
type trickRow struct {
	ID        string  `json:"id"`
	App       string  `json:"app"`
	Kind      string  `json:"kind"`
	Text      string  `json:"text"`
	Score     float64 `json:"score"`
	Uses      int     `json:"uses"`
	Successes int     `json:"successes"`
}

// defaultTricks is how many tricks a list or search returns unless told.
const defaultTricks = 20

func (s *Server) addKnowledgeTools() {
	ro := &sdk.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)}
	sdk.AddTool(s.server, &sdk.Tool{
		Name:        "map",
		Description: "Read the App Maps fairy learned: list the apps, show one app's pages and transitions, or the known path between two of its pages.",
		InputSchema: withVerb[mapInput]("list", "show", "path"),
		Annotations: ro,
	}, func(ctx context.Context, _ *sdk.CallToolRequest, in mapInput) (*sdk.CallToolResult, any, error) {
		in.Action = cmp.Or(in.Action, in.Command)
		var res *sdk.CallToolResult
		err := s.withKnowledge(ctx, func(k Knowledge) (err error) {
			res, err = mapCommand(k, in)
			return err
		})
		if errors.Is(err, ErrNoKnowledge) && in.Action == "list" {
			return text("No apps learned yet."), nil, nil
		}
		return res, nil, err
	})
	sdk.AddTool(s.server, &sdk.Tool{
		Name:        "tricks",
		Description: "Read the App Tricks fairy learned (tips per app): list them best first, or search them by relevance to a text.",
		InputSchema: withVerb[tricksInput]("list", "search"),
		Annotations: ro,
	}, func(ctx context.Context, _ *sdk.CallToolRequest, in tricksInput) (*sdk.CallToolResult, any, error) {
		in.Action = cmp.Or(in.Action, in.Command)
		var res *sdk.CallToolResult
		err := s.withKnowledge(ctx, func(k Knowledge) (err error) {
			res, err = tricksCommand(k, in)
			return err
		})
		if errors.Is(err, ErrNoKnowledge) && (in.Action == "list" || in.Action == "search") {
			return text("No tricks."), nil, nil
		}
		return res, nil, err
	})
}

func mapCommand(k Knowledge, in mapInput) (*sdk.CallToolResult, error) {
	switch in.Action {
	case "list":
		apps, err := k.Apps()
		if err != nil {
			return nil, err
		}
		if len(apps) == 0 {
			return text("No apps learned yet."), nil
		}
		return jsonText(map[string]any{"apps": apps})
	case "show", "path":
		if in.Package == "" {
			return nil, fmt.Errorf("%w: map %s needs package (see map list)", errBadInput, in.Action)
		}
		m, err := k.Map(in.Package)
		if err != nil {
			return nil, err
		}
		if len(m.Pages) == 0 {
			return nil, fmt.Errorf("no map learned for %s: see map list: %w", in.Package, knowledge.ErrNotFound)
		}
		var b strings.Builder
		if in.Action == "show" {
			if err := m.WriteTable(&b); err != nil {
				return nil, err
			}
			return text(b.String()), nil
		}
		if in.From == "" || in.To == "" {
			return nil, fmt.Errorf("%w: map path needs from and to (page IDs like p3, see map show)", errBadInput)
		}
		steps, err := k.Path(in.Package, in.From, in.To)
		if err != nil {
			return nil, err
		}
		if len(steps) == 0 {
			return text("Already there: from and to are the same page."), nil
		}
		name := func(key string) string {
			if p, err := m.Page(key); err == nil {
				return p.ID + " (" + p.Name() + ")"
			}
			return key
		}
		tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "STEP\tFROM\tACTION\tTO\tRELIABILITY")
		for i, t := range steps {
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%.2f\n", i+1, name(t.From), t.Action, name(t.To), t.Reliability())
		}
		if err := tw.Flush(); err != nil {
			return nil, err
		}
		return text(b.String()), nil
	}
	return nil, fmt.Errorf("%w: map action %q: use list, show or path", errBadInput, in.Action)
}

func tricksCommand(k Knowledge, in tricksInput) (*sdk.CallToolResult, error) {
	var kind knowledge.Kind
	if in.Kind != "" {
		var err error
		if kind, err = knowledge.ParseKind(in.Kind); err != nil {
			return nil, fmt.Errorf("%w: %w", errBadInput, err)
		}
	}
	limit := in.Limit
	if limit <= 0 {
		limit = defaultTricks
	}
	var tricks []knowledge.Trick
	switch in.Action {
	case "list":
		all, err := k.Tricks(in.Package, kind)
		if err != nil {
			return nil, err
		}
		tricks = all[:min(limit, len(all))]
	case "search":
		if strings.TrimSpace(in.Query) == "" {
			return nil, fmt.Errorf("%w: tricks search needs query (an instruction, sub-goal or error text)", errBadInput)
		}
		hits, err := k.Search(in.Package, kind, in.Query, limit)
		if err != nil {
			return nil, err
		}
		for _, h := range hits {
			tricks = append(tricks, h.Trick)
		}
	default:
		return nil, fmt.Errorf("%w: tricks action %q: use list or search", errBadInput, in.Action)
	}
	if len(tricks) == 0 {
		return text("No tricks."), nil
	}
	rows := make([]trickRow, len(tricks))
	for i, t := range tricks {
		rows[i] = trickRow{ID: t.ID, App: t.App, Kind: string(t.Kind), Text: t.Text, Score: t.Score, Uses: t.Uses, Successes: t.Successes}
	}
	return jsonText(map[string]any{"tricks": rows})
}

// jsonText is a result whose text is v as JSON.
func jsonText(v any) (*sdk.CallToolResult, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode the answer: %w", err)
	}
	return text(string(b)), nil
}
