package agent

import "errors"

// errConfig means a run was asked for with a required part missing.
var errConfig = errors.New("agent: bad configuration")
