// Package agent assembles a complete fairy run from plain values: the phone (the device
// layer, executor/adb), the model, the long-term knowledge with the Self-Learner, the
// event bus with its run directory recorder (rundir) and terminal progress view, the
// interaction loop, the App-Level Executor and the Global Task Manager.
//
// It reads no flags, no configuration files and no environment: cmd/fairy resolves those
// and hands values in, and the evaluation (eval/agentrun) does the same for every task.
// Both therefore run the very same agent.
//
// It also offers the parts a run needs when nothing is attached, both test doubles and
// named as such: virtual phones (sim) served on the adb host protocol and reached through
// the real device layer (ServePhones), and the scripted model served over HTTP and reached
// through the real OpenAI adapter (ServeScriptedModel).
package agent
