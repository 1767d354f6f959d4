// Package executor is fairy's App-Level Executor: it carries out one app task as a loop of
// steps through an explicit state machine.
//
//	PERCEIVE → REFLECT → [INTERACT] → DECIDE → GUARD → ACT → PERCEIVE …
//	                         ↘ CHECK → FINISH | back to REFLECT
//
// ending in FINISH (done), REFUSE (the person said no), FAIL (a limit, a loop that cannot be
// broken, an unsettled question) or ERROR (the device or the model failed, or the run was
// stopped).
//
// The Re-Planner (role "replanner") makes the plan of sub-goals, classifies each step's
// result A/B/C/D, picks the sub-goal and the interaction type 0–4. The Action Decider (role
// "decider") turns the sub-goal into a short batch of atomic actions on indexed elements.
// The Key Context Collector (role "extractor") reads facts off each new screen concurrently
// with the next step, off the critical path. The Guard turns an unconsented sensitive or
// irreversible action into an interaction, whatever the models said. The finish check (role
// "checker") checks the final screen and key context before a task is reported done.
//
// Learned steps (package replay) run with no model call, every page checked and every
// sensitive step asked: the decider's Navigate replays a shortcut of the App Map
// (Shortcuts), a routine the Re-Planner names replays a finished task's steps (Routines),
// and a step whose page the App Map predicted is verified without the Re-Planner
// (Predictions). A replay stops at the first screen it does not expect, and the task goes
// on step by step; the task's replay.Ledger keeps what failed from being offered again.
//
// The phone is reached only through Device, the model only through Model, the person only
// through an Interactor; every stage publishes a memory event on the run's bus and reads
// history from the memory manager.
//
// One state, one file: perceive.go, reflect.go, interact.go, decide.go (decide_coords.go for
// models that answer in coordinates), guard_step.go, act.go and check.go, with the loop in
// executor.go (Executor.Run). What a consent question names is read from the screen in
// specifics.go; ports.go declares the interfaces the executor needs (Device, Model,
// Interactor, Tricks, Shortcuts, Routines, …), each with the type that satisfies it.
//
// Caveats: nothing a model says is taken on its word. An answer that breaks its schema is
// asked again with what was wrong; an element index is checked against the screen it was
// read on; a step is checked against what the decider expected and what the App Map
// predicted, and a mismatch is a surprise whatever the Re-Planner says; "done" is checked
// by the finish check; and the guard holds a sensitive action whatever the plan says. A
// consent covers one action with the specifics it named: the same button on another
// conversation or a changed total is asked again.
package executor
