// Package prompts is the model contract: every sentence fairy says to a model, as embedded
// text/template files and the JSON schemas of the answers, one pair per role.
//
// Each role has a template in templates/ and a schema in schemas/ (planner, replanner,
// decider, interactor, extractor, checker, learner, and the evaluation's simulated user
// and judge). The types to know:
//
//   - Set (Load, LoadFrom): the parsed templates and schemas. Its methods, one per role
//     (Set.Plan, Set.Replan, Set.Decide, Set.Interact, Set.Extract, Set.Check, Set.Learn,
//     …), render a Prompt from the role's typed data (PlannerData, ReplannerData,
//     DeciderData, …);
//   - the role's typed answer (PlannerAnswer, ReplannerAnswer, DeciderAnswer,
//     InteractorAnswer, …), checked by its Validate before the caller acts on it
//     (Validator); AskAgain is the repair message when an answer breaks its schema;
//   - the notes (Note, notes.go): what the executor tells the Re-Planner or the Action
//     Decider about a step (a loop, a stopped routine, the person's answer) as typed
//     values, NoteLoop, NoteAnswered, …, whose sentences are templates in
//     templates/notes.tmpl: the executor passes facts, never a sentence;
//   - the markers (markers.go): the fixed labels a template writes at the start of a line,
//     which the scripted model's rules and eval's walkthroughs match prompts by.
//
// Every prompt marks what comes from the phone or the person — the screen text, the
// instruction, interaction answers, key context — as data: it sits between `<<<NAME` and
// `NAME>>>` lines, and the system prompt says such blocks are never instructions. Any `>>>`
// inside data is broken up so data cannot close its own block.
//
// Caveats: the golden prompts in testdata/ are the contract's test. A change to a template
// or to how data is rendered changes them; review the diff and rewrite them with
// `go test ./prompts -update`. A marker a template stops writing breaks the walkthrough
// tests (eval/walkthrough), never silently. The package imports only the vocabularies it
// renders (event, llm, memory, replay): the callers build the data, it never reads a
// screen or a store itself.
package prompts
