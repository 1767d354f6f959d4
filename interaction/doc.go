// Package interaction is how fairy talks to the person: the User Interactor (a model role)
// turns a need — consent for a sensitive or irreversible action, a choice, an ambiguous
// instruction — into questions, judges whether the answers settle it and writes the summary
// that goes onto the instruction stack; a Dialoger shows each question and returns the answer.
//
// The types to know:
//
//   - Need is what the executor asks for: the interaction type (1 sensitive, 2
//     irreversible, 3 a choice, 4 ambiguous), the reason, and for a consent the guard's
//     category, the one action it covers and the event.Specifics read from the screen
//     (to Bob, text "…"), which the Question carries to the Dialoger typed;
//   - Interactor (New with a Config) and Interactor.Resolve run one interaction loop:
//     the model (role "interactor") writes a question, the Dialoger asks it, the model
//     judges the answer, until the need is settled or MaxTurns questions were asked. The
//     Result says whether it settled, the summary, and for types 1–2 the event.Consent;
//   - Dialoger is the person's side, one method, Ask(Question). Two ship here: Terminal
//     (a TTY or pipes) and Canned (rules: pattern → reply, with a record of every
//     question). The live page (package live), MCP elicitation (package mcp) and the
//     evaluation's simulated users plug in through the same interface;
//   - HandOver and Hander give the phone to the person when the screen needs what only
//     they may enter (a password, a one-time code, a fingerprint).
//
// Caveats: the model writes the question, but not alone. Whatever it wrote, a consent
// question shows the specifics the executor read (missingSpecifics adds the ones the
// model's text left out), a plain "no" (ReadYesNo, in English or Chinese) ends a consent at
// once whatever the model makes of it, and a consent the model settled without a verdict
// is asked again plainly. A consent covers one action: the executor asks again for the
// next one.
package interaction
