package main

import "github.com/spf13/cobra"

// subcommands lists fairy's commands; each lives in a file of its own.
func (s *settings) subcommands() []*cobra.Command {
	return []*cobra.Command{
		newPerceiveCmd(),
		newSimCmd(),
		newMapCmd(s.knowledgeRef()),
		newTricksCmd(s.knowledgeRef()),
		newRoutinesCmd(s.knowledgeRef()),
		newKnowledgeCmd(s.knowledgeRef()),
		newDevicesCmd(s.device),
		newDeviceCmd(s.device),
		newScreenCmd(s.device),
		newActCmd(actDeps{Target: s.device, Guard: s.guard, Pixels: s.actPixels}),
		newAppsCmd(s.device),
		newRunCmd(runDeps{Config: s.runConfig, OpenDevice: s.openAgentDevice, Stdin: s.stdin, Stdout: s.stdout,
			Stderr: s.stderr, Style: styleFor(s.stdout, s.getenv), SimKnowledge: s.simKnowledgePath,
			WatchToken: func() string { return s.getenv(envWatchToken) }}),
		newDemoCmd(demoDeps{RunsDir: s.runsDir, Knowledge: s.demoKnowledgePath, Logger: s.runLogger, Stdin: s.stdin,
			Style: styleFor(s.stdout, s.getenv), Log: s.log}),
		newModelCmd(modelDeps{Config: s.modelConfig, Logger: s.runLogger, Grounding: s.grounding, Probes: s.probeStore}),
		newRunsCmd(runsDeps{RunsDir: s.runsDir, Stdout: s.stdout, Open: xdgOpen}),
		newEvalCmd(evalDeps{Config: s.runConfig, Device: s.device, Stdout: s.stdout, Style: styleFor(s.stdout, s.getenv),
			WatchToken: func() string { return s.getenv(envWatchToken) }}),
		newExploreCmd(exploreDeps{OpenDevice: s.openAgentDevice, Target: s.device, KnowledgePath: s.knowledgeRef(),
			Guard: s.exploreGuard, Logger: s.runLogger, Stdout: s.stdout, Style: styleFor(s.stdout, s.getenv)}),
		newGuardCmd(guardDeps{Rules: s.personRules, Categories: s.guardCategories, ConfigFile: s.configFile,
			Explainer: s.guardExplainer}),
		newMCPCmd(mcpDeps{Config: s.runConfig, OpenDevice: s.openAgentDevice, Target: s.device,
			KnowledgePath: s.knowledgeRef(), Stdin: s.stdin, Stdout: s.stdout, Stderr: s.stderr, Getenv: s.getenv}),
	}
}
