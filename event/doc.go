// Package event is the vocabulary a run speaks: the events the agent publishes and the
// records they carry.
//
// A run publishes typed events (RunStarted, GlobalPlanned, StepStarted, ScreenPerceived,
// Reflected, Planned, InteractionAsked, ActionsDecided, ActionGuarded, ActionExecuted,
// ContextCollected, TaskFinished, RunFinished, …) on a Bus that the run owns; there is no
// global bus. The records the events carry live here too, because every part of the agent —
// executor, global, learner, memory, evaluation — reads them. The package imports nothing
// else of fairy's: it is the leaf every part may depend on.
//
// The types to know:
//
//   - Event is anything with a Kind (the name the trace writes); Record is an event as the
//     bus delivers it, numbered (Seq) and stamped (Time);
//   - Bus (NewBus, Bus.Subscribe, Bus.Publish) delivers each event to every subscriber in
//     the order they subscribed; package agent subscribes the memory stacks, the run
//     directory's recorder, the learner's session and the progress view;
//   - Action and ActionType are the atomic actions a decider names (Tap, Input, Swipe,
//     Back, Navigate, Finish, …), checked by Action.Validate; Fact is a piece of key
//     context; AppTask, App and TaskResult are the Global Planner's units;
//   - Consent is the person's answer to a consent question: it covers one action of one
//     guard category (Consent.Covers) and is used up by it. Specifics are what a consent
//     names (to, text, items, amount, payee, what), read from the screen by the executor
//     and read, typed, by whoever answers: the question shows them (Specifics.String),
//     and an evaluation's judging person compares them field by field.
//
// Caveats: publication is synchronous and serialised. When Publish returns every subscriber
// has seen the event, so a trace is complete the moment a run ends; but a handler runs
// under the bus's lock, so it must return quickly and must not publish on the bus it
// listens to (that deadlocks). A nil *Bus drops what is published, so a part can run
// without one in a test. Events are encoded to JSON in the trace (trace.jsonl, package
// rundir): a field renamed here renames it in every trace written after.
package event
