package main

import (
	"context"
	"slices"
	"time"

	"github.com/fairy-go/fairy/executor/adb"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/llm"
	"github.com/spf13/cobra"
)

// Dynamic shell completion: package names from the knowledge file or the phone, device
// serials from the adb server, page ids from an app's map, key names for `act key`. A
// completion that cannot read its source offers nothing rather than failing the shell.

// completionWait bounds how long one completion may wait for the knowledge file or the adb
// server: a shell waiting on Tab must not hang.
const completionWait = 500 * time.Millisecond

// completionSeesConfig makes every completion under root resolve the config file and the
// environment first (cobra runs no pre-run hook for completions), so --knowledge, -s and
// the adb server come from the same places as when the command runs.
func (s *settings) completionSeesConfig(root *cobra.Command) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		if f := c.ValidArgsFunction; f != nil {
			c.ValidArgsFunction = func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion,
				cobra.ShellCompDirective) {
				s.resolveForCompletion(cmd)
				return f(cmd, args, toComplete)
			}
		}
	}
	walk(root)
}

// resolveForCompletion loads the config and environment, ignoring errors: a completion
// offers what it can.
func (s *settings) resolveForCompletion(cmd *cobra.Command) {
	if s.load(cmd) == nil {
		s.applyEnv(cmd, envKeys)
	}
}

// completeSerials offers the serials the adb server lists, with their state and model.
func (s *settings) completeSerials(cmd *cobra.Command, _ []string, _ string) ([]cobra.Completion,
	cobra.ShellCompDirective) {
	s.resolveForCompletion(cmd)
	ctx, cancel := context.WithTimeout(cmd.Context(), completionWait)
	defer cancel()
	cfg := adbConfig(s.device())
	cfg.DialTimeout = completionWait
	list, err := adb.Devices(ctx, cfg)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	out := make([]cobra.Completion, 0, len(list))
	for _, d := range list {
		out = append(out, cobra.CompletionWithDesc(d.Serial, d.State+" "+d.Model))
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// completeKeys offers the key names of `fairy act key`.
func completeKeys(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return adb.KeyNames(), cobra.ShellCompDirectiveNoFileComp
}

// completeRoles offers the model roles of `fairy model check --role`.
func completeRoles(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	var out []cobra.Completion
	for _, r := range llm.Roles() {
		out = append(out, string(r))
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// completeKinds offers the trick kinds.
func completeKinds(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	var out []cobra.Completion
	for _, k := range knowledge.Kinds() {
		out = append(out, string(k))
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// completeLaunchable offers the phone's launchable apps for `fairy act launch`.
func completeLaunchable(target func() deviceTarget) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		ctx, cancel := context.WithTimeout(cmd.Context(), 2*completionWait)
		defer cancel()
		cfg := adbConfig(target())
		cfg.DialTimeout = completionWait
		d, err := adb.Open(ctx, cfg)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		defer d.Close(context.WithoutCancel(ctx))
		apps, err := d.Apps(ctx)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		out := make([]cobra.Completion, 0, len(apps))
		for _, a := range apps {
			out = append(out, cobra.CompletionWithDesc(a.Package, a.Label))
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// readKnowledge opens the knowledge file read-only for a completion; nil when it cannot.
func readKnowledge(knowledgePath knowledgeRef) *knowledge.Store {
	path, err := knowledgePath.Path()
	if err != nil {
		return nil
	}
	st, err := openKnowledgeStore(path, knowledge.Options{ReadOnly: true, Timeout: completionWait}, knowledgePath.Access())
	if err != nil {
		return nil
	}
	return st
}

// knownApps lists the apps of the knowledge file as completions.
func knownApps(st *knowledge.Store) []cobra.Completion {
	apps, err := st.Apps()
	if err != nil {
		return nil
	}
	out := make([]cobra.Completion, 0, len(apps))
	for _, a := range apps {
		out = append(out, cobra.CompletionWithDesc(a.Package, a.Label))
	}
	return out
}

// completeMapApps offers the apps the knowledge file knows (map show, map export).
func completeMapApps(knowledgePath knowledgeRef) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		st := readKnowledge(knowledgePath)
		if st == nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		defer st.Close()
		return knownApps(st), cobra.ShellCompDirectiveNoFileComp
	}
}

// completeMapPath offers an app for PKG, then its page ids for FROM and TO.
func completeMapPath(knowledgePath knowledgeRef) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 2 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		st := readKnowledge(knowledgePath)
		if st == nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		defer st.Close()
		if len(args) == 0 {
			return knownApps(st), cobra.ShellCompDirectiveNoFileComp
		}
		m, err := st.Map(args[0])
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		out := make([]cobra.Completion, 0, len(m.Pages))
		for _, p := range m.Pages {
			out = append(out, cobra.CompletionWithDesc(p.ID, p.Name()))
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// completeTrickApps offers the apps with a map or tricks, and "common".
func completeTrickApps(knowledgePath knowledgeRef) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		out := []cobra.Completion{cobra.CompletionWithDesc(knowledge.Common, "tricks for every app")}
		if st := readKnowledge(knowledgePath); st != nil {
			defer st.Close()
			out = append(out, knownApps(st)...)
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// completeTrickIDs offers trick ids with their app and text (tricks show; tricks rm, which
// takes several: many).
func completeTrickIDs(knowledgePath knowledgeRef, many bool) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 && !many {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		st := readKnowledge(knowledgePath)
		if st == nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		defer st.Close()
		tricks, err := st.Tricks("", "")
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		out := make([]cobra.Completion, 0, len(tricks))
		for _, t := range tricks {
			if !slices.Contains(args, t.ID) {
				out = append(out, cobra.CompletionWithDesc(t.ID, t.App+": "+t.Text))
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}
