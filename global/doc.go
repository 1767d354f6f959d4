// Package global is fairy's Global Task Manager: the Global Planner (role "planner") splits
// the person's instruction into ordered app tasks over the phone's launchable apps and
// adjusts the plan after each one; the Task Manager launches each app, hands the task and
// the key context gathered so far to the App-Level Executor, and collects the result.
//
// The types to know:
//
//   - Manager (New with a Config) and Manager.Run carry out one instruction: they publish
//     RunStarted and GlobalPlanned, launch each app task's app (Launcher), run it (Runner,
//     which *executor.Executor satisfies) and re-plan with what is done, until the plan
//     ends or MaxTasks app tasks ran; the Result holds every task's result and the key
//     context;
//   - Learning wraps a Runner so that the learner's LearnFunc runs after each app task,
//     whatever its outcome (even a stopped run learns, within a timeout): what the task
//     taught is learned before the next one starts, and a failed learning pass is logged
//     and published, never turned into a task failure;
//   - Progress is the terminal view: a bus subscriber that prints the plan, each step and
//     each question as they happen.
//
// The Manager declares the small interfaces it needs where it uses them (AppSource,
// Launcher, Runner, Model, Memory): package agent plugs in the phone, the executor, the
// metered model and the memory stacks.
//
// Caveats: what a run leaves behind (the trace, the screenshots, the summary) is package
// rundir's: a run that cannot be recorded ends its context, and the Manager reports the
// run failed with that write. A plan that names an app the phone does not have is sent
// back to the planner, never launched.
package global
