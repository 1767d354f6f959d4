package knowledge

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

func TestOpenCreatesSchemaAndReopens(t *testing.T) {
	s, path := openTemp(t, Options{})
	if _, err := s.AddTrick(Trick{App: "com.a", Kind: KindAction, Text: "Tap Send."}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := s.Tricks("", ""); !errors.Is(err, ErrClosed) {
		t.Fatalf("use after Close: got %v, want ErrClosed", err)
	}
	s2, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	got, err := s2.Tricks("com.a", "")
	if err != nil || len(got) != 1 || got[0].Text != "Tap Send." {
		t.Fatalf("reopened tricks = %v, %v", got, err)
	}
	if _, err := s2.AddTrick(Trick{App: "com.a", Kind: KindAction, Text: "x"}); !errors.Is(err, errReadOnly) {
		t.Fatalf("write on read-only store: got %v, want ErrReadOnly", err)
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.db")
	if err := os.WriteFile(garbage, []byte(strings.Repeat("not a database ", 1000)), 0o600); err != nil {
		t.Fatal(err)
	}
	otherSchema := filepath.Join(dir, "schema2.db")
	foreign := filepath.Join(dir, "foreign.db")
	for path, fill := range map[string]func(*bolt.Tx) error{
		otherSchema: func(tx *bolt.Tx) error {
			b, err := tx.CreateBucket(bucketMeta)
			if err != nil {
				return err
			}
			return b.Put(keySchema, []byte("2"))
		},
		foreign: func(tx *bolt.Tx) error { _, err := tx.CreateBucket([]byte("someone-else")); return err },
	} {
		db, err := bolt.Open(path, 0o600, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Update(fill); err != nil {
			t.Fatal(err)
		}
		db.Close()
	}
	tests := []struct {
		name string
		path string
		opts Options
		want error
		msg  string
	}{
		{"empty path", "", Options{}, ErrInvalid, "empty path"},
		{"not bbolt", garbage, Options{}, ErrNotKnowledge, "not a fairy knowledge file"},
		{"other schema", otherSchema, Options{}, ErrSchema, "schema version 2"},
		{"foreign bbolt", foreign, Options{}, ErrNotKnowledge, "no schema record"},
		{"missing read-only", filepath.Join(dir, "none.db"), Options{ReadOnly: true}, fs.ErrNotExist, "none.db"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Open(tt.path, tt.opts)
			if err == nil {
				s.Close()
				t.Fatal("Open succeeded")
			}
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("Open: %v; want %v containing %q", err, tt.want, tt.msg)
			}
		})
	}
}

// The crash test: a child process (this test binary, re-executed) writes
// learning batches in a loop; the parent kills it with SIGKILL mid-stream and
// checks that the file opens and holds whole transactions only.

const (
	crashEnv      = "FAIRY_KNOWLEDGE_CRASH_FILE"
	crashBatch    = 100 // tricks per transaction
	crashMinSeen  = 15  // commits the parent waits for before killing
	crashTextSize = 400
)

func TestCrashChild(t *testing.T) {
	path := os.Getenv(crashEnv)
	if path == "" {
		t.Skip("helper process for TestCrashMidWriteKeepsLastCommit")
	}
	s, err := Open(path, Options{})
	if err != nil {
		fmt.Println("open:", err)
		os.Exit(2)
	}
	pad := strings.Repeat("x", crashTextSize)
	for i := 0; ; i++ {
		err := s.Update(func(tx *Tx) error {
			for j := range crashBatch {
				if _, err := tx.AddTrick(Trick{App: "com.crash", Kind: KindAction,
					Text: fmt.Sprintf("batch %d trick %d %s", i, j, pad)}); err != nil {
					return err
				}
			}
			from, to := fmt.Sprintf("A#%d", i), fmt.Sprintf("A#%d", i+1)
			if _, err := tx.RecordPage("com.crash", Page{Key: to, Description: pad}); err != nil {
				return err
			}
			_, err := tx.RecordTransition("com.crash", Transition{From: from, To: to, Action: Action{Kind: ActionTap, Target: Element{ResourceID: "next"}}}, true)
			return err
		})
		if err != nil {
			fmt.Println("write:", err)
			os.Exit(2)
		}
		fmt.Println("committed", i+1)
	}
}

func TestCrashMidWriteKeepsLastCommit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crash.db")
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashEnv+"="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	seen := 0
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		line := sc.Text()
		if n, ok := strings.CutPrefix(line, "committed "); ok {
			seen, _ = strconv.Atoi(n)
			if seen >= crashMinSeen {
				break
			}
			continue
		}
		t.Logf("child: %s", line)
	}
	if seen < crashMinSeen {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("child stopped after %d commits", seen)
	}
	// Kill during the next batch's writes.
	time.Sleep(3 * time.Millisecond)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	s, err := Open(path, Options{Timeout: 2 * time.Second})
	if err != nil {
		t.Fatalf("open after crash: %v", err)
	}
	defer s.Close()
	if err := s.Check(); err != nil {
		t.Fatalf("check after crash: %v", err)
	}
	tricks, err := s.Tricks("com.crash", "")
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.Map("com.crash")
	if err != nil {
		t.Fatal(err)
	}
	commits := len(tricks) / crashBatch
	t.Logf("child reported %d commits; file holds %d tricks, %d pages, %d transitions", seen, len(tricks), len(m.Pages), len(m.Transitions))
	if len(tricks)%crashBatch != 0 {
		t.Fatalf("%d tricks is not a whole number of %d-trick transactions", len(tricks), crashBatch)
	}
	if commits < seen {
		t.Fatalf("file holds %d commits, child had reported %d", commits, seen)
	}
	if len(m.Transitions) != commits || len(m.Pages) != commits+1 {
		t.Fatalf("map has %d pages, %d transitions; want %d and %d", len(m.Pages), len(m.Transitions), commits+1, commits)
	}
	// The file is still writable after the crash.
	if _, err := s.AddTrick(Trick{App: "com.crash", Kind: KindPlanning, Text: "after the crash"}); err != nil {
		t.Fatal(err)
	}
}

