package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/google/renameio/v2"
	"gopkg.in/yaml.v3"

	"github.com/fairy-go/fairy/guard"
)

// The person's own guard rules live in the config file under guard.person. Only fairy's own
// process reads and writes them — the `fairy guard` command for the person, settings for
// a run — never a model, an MCP client or a screen.

// keyGuardPerson is the config key of the person's own rules.
const keyGuardPerson = keyGuard + ".person"

// personRules are the person's rules from the config file, each checked against the
// categories the guard knows (the built-in ones and guard.rules); the rule's place in the
// file is in an error.
func (s *settings) personRules() ([]guard.PersonRule, error) {
	if !s.v.IsSet(keyGuardPerson) {
		return nil, nil
	}
	var rules []guard.PersonRule
	if err := s.v.UnmarshalKey(keyGuardPerson, &rules); err != nil {
		return nil, fmt.Errorf("config %s: %w (see docs/guard.md: each rule is {app, category, verdict, to, up-to})",
			keyGuardPerson, err)
	}
	cats, err := s.guardCategories()
	if err != nil {
		return nil, err
	}
	for i, r := range rules {
		if err := guard.CheckPersonRule(r, cats); err != nil {
			return nil, fmt.Errorf("config %s[%d]: %w", keyGuardPerson, i, err)
		}
	}
	return rules, nil
}

// configFile is the config file `fairy guard add|remove` writes: the one fairy read, or
// the default path when there is none yet.
func (s *settings) configFile() (string, error) {
	if s.configPath != "" {
		return s.configPath, nil
	}
	dir, err := s.configDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "config.yaml"), nil
}

// editPersonRules rewrites the guard.person list of the YAML config file at path with edit,
// keeping the rest of the file — other settings, their order and the comments — as the
// YAML library allows (indentation becomes two spaces). The file is replaced atomically: a
// crash leaves the old file or the new one, never half of one. A missing file is made.
func editPersonRules(path string, edit func(rules *yaml.Node) error) error {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml":
	default:
		return fmt.Errorf("config %s: fairy guard edits YAML config files only; "+
			"add the rule under guard.person by hand", path)
	}
	data, err := os.ReadFile(path)
	mode := fs.FileMode(0o600)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		data = nil
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return fmt.Errorf("config %s: %w", path, err)
		}
	case err != nil:
		return fmt.Errorf("read config %s: %w", path, err)
	default:
		if st, err := os.Stat(path); err == nil {
			mode = st.Mode().Perm()
		}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("config %s: %w", path, err)
	}
	if doc.Kind == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}}
	}
	top := doc.Content[0]
	if top.Kind == yaml.ScalarNode && top.Tag == "!!null" {
		*top = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", HeadComment: top.HeadComment, FootComment: top.FootComment}
	}
	if top.Kind != yaml.MappingNode {
		return fmt.Errorf("config %s: the file is not a YAML mapping (key: value); fix it before adding rules", path)
	}
	section, err := mappingValue(top, keyGuard, yaml.MappingNode)
	if err != nil {
		return fmt.Errorf("config %s:%d: %w", path, section.Line, err)
	}
	rules, err := mappingValue(section, "person", yaml.SequenceNode)
	if err != nil {
		return fmt.Errorf("config %s:%d: %w", path, rules.Line, err)
	}
	if err := edit(rules); err != nil {
		return err
	}
	var out bytes.Buffer
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return fmt.Errorf("config %s: %w", path, err)
	}
	if err := enc.Close(); err != nil {
		return fmt.Errorf("config %s: %w", path, err)
	}
	if err := renameio.WriteFile(path, out.Bytes(), mode); err != nil {
		return fmt.Errorf("write config %s: %w", path, err)
	}
	return nil
}

// mappingValue is the value of key in the mapping m, made (of kind) when m lacks it or
// holds it empty; a value of another kind is an error.
func mappingValue(m *yaml.Node, key string, kind yaml.Kind) (*yaml.Node, error) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if !strings.EqualFold(m.Content[i].Value, key) {
			continue
		}
		v := m.Content[i+1]
		if v.Kind == yaml.AliasNode && v.Alias != nil {
			v = v.Alias
		}
		if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			*v = yaml.Node{Kind: kind, LineComment: v.LineComment, HeadComment: v.HeadComment, FootComment: v.FootComment}
		}
		if v.Kind != kind {
			return v, fmt.Errorf("%s holds %s; want %s", key, describe(v), map[yaml.Kind]string{yaml.MappingNode: "a section",
				yaml.SequenceNode: "a list"}[kind])
		}
		return v, nil
	}
	v := &yaml.Node{Kind: kind}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, v)
	return v, nil
}

// personRuleNode is r as a one-line YAML mapping: {app: …, category: …, verdict: …}.
func personRuleNode(r guard.PersonRule) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
	add := func(k, v string) {
		if v != "" {
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: k},
				&yaml.Node{Kind: yaml.ScalarNode, Value: v})
		}
	}
	add("app", r.App)
	add("category", r.Category)
	add("verdict", r.Verdict)
	add("to", r.To)
	add("up-to", r.UpTo)
	return n
}

// decodePersonRule reads one item of guard.person as written.
func decodePersonRule(n *yaml.Node) (guard.PersonRule, error) {
	var r guard.PersonRule
	err := n.Decode(&r)
	return r, err
}

// guardPolicy is the default guard policy extended by the config's guard section.
func (s *settings) guardPolicy() (guard.Policy, error) {
	p := guard.DefaultPolicy()
	if !s.v.IsSet(keyGuard) {
		return p, nil
	}
	var x guard.Extension
	if err := s.v.UnmarshalKey(keyGuard, &x); err != nil {
		return p, fmt.Errorf("config %s: %w (see docs/guard.md: guard.keywords, guard.confirm, guard.rules)", keyGuard, err)
	}
	p, err := p.Extend(x)
	if err != nil {
		return p, fmt.Errorf("config %s: %w", keyGuard, err)
	}
	return p, nil
}

// guardCategories are the categories the guard knows: the built-in ones and guard.rules'.
func (s *settings) guardCategories() ([]string, error) {
	p, err := s.guardPolicy()
	if err != nil {
		return nil, err
	}
	var cats []string
	for _, r := range p.Rules {
		if !slices.Contains(cats, r.Category) {
			cats = append(cats, r.Category)
		}
	}
	return cats, nil
}

// exploreGuard is the guard `fairy explore` crawls with: the config's policy without the
// person's own rules. The crawler does no deeds, so no allow of the person's may open one
// to it (a "Pay ¥18" under "allow payment up to ¥20" stays untouched).
func (s *settings) exploreGuard() (*guard.Guard, error) {
	p, err := s.guardPolicy()
	if err != nil {
		return nil, err
	}
	p.Person = nil
	g, err := guard.New(p)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", keyGuard, err)
	}
	return g, nil
}
