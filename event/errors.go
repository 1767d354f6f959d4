package event

import "errors"

// ErrBadAction means an action record is malformed (unknown type, missing target, …).
var ErrBadAction = errors.New("event: bad action")
