// Package testenv says, in one place, what a test needs of the machine and what happens
// without it (after golang/go's internal/testenv). fairy's tests come in two tiers: the
// fast tier (go test -short ./...) needs Go alone; the full tier (scripts/test.sh, no
// -short) also starts outside programs — adb, etcd, Chromium, node, Tesseract, graphviz,
// gm, git, mount, go build — and reads installed fonts and data.
//
// A test says what it needs before it starts:
//
//	testenv.MustHaveFullTier(t, "starts the real adb") // skipped under -short
//	bin := testenv.MustHaveProgram(t, "adb")          // on PATH, or the test ends
//
// Without what it needs, a test is skipped on a developer's machine and fails when the
// environment variable CI is set: there scripts/test.sh has installed everything, so a
// missing program is a broken machine, not a reason to pass quietly.
package testenv
