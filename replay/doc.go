// Package replay is the replay of learned steps: what the executor and the Self-Learner
// exchange to run steps the agent has done before with no model call, and the rules that
// are about replay itself.
//
// Two kinds of learned steps are replayed. A shortcut is the App Map's known path to a
// page (the decider's Navigate action); a routine is a finished app task's trajectory kept
// as one high-level action the Re-Planner may run by name (an Offer), with parameters for
// the list rows it picked and the texts it typed. Either way the executor gets Steps: each
// checks that the screen is the page it expects and names the action to run there, or
// fails with ErrMismatch, and the replay stops there (Run says where a routine's steps
// start and why they end early). Verified steps are the other side of the same knowledge:
// the App Map predicts the page an action opens, and the Re-Planner is not asked when the
// phone lands there (the executor's Predictions port).
//
// The rules here need no store and no device: how a learned step is found again on the
// current screen (Learned.Resolve: the page it expects, its element by resource-id, label
// and class, the state of a switch), which routine names a task fills and with what
// arguments (Fit), when a replay has to pause for the person's choice (Blank), how a
// learned label becomes a template and back (Template, Fill, HasWords), and what a task
// remembers of the replays it ran (Ledger: paused routines, surprises, shortcuts that
// stopped short). The learner builds steps and offers from package knowledge (an App Map
// transition or a routine's step becomes a Learned) and satisfies the executor's
// Shortcuts and Routines ports with these types; the executor runs the steps in its step
// loop.
//
// The package imports nothing of fairy's but the run's vocabulary (event) and the screen
// (perception).
package replay
