package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fairy-go/fairy/internal/table"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/knowledge/etcdstore"
	"github.com/fairy-go/fairy/rundir"
)

// runLockWait is how long a run waits for a knowledge file another fairy holds.
const runLockWait = 2 * time.Second

// runKnowledge is a run's long-term knowledge, opened before the phone.
type runKnowledge struct {
	Store *knowledge.Store // nil: the run goes without
	Path  string
	// Off says why the run goes without although a file was configured (it is damaged);
	// the run's summary says it too.
	Off string
}

// close closes the store, once; closing again is harmless.
func (k *runKnowledge) close() error {
	if k.Store == nil {
		return nil
	}
	err := k.Store.Close()
	k.Store = nil
	return err
}

// openRunKnowledge opens a run's knowledge file (none when path is ""), creating it and
// its directory when missing. A file another fairy holds is a clear error (exit 2), and
// so is a damaged file the person named (isDefault false: --knowledge, FAIRY_KNOWLEDGE or
// the config file). The default file, damaged, is left aside instead: the run goes
// without knowledge and says so on stderr and in its summary. Call it before the phone
// is touched.
func openRunKnowledge(path string, isDefault bool, now func() time.Time, stderr io.Writer,
	access etcdAccess) (runKnowledge, error) {
	k := runKnowledge{Path: path}
	if path == "" {
		return k, nil
	}
	if !etcdstore.IsURL(path) {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return k, withExit(2, fmt.Errorf("create knowledge directory: %w", err))
		}
	}
	st, err := openKnowledgeStore(path, knowledge.Options{Timeout: runLockWait, Clock: now}, access)
	switch {
	case err == nil:
		k.Store = st
		return k, nil
	case errors.Is(err, knowledge.ErrInUse):
		return k, withExit(2, fmt.Errorf("knowledge file %s is in use by another fairy: "+
			"wait for it to finish, or pass --knowledge OTHER_FILE: %w", path, err))
	case errors.Is(err, knowledge.ErrRemoteUnreachable):
		// Shared knowledge that cannot be reached costs knowledge, never the task.
		fmt.Fprintf(stderr, "fairy: %v\nfairy: running without knowledge: nothing learned is used, "+
			"and learning is off for this run\n", err)
		k.Off = err.Error()
		return k, nil
	case isDefault && (errors.Is(err, knowledge.ErrDamaged) || errors.Is(err, knowledge.ErrNotKnowledge)):
		fmt.Fprintf(stderr, "fairy: %v\nfairy: running without knowledge: nothing learned is used, "+
			"and learning is off for this run\n", err)
		k.Off = err.Error()
		return k, nil
	case errors.Is(err, knowledge.ErrDamaged), errors.Is(err, knowledge.ErrNotKnowledge), errors.Is(err, knowledge.ErrSchema):
		return k, withExit(2, err)
	}
	return k, withExit(2, fmt.Errorf("open knowledge file %s: %w", path, err))
}

// reportKnowledge tells the person what the run used and learned, and any App Map updates
// that failed (mapErr), or that it ran without knowledge; after Ctrl-C (interrupted) the
// learning passes the interrupt refused are said to be not made, not failed.
func reportKnowledge(out io.Writer, k runKnowledge, sum rundir.Summary, mapErr error, interrupted bool) {
	if k.Off != "" {
		fmt.Fprintf(out, "knowledge: off for this run (nothing used, nothing learned): "+
			"%s cannot be read; see 'fairy knowledge check %s'\n", k.Path, k.Path)
		return
	}
	if mapErr != nil {
		fmt.Fprintf(out, "knowledge: some App Map updates failed (the run was not affected): %v\n", mapErr)
	}
	u := sum.Knowledge
	used := "nothing used yet"
	if u.Used {
		var parts []string
		add := func(n int, s string) {
			if n > 0 {
				parts = append(parts, s)
			}
		}
		add(u.Tricks, table.Count(u.Tricks, "trick", "tricks"))
		add(u.Hints, table.Count(u.Hints, "navigation hint", "navigation hints"))
		add(u.ShortcutSteps, table.Count(u.ShortcutSteps, "step", "steps")+" replayed by shortcut")
		add(u.VerifiedSteps, table.Count(u.VerifiedSteps, "step", "steps")+" confirmed by the App Map")
		add(u.Routines, table.Count(u.Routines, "routine", "routines")+" ("+table.Count(u.RoutineSteps, "step",
			"steps")+" replayed)")
		add(u.KnownReads, table.Count(u.KnownReads, "page", "pages")+" whose facts were known")
		used = "used " + strings.Join(parts, ", ")
	}
	learned := fmt.Sprintf("learned from %s (%s)", table.Count(u.LearnedTasks, "app task", "app tasks"),
		table.Count(u.LearnedTricks, "trick", "tricks"))
	if u.SkippedLearns > 0 {
		learned += fmt.Sprintf(", %s followed a known routine (nothing new to learn)", table.Count(u.SkippedLearns,
			"app task", "app tasks"))
	}
	switch {
	case u.LearnErrors > 0 && interrupted:
		// After Ctrl-C no model call is made: the passes it refused did not fail.
		learned += fmt.Sprintf(", %s not made: interrupted (Ctrl-C)", table.Count(u.LearnErrors, "learning pass",
			"learning passes"))
	case u.LearnErrors > 0:
		learned += fmt.Sprintf(", %s failed (see the trace)", table.Count(u.LearnErrors, "learning pass", "learning passes"))
	}
	fmt.Fprintf(out, "knowledge: %s; %s; file %s\n", used, learned, k.Path)
}

// demoKnowledgeMade is the demo's own knowledge file when the person named no knowledge
// file and a demo has made it; "" otherwise.
func (s *settings) demoKnowledgeMade() string {
	p, isDefault, err := s.demoKnowledgePath()
	if err != nil || !isDefault || p == "" {
		return ""
	}
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// demoNote tells a person who found nothing in the default knowledge where the demo's is;
// "" when there is none to tell of.
func (k knowledgeRef) demoNote() string {
	if k.demo == nil {
		return ""
	}
	p := k.demo()
	if p == "" {
		return ""
	}
	return fmt.Sprintf("fairy demo keeps what it learned apart, in %s: add --knowledge %s", p, shellWord(p))
}

// shellWord quotes s for a POSIX shell when it needs quoting, for a command to copy.
func shellWord(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r == '+' || r == ':' || r == '@' || r == '=' || r == ',' ||
			(r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z'))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// demoKnowledgePath is the demo's knowledge file: --knowledge when given, else (isDefault)
// a file of its own next to the real one, so what the virtual phone teaches never mixes
// with what a real phone taught; "" (the demo runs without knowledge) when there is no
// data directory.
func (s *settings) demoKnowledgePath() (path string, isDefault bool, err error) {
	if p := s.v.GetString(keyKnowledge); p != "" {
		return p, false, nil
	}
	d, err := s.dataDir()
	if err != nil {
		return "", false, nil //nolint:nilerr // no place to keep knowledge: the demo still runs
	}
	return filepath.Join(d, "demo-knowledge.db"), true, nil
}
