package scripted

import "errors"

var (
	// ErrRules means a rules file is malformed: bad YAML, regex or template.
	ErrRules = errors.New("scripted: bad rules")
	// errNoRule means no rule matched a request.
	errNoRule = errors.New("scripted: no rule matches")
	// errNoElement means a template asked for an element the screen in the prompt lacks.
	errNoElement = errors.New("scripted: no such element on the screen")
)
