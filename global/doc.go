// Package global is fairy's Global Task Manager: the Global Planner (role "planner") splits
// the person's instruction into ordered app tasks over the phone's launchable apps and
// adjusts the plan after each one; the Task Manager launches each app, hands the task and
// the key context gathered so far to the App-Level Executor, and collects the result.
//
// It also holds what a run leaves behind: the Recorder (a run directory with trace.jsonl,
// the step screenshots and summary.json) and the Progress view for a terminal. A run that
// cannot be recorded does not go on: the Recorder's first failed write ends the run's
// context (Recorder.Context), and the Manager reports the run failed with that write.
package global
