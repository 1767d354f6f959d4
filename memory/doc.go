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
package memory
