package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fairy-go/fairy/internal/table"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/knowledge/etcdstore"
)

// Commands to inspect and edit long-term knowledge: `fairy map …` (map.go),
// `fairy tricks …` (tricks.go), `fairy knowledge export|import|check|repair`
// (knowledge_file.go). Each takes knowledgePath, which resolves the --knowledge flag or its
// default when the command runs. A damaged file is exit status 2 with the knowledge
// package's sentence saying what to do. This file opens the store for them.

// knowledgeLockWait is how long inspection commands wait for a file that a
// running fairy holds.
const knowledgeLockWait = 2 * time.Second

// openKnowledge opens the knowledge file; read-only commands on a missing file
// get errNoKnowledge so they can say there is nothing learned yet.
func openKnowledge(knowledgePath knowledgeRef, write bool) (*knowledge.Store, error) {
	path, err := knowledgePath.Path()
	if err != nil {
		return nil, err
	}
	if write && !etcdstore.IsURL(path) {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, fmt.Errorf("create knowledge directory: %w", err)
		}
	}
	s, err := openKnowledgeStore(path, knowledge.Options{ReadOnly: !write, Timeout: knowledgeLockWait},
		knowledgePath.Access())
	if !write && errors.Is(err, fs.ErrNotExist) {
		if note := knowledgePath.demoNote(); note != "" {
			return nil, fmt.Errorf("no knowledge file at %s yet (%s): %w", path, note, errNoKnowledge)
		}
		return nil, fmt.Errorf("no knowledge file at %s yet: run a task first, or pass --knowledge FILE: %w", path,
			errNoKnowledge)
	}
	return s, err
}

var errNoKnowledge = errors.New("nothing learned yet")

// printDemoNote follows "nothing learned" with where the demo's knowledge is, if there is
// one the person may be looking for.
func printDemoNote(w io.Writer, knowledgePath knowledgeRef) {
	if note := knowledgePath.demoNote(); note != "" {
		fmt.Fprintf(w, "(%s)\n", note)
	}
}

// withKnowledge runs f on an open store and closes it.
func withKnowledge(knowledgePath knowledgeRef, write bool, f func(*knowledge.Store) error) error {
	s, err := openKnowledge(knowledgePath, write)
	if err != nil {
		return err
	}
	err = f(s)
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	return err
}

// withKnowledgeList reads a list from the knowledge and writes it with write; with no
// knowledge file yet, it writes the empty list (a list command says "none yet", not an error).
func withKnowledgeList[T any](knowledgePath knowledgeRef, read func(*knowledge.Store) ([]T, error),
	write func([]T) error) error {
	err := withKnowledge(knowledgePath, false, func(s *knowledge.Store) error {
		list, err := read(s)
		if err != nil {
			return err
		}
		return write(list)
	})
	if errors.Is(err, errNoKnowledge) {
		return write(nil)
	}
	return err
}

// knowledgeCounts says how much knowledge there is: "1 app, 3 pages, 2 transitions, 1 trick, 0 runs".
func knowledgeCounts(apps, pages, transitions, tricks, runs int) string {
	return strings.Join([]string{table.Count(apps, "app", "apps"), table.Count(pages, "page", "pages"),
		table.Count(transitions, "transition", "transitions"), table.Count(tricks, "trick", "tricks"), table.Count(runs,
			"run", "runs")}, ", ")
}
