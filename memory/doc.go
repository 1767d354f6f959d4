// Package memory is fairy's short-term memory and the run's event vocabulary.
//
// A run publishes typed events (StepStarted, ScreenPerceived, Reflected, Planned,
// InteractionAsked, ActionsDecided, ActionExecuted, ContextCollected, TaskFinished, …) on a
// Bus that the run owns; there is no global bus. The Manager subscribes to the bus and keeps
// Fairy's composite short-term stacks:
//
//   - the instruction stack: the app task at the bottom, each interaction summary on top;
//   - the action-loop stack: one Frame per step (plan, sub-goal, screen, actions, result);
//   - the interaction-loop stack: the turns of the current interaction, cleared when it ends;
//   - the key-context stack: facts taken from screens, kept across app tasks.
//
// Components publish what they did and ask the Manager what happened; they never read each
// other's state. The records the events carry (Action, Fact, AppTask) live here because
// every part of the agent — executor, global, learner, evaluation — reads them.
package memory
