package main

import (
	"errors"
	"fmt"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/executor/adb"
	"github.com/fairy-go/fairy/explore"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/llm/inject"
	"github.com/fairy-go/fairy/llm/openai"
	"github.com/fairy-go/fairy/llm/scripted"
	"github.com/fairy-go/fairy/sim"
	"github.com/spf13/cobra"
)

// Exit statuses, as README.md's table lists them.
const (
	exitFailed      = 1   // the task failed or was refused; a command could not do its work
	exitUsage       = 2   // usage or configuration error: flags, arguments, config, model key, device choice
	exitInterrupted = 130 // Ctrl-C or SIGTERM
)

// classifyFailures wraps the RunE of c and of every command below it so that a plain error
// from a command's work is a failure (exit 1), and an error whose cause is configuration
// (a refused model key, no or several devices, an unreadable knowledge file, a bad import
// document) is a usage or configuration error (exit 2), whatever status the command gave it. Errors cobra raises
// before RunE (unknown commands and flags, wrong argument counts) stay usage errors, and a
// command says exit 2 itself for a bad argument it finds.
func classifyFailures(c *cobra.Command) {
	for _, sub := range c.Commands() {
		classifyFailures(sub)
	}
	if run := c.RunE; run != nil {
		c.RunE = func(cmd *cobra.Command, args []string) error { return failureStatus(run(cmd, args)) }
	}
}

// failureStatus gives err its exit status; see classifyFailures.
func failureStatus(err error) error {
	if err == nil {
		return nil
	}
	var ee *exitError
	isExit := errors.As(err, &ee)
	if configCause(err) {
		if isExit && ee.code == exitUsage {
			return err
		}
		if isExit && ee.err != nil {
			err = ee.err
		}
		if errors.Is(err, openai.ErrAuth) {
			err = fmt.Errorf("%w: check the API key (OPENAI_API_KEY or model.api-key) and the endpoint "+
				"(OPENAI_BASE_URL or model.base-url)", err)
		}
		return withExit(exitUsage, err)
	}
	if isExit {
		return err
	}
	return withExit(exitFailed, err)
}

// configCauses are the sentinels whose cause is the configuration or the person's input
// rather than the work: a refused model key or a model configuration that cannot work, a
// device that cannot be chosen, a knowledge file that cannot be used, an import document or
// a page reference that is wrong, a --model-errors spec, a scripted model's rules file, an
// exploration's bounds, a virtual phone's app declaration or fault spec, an evaluation
// with no device or suite. Each package keeps one sentinel per cause; this list is where the
// command gives them their exit status.
var configCauses = []error{openai.ErrAuth, openai.ErrConfig, inject.ErrSpec, scripted.ErrRules, explore.ErrConfig,
	sim.ErrAppSpec, sim.ErrFaultSpec, eval.ErrConfig,
	adb.ErrServerDown, adb.ErrNoDevice, adb.ErrMultipleDevices, adb.ErrDeviceNotFound, adb.ErrOffline, adb.ErrUnauthorized,
	knowledge.ErrDamaged, knowledge.ErrNotKnowledge, knowledge.ErrSchema, knowledge.ErrInUse,
	knowledge.ErrTooLarge, knowledge.ErrFormat, knowledge.ErrInvalid, knowledge.ErrAmbiguous}

// configCause reports whether err has one of configCauses.
func configCause(err error) bool {
	for _, cause := range configCauses {
		if errors.Is(err, cause) {
			return true
		}
	}
	return false
}
