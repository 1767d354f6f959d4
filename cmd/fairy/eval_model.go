package main

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/fairy-go/fairy/llm/openai"
	"github.com/spf13/cobra"
)

// Flags that let an evaluation answer with a real model. A built-in suite is meant for its
// scripted model, so a model in the environment or the config file alone never answers it:
// only a command that names one does, and so never bills by accident.
const (
	flagModel     = "model"
	flagRealModel = "real-model"
)

// addEvalModelFlags adds --model and --real-model to `fairy eval`.
func addEvalModelFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.String(flagModel, "", "answer with this model at the configured endpoint, for every role (a real model: it may bill)")
	f.Bool(flagRealModel, false, "answer a built-in suite with the configured model instead of its scripted one (a real model: it may bill)")
}

// namedModel is the model the command names with --model, if it has that flag and it is set.
func namedModel(cmd *cobra.Command) (string, bool) {
	if cmd == nil {
		return "", false
	}
	f := cmd.Flags().Lookup(flagModel)
	if f == nil || !f.Changed {
		return "", false
	}
	return f.Value.String(), true
}

// scriptedOnly reports whether cmd is an evaluation of a built-in suite that names no
// model: its scripted model answers, and the model settings are not even read.
func scriptedOnly(cmd *cobra.Command) bool {
	if cmd == nil || cmd.Flags().Lookup(flagRealModel) == nil {
		return false
	}
	if _, named := namedModel(cmd); named {
		return false
	}
	if configured, _ := cmd.Flags().GetBool(flagRealModel); configured {
		return false
	}
	return builtinSuite(cmd.Flags().Arg(0))
}

// evalModel decides which model answers an evaluation of the suite ref and returns the
// line that says so, the first line of every evaluation's output. A built-in suite answers
// with its scripted model unless the command names a model (--model NAME or --real-model),
// whatever the environment and the config file configure.
func evalModel(cmd *cobra.Command, ref string, rc runConfig) (runConfig, string, error) {
	name, named := namedModel(cmd)
	configured, _ := cmd.Flags().GetBool(flagRealModel)
	switch {
	case named && strings.TrimSpace(name) == "":
		return rc, "", errors.New("--model needs a model name, e.g. --model gpt-4o-mini")
	case named && rc.Model == nil:
		return rc, "", fmt.Errorf("--model %s: %w", name, errNoModel)
	case configured && rc.Model == nil:
		return rc, "", fmt.Errorf("--real-model: %w", errNoModel)
	}
	const scriptedLine = "model: the scripted model answers from the suite's rules (a test double, not a real model)"
	if !named && !configured && builtinSuite(ref) {
		if rc.Model != nil || rc.ModelIgnored {
			rc.Model, rc.ModelName = nil, ""
			return rc, scriptedLine + "; the configured model is not used for a built-in suite (pass --real-model or --model NAME to use one)", nil
		}
		return rc, scriptedLine, nil
	}
	if rc.Model == nil {
		return rc, scriptedLine, nil
	}
	return rc, fmt.Sprintf("model: %s (a real model: its calls may bill)", rc.ModelName), nil
}

// modelDescription names the configured model and its endpoint: "gpt-4o-mini at
// https://api.openai.com/v1", with the roles that answer with another model.
func modelDescription(c openai.Config) string {
	var b strings.Builder
	b.WriteString(c.DefaultModel)
	if c.DefaultModel == "" {
		b.WriteString("per role")
	}
	if len(c.Models) > 0 {
		parts := make([]string, 0, len(c.Models))
		for _, role := range slices.Sorted(maps.Keys(c.Models)) {
			parts = append(parts, fmt.Sprintf("%s: %s", role, c.Models[role]))
		}
		b.WriteString(" (" + strings.Join(parts, ", ") + ")")
	}
	b.WriteString(" at " + c.BaseURL)
	return b.String()
}
