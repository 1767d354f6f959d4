package suite

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/fairy-go/fairy/internal/spell"
	"gopkg.in/yaml.v3"
)

// A suite file is read twice: as yaml.v3 nodes, to name each unknown key by its file and
// line with the key meant (the decoder's own error names Go types: "field taks not found
// in type suite.Suite"), then into Suite. The keys are the yaml tags of Suite's fields, so
// the check and the format cannot drift apart.

// unknownKeys lists every key of doc that no field of the suite format takes, one message
// each: `suite.yaml line 3: unknown key "taks" (did you mean "tasks"?)`.
func unknownKeys(source string, doc *yaml.Node) []string {
	var probs []string
	w := keyWalker{seen: map[*yaml.Node]map[reflect.Type]bool{}, report: func(line int, key string, known []string) {
		hint := spell.DidYouMean(key, known)
		if hint == "" && len(known) > 0 {
			hint = " (known keys here: " + strings.Join(known, ", ") + ")"
		}
		probs = append(probs, fmt.Sprintf("%s line %d: unknown key %q%s", source, line, key, hint))
	}}
	w.walk(doc, reflect.TypeFor[Suite](), 0)
	return probs
}

// keyWalker walks YAML nodes beside the Go type they decode into.
type keyWalker struct {
	// seen stops a node reached again through an alias from being walked again (a
	// document of aliases of aliases would otherwise take exponential time).
	seen   map[*yaml.Node]map[reflect.Type]bool
	report func(line int, key string, known []string)
}

var unmarshalerType = reflect.TypeFor[yaml.Unmarshaler]()

// maxKeyDepth bounds the walk; the decoder refuses deeper documents anyway.
const maxKeyDepth = 64

func (w *keyWalker) walk(n *yaml.Node, t reflect.Type, depth int) {
	if n == nil || depth > maxKeyDepth {
		return
	}
	if n.Kind == yaml.DocumentNode {
		for _, c := range n.Content {
			w.walk(c, t, depth+1)
		}
		return
	}
	if n.Kind == yaml.AliasNode {
		n = n.Alias
		if n == nil {
			return
		}
	}
	if w.seen[n] == nil {
		w.seen[n] = map[reflect.Type]bool{}
	}
	if w.seen[n][t] {
		return
	}
	w.seen[n][t] = true
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) || t == reflect.TypeFor[time.Duration]() {
		return // reads itself (a pattern or a list of them)
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return // the decoder says what is wrong with the value
		}
		fields := yamlFields(t)
		known := make([]string, 0, len(fields))
		for k := range fields {
			known = append(known, k)
		}
		slices.Sort(known)
		for i := 0; i+1 < len(n.Content); i += 2 {
			kn, vn := n.Content[i], n.Content[i+1]
			if kn.Tag == "!!merge" || kn.Value == "<<" {
				w.walk(vn, t, depth+1) // a merged mapping (or a list of them) holds this struct's keys
				if vn.Kind == yaml.SequenceNode {
					for _, m := range vn.Content {
						w.walk(m, t, depth+1)
					}
				}
				continue
			}
			ft, ok := fields[kn.Value]
			if !ok {
				w.report(kn.Line, kn.Value, known)
				continue
			}
			w.walk(vn, ft, depth+1)
		}
	case reflect.Slice, reflect.Array:
		if n.Kind == yaml.SequenceNode {
			for _, c := range n.Content {
				w.walk(c, t.Elem(), depth+1)
			}
		}
	case reflect.Map:
		if n.Kind == yaml.MappingNode {
			for i := 1; i < len(n.Content); i += 2 {
				w.walk(n.Content[i], t.Elem(), depth+1)
			}
		}
	}
}

// yamlFields maps the keys a struct takes in YAML to their types, as yaml.v3 reads them:
// the tag's name, else the field's name in lower case; "-" is no key; ",inline" takes the
// inner struct's keys.
func yamlFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("yaml")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if strings.Contains(","+opts+",", ",inline,") {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for k, v := range yamlFields(ft) {
					out[k] = v
				}
			}
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		out[name] = f.Type
	}
	return out
}

// typeErrorLine is one of yaml.v3's type errors: "line 7: cannot unmarshal !!str `soon`
// into time.Duration" (a section or a list has no value; a long value ends in "...").
var typeErrorLine = regexp.MustCompile("^line (\\d+): cannot unmarshal !!(\\w+)(?: `(.*)`)? into (.+)$")

// unknownFieldLine is yaml.v3's unknown key: "line 2: field taks not found in type
// suite.Suite" (unknownKeys names them first; this is the backstop's wording).
var unknownFieldLine = regexp.MustCompile(`^line (\d+): field (.+) not found in type \S+$`)

// plainTypeError says a yaml.v3 type error without Go's type names: `suite.yaml line 7:
// "soon" is not a duration (write it like 90s or 2m)`.
func plainTypeError(source, msg string) string {
	if m := unknownFieldLine.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("%s line %s: unknown key %q", source, m[1], m[2])
	}
	m := typeErrorLine.FindStringSubmatch(msg)
	if m == nil {
		if rest, ok := strings.CutPrefix(msg, "line "); ok {
			return source + " line " + rest
		}
		return source + ": " + msg
	}
	line, kind, value, goType := m[1], m[2], m[3], m[4]
	what := fmt.Sprintf("%q", value)
	switch kind {
	case "map":
		what = "a section (key: value)"
	case "seq":
		what = "a list"
	}
	want := "another kind of value"
	switch {
	case goType == "time.Duration":
		want = "a duration (write it like 90s, 2m or 1h30m)"
	case strings.HasPrefix(goType, "[]"):
		want = "a list"
	case strings.HasPrefix(goType, "map["), strings.Contains(goType, "."):
		want = "a section (key: value)"
	case strings.HasPrefix(goType, "int"), strings.HasPrefix(goType, "uint"):
		want = "a whole number"
	case strings.HasPrefix(goType, "float"):
		want = "a number"
	case goType == "bool":
		want = "true or false"
	case goType == "string":
		want = "a single value"
	}
	return fmt.Sprintf("%s line %s: %s is not %s", source, line, what, want)
}
