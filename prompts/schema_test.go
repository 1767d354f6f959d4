package prompts

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestSchemasAreStrict: every answer schema can be sent with "strict": every object lists
// all its properties as required and allows no others, so an endpoint with strict
// structured outputs accepts it.
func TestSchemasAreStrict(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names() {
		var root any
		if err := json.Unmarshal(s.Schema(name).JSON, &root); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var walk func(path string, node any)
		walk = func(path string, node any) {
			m, ok := node.(map[string]any)
			if !ok {
				return
			}
			if props, ok := m["properties"].(map[string]any); ok {
				if m["additionalProperties"] != false {
					t.Errorf("%s %s: additionalProperties is not false", name, path)
				}
				var req []string
				for _, r := range m["required"].([]any) {
					req = append(req, r.(string))
				}
				for p, sub := range props {
					if !slices.Contains(req, p) {
						t.Errorf("%s %s: property %q is not required", name, path, p)
					}
					walk(path+"."+p, sub)
				}
			}
			if items, ok := m["items"]; ok {
				walk(path+"[]", items)
			}
		}
		walk("$", root)
	}
}
