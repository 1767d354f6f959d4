// Package rundir is the run directory: the files a run leaves behind, how they are
// written and how they are read back.
//
// A run directory holds trace.jsonl (one event a line: seq, time, kind, event, and image
// for a step's set-of-mark screenshot), the step screenshots, summary.json (the run's
// figures, a stable schema that scripts read) and report.html (the run's page).
//
// The types to know:
//
//   - Recorder (NewRecorder) writes them: Recorder.Handle takes every event of the run's
//     bus, and Recorder.Close writes the summary. Recorder.Context gives the run a context
//     that ends with a *RecordError at the first failed write;
//   - Summary (summary.json, schema documented on the type) is the run's figures: outcome,
//     steps, model calls, tokens, cost, questions, what knowledge was served and saved;
//   - Read loads a run directory back as a Run (for `fairy runs` and evaluations), and
//     ReadTrajectory its steps as a Trajectory, which the pages and the evaluation's
//     reports read;
//   - WritePage writes a run's report.html. An evaluation's report.html is made of the
//     same templates (Templates, PageSteps, Thumbnails).
//
// Caveats: a run that cannot be recorded does not go on. The Recorder's first failed write
// (a full disk, an I/O error) ends the run's context, the Global Task Manager reports the
// run failed with that write, and nothing more is written to the trace. Each trace line is
// written whole with one write, so a killed process leaves only whole lines; the trace is
// synced at every step boundary, and summary.json is replaced atomically or left as it
// was. Secrets handed to NewRecorder (API keys) are replaced by "[redacted]" before
// anything reaches a file. summary.json's fields are only ever added: scripts read it.
package rundir
