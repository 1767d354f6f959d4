package agent

import "errors"

// ErrConfig means a run was asked for with a required part missing.
var ErrConfig = errors.New("agent: bad configuration")
