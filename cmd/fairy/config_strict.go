package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"gopkg.in/yaml.v3"

	"github.com/fairy-go/fairy/executor"
	"github.com/fairy-go/fairy/guard"
	"github.com/fairy-go/fairy/internal/spell"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/llm/openai"
)

// Strict configuration: an unknown key, a value of the wrong type or an unknown choice in the
// config file, the environment or a flag is an error that names the key, where it came from
// (the file and line, the variable, the flag) and, when a known key is close, the one meant.
// Viper forgets line numbers, so the file is read a second time as yaml.v3 nodes.

// logLevels are the values of --log-level.
var logLevels = []string{"debug", "info", "warn", "error"}

// valueKind is what a configuration value must be.
type valueKind int

const (
	kindSection  valueKind = iota // a mapping with the keys in fields
	kindString                    // any scalar
	kindInt                       // a whole number
	kindFloat                     // a number
	kindBool                      // true or false
	kindDuration                  // a Go duration: 90s, 10m
	kindSize                      // bytes, or KiB, MiB, GiB
	kindChoice                    // one of choices
	kindStrings                   // a list of scalars (a single scalar is a list of one)
	kindMap                       // a mapping from any key (or one of choices) to elem
	kindList                      // a list of elem
)

// keySpec describes one configuration key.
type keySpec struct {
	kind    valueKind
	fields  map[string]keySpec // kindSection
	choices []string           // kindChoice; kindMap: the allowed keys (nil: any)
	elem    *keySpec           // kindMap, kindList
}

// configSchema is every key the config file may hold. A key added to fairy is added here,
// or the config file that sets it is refused.
func configSchema() keySpec {
	str, num, flt := keySpec{kind: kindString}, keySpec{kind: kindInt}, keySpec{kind: kindFloat}
	boolean, dur, strs := keySpec{kind: kindBool}, keySpec{kind: kindDuration}, keySpec{kind: kindStrings}
	section := func(f map[string]keySpec) keySpec { return keySpec{kind: kindSection, fields: f} }
	roles := []string{string(executor.RoleChecker)} // the finish check, a role of the executor's own
	for _, r := range llm.Roles() {
		roles = append(roles, string(r))
	}
	price := section(map[string]keySpec{"prompt_per_m": flt, "completion_per_m": flt})
	rule := section(map[string]keySpec{"category": str, "type": num, "keywords": strs, "ids": strs, "commands": strs,
		"except": strs, "page": strs, "totals": strs, "amount": boolean})
	modes := []string{string(openai.ModeJSONSchema), string(openai.ModeJSONObject), string(openai.ModeText)}
	// The person's own rules (guard.PersonRule): `fairy guard add` writes them.
	person := section(map[string]keySpec{"app": str, "category": str,
		"verdict": {kind: kindChoice, choices: guard.PersonVerdicts}, "to": str, "up-to": str})
	return section(map[string]keySpec{
		keyRuns: str, keyKnowledge: str, keyEtcdSection: section(map[string]keySpec{"username": str, "password": str,
			"ca-file": str, "cert-file": str, "key-file": str}),
		keyLogLevel: {kind: kindChoice, choices: logLevels},
		"device":    section(map[string]keySpec{"serial": str, "adb-host": str, "adb-port": num}),
		"model": section(map[string]keySpec{
			"base-url": str, "api-key": str, "default": str, "backup": str,
			"roles":              {kind: kindMap, choices: roles, elem: &str},
			"mode":               {kind: kindChoice, choices: modes},
			"timeout":            dur,
			"max-response-bytes": {kind: kindSize},
			"prices":             {kind: kindMap, elem: &price},
			"strict":             boolean,
			"grounding":          {kind: kindChoice, choices: groundingChoices},
		}),
		"agent": section(map[string]keySpec{"max-steps": num, "max-wall": dur, "max-tokens": num, "max-cost": flt,
			"text-only": boolean, "shell": strs, "hand-over-logins": boolean}),
		"pixels": section(map[string]keySpec{"languages": strs}),
		keyGuard: section(map[string]keySpec{"keywords": {kind: kindMap, elem: &strs}, "page": {kind: kindMap, elem: &strs},
			"confirm": strs, "dismiss": strs,
			"rules": {kind: kindList, elem: &rule}, "person": {kind: kindList, elem: &person}}),
	})
}

