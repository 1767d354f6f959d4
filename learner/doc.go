// Package learner is fairy's Self-Learner: it turns every run into long-term knowledge
// (package knowledge) and answers the agent's questions from it.
//
// # During a run: the App Map, no model
//
// Learner.Start gives a Session for the run; Session.Attach subscribes it to the run's
// event.Bus. At each ScreenPerceived it writes, in one knowledge transaction, the page
// (activity + signature, a short description and representative elements taken from the
// screen's text form) and the transitions of the actions executed on the step before
// (ActionExecuted): the target element named by resource-id, label and class — never by
// index, and never by typed text — the page after, and the effect: new page (signature or
// activity changed), same page changed (other text), no change. Within one batch only the
// last action may move to another page; actions that stay on their page (typing, focusing
// a field) are same-page transitions. When an action no longer leads where the map says,
// the old transition counts a failure, so Path prefers what works now.
//
// # After a task: App Tricks, one model call
//
// Session.Learn sends each finished app task's trajectory (instruction, plans, sub-goals,
// actions, results A/B/C/D, reflections, errors, recoveries, the questions put to the
// person with their options and answers, outcome, and the tricks the task was given) to the
// model under the role and schema name "learner", in the prompt package prompts renders
// (Config.Prompts). The answer's tricks are merged into the store (near-duplicates fold
// into one) with their provenance; tricks the answer calls wrong are demoted; the given
// tricks' uses are counted as successes or failures by the task's outcome; the app's
// description is learned. A failed learning call returns an error (ErrModel, ErrBadAnswer,
// errStore) and never loses what was stored.
//
// # Using the knowledge
//
//   - Session.Tricks (the executor's Tricks port): top tricks for a query, as prompt lines;
//   - Learner.DescribeApps: the app list with learned descriptions for the Global Planner;
//   - Learner.Hint (the executor's Hints port) and Learner.Route: a known path from the
//     current page to the page that best serves a sub-goal, matched in English or Chinese;
//   - Learner.ShortcutFor (and Session.Shortcut, the executor's Shortcuts port): a reliable
//     path's steps with the page signature expected before each; their Resolve
//     (replay.Learned) checks the screen and turns a step into the action to run, or fails
//     with replay.ErrMismatch so the executor falls back to normal steps;
//   - Session.Offer and Session.Steps (the executor's Routines port): the routines learned
//     from finished tasks (Session.Learn stores each task's trajectory as one, its detours
//     cut out, the rows and texts its words gave made parameters) that can run from the
//     current page, and their steps with the arguments filled in. The types they hand over
//     and the rules of parameters are package replay's; what needs the store and the App
//     Map (mining a trajectory, checking a row against the map) is here.
//
// # List rows
//
// Pages are structural: every item of a list opens the same page (a shop's item page, an
// app's App info), so "the path to the item page" would replay whichever row was learned.
// A tap is item-specific when the map knows taps on other rows leading to the same page,
// or when its page shows several elements with the tapped element's resource-id. Routes
// and shortcuts take, at an item-specific step, the row whose label the sub-goal names
// (English words or Chinese bigrams) and stop before one it does not name: the hint then
// offers Navigate up to the list page, and the model picks the row. A list row's label
// never counts as the name of the page it opens. Session.Hint remembers the routes it
// offered, so the Navigate that follows replays exactly the route the hint showed, rows
// included; without a hint, Learner.Shortcut never guesses a row.
package learner
