package scripted

import "errors"

var (
	// ErrRules means a rules file is malformed: bad YAML, regex or template.
	ErrRules = errors.New("scripted: bad rules")
	// ErrNoRule means no rule matched a request.
	ErrNoRule = errors.New("scripted: no rule matches")
	// ErrNoElement means a template asked for an element the screen in the prompt lacks.
	ErrNoElement = errors.New("scripted: no such element on the screen")
)
