package scripted

import (
	"fmt"
	"os"
	"regexp"
	"text/template"

	"gopkg.in/yaml.v3"
)

// Rule is one scripted answer. See the package documentation for the file format.
type Rule struct {
	Name   string   `yaml:"name"`   // for logs and errors; defaults to "rule N"
	Role   string   `yaml:"role"`   // the request's role (schema name); "" or "*" matches any
	Match  Patterns `yaml:"match"`  // regexps that must all match the prompt
	Not    Patterns `yaml:"not"`    // regexps none of which may match the prompt
	Times  int      `yaml:"times"`  // how often the rule may fire; 0 = unlimited
	Answer string   `yaml:"answer"` // a text/template producing the answer
}

// Patterns is a list of regular expressions; in YAML a single string is a list of one.
type Patterns []string

// UnmarshalYAML accepts a string or a list of strings.
func (p *Patterns) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		*p = Patterns{n.Value}
		return nil
	}
	var list []string
	if err := n.Decode(&list); err != nil {
		return err
	}
	*p = list
	return nil
}

// rulesFile is the YAML document.
type rulesFile struct {
	Rules []Rule `yaml:"rules"`
}

// ParseRules reads a rules document and checks every pattern and template.
func ParseRules(data []byte) ([]Rule, error) {
	var f rulesFile
	if err := yaml.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrRules, err)
	}
	if len(f.Rules) == 0 {
		return nil, fmt.Errorf("%w: no rules (the document needs a top-level \"rules:\" list)", ErrRules)
	}
	if _, err := compile(f.Rules); err != nil {
		return nil, err
	}
	return f.Rules, nil
}

// LoadRules reads a rules file.
func LoadRules(path string) ([]Rule, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("scripted: load rules: %w", err)
	}
	rules, err := ParseRules(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rules, nil
}

// compiled is a Rule ready to match.
type compiled struct {
	Rule
	match []*regexp.Regexp
	not   []*regexp.Regexp
	tmpl  *template.Template
}

func compile(rules []Rule) ([]*compiled, error) {
	out := make([]*compiled, 0, len(rules))
	for i, r := range rules {
		if r.Name == "" {
			r.Name = fmt.Sprintf("rule %d", i+1)
		}
		c := &compiled{Rule: r}
		for _, p := range r.Match {
			re, err := regexp.Compile(p)
			if err != nil {
				return nil, fmt.Errorf("%w: %s: match %q: %v", ErrRules, r.Name, p, err)
			}
			c.match = append(c.match, re)
		}
		for _, p := range r.Not {
			re, err := regexp.Compile(p)
			if err != nil {
				return nil, fmt.Errorf("%w: %s: not %q: %v", ErrRules, r.Name, p, err)
			}
			c.not = append(c.not, re)
		}
		if r.Times < 0 {
			return nil, fmt.Errorf("%w: %s: times %d: want 0 (unlimited) or more", ErrRules, r.Name, r.Times)
		}
		t, err := template.New(r.Name).Option("missingkey=error").Funcs(stubFuncs).Parse(r.Answer)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: answer template: %v", ErrRules, r.Name, err)
		}
		c.tmpl = t
		out = append(out, c)
	}
	return out, nil
}
