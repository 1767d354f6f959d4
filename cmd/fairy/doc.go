// Command fairy is an Android GUI agent: it carries out a person's instruction on a phone the
// way a person would, asks when it must, and learns from every run.
//
// This package is the only place that reads flags, configuration files and the environment;
// everything else receives plain values. It wires the parts together and owns nothing a
// library could: the agent is package agent, the evaluation package eval (through
// eval/agentrun), the MCP server package mcp.
//
// How it is laid out (cli/cli's shape):
//
//   - main.go runs the root command and maps its outcome to an exit status: 0 done, 1 the
//     task failed or was refused, 2 a usage or configuration error, 130 interrupted;
//   - root.go builds the command tree (newRootCmd) and resolves the configuration of one
//     invocation — flags, the config file, FAIRY_* variables — into a settings value that
//     owns its own viper instance: there is no package-level configuration and no global
//     command;
//   - commands.go lists the subcommands; each lives in a file named after it (run.go,
//     eval.go, map_view.go for `fairy map view`, config_*.go for what the config file
//     says) and is built by a new…Cmd function from a …Deps struct of plain values and
//     functions, so a test runs the command's logic through newRootCmd with no terminal,
//     phone or network;
//   - shared_*.go hold what several commands share: exit statuses, Ctrl-C, the terminal,
//     opening the knowledge file or etcd, the run log, the live page.
//
// Caveats: an unknown key in the config file or an unknown FAIRY_ variable is an error (with
// a "did you mean" when a known one is close), never ignored. Every `fairy …` line of the
// shell examples in README.md and docs/ is parsed against the real commands by
// readme_test.go: a flag renamed here without the docs fails the tests.
package main
