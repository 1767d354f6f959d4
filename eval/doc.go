// Package eval evaluates fairy on suites of tasks with simulated users, on one or many
// phones, and writes reports: report.json (schema in Report), report.md and report.html
// (one self-contained page: totals, task table, every task's trajectory with set-of-mark
// screenshots, actions and reflections), plus one run directory per task (package
// rundir reads them back, and its page templates make report.html's task sections).
//
// The suites it runs are package eval/suite's: the suite YAML, the checks and their
// evaluation on the phone's state, the question assertions.
//
// # Runs
//
// Run distributes the tasks over the devices, one worker per device (a task never shares a
// phone), recovers from a task that panics or errs (it is reported, the suite goes on),
// stops cleanly when ctx ends (the report of the finished tasks is still written), prints
// one progress line per finished run (done/total, outcome, ETA) and, with ColdWarm, runs the suite
// with empty knowledge, merges what that pass learned, and runs it again on copies of it
// twice: with the Navigate rules (model-cooperating) and without (model-independent: what
// the executor saves by itself). With Learn, Learn's tasks first learn into one shared
// file and the suite's tasks run cold and warm (both ways) with that file instead:
// learn-then-evaluate. The report compares the passes in model calls, steps and prompt
// tokens (all tasks, the tasks tagged revisit, each task) and splits each figure's saving
// by mechanism: verified steps, Navigate replays, skipped fixed calls, calls per role.
// With Learned (a file learned before, e.g. on another seed) the warm passes start from it
// and nothing is merged; AsItGoes adds a pass whose runs share one file that starts empty,
// in the suite's order (learning as it goes). Every report lists the knowledge that misled
// (Report.Misled): each run that lost a task its cold run passed and each false success,
// with the knowledge in play read from the run's trace (routines with their source run
// and bindings, routine End shortcuts, declined routines, Navigates, verified steps,
// tips, known readings), the piece the run went wrong after, and what went wrong — or that
// no knowledge was in play, or that the trace cannot say. A pass that shared one file over
// several instances of a family gets a learning curve by instance number (Report.Curves).
// The agent is plugged in through Agent (eval/agentrun wires fairy's agent core).
//
// # Model errors and judging users
//
// Config.ModelErrors (fairy eval --model-errors) injects errors into the agent's model
// answers at the given rates (package llm/inject), drawn per run from Config.Seed, the task,
// the pass and the repeat; ModelErrorsLearnOnly keeps the warm passes clean (learn from a
// model that erred, evaluate without errors). Each injected error is a ModelErrorInjected
// trace line and is counted per task (TaskResult.InjectedErrors) and per pass.
//
// Every simulated user knows its task's intent, read from the task's checks (a message's
// recipient and text, an order's item): it refuses a consent question whose specifics
// ("to: …; text: …", "items: …; amount: …; payee: …") contradict it, saying what it meant,
// and a consent question that hides the specifics it needs is recorded as one it could
// not judge (Question.Unjudgeable). The report counts, per pass: the success rate, false
// successes (outcome done and a check failed), sensitive actions done and those without a
// consent that named their specifics, refused consents and questions not judgeable.
// Robustness averages cold/warm reports of one error setting over their seeds
// (fairy eval --sweep writes robustness.json/md/html).
package eval
