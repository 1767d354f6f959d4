// Package inject makes a model err on purpose, for evaluations: it wraps any model
// (the scripted one or a real endpoint) at the role boundary and, at the rates asked for,
// changes an answer the way real GUI models get answers wrong.
//
// The kinds of error (Kind) are the ones real GUI models make: grounding (a tap on another
// element of the same screen), index (an element number the screen does not have), typo
// (one character of typed text), repeat (the decider's last action again), stale (the
// role's previous answer again), reflect (a false success verdict), done (a false
// "Finished", or a finish check that passes an unfinished task), format (prose around the
// JSON, truncated JSON, a missing key), and for coordinate models frame (points in the
// wrong frame) and offset (every point N pixels off).
//
// The types to know:
//
//   - Rates (ParseRates reads "grounding=0.2,reflect=0.05") are the chances per applicable
//     call of each kind;
//   - Wrap returns a Wrapper, itself a model: the inner model answers, then at most one
//     error is injected into the answer, and the note callback hears of it as an
//     Injection (role, kind, what changed); package agent publishes it as a
//     ModelErrorInjected event, so every injected error is a line of the run's trace;
//   - Seed derives a run's seed from the evaluation's seed and the run's names (task,
//     pass, repeat): each run draws its own errors, and the same run the same ones.
//
// Caveats: it is a test instrument, named as such: nothing but `fairy eval --model-errors`
// uses it. A kind that cannot apply to a call (no tap to misplace, no text to mistype)
// leaves the call alone, so the rate is per applicable call, not per call. A repair
// request (the caller asking again after a bad answer) passes through untouched, so a
// format error costs one call more, as it would with a real model.
package inject
