package knowledge

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// holdFile keeps a write transaction of s open (so the file's lock is held) until the
// returned function is called.
func holdFile(t *testing.T, s *Store) (release func()) {
	t.Helper()
	held, done := make(chan struct{}), make(chan struct{})
	errc := make(chan error, 1)
	go func() {
		errc <- s.Update(func(tx *Tx) error {
			close(held)
			<-done
			_, err := tx.PutApp(App{Package: "com.held", Label: "Held"})
			return err
		})
	}()
	<-held
	var once sync.Once
	release = func() {
		once.Do(func() {
			close(done)
			if err := <-errc; err != nil {
				t.Errorf("the holding write: %v", err)
			}
		})
	}
	t.Cleanup(release)
	return release
}

// TestOpenStoreDoesNotHoldFile: an open store holds the file only during a transaction,
// so another store reads and writes it meanwhile, and each sees the other's writes — the
// App Map cache included.
func TestOpenStoreDoesNotHoldFile(t *testing.T) {
	run, path := openTemp(t, Options{Timeout: 100 * time.Millisecond})
	if _, err := run.RecordTransition("com.a", Transition{From: "A#1", To: "A#2", Action: Action{Kind: ActionTap, Target: Element{Text: "Next"}}}, true); err != nil {
		t.Fatal(err)
	}
	if _, err := run.Map("com.a"); err != nil { // cached from here on
		t.Fatal(err)
	}

	inspect, err := Open(path, Options{ReadOnly: true, Timeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatalf("read-only Open while another store is open: %v", err)
	}
	defer inspect.Close()
	apps, err := inspect.Apps()
	if err != nil || len(apps) != 1 || apps[0].Transitions != 1 {
		t.Fatalf("Apps from the second store = %+v, %v; want com.a with 1 transition", apps, err)
	}

	second, err := Open(path, Options{Timeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatalf("second writable Open while another store is open: %v", err)
	}
	defer second.Close()
	if _, err := second.RecordTransition("com.a", Transition{From: "A#1", To: "A#2", Action: Action{Kind: ActionTap, Target: Element{Text: "Next"}}}, true); err != nil {
		t.Fatalf("write through the second store: %v", err)
	}
	if _, err := second.AddTrick(Trick{App: "com.a", Kind: KindAction, Text: "Next is at the bottom."}); err != nil {
		t.Fatal(err)
	}

	// The first store's cached map is stale now: it must read the second store's count.
	m, err := run.Map("com.a")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Transitions) != 1 || m.Transitions[0].Successes != 2 {
		t.Fatalf("first store's map after the second wrote: %+v, want one transition with 2 successes", m.Transitions)
	}
	if tricks, err := run.Tricks("com.a", ""); err != nil || len(tricks) != 1 {
		t.Fatalf("first store's tricks = %v, %v; want the second store's trick", tricks, err)
	}
	// And the first store's own write on top of the stale cache keeps the count right.
	if _, err := run.RecordTransition("com.a", Transition{From: "A#1", To: "A#2", Action: Action{Kind: ActionTap, Target: Element{Text: "Next"}}}, false); err != nil {
		t.Fatal(err)
	}
	m, _ = inspect.Map("com.a")
	if tr := m.Transitions[0]; tr.Successes != 2 || tr.Failures != 1 {
		t.Fatalf("counts seen by the read-only store = %d/%d, want 2 successes 1 failure", tr.Successes, tr.Failures)
	}
}

// TestTransactionWaitsThenFailsClearly: while one store is inside a transaction, Open and
// the transactions of another store wait for the lock up to their timeout, then fail with
// ErrInUse and a sentence saying what to do; once it ends, they work.
func TestTransactionWaitsThenFailsClearly(t *testing.T) {
	s, path := openTemp(t, Options{})
	other, err := Open(path, Options{Timeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	release := holdFile(t, s)
	want := fmt.Sprintf("knowledge file %s is in use by another fairy process; close it or pass --knowledge OTHER", path)
	check := func(what string, err error, start time.Time) {
		t.Helper()
		if !errors.Is(err, ErrInUse) || !strings.Contains(err.Error(), want) {
			t.Fatalf("%s during another store's transaction: %v; want ErrInUse saying %q", what, err, want)
		}
		if d := time.Since(start); d < 40*time.Millisecond || d > 2*time.Second {
			t.Fatalf("%s gave up after %v, want about the 100ms timeout", what, d)
		}
	}
	for _, ro := range []bool{false, true} {
		start := time.Now()
		s2, err := Open(path, Options{Timeout: 100 * time.Millisecond, ReadOnly: ro})
		if err == nil {
			s2.Close()
		}
		check(fmt.Sprintf("Open (read-only %v)", ro), err, start)
	}
	start := time.Now()
	_, err = other.Tricks("", "")
	check("a read", err, start)
	start = time.Now()
	_, err = other.AddTrick(Trick{App: "com.a", Kind: KindAction, Text: "tip"})
	check("a write", err, start)

	release()
	if _, err := other.AddTrick(Trick{App: "com.a", Kind: KindAction, Text: "tip"}); err != nil {
		t.Fatalf("a write after the transaction ended: %v", err)
	}
	if a, err := other.GetApp("com.held"); err != nil || a.Label != "Held" {
		t.Fatalf("the held transaction's write: %+v, %v", a, err)
	}
}

// TestWaitBehindBusyWriters: several stores on one file write one transaction after
// another (each holds the lock for milliseconds and takes it again at once, as learners
// recording a run do); every write waits its turn instead of failing with ErrInUse after
// Options.Timeout, since the file is busy, not kept. (Trying the lock every 50 ms, as
// bbolt's own wait does, a writer rarely found it free and gave up at its timeout:
// TestConcurrentLearnersMerge's flake under -race.)
func TestWaitBehindBusyWriters(t *testing.T) {
	_, path := openTemp(t, Options{})
	const busy = time.Second
	stop := time.Now().Add(busy)
	var wg sync.WaitGroup
	writes := make([]int, 3)
	longest := make([]time.Duration, len(writes))
	for i := range writes {
		w, err := Open(path, Options{Timeout: 200 * time.Millisecond, noSync: true})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(stop) {
				start := time.Now()
				_, err := w.AddTrick(Trick{App: "com.busy", Kind: KindAction, Text: fmt.Sprintf("Writer %d wrote %d.", i, writes[i])})
				waited := time.Since(start)
				if err != nil {
					t.Errorf("writer %d, write %d: %v after %v; want it to wait its turn", i, writes[i], err, waited)
					return
				}
				writes[i]++
				longest[i] = max(longest[i], waited)
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.Fatalf("writes made: %v", writes)
	}
	check, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer check.Close()
	want := writes[0] + writes[1] + writes[2]
	if tricks, err := check.Tricks("com.busy", ""); err != nil || len(tricks) != want {
		t.Fatalf("after the busy writes: %d tricks, %v; want %d", len(tricks), err, want)
	}
	t.Logf("writes %v, the longest waits %v", writes, longest)
}

// Two writer processes: this test binary re-executed, each writing the same records.
const (
	writerEnv    = "FAIRY_KNOWLEDGE_WRITER_FILE"
	writerRounds = 40
)

func TestWriterChild(t *testing.T) {
	path := os.Getenv(writerEnv)
	if path == "" {
		t.Skip("helper process for TestTwoWriterProcesses")
	}
	s, err := Open(path, Options{Timeout: 5 * time.Second})
	if err != nil {
		fmt.Println("open:", err)
		os.Exit(2)
	}
	fmt.Println("ready")
	name := os.Getenv(writerEnv + "_NAME")
	for i := range writerRounds {
		// Read the map (through the cache) between writes, as a run does.
		if _, err := s.Map("com.shared"); err != nil {
			fmt.Println("map:", err)
			os.Exit(2)
		}
		err := s.Update(func(tx *Tx) error {
			if _, err := tx.RecordPage("com.shared", Page{Key: "Main#1"}); err != nil {
				return err
			}
			if _, err := tx.RecordTransition("com.shared", Transition{From: "Main#1", To: "Next#1",
				Action: Action{Kind: ActionTap, Target: Element{Text: "Next"}}}, true); err != nil {
				return err
			}
			_, err := tx.AddTrick(Trick{App: "com.shared", Kind: KindAction, Text: fmt.Sprintf("writer %s round %d: unique words %s%d", name, i, name, i)})
			return err
		})
		if err != nil {
			fmt.Println("write:", err)
			os.Exit(2)
		}
	}
	fmt.Println("done")
}

// TestTwoWriterProcesses: two processes write the same file at once; the file stays sound
// and every write of both is counted.
func TestTwoWriterProcesses(t *testing.T) {
	s, path := openTemp(t, Options{})
	var cmds []*exec.Cmd
	var wg sync.WaitGroup
	outs := make([][]string, 2)
	for i, name := range []string{"a", "b"} {
		cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestWriterChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), writerEnv+"="+path, writerEnv+"_NAME="+name)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				outs[i] = append(outs[i], sc.Text())
			}
		}()
	}
	// This store reads while both write.
	for range 20 {
		if _, err := s.Map("com.shared"); err != nil {
			t.Fatalf("read while two processes write: %v", err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	wg.Wait()
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("writer %d: %v: %s", i, err, strings.Join(outs[i], "\n"))
		}
		if !strings.Contains(strings.Join(outs[i], "\n"), "done") {
			t.Fatalf("writer %d did not finish: %s", i, strings.Join(outs[i], "\n"))
		}
	}
	if err := s.Check(); err != nil {
		t.Fatalf("file after two writers: %v", err)
	}
	m, err := s.Map("com.shared")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Transitions) != 1 || m.Transitions[0].Successes != 2*writerRounds {
		t.Fatalf("transitions = %+v, want one with %d successes", m.Transitions, 2*writerRounds)
	}
	for _, p := range m.Pages {
		if p.Key == "Main#1" && p.Visits != 2*writerRounds {
			t.Fatalf("page Main#1 visits = %d, want %d", p.Visits, 2*writerRounds)
		}
	}
	tricks, err := s.Tricks("com.shared", "")
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, tr := range tricks {
		ids[tr.ID] = true
	}
	if len(tricks) != 2*writerRounds || len(ids) != 2*writerRounds {
		t.Fatalf("%d tricks with %d distinct IDs, want %d each", len(tricks), len(ids), 2*writerRounds)
	}
	t.Logf("two writer processes: %s", strconv.Itoa(2*writerRounds)+" writes counted")
}
