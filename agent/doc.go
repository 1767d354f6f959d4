// Package agent assembles a complete fairy run from plain values: the phone (the device
// layer, executor/adb), the model, the long-term knowledge with the Self-Learner, the
// event bus with its run directory recorder (rundir) and terminal progress view, the
// interaction loop, the App-Level Executor and the Global Task Manager.
//
// It reads no flags, no configuration files and no environment: cmd/fairy resolves those
// and hands values in, and the evaluation (eval/agentrun) does the same for every task.
// Both therefore run the very same agent.
//
// The types to know:
//
//   - Config (checked by New) is what stays the same across runs: the guard, the limits,
//     the clock, the grounding family, the pixel reader, the secrets the trace masks;
//   - Run is one instruction with its parts: the run directory, the Device, the model,
//     the person (an interaction.Dialoger), the knowledge store (nil: nothing learned or
//     used), an optional live-page subscriber and progress writer;
//   - Agent.Run makes the run's bus, memory stacks, recorder and learning session,
//     assembles the interaction loop, executor and Global Task Manager on them, and
//     carries out the instruction. Its Result holds the global result, the run's summary
//     and Contradict, which undoes what the run taught when the person says it was wrong;
//   - OpenDevice opens a phone through executor/adb.
//
// It also offers the parts a run needs when nothing is attached, both test doubles and
// named as such: virtual phones (sim) served on the adb host protocol and reached through
// the real device layer (ServePhones), and the scripted model served over HTTP and reached
// through the real OpenAI adapter (ServeScriptedModel).
//
// Caveats: Agent.Run's error is for a run that could not be assembled (a missing part, a
// run directory that cannot be written); what happened to the task, even an error, is in
// the Result. An agent that cannot record does not act: the first write of the run
// directory that fails ends the run's context, so the run stops before its next action
// and fails. One Agent may carry out many runs at once (an evaluation's workers): each Run
// has its own bus, memory and recorder, and shares only the Agent's prompts and guard.
package agent
