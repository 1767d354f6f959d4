// Package interaction is how fairy talks to the person: the User Interactor (a model role)
// turns a need — consent for a sensitive or irreversible action, a choice, an ambiguous
// instruction — into questions, judges whether the answers settle it and writes the summary
// that goes onto the instruction stack; a Dialoger shows each question and returns the answer.
//
// Two Dialogers ship here: Terminal (a TTY or pipes) and Canned (rules: pattern → reply,
// with a record of every question). Evaluation plugs in others through the same interface.
package interaction
