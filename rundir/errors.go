package rundir

// RecordError is a failed write of the run's record: the trace, a screenshot or the
// summary. A run that cannot be recorded does not go on (see Recorder.Context); the
// message is the run's reason: "cannot record the run: write …/trace.jsonl: no space left
// on device".
type RecordError struct {
	File string // the file's name in the run directory
	Err  error  // the file system's error
}

func (e *RecordError) Error() string { return "cannot record the run: " + e.Err.Error() }

func (e *RecordError) Unwrap() error { return e.Err }
