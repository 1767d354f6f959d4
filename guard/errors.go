package guard

import "errors"

// errPolicy means a policy cannot be compiled: a rule without a category, a bad pattern,
// words for a category the policy lacks.
var errPolicy = errors.New("guard: bad policy")
