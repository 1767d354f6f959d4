// Package walkthrough compiles a walkthrough — a compact way to write the scripted model's
// rules for an evaluation task — into llm/scripted rules for every role.
//
// Each app task of a walkthrough (Task) lists steps (Step): on which screen a step applies
// (a pattern on the screen's text form), the sub-goal the Re-Planner names there and the
// actions the Action Decider takes; Done says on which screen the app task is finished.
// Rules turns a walkthrough into scripted.Rule values for every role: the Global Planner's
// plan and adjustments, the Re-Planner (state-based: the most advanced matching step wins,
// so the walk stays right after a dead tap, a popped dialog or a learned shortcut; a screen
// of an earlier step while a later step's sub-goal is current is a wrong page, C, and so is
// a screen no step knows), the Action Decider, the Key Context Collector (Facts) and the
// User Interactor (Ask).
//
// The answers are the typed answers of package prompts, and the rules find their way
// through a prompt by its exported markers: a template that stops writing one breaks the
// walkthrough tests.
//
// # Reading values
//
// A quoted argument of Do, a value of Facts and Expect may read what the model would read:
// ${NAME} is the text of the named group NAME ((?P<NAME>…)) of the step's Screen or When
// pattern, or the person's answer to an Ask with `as: NAME` anywhere in the same app task
// (narrowed to the option the person named when the ask lists options). So
// `screen: '"(?P<number>\+[\d -]+)"'` with `do: ['Finish "The number is ${number}"']`
// answers with the number on the screen, and the task's check fails when the screen or its
// reading is wrong.
//
// The suite format (the walk: key of a task) is documented in package eval.
package walkthrough
