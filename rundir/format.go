package rundir

import (
	"encoding/json"
	"time"
)

// The files of a run directory. The step screenshots lie beside them, named
// step-NNN-MM.png (or .jpg): the step, then the screenshot's number in the run.
const (
	TraceFile   = "trace.jsonl"
	SummaryFile = "summary.json"
	PageFile    = "report.html" // the run's page (WritePage)
)

// traceLine is one line of trace.jsonl, as the Recorder writes it and ReadTrajectory
// reads it: seq, time, kind, image (a step's set-of-mark screenshot file, when it has one)
// and the event itself as JSON.
type traceLine struct {
	Seq   int64           `json:"seq"`
	Time  time.Time       `json:"time"`
	Kind  string          `json:"kind"`
	Image string          `json:"image,omitempty"`
	Event json.RawMessage `json:"event"`
}