func TestUpdateRollsBackOnError(t *testing.T) {
	s, _ := openTemp(t, Options{})
	boom := errors.New("boom")
	err := s.Update(func(tx *Tx) error {
		if _, err := tx.RecordPage("com.a", Page{Activity: ".Main", Signature: "s1"}); err != nil {
			return err
		}
		if _, err := tx.AddTrick(Trick{App: "com.a", Kind: KindAction, Text: "x y z"}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Update: %v", err)
	}
	m, _ := s.Map("com.a")
	tr, _ := s.Tricks("", "")
	if len(m.Pages) != 0 || len(tr) != 0 {
		t.Fatalf("rolled-back transaction left %d pages, %d tricks", len(m.Pages), len(tr))
	}
}

// TestCorruptRecordIsAnError damages one record of each kind in the file and checks that
// every reader of that kind, and Check, report the file as damaged, naming the record that
// failed to decode instead of skipping it.
func TestCorruptRecordIsAnError(t *testing.T) {
	const app = "com.a"
	seed := func(t *testing.T) string {
		s, path := openTemp(t, Options{})
		if _, err := s.PutApp(App{Package: app, Label: "A"}); err != nil {
			t.Fatal(err)
		}
		if err := s.PutRun(Run{ID: "r1"}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.AddTrick(Trick{App: app, Kind: KindAction, Text: "tap Send"}); err != nil {
			t.Fatal(err)
		}
		from, to := PageKey(".A", "s1"), PageKey(".B", "s2")
		if _, err := s.RecordTransition(app, Transition{From: from, To: to,
			Action: Action{Kind: ActionTap, Target: Element{ResourceID: "next"}}}, true); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		return path
	}
	tests := []struct {
		name   string
		bucket func(tx *bolt.Tx) *bolt.Bucket
		read   func(s *Store) error
		want   string
	}{
		{"app in ListApps", func(tx *bolt.Tx) *bolt.Bucket { return tx.Bucket(bucketApps) },
			func(s *Store) error { _, err := s.ListApps(); return err }, `app "com.a": decode`},
		{"app in Apps", func(tx *bolt.Tx) *bolt.Bucket { return tx.Bucket(bucketApps) },
			func(s *Store) error { _, err := s.Apps(); return err }, `app "com.a": decode`},
		{"run", func(tx *bolt.Tx) *bolt.Bucket { return tx.Bucket(bucketRuns) },
			func(s *Store) error { _, err := s.Runs(0); return err }, `run "r1": decode`},
		{"trick", func(tx *bolt.Tx) *bolt.Bucket { return tx.Bucket(bucketTricks).Bucket([]byte(app)) },
			func(s *Store) error { _, err := s.Tricks(app, ""); return err }, `trick "`},
		{"page", func(tx *bolt.Tx) *bolt.Bucket { return appBucket(tx, app).Bucket(bucketPages) },
			func(s *Store) error { _, err := s.Map(app); return err }, `page ".A#s1": decode`},
		{"transition", func(tx *bolt.Tx) *bolt.Bucket { return appBucket(tx, app).Bucket(bucketTrans) },
			func(s *Store) error { _, err := s.Map(app); return err }, `transition "`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := seed(t)
			db, err := bolt.Open(path, 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			err = db.Update(func(tx *bolt.Tx) error {
				b := tt.bucket(tx)
				k, _ := b.Cursor().First()
				return b.Put(k, []byte("{not json"))
			})
			if cerr := db.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				t.Fatal(err)
			}
			s, err := Open(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			err = tt.read(s)
			if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "fairy knowledge repair "+path) {
				t.Fatalf("read after corrupting a %s record: %v, want ErrDamaged with %q and the way to repair", tt.name, err, tt.want)
			}
			if err := s.Check(); !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Check after corrupting a %s record: %v, want ErrDamaged with %q", tt.name, err, tt.want)
			}
		})
	}
}

// TestOpenNotKnowledgeSaysItOnce: a file that is not a knowledge file is named so once,
// with what to do, and still is ErrNotKnowledge ("is not a fairy knowledge file (invalid
// database): knowledge: not a fairy knowledge file" said it twice and nothing to do).
func TestOpenNotKnowledgeSaysItOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hello.db")
	if err := os.WriteFile(path, []byte("hello\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Open(path, Options{})
	if !errors.Is(err, ErrNotKnowledge) {
		t.Fatalf("Open: %v, want ErrNotKnowledge", err)
	}
	msg := err.Error()
	if n := strings.Count(msg, "not a fairy knowledge file"); n != 1 {
		t.Errorf("%q says %d times that it is not a knowledge file, want once", msg, n)
	}
	if !strings.Contains(msg, "--knowledge") {
		t.Errorf("%q does not say what to do (move it away or name another with --knowledge)", msg)
	}
}
