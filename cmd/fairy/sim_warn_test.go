package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairy-go/fairy/sim/adbtest"
)

// TestSimServeWarnsOfFailingTemplates: a template that fails only on a state the app
// reaches while it runs (here after on_launch) is not rendered as nothing in silence:
// `fairy sim serve` says so on stderr, escaped, with the app and the template.
func TestSimServeWarnsOfFailingTemplates(t *testing.T) {
	apps := t.TempDir()
	app := `package: com.example.late
label: Late
vars: {flag: ""}
on_launch: [{set: {flag: "1"}}]
screens:
  - id: main
    elements:
      - {type: text, id: t, text: 'flag {{if .v.flag}}{{.v.flag.x}}{{end}}'}
`
	if err := os.WriteFile(filepath.Join(apps, "late.yaml"), []byte(app), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	out, errOut := &syncBuffer{}, &syncBuffer{}
	root := newRootCmd(bytes.NewReader(nil), out, errOut, envMap(nil))
	root.SetArgs([]string{"sim", "serve", "--host", "", "--adbd", "127.0.0.1:0", "--apps", apps})
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("sim serve: %v", err)
		}
	})
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(out.String(), "Serving until interrupted") {
		if time.Now().After(deadline) {
			t.Fatalf("sim serve did not start; output:\n%s\n%s", out, errOut)
		}
		time.Sleep(10 * time.Millisecond)
	}
	m := regexp.MustCompile(`adb connect (\S+)`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no device face address in output:\n%s", out)
	}
	srv := adbtest.Start(t)
	serial := srv.Connect(t, m[1])
	for _, args := range [][]string{{"act", "launch", "com.example.late"}, {"screen"}} {
		var stdout, stderr bytes.Buffer
		fairy := newRootCmd(strings.NewReader(""), &stdout, &stderr, envMap(nil))
		fairy.SetArgs(append([]string{"--adb-port", strconv.Itoa(srv.Port), "--serial", serial}, args...))
		if err := fairy.ExecuteContext(t.Context()); err != nil {
			t.Fatalf("fairy %v: %v\n%s", args, err, stderr.String())
		}
		t.Logf("fairy %v:\n%s", args, stdout.String())
	}
	for !strings.Contains(errOut.String(), "template failed") {
		if time.Now().After(deadline.Add(5 * time.Second)) {
			t.Fatalf("sim serve says nothing of the failing template; stderr:\n%s", errOut)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if w := errOut.String(); !strings.Contains(w, "com.example.late") || !strings.Contains(w, "{{.v.flag.x}}") {
		t.Errorf("the warning does not name the app and the template:\n%s", w)
	}
}
