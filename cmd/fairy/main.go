// Command fairy is an Android GUI agent: it carries out a person's instruction on a phone the
// way a person would, asks when it must, and learns from every run.
//
// This package is the only place that reads flags, configuration files and the environment;
// everything else receives plain values.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	os.Exit(run())
}

// run executes the command line and maps its outcome to an exit status:
// 0 success, 1 task failed or refused, 2 usage or configuration error, 130 interrupted.
func run() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	root := newRootCmd(os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintln(os.Stderr, "fairy:", ee.err)
		}
		return ee.code
	}
	if ctx.Err() != nil {
		fmt.Fprintln(os.Stderr, "fairy: interrupted:", err)
		return 130
	}
	fmt.Fprintln(os.Stderr, "fairy:", err)
	return 2
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