// lookup returns the spec of a dotted key ("agent.max-steps").
func (k keySpec) lookup(dotted string) (keySpec, bool) {
	cur := k
	for _, part := range strings.Split(dotted, ".") {
		next, ok := cur.fields[part]
		if !ok {
			return keySpec{}, false
		}
		cur = next
	}
	return cur, true
}

// checkConfigFile reads path as YAML nodes and checks every key and value against the
// schema. Files in other formats (TOML, …) are left to viper.
func checkConfigFile(path string) error {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml", ".json":
	default:
		return nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read config %s: %w", path, err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("config %s: %w", path, err)
	}
	if len(doc.Content) == 0 {
		return nil // an empty file sets nothing
	}
	return checkNode(path, "", doc.Content[0], configSchema())
}

// configError is one problem in the config file, with where it is.
type configError struct {
	File string
	Line int
	Key  string // dotted
	Msg  string
}

func (e *configError) Error() string {
	return fmt.Sprintf("config %s:%d: %s: %s", e.File, e.Line, e.Key, e.Msg)
}

// checkNode checks the value n of key (dotted; "" for the document) against spec.
func checkNode(file, key string, n *yaml.Node, spec keySpec) error {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	bad := func(format string, a ...any) error {
		return &configError{File: file, Line: n.Line, Key: key, Msg: fmt.Sprintf(format, a...)}
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" && key != "" {
		return nil // written but left empty: not set
	}
	switch spec.kind {
	case kindSection, kindMap:
		if n.Kind != yaml.MappingNode {
			if key == "" {
				return &configError{File: file, Line: n.Line, Key: "(top level)", Msg: "want keys and values (key: value)"}
			}
			return bad("want a section of keys and values, not %s", describe(n))
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			kn, vn := n.Content[i], n.Content[i+1]
			name := strings.ToLower(kn.Value)
			full := name
			if key != "" {
				full = key + "." + name
			}
			var sub keySpec
			switch {
			case spec.kind == kindSection:
				s, ok := spec.fields[name]
				if !ok {
					return &configError{File: file, Line: kn.Line, Key: full, Msg: "unknown key" + suggest(name, key, spec)}
				}
				sub = s
			case spec.choices != nil && !slices.Contains(spec.choices, name):
				return &configError{File: file, Line: kn.Line, Key: full,
					Msg: fmt.Sprintf("unknown key: want one of %s%s", strings.Join(spec.choices, ", "),
						spell.DidYouMean(name, spec.choices))}
			default:
				sub = *spec.elem
			}
			if err := checkNode(file, full, vn, sub); err != nil {
				return err
			}
		}
		return nil
	case kindList:
		if n.Kind != yaml.SequenceNode {
			return bad("want a list, not %s", describe(n))
		}
		for i, item := range n.Content {
			if err := checkNode(file, fmt.Sprintf("%s[%d]", key, i), item, *spec.elem); err != nil {
				return err
			}
		}
		return nil
	case kindStrings:
		if n.Kind == yaml.ScalarNode {
			return nil
		}
		if n.Kind != yaml.SequenceNode {
			return bad("want a list of words, not %s", describe(n))
		}
		for _, item := range n.Content {
			if item.Kind != yaml.ScalarNode {
				return &configError{File: file, Line: item.Line, Key: key, Msg: "want a list of words, not " + describe(item)}
			}
		}
		return nil
	}
	if n.Kind != yaml.ScalarNode {
		return bad("want a single value, not %s", describe(n))
	}
	if msg := checkValue(n.Value, spec); msg != "" {
		return bad("%s", msg)
	}
	return nil
}

