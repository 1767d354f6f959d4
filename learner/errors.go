package learner

import "errors"

// Sentinel errors. Callers test them with errors.Is; the errors a caller sees wrap them
// with the app, run or operation concerned.
var (
	// errConfig reports a Learner built without a required part.
	errConfig = errors.New("learner: bad config")
	// errModel reports that the learning model call failed (transport, endpoint, budget).
	errModel = errors.New("learner: learning model call failed")
	// errBadAnswer reports a learning answer that is not the JSON the learner asked for.
	errBadAnswer = errors.New("learner: unusable learning answer")
	// errStore reports a knowledge write or read that failed.
	errStore = errors.New("learner: knowledge store")
)
