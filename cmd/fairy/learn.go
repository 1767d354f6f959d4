package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/fairy-go/fairy/global"
	"github.com/fairy-go/fairy/knowledge"
)

// runLockWait is how long a run waits for a knowledge file another fairy holds.
const runLockWait = 2 * time.Second

// openRunKnowledge opens a run's knowledge file, creating it and its directory when missing.
// A file that another fairy holds is a clear error.
func openRunKnowledge(path string, now func() time.Time) (*knowledge.Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create knowledge directory: %w", err)
	}
	st, err := knowledge.Open(path, knowledge.Options{Timeout: runLockWait, Clock: now})
	if errors.Is(err, knowledge.ErrInUse) {
		return nil, fmt.Errorf("knowledge file %s is in use by another fairy: wait for it to finish, or pass --knowledge OTHER_FILE: %w", path, err)
	}
	if err != nil {
		return nil, fmt.Errorf("open knowledge file %s: %w", path, err)
	}
	return st, nil
}

// reportKnowledge tells the person what the run used and learned, and any App Map updates
// that failed (mapErr).
func reportKnowledge(out io.Writer, path string, sum global.Summary, mapErr error) {
	if mapErr != nil {
		fmt.Fprintf(out, "knowledge: some App Map updates failed (the run was not affected): %v\n", mapErr)
	}
	u := sum.Knowledge
	used := "nothing used yet"
	if u.Used {
		used = fmt.Sprintf("used %d tricks, %d navigation hints, %d steps replayed by shortcut", u.Tricks, u.Hints, u.ShortcutSteps)
	}
	learned := fmt.Sprintf("learned from %d app tasks (%d tricks)", u.LearnedTasks, u.LearnedTricks)
	if u.LearnErrors > 0 {
		learned += fmt.Sprintf(", %d learning passes failed (see the trace)", u.LearnErrors)
	}
	fmt.Fprintf(out, "knowledge: %s; %s; file %s\n", used, learned, path)
}

// demoKnowledgePath is the demo's knowledge file: --knowledge when given, else a file of
// its own next to the real one, so what the virtual phone teaches never mixes with what a
// real phone taught; "" (the demo runs without knowledge) when there is no data directory.
func (s *settings) demoKnowledgePath() (string, error) {
	if p := s.v.GetString(keyKnowledge); p != "" {
		return p, nil
	}
	d, err := s.dataDir()
	if err != nil {
		return "", nil //nolint:nilerr // no place to keep knowledge: the demo still runs
	}
	return filepath.Join(d, "demo-knowledge.db"), nil
}
