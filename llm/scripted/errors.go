package scripted

import "errors"

var (
	// ErrRules means a rules file is malformed: bad YAML, regex or template.
	ErrRules = errors.New("scripted: bad rules")
	// errNoRule means no rule matched a request.
	errNoRule = errors.New("scripted: no rule matches")
	// errNoInstructionRule heads a planner request no rule matches: the script does not
	// know the instruction.
	errNoInstructionRule = errors.New("scripted: no rule for this instruction")
	// errNoElement means a template asked for an element the screen in the prompt lacks.
	errNoElement = errors.New("scripted: no such element on the screen")
)