// checkValue checks a scalar written as text against spec; "" when it fits, else what is
// wanted.
func checkValue(v string, spec keySpec) string {
	v = strings.TrimSpace(v)
	switch spec.kind {
	case kindInt:
		if _, err := strconv.Atoi(v); err != nil {
			return fmt.Sprintf("%q is not a whole number", v)
		}
	case kindFloat:
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			return fmt.Sprintf("%q is not a number", v)
		}
	case kindBool:
		if _, err := strconv.ParseBool(v); err != nil {
			return fmt.Sprintf("%q is not true or false", v)
		}
	case kindDuration:
		if _, err := time.ParseDuration(v); err != nil {
			return fmt.Sprintf("%q is not a duration: write it like 90s, 10m or 1h30m", v)
		}
	case kindSize:
		if _, err := parseByteSize(v); err != nil {
			return err.Error()
		}
	case kindChoice:
		if !slices.Contains(spec.choices, strings.ToLower(v)) {
			return fmt.Sprintf("%q is not one of %s%s", v, strings.Join(spec.choices, ", "),
				spell.DidYouMean(strings.ToLower(v), spec.choices))
		}
	}
	return ""
}

// describe names a YAML node's shape for a message.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a section"
	case yaml.SequenceNode:
		return "a list"
	}
	return fmt.Sprintf("%q", n.Value)
}

// suggest is the "did you mean" for an unknown key name under section (dotted, "" for the
// top level): a close sibling, else the same key in another section.
func suggest(name, section string, spec keySpec) string {
	names := make([]string, 0, len(spec.fields))
	for f := range spec.fields {
		names = append(names, f)
	}
	if s := spell.DidYouMean(name, names); s != "" {
		return s
	}
	var elsewhere []string
	var walk func(prefix string, k keySpec)
	walk = func(prefix string, k keySpec) {
		for f, sub := range k.fields {
			full := strings.TrimPrefix(prefix+"."+f, ".")
			if prefix != section && (f == name || spell.DidYouMean(name, []string{f}) != "") {
				elsewhere = append(elsewhere, full)
			}
			walk(full, sub)
		}
	}
	walk("", configSchema())
	if len(elsewhere) > 0 {
		slices.Sort(elsewhere)
		return fmt.Sprintf(" (did you mean %s?)", strings.Join(elsewhere, " or "))
	}
	if len(names) == 0 {
		return ""
	}
	slices.Sort(names)
	return " (known keys here: " + strings.Join(names, ", ") + ")"
}

