// Package agentrun plugs fairy's agent into evaluations: it implements eval.Agent by
// opening, for each task run, the task's phone, the model (a configured endpoint, or the
// scripted model serving the suite's rules over HTTP through the real OpenAI adapter) and
// the knowledge file, and by running the task's instruction with package agent — the same
// assembly `fairy run` uses — with the simulated user as the person.
//
// The types to know:
//
//   - Config (checked by New): the model (nil: each task run gets the scripted model
//     answering from the suite's rules), the default limits, the pixel reader, the
//     grounding family, whether to learn, how to open a knowledge location (a file or an
//     etcd:// URL), and an optional live-page subscriber;
//   - Agent.Start opens one task run (eval.TaskRun): its phone, model and knowledge; the
//     run's Run carries out the instruction with the simulated user as the
//     interaction.Dialoger and returns the run's summary;
//   - Farm (ServeFarm) serves virtual phones on the adb host protocol for `--sim N`, so
//     the evaluation reaches them through the real device layer;
//   - Merge imports knowledge files into one: what the cold pass of an evaluation
//     learned, for the warm pass (eval.Config.Merge).
//
// Caveats: package eval knows the agent only through the interfaces it declares; this
// package is the one place that imports both, so eval's tests can run a suite without the
// agent and the agent is never built differently for an evaluation. Knowledge files are
// opened once per path and shared by the task runs that use them at the same time. The
// scripted model is a test double, named as such in every answer and every report.
package agentrun
