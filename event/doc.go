// Package event is the vocabulary a run speaks: the events the agent publishes and the
// records they carry.
//
// A run publishes typed events (StepStarted, ScreenPerceived, Reflected, Planned,
// InteractionAsked, ActionsDecided, ActionExecuted, ContextCollected, TaskFinished, …) on a
// Bus that the run owns; there is no global bus. The records the events carry (Action and
// its ActionType, Fact, AppTask, Consent, TaskResult) live here too, because every part of
// the agent — executor, global, learner, memory, evaluation — reads them. The package
// imports nothing else of fairy's: it is the leaf every part may depend on.
package event
