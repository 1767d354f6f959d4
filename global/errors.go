package global

import "errors"

var (
	// ErrConfig means a Manager was built with a missing or bad part.
	ErrConfig = errors.New("global: bad configuration")
	// ErrNoApps means the phone lists no launchable app.
	ErrNoApps = errors.New("global: no launchable apps on the phone")
	// ErrBadAnswer means the planner's answer could not be used.
	ErrBadAnswer = errors.New("global: unusable planner answer")
)
