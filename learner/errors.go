package learner

import "errors"

// Sentinel errors. Callers test them with errors.Is; the errors a caller sees wrap them
// with the app, run or operation concerned.
var (
	// errConfig reports a Learner built without a required part.
	ErrConfig = errors.New("learner: bad config")
	// ErrModel reports that the learning model call failed (transport, endpoint, budget).
	ErrModel = errors.New("learner: learning model call failed")
	// ErrBadAnswer reports a learning answer that is not the JSON the learner asked for.
	ErrBadAnswer = errors.New("learner: unusable learning answer")
	// ErrStore reports a knowledge write or read that failed.
	ErrStore = errors.New("learner: knowledge store")
)
