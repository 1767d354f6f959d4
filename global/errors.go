package global

import "errors"

var (
	// errConfig means a Manager was built with a missing or bad part.
	errConfig = errors.New("global: bad configuration")
	// errNoApps means the phone lists no launchable app.
	errNoApps = errors.New("global: no launchable apps on the phone")
	// errBadAnswer means the planner's answer could not be used.
	errBadAnswer = errors.New("global: unusable planner answer")
)