// checkEnvAndFlags checks the values FAIRY_<KEY> variables and the flags give typed keys:
// a variable set to "lots" for a number, or --log-level chatty, is an error naming it.
func (s *settings) checkEnvAndFlags(cmd *cobra.Command) error {
	schema := configSchema()
	r := strings.NewReplacer(".", "_", "-", "_")
	keys := make([]string, 0, len(envKeys)+len(modelEnvKeys))
	for k := range envKeys {
		keys = append(keys, k)
	}
	for k := range modelEnvKeys {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var errs []error
	for _, key := range keys {
		name := "FAIRY_" + strings.ToUpper(r.Replace(key))
		val := s.getenv(name)
		if val == "" {
			continue
		}
		if spec, ok := schema.lookup(key); ok {
			if msg := checkValue(val, spec); msg != "" {
				errs = append(errs, fmt.Errorf("environment %s (%s): %s", name, key, msg))
			}
		}
	}
	errs = append(errs, s.checkEnvNames()...)
	if f := cmd.Flags().Lookup(keyLogLevel); f != nil && f.Changed {
		spec, _ := schema.lookup(keyLogLevel)
		if msg := checkValue(f.Value.String(), spec); msg != "" {
			errs = append(errs, fmt.Errorf("--%s: %s", keyLogLevel, msg))
		}
	}
	return errors.Join(errs...)
}

// otherEnvNames are the FAIRY_ variables that set no configuration key but are set around
// fairy on purpose, so the strict check lets them through: FAIRY_CONFIG names the config
// file; scripts/test.sh exports FAIRY_INTEROP_DIR (where node's packages for the interop
// tests are) to every test it runs; the knowledge package's tests hand their child
// processes a file in FAIRY_KNOWLEDGE_CRASH_FILE or FAIRY_KNOWLEDGE_WRITER_FILE;
// FAIRY_WATCH_TOKEN and FAIRY_MCP_TOKEN are secrets (the live page's token, the bearer
// token of fairy mcp --http), kept out of config files on purpose.
var otherEnvNames = []string{"FAIRY_CONFIG", "FAIRY_INTEROP_DIR", "FAIRY_KNOWLEDGE_CRASH_FILE",
	"FAIRY_KNOWLEDGE_WRITER_FILE", envWatchToken, envMCPToken}

// testEnvPrefix starts the variables tests hand the child processes they start
// (FAIRY_TEST_RUN_MAIN makes the test binary run fairy's main).
const testEnvPrefix = "FAIRY_TEST_"

// envName is the FAIRY_<KEY> variable of a configuration key.
func envName(key string) string {
	return "FAIRY_" + strings.ToUpper(strings.NewReplacer(".", "_", "-", "_").Replace(key))
}

// knownEnvNames are the FAIRY_ variables fairy reads or lets through.
func knownEnvNames() []string {
	names := slices.Clone(otherEnvNames)
	for _, keys := range []map[string]string{envKeys, modelEnvKeys} {
		for k := range keys {
			names = append(names, envName(k))
		}
	}
	slices.Sort(names)
	return names
}

// checkEnvNames refuses a FAIRY_ variable that fairy does not read (FAIRY_MODEL_DEFUALT),
// naming the variable meant when one is close, or saying that the key it names is set only
// in the config file; without the check such a variable is silently ignored. s.environ nil
// (a test that gives only a lookup) checks nothing.
func (s *settings) checkEnvNames() []error {
	if s.environ == nil {
		return nil
	}
	known := knownEnvNames()
	var unknown []string
	for _, kv := range s.environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "FAIRY_") && !strings.HasPrefix(name, testEnvPrefix) && !slices.Contains(known, name) {
			unknown = append(unknown, name)
		}
	}
	slices.Sort(unknown)
	var errs []error
	for _, name := range slices.Compact(unknown) {
		if key := fileOnlyKey(name); key != "" {
			errs = append(errs, fmt.Errorf("environment %s: %s is not read from the environment: "+
				"set it in the config file, or unset %s", name, key, name))
			continue
		}
		hint := spell.DidYouMean(name, known)
		if hint == "" {
			hint = "; a configuration key is FAIRY_<KEY> with dots and dashes as underscores " +
				"(model.default is FAIRY_MODEL_DEFAULT)"
		}
		errs = append(errs, fmt.Errorf("environment %s: unknown variable%s; unset it or correct its name", name, hint))
	}
	return errs
}

// fileOnlyKey is the configuration key that only the config file sets which the variable
// name spells (FAIRY_AGENT_SHELL is agent.shell; FAIRY_MODEL_ROLES_PLANNER an entry of
// model.roles), or "".
func fileOnlyKey(name string) string {
	found := ""
	var walk func(prefix string, k keySpec)
	walk = func(prefix string, k keySpec) {
		for f, sub := range k.fields {
			full := strings.TrimPrefix(prefix+"."+f, ".")
			_, env := envKeys[full]
			_, modelEnv := modelEnvKeys[full]
			switch {
			case sub.kind == kindSection:
				walk(full, sub)
			case env || modelEnv:
			case name == envName(full),
				(sub.kind == kindMap || sub.kind == kindList) && strings.HasPrefix(name, envName(full)+"_"):
				found = full
			}
		}
	}
	walk("", configSchema())
	return found
}
