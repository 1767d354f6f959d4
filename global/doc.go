// Package global is fairy's Global Task Manager: the Global Planner (role "planner") splits
// the person's instruction into ordered app tasks over the phone's launchable apps and
// adjusts the plan after each one; the Task Manager launches each app, hands the task and
// the key context gathered so far to the App-Level Executor, and collects the result.
//
// It also holds the Progress view for a terminal. What a run leaves behind (the trace,
// the screenshots, the summary) is package rundir's: a run that cannot be recorded ends
// its context, and the Manager reports the run failed with that write.
package global
