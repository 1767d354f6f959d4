package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/knowledge/etcdstore"
	"github.com/fairy-go/fairy/knowledge/etcdstore/etcdtest"
)

// TestEtcdAccessFromConfig: the config's knowledge-etcd: section reaches an etcd cluster
// with auth enabled; wrong or missing credentials, a missing CA file and a URL without a
// prefix are errors that say what to do, and nothing is opened.
func TestEtcdAccessFromConfig(t *testing.T) {
	srv := etcdtest.Start(t)
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{"http://" + srv.Endpoint}, DialTimeout: time.Second, Logger: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	for _, step := range []func() error{
		func() error { _, err := cli.RoleAdd(ctx, "root"); return err },
		func() error { _, err := cli.UserAdd(ctx, "root", "s3cret"); return err },
		func() error { _, err := cli.UserGrantRole(ctx, "root", "root"); return err },
		func() error { _, err := cli.AuthEnable(ctx); return err },
	} {
		if err := step(); err != nil {
			t.Fatalf("enable etcd auth: %v", err)
		}
	}
	_ = cli.Close()

	cfg := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(cfg, []byte("knowledge-etcd:\n  username: root\n  password: s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := resolve(t, nil, "--config", cfg)
	if err != nil {
		t.Fatal(err)
	}
	access := s.etcdAccess()
	loc := srv.URL("team")
	st, err := openKnowledgeStore(loc, knowledge.Options{}, access)
	if err != nil {
		t.Fatalf("open with the config's credentials: %v", err)
	}
	if _, err := st.AddTrick(knowledge.Trick{App: "com.a", Kind: knowledge.KindAction, Text: "Tap Send."}); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		name   string
		loc    string
		access etcdAccess
		want   string
	}{
		{"wrong password", loc, etcdAccess{Username: "root", Password: "nope"}, keyEtcdSection},
		{"no credentials", loc, etcdAccess{}, keyEtcdSection},
		{"missing CA file", loc, etcdAccess{CAFile: filepath.Join(t.TempDir(), "ca.pem")}, "ca-file"},
		{"no prefix", "etcd://" + srv.Endpoint, access, "names no prefix"},
	} {
		st, err := openKnowledgeStore(c.loc, knowledge.Options{}, c.access)
		if err == nil {
			_ = st.Close()
			t.Errorf("%s: opened", c.name)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want it to mention %q", c.name, err, c.want)
		}
		if c.name == "no prefix" && !errors.Is(err, etcdstore.ErrBadURL) {
			t.Errorf("%s: %v, want ErrBadURL", c.name, err)
		}
		if strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), "nope") {
			t.Errorf("%s: the error shows a password: %v", c.name, err)
		}
	}

	// The inspection commands reach the same etcd with the config's credentials too, and
	// without them fail clearly.
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"tricks", "list", "--knowledge", loc, "--config", cfg}, 0, "Tap Send."},
		{[]string{"routines", "list", "--knowledge", loc, "--config", cfg}, 0, "No routines."},
		{[]string{"map", "list", "--knowledge", loc, "--config", cfg}, 0, ""},
		{[]string{"tricks", "list", "--knowledge", loc}, -1, keyEtcdSection},
	} {
		code, stdout, stderr := execRoot(t, map[string]string{"HOME": t.TempDir()}, "", c.args...)
		switch {
		case c.code >= 0 && (code != c.code || !strings.Contains(stdout, c.want)):
			t.Errorf("fairy %v: exit %d, %q %q; want exit %d and %q", c.args, code, stdout, stderr, c.code, c.want)
		case c.code < 0 && (code == 0 || !strings.Contains(stderr, c.want)):
			t.Errorf("fairy %v without credentials: exit %d, %q; want a failure naming %s", c.args, code, stderr, c.want)
		}
	}

	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("knowledge-etcd:\n  passwrd: x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := resolve(t, nil, "--config", bad); err == nil || !strings.Contains(err.Error(), "knowledge-etcd.passwrd") {
		t.Errorf("config with knowledge-etcd.passwrd: %v, want it refused by name", err)
	}
}
