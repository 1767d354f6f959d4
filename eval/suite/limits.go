package suite

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// What a suite file may hold. A suite is written by a person for tasks that each take
// seconds to minutes on a phone; these bounds are far above any such suite (the built-in
// one is 48 KiB with 46 tasks) and keep a file from elsewhere from holding the machine:
// a 24 MB file of 200,000 tasks was read whole, validated and queued.
const (
	// MaxSuiteBytes is the largest suite file read.
	MaxSuiteBytes = 4 << 20
	// MaxSuiteTasks is the most tasks a suite file holds.
	MaxSuiteTasks = 2000
	// MaxSuiteRules is the most scripted model rules and walkthrough steps a suite file
	// holds in all (each compiles to regular expressions before the first task).
	MaxSuiteRules = 20000
	// maxTaskItems is the most checks, tags, setup commands, user rules, must_ask
	// patterns or walkthrough apps one task lists.
	maxTaskItems = 200
	// maxAppEntries is the most files and directories walked under a suite's apps:
	// directory, maxAppFiles the most app files in it and maxAppBytes their total size.
	maxAppEntries = 1024
	maxAppFiles   = 128
	maxAppBytes   = 64 << 20
)

// readSuiteFile reads a suite file of at most MaxSuiteBytes.
func readSuiteFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("eval: read suite: %w", err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, fmt.Errorf("%w: %s is a directory: give the suite's YAML file", ErrSuite, path)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxSuiteBytes+1))
	if err != nil {
		return nil, fmt.Errorf("eval: read suite: %w", err)
	}
	if len(data) > MaxSuiteBytes {
		return nil, errTooLarge(path)
	}
	return data, nil
}

// errTooLarge refuses a suite file over MaxSuiteBytes.
func errTooLarge(source string) error {
	return fmt.Errorf("%w: %s is larger than %d MiB, the most a suite file may be: split it into several suites",
		ErrSuite, source, MaxSuiteBytes>>20)
}

// listCount is how many items a task's list holds.
type listCount struct {
	name string
	n    int
}

// countProblems checks the counts of a decoded suite against the limits above, before
// anything is compiled.
func (s *Suite) countProblems() error {
	if n := len(s.Tasks); n > MaxSuiteTasks {
		return fmt.Errorf("%d tasks, more than the %d a suite may hold: split it into several suites", n, MaxSuiteTasks)
	}
	rules := len(s.Model) + len(s.Recover)
	var errs []error
	for i, t := range s.Tasks {
		if t == nil {
			continue
		}
		rules += len(t.Model)
		for _, w := range t.Walk {
			rules += len(w.Steps)
		}
		where := fmt.Sprintf("task %d", i+1)
		if t.ID != "" {
			where = fmt.Sprintf("task %q", clip(t.ID, 64))
		}
		lists := []listCount{{"checks", len(t.Checks)}, {"tags", len(t.Tags)}, {"wants", len(t.Wants)}, {"walk", len(t.Walk)},
			{"questions.must_ask", len(t.Questions.MustAsk)}}
		if p := t.Phone.Sim; p != nil {
			lists = append(lists, listCount{"phone.sim.setup", len(p.Setup)})
		}
		if p := t.Phone.Device; p != nil {
			lists = append(lists, listCount{"phone.device.setup", len(p.Setup)})
		}
		if u := t.User.Scripted; u != nil {
			lists = append(lists, listCount{"user.scripted.rules", len(u.Rules)})
		}
		for _, l := range lists {
			if l.n > maxTaskItems {
				errs = append(errs, fmt.Errorf("%s: %d %s, more than the %d a task may list", where, l.n, l.name, maxTaskItems))
			}
		}
		if len(errs) >= 5 {
			break // enough to show what is wrong
		}
	}
	if rules > MaxSuiteRules {
		errs = append(errs, fmt.Errorf("%d scripted model rules and walkthrough steps, more than the %d a suite may hold: split it into several suites",
			rules, MaxSuiteRules))
	}
	return errors.Join(errs...)
}
