package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/fairy-go/fairy/internal/table"
)

func main() {
	os.Exit(run())
}

// run executes the command line and maps its outcome to an exit status.
func run() int {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	ctx, stop := watchInterrupts(sigs, os.Stderr, func() { os.Exit(exitInterrupted) })
	defer stop()

	s := newSettings(os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	s.environ = os.Environ
	root := s.rootCmd()
	return exitStatus(ctx, root.ExecuteContext(ctx), os.Stderr)
}

// exitStatus maps a command's error to fairy's exit status and tells the person why on stderr: 0
// success, 1 task failed or refused, 2 usage or configuration error, 130 interrupted (README.md's
// table; shared_exit.go says which error is which). An interrupted command is 130 whatever its
// error says: a run stopped by Ctrl-C may fail on the way out (a device call or a model request cut
// short) with an error that would otherwise read as a failure or a usage error.
func exitStatus(ctx context.Context, err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "fairy: interrupted:", table.EscapeLines(err.Error()))
		return exitInterrupted
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintln(stderr, "fairy:", table.EscapeLines(ee.err.Error()))
		}
		return ee.code
	}
	// Errors cobra raises before a command runs (unknown commands and flags, wrong argument
	// counts) are usage errors; a command's own errors carry their status (classifyFailures).
	fmt.Fprintln(stderr, "fairy:", table.EscapeLines(err.Error())) // errors quote names from phones and files
	return exitUsage
}

// exitError carries a specific exit status out of a command.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// withExit wraps err so that fairy exits with code.
func withExit(code int, err error) error { return &exitError{code: code, err: err} }
