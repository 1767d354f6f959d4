// Package memory is fairy's short-term memory: Fairy's composite stacks for one run.
//
// Stacks subscribes to the run's event bus (package event) and keeps:
//
//   - the instruction stack: the app task at the bottom, each interaction summary on top,
//     with the consent the person gave, until an action spends it;
//   - the action-loop stack: one Frame per step (plan, sub-goal, screen, actions, result);
//   - the interaction-loop stack: the turns of the current interaction, cleared when it ends;
//   - the key-context stack: facts taken from screens, kept across app tasks.
//
// Components publish what they did and ask the Stacks what happened; they never read
// each other's state. Queries return copies.
//
// The types to know: Stacks (NewStacks, Stacks.Attach to a bus, or Stacks.Handle as a
// handler); its queries Instructions, Consent (the unspent consent for a guard category and
// action), Frames and LastFrames (the action loop, for the prompts' history), Turns and
// KeyContext; and the records they return, Instruction, Frame and Turn.
//
// Caveats: the stacks are filled only from events. A part that changes what happened
// without publishing it (a consent spent, a fact read) leaves memory behind, and the next
// prompt shows the model a history that did not happen: publish first, then ask memory.
// Each AppTaskStarted starts the instruction, action-loop and interaction-loop stacks afresh;
// only the key context flows on to the next app task. One Stacks serves one run (package
// agent makes one per run).
package memory
