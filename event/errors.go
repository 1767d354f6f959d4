package event

import "errors"

// errBadAction means an action record is malformed (unknown type, missing target, …).
var errBadAction = errors.New("event: bad action")
