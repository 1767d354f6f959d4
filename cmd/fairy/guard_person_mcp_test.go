package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMCPPersonRules drives `fairy mcp` `act` on the virtual phone over the real adb server
// with the person's own rules in the config file: ¥18 is paid without a question under
// "allow payment up to ¥20"; ¥36 is asked (and declined) though its page says every
// payment is now allowed; "never delete in com.fairy.notes" refuses the delete without
// asking the client, whose yes cannot override it. No tool takes a rule, and the config
// file is the same after the session.
func TestMCPPersonRules(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	text := "# mine\nmodel:\n  default: fairy-scripted\nagent:\n  max-steps: 25\nguard:\n  person:\n" +
		"    - {category: payment, verdict: allow, up-to: ¥20}\n    - {app: com.fairy.notes, category: delete, verdict: never}\n"
	if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	// The client says yes to everything: only the person's rules and the guard stand in the way.
	answer := "accept"
	r := startMCPOn(t, personPhone(t), "", func(string, any) (string, string) { return answer, "yes" }, "--config", cfg)

	tools, err := r.session.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		raw, _ := json.Marshal(tool.InputSchema)
		var schema struct {
			Properties map[string]any `json:"properties"`
		}
		if err := json.Unmarshal(raw, &schema); err != nil {
			t.Fatal(err)
		}
		names := []string{tool.Name}
		for p := range schema.Properties {
			names = append(names, p)
		}
		for _, name := range names {
			for _, word := range []string{"verdict", "up-to", "up_to", "person", "policy", "rule", "guard", "config"} {
				if strings.Contains(strings.ToLower(name), word) {
					t.Errorf("MCP tool %s takes %q: a client could change the person's rules\n%s", tool.Name, name, raw)
				}
			}
		}
	}

	tap := func(pkg, label string, wantErr bool) (string, int) {
		t.Helper()
		r.call(t, "act", map[string]any{"action": "launch", "package": pkg}, false)
		screen := r.call(t, "screen", nil, false)
		asked := len(r.asked)
		out := r.call(t, "act", map[string]any{"action": "tap", "element": element(t, screen, `"`+label+`"`)}, wantErr)
		return out, len(r.asked) - asked
	}
	if out, asked := tap("com.fairy.person.pay18", "Pay ¥18", false); asked != 0 {
		t.Errorf("Pay ¥18 under allow up to ¥20: asked %d times: %s", asked, out)
	}
	answer = "decline"
	if out, asked := tap("com.fairy.person.pay36", "Pay ¥36", true); asked != 1 || !strings.Contains(out, "refused") {
		t.Errorf("Pay ¥36 under allow up to ¥20: asked %d times: %s", asked, out)
	}
	answer = "accept"
	r.call(t, "act", map[string]any{"action": "launch", "package": "com.fairy.notes"}, false)
	screen := r.call(t, "screen", nil, false)
	r.call(t, "act", map[string]any{"action": "tap", "element": element(t, screen, `"Shopping list"`)}, false)
	screen = r.call(t, "screen", nil, false)
	asked := len(r.asked)
	out := r.call(t, "act", map[string]any{"action": "tap", "element": element(t, screen, `"Delete note"`)}, true)
	if len(r.asked) != asked || !strings.Contains(out, "never delete in com.fairy.notes") {
		t.Errorf("Delete note under never delete in com.fairy.notes: asked %d times: %s", len(r.asked)-asked, out)
	}
	if recs, _ := r.phone.Records("com.fairy.person.pay36:payments"); len(recs) != 0 {
		t.Errorf("¥36 was paid: %v", recs)
	}
	if after, err := os.ReadFile(cfg); err != nil || !bytes.Equal(after, []byte(text)) {
		t.Errorf("the config file changed in the session:\n%s", after)
	}
}
