// Package rundir is the run directory: the files a run leaves behind, how they are
// written and how they are read back.
//
// A run directory holds trace.jsonl (one event a line: seq, time, kind, event, and image
// for a step's set-of-mark screenshot), the step screenshots, summary.json (the run's
// figures, a stable schema that scripts read) and report.html (the run's page).
//
// The Recorder writes them: it takes every event of the run's bus, and writes the summary
// when it is closed. A run that cannot be recorded does not go on: the Recorder's first
// failed write ends the run's context (Recorder.Context), and the Global Task Manager
// reports the run failed with that write. Read and ReadTrajectory read a run directory
// back, for `fairy runs` and for evaluations; WritePage writes its page. An evaluation's
// report.html is made of the same templates (Templates, PageSteps, Thumbnails).
package rundir
