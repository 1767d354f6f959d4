package main

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/knowledge/etcdstore"
	"github.com/fairy-go/fairy/knowledge/etcdstore/etcdtest"
)

// refusedPort is a local TCP port nothing listens on.
func refusedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	return port
}

// TestErrorTextsSayEachThingOnce: the errors a person meets most name each operation once,
// name the device (or say that none was named), end without a sentinel's words repeated,
// and say what to do.
func TestErrorTextsSayEachThingOnce(t *testing.T) {
	dir := t.TempDir()
	port := refusedPort(t)
	env := map[string]string{"HOME": dir, "OPENAI_BASE_URL": "http://127.0.0.1:1/v1", "FAIRY_MODEL_DEFAULT": "m"}
	kn := filepath.Join(dir, "k.db")
	down := "adb open: adb: server not reachable (127.0.0.1:" + port + ": adb transport: dial tcp 127.0.0.1:" + port +
		": connect: connection refused): start it with `adb -P " + port + " start-server` or check --adb-host/--adb-port\n"
	adbFlags := []string{"--adb-host", "127.0.0.1", "--adb-port", port, "--knowledge", kn}
	if err := os.WriteFile(filepath.Join(dir, "exists.db"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := execRoot(t, env, "", "tricks", "add", "--knowledge", kn, "--app", "com.a", "a tip"); code != 0 {
		t.Fatalf("tricks add: exit %d: %s", code, stderr)
	}
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"run without a serial", append([]string{"run", "open settings"}, adbFlags...), "fairy: open device (no serial given): " + down},
		{"run with a serial", append([]string{"run", "open settings", "-s", "emulator-5554"}, adbFlags...), "fairy: open device emulator-5554: " + down},
		{"explore", append([]string{"explore", "com.android.settings"}, adbFlags...), "fairy: open device (no serial given): " + down},
		{"trick kind", []string{"tricks", "add", "--knowledge", kn, "--app", "com.a", "--kind", "foo", "a tip"},
			"fairy: trick kind \"foo\": want planning, action or error-recovery\n"},
		{"empty trick", []string{"tricks", "add", "--knowledge", kn, "--app", "com.a", " "}, "fairy: trick: empty text\n"},
		{"unknown trick", []string{"tricks", "show", "--knowledge", kn, "t99"}, "fairy: trick t99 not found\n"},
		{"remove an unknown trick", []string{"tricks", "rm", "--knowledge", kn, "t99"}, "fairy: trick t99 not found\n"},
		{"app without a map", []string{"map", "show", "--knowledge", kn, "com.none"}, "fairy: no map learned for com.none: see 'fairy map list'\n"},
		{"repair onto an existing file", []string{"knowledge", "repair", kn, "--out", filepath.Join(dir, "exists.db")},
			"fairy: repair knowledge file " + kn + ": " + filepath.Join(dir, "exists.db") + " already exists: name a new file for the repaired copy\n"},
		{"etcd host unknown to DNS", []string{"map", "list", "--knowledge", "etcd://no-such-host.invalid:2379/prefix"},
			"fairy: open shared knowledge etcd://no-such-host.invalid:2379/prefix: no etcd endpoint answers (host no-such-host.invalid is not known to DNS): correct HOST:PORT in the etcd:// location, or start etcd there\n"},
		{"etcd not listening", []string{"knowledge", "check", "--knowledge", "etcd://127.0.0.1:" + port + "/prefix"},
			"fairy: open shared knowledge etcd://127.0.0.1:" + port + "/prefix: no etcd endpoint answers (nothing listens on 127.0.0.1:" + port + "): correct HOST:PORT in the etcd:// location, or start etcd there\n"},
		{"repair etcd", []string{"knowledge", "repair", "--knowledge", "etcd://127.0.0.1:" + port + "/prefix", "--out", filepath.Join(dir, "new.db")},
			"fairy: knowledge repair mends a knowledge file, and etcd://127.0.0.1:" + port + "/prefix is shared knowledge on etcd: 'fairy knowledge check' says whether its records agree\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := execRoot(t, env, "", tt.args...)
			if code == 0 || stderr != tt.want {
				t.Errorf("fairy %s: exit %d, stderr\n%q\nwant\n%q", strings.Join(tt.args, " "), code, stderr, tt.want)
			}
		})
	}
}

// TestKnowledgeCheckOnEtcd: `fairy knowledge check` on shared knowledge reads the records
// under the prefix: sound ones are reported as such, and a record that does not decode is
// named, with what to do.
func TestKnowledgeCheckOnEtcd(t *testing.T) {
	srv := etcdtest.Start(t)
	loc := srv.URL("checked")
	env := map[string]string{"HOME": t.TempDir()}
	if code, _, stderr := execRoot(t, env, "", "tricks", "add", "--knowledge", loc, "--app", "com.a", "open the menu first"); code != 0 {
		t.Fatalf("tricks add on etcd: exit %d: %s", code, stderr)
	}
	code, stdout, stderr := execRoot(t, env, "", "knowledge", "check", "--knowledge", loc)
	if want := loc + " is sound: 1 app, 0 pages, 0 transitions, 1 trick, 0 runs.\n"; code != 0 || stdout != want {
		t.Fatalf("knowledge check on sound etcd knowledge: exit %d, stdout %q, stderr %q; want %q", code, stdout, stderr, want)
	}

	// Damage the trick's record in etcd itself.
	cfg, err := etcdstore.ParseURL(loc)
	if err != nil {
		t.Fatal(err)
	}
	c, err := etcdstore.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	recs, rev, err := c.Load(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var trick string
	for _, r := range recs {
		if strings.Contains(r.Key, "tricks") && strings.HasSuffix(r.Key, "=t1") {
			trick = r.Key
		}
	}
	if trick == "" {
		t.Fatalf("no record of trick t1 among %d records", len(recs))
	}
	if _, ok, err := c.Commit(t.Context(), rev, []knowledge.MirrorRecord{{Key: trick, Value: []byte("{not json")}}); err != nil || !ok {
		t.Fatalf("damage %s: %v, %v", trick, ok, err)
	}
	code, stdout, stderr = execRoot(t, env, "", "knowledge", "check", "--knowledge", loc)
	if code != 2 || !strings.HasPrefix(stdout, loc+" is damaged:\n  - trick \"t1\"") ||
		!strings.Contains(stderr, "fairy: shared knowledge "+loc+" holds records that do not agree (1 problem, listed above)") ||
		!strings.HasSuffix(stderr, "copy what reads to a new location with 'fairy knowledge export FILE' and 'fairy knowledge import FILE', or delete its prefix to start afresh\n") {
		t.Errorf("knowledge check on damaged etcd knowledge: exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}
}
