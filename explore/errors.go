package explore

import "errors"

// Errors of the crawler.
var (
	// ErrConfig: the Config lacks a required part or holds a bad bound.
	ErrConfig = errors.New("explore: bad configuration")
	// ErrNotLaunched: the app did not come to the front after launching it.
	ErrNotLaunched = errors.New("explore: the app did not come to the front (is the package installed and launchable?)")
)
