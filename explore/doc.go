// Package explore is fairy's model-free crawler (`fairy explore`): it launches an app and
// visits its pages breadth-first through the elements that navigate — list rows, tabs,
// buttons that open a page — and records what it sees in the App Map before any task
// needs it.
//
// It learns exactly as a task does: every screen it perceives and every action it takes
// is published on a event.Bus as the executor publishes them (AppTaskStarted,
// ScreenPerceived, ActionExecuted), and a learner.Session attached to that bus files the
// pages and transitions with the executor's identity rules (activity + structural
// signature; targets by resource id, label and class). Each step is its own knowledge
// transaction, so an interrupted exploration keeps what it learned. Pages it visits are
// marked (knowledge.Page.Explored).
//
// It is safe by construction, with no model to judge a screen:
//   - it only taps clickable, enabled elements, never one the guard (guard.Guard)
//     holds for consent, never a switch, checkbox or radio button nor a row that holds
//     one, never a text field (it never types), never a control whose words say it acts
//     rather than opens a page (clear, stop, reset, OK, Allow, Open, …; see safety.go);
//   - a dialog or any page is left with Back, so a dialog is only ever dismissed;
//   - when another app comes up it presses Back at once (and relaunches the app when Back
//     does not bring it back), and never records the other app's screens;
//   - it comes back to a page with Back, or with a relaunch and the replayed path when
//     Back does not return.
//
// Bounds: an action budget, a depth and a wall time. Config.DryRun perceives the first
// page and reports what would be tapped and what is left alone, without a tap.
package explore
