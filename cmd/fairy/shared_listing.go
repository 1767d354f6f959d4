package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/fairy-go/fairy/knowledge"
	"github.com/spf13/cobra"
)

// Output formats of the listing commands (devices, apps, map list|show|path, tricks list,
// model check). Table is for a person; JSON is for programs, and its schema — the
// *JSON types below, always an array, [] when empty — is stable: fields are only added.
const (
	formatTable = "table"
	formatJSON  = "json"
)

// addFormatFlag adds --format table|json to a listing command.
func addFormatFlag(cmd *cobra.Command, format *string) {
	cmd.Flags().StringVar(format, "format", formatTable, "output format: table or json")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{formatTable, formatJSON},
		cobra.ShellCompDirectiveNoFileComp))
}

// checkFormat reports an unknown --format as a usage error.
func checkFormat(format string) error {
	switch strings.ToLower(format) {
	case formatTable, formatJSON:
		return nil
	}
	return withExit(exitUsage, fmt.Errorf("unknown --format %q: use table or json", format))
}

// isJSON says whether the listing is written as JSON.
func isJSON(format string) bool { return strings.EqualFold(format, formatJSON) }

// writeJSON writes v as indented JSON with a final newline; text is written as is (no
// HTML escaping), since it is read by programs and people, not embedded in HTML.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// deviceJSON is one device of `fairy devices --format json`.
type deviceJSON struct {
	Serial  string `json:"serial"`
	State   string `json:"state"`
	Model   string `json:"model"`
	Product string `json:"product"`
}

// appJSON is one app of `fairy apps --format json`.
type appJSON struct {
	Package  string `json:"package"`
	Activity string `json:"activity"`
	Label    string `json:"label"`
}

// mapAppJSON is one app of `fairy map list --format json`.
type mapAppJSON struct {
	Package     string `json:"package"`
	Label       string `json:"label"`
	Pages       int    `json:"pages"`
	Transitions int    `json:"transitions"`
	Tricks      int    `json:"tricks"`
}

// pathStepJSON is one step of `fairy map path --format json`.
type pathStepJSON struct {
	Step        int     `json:"step"`
	From        string  `json:"from"`
	Action      string  `json:"action"`
	To          string  `json:"to"`
	Reliability float64 `json:"reliability"`
}

// trickJSON is one trick of `fairy tricks list --format json`.
type trickJSON struct {
	ID        string  `json:"id"`
	App       string  `json:"app"`
	Kind      string  `json:"kind"`
	Score     float64 `json:"score"`
	Uses      int     `json:"uses"`
	Successes int     `json:"successes"`
	Text      string  `json:"text"`
}

// roleCheckJSON is one role of `fairy model check --format json`.
type roleCheckJSON struct {
	Role             string  `json:"role"`
	Model            string  `json:"model"`
	OK               bool    `json:"ok"`
	LatencyMS        int64   `json:"latency_ms"`
	PromptTokens     int     `json:"prompt_tokens"`
	CompletionTokens int     `json:"completion_tokens"`
	Cost             float64 `json:"cost"`
	Error            string  `json:"error"`
}

// writeMapList writes `fairy map list --format json`.
func writeMapList(w io.Writer, apps []knowledge.AppSummary) error {
	rows := make([]mapAppJSON, len(apps))
	for i, a := range apps {
		rows[i] = mapAppJSON{Package: a.Package, Label: a.Label, Pages: a.Pages, Transitions: a.Transitions, Tricks: a.Tricks}
	}
	return writeJSON(w, rows)
}

// writePath writes `fairy map path --format json`; name names a page key for a person.
func writePath(w io.Writer, steps []knowledge.Transition, name func(key string) string) error {
	rows := make([]pathStepJSON, len(steps))
	for i, t := range steps {
		rows[i] = pathStepJSON{Step: i + 1, From: name(t.From), Action: t.Action.String(), To: name(t.To),
			Reliability: t.Reliability()}
	}
	return writeJSON(w, rows)
}

// writeTricks writes `fairy tricks list --format json`.
func writeTricks(w io.Writer, tricks []knowledge.Trick) error {
	rows := make([]trickJSON, len(tricks))
	for i, t := range tricks {
		rows[i] = trickJSON{ID: t.ID, App: t.App, Kind: string(t.Kind), Score: t.Score, Uses: t.Uses,
			Successes: t.Successes, Text: t.Text}
	}
	return writeJSON(w, rows)
}
