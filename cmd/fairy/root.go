package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/viper"
)

// Configuration keys. Every key can be set in the config file, as FAIRY_<KEY> in the
// environment (dots and dashes become underscores), and the ones with a flag on the command line.
const (
	keyConfig    = "config"
	keyRuns      = "runs"
	keyKnowledge = "knowledge"
	keySerial    = "device.serial"
	keyADBHost   = "device.adb-host"
	keyADBPort   = "device.adb-port"
	keyLogLevel  = "log-level"
)

// settings is the resolved configuration of one invocation. It owns its viper instance: there
// is no package-level configuration.
type settings struct {
	v      *viper.Viper
	getenv func(string) string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	log    *runLog // where the agent commands' log records go
	// configPath is the config file read ("" when none was): `fairy guard add|remove`
	// writes to it.
	configPath string

	// environ lists the environment as KEY=value (os.Environ in main), for the check that
	// refuses unknown FAIRY_ variables; nil skips that check.
	environ func() []string
}

// newRootCmd builds the command tree. getenv is the environment lookup (os.Getenv in main,
// a map in tests).
func newRootCmd(stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) *cobra.Command {
	return newSettings(stdin, stdout, stderr, getenv).rootCmd()
}

// newSettings returns unresolved settings; rootCmd's pre-run resolves them.
func newSettings(stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) *settings {
	return &settings{v: viper.New(), getenv: getenv, stdin: stdin, stdout: stdout, stderr: stderr, log: newRunLog(stderr)}
}

// rootCmd builds the command tree over s.
func (s *settings) rootCmd() *cobra.Command {
	stdin, stdout, stderr := s.stdin, s.stdout, s.stderr
	root := &cobra.Command{
		Use:   "fairy",
		Short: "An Android GUI agent that carries out instructions on a phone and learns from every run",
		Long: `fairy carries out a person's instruction on an Android phone the way a person would:
it reads the screen, plans across apps, taps and types, asks when it must, and learns
App Tricks and an App Map from every run.

Try it with no phone and no model: 'fairy demo' runs a simulated phone and a scripted model;
'fairy run --sim INSTRUCTION' tries one of the simulated phone's built-in tasks.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       buildVersion(),
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			if err := s.load(cmd); err != nil {
				return withExit(2, err)
			}
			s.applyEnv(cmd, envKeys)
			if err := s.checkEnvAndFlags(cmd); err != nil {
				return withExit(2, err)
			}
			return nil
		},
	}
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return withExit(2, err) })

	pf := root.PersistentFlags()
	pf.String(keyConfig, "", "config file (default: $XDG_CONFIG_HOME/fairy/config.yaml when present)")
	pf.String(keyRuns, "", "directory for run directories (default: <user data dir>/fairy/runs)")
	pf.String(keyKnowledge, "", "long-term knowledge file (default: <user data dir>/fairy/knowledge.db)")
	pf.StringP("serial", "s", "", "device serial (default: $ANDROID_SERIAL, or the only device)")
	pf.String("adb-host", "", "adb server host (default: localhost)")
	pf.Int("adb-port", 0, "adb server port (default: 5037)")
	pf.String(keyLogLevel, "warn", "log level: "+strings.Join(logLevels, ", "))
	_ = s.v.BindPFlag(keyRuns, pf.Lookup(keyRuns))
	_ = s.v.BindPFlag(keyKnowledge, pf.Lookup(keyKnowledge))
	_ = s.v.BindPFlag(keySerial, pf.Lookup("serial"))
	_ = s.v.BindPFlag(keyADBHost, pf.Lookup("adb-host"))
	_ = s.v.BindPFlag(keyADBPort, pf.Lookup("adb-port"))
	_ = s.v.BindPFlag(keyLogLevel, pf.Lookup(keyLogLevel))

	root.AddCommand(s.subcommands()...)
	classifyFailures(root)
	s.completionSeesConfig(root)
	_ = root.RegisterFlagCompletionFunc("serial", s.completeSerials)
	_ = root.RegisterFlagCompletionFunc(keyLogLevel, cobra.FixedCompletions(logLevels, cobra.ShellCompDirectiveNoFileComp))
	return root
}

// load reads the config file and the environment into s.v.
func (s *settings) load(cmd *cobra.Command) error {
	s.v.SetDefault(keyADBHost, "localhost")
	s.v.SetDefault(keyADBPort, 5037)

	path, _ := cmd.Flags().GetString(keyConfig)
	if path == "" {
		path = s.getenv("FAIRY_CONFIG")
	}
	explicit := path != ""
	if !explicit {
		if dir, err := s.configDir(); err == nil {
			path = filepath.Join(dir, "config.yaml")
		}
	}
	if path == "" {
		return nil
	}
	s.v.SetConfigFile(path)
	if err := s.v.ReadInConfig(); err != nil {
		var notFound viper.ConfigFileNotFoundError
		if !explicit && (errors.As(err, &notFound) || errors.Is(err, os.ErrNotExist)) {
			return nil
		}
		return fmt.Errorf("read config %s: %w", path, err)
	}
	s.configPath = path
	return checkConfigFile(path)
}

// envKeys are the configuration keys that FAIRY_<KEY> variables set, each with the flag that
// overrides the variable ("" for none).
var envKeys = map[string]string{
	keyRuns: keyRuns, keyKnowledge: keyKnowledge, keyLogLevel: keyLogLevel,
	keySerial: "serial", keyADBHost: "adb-host", keyADBPort: "adb-port",
}

// applyEnv gives FAIRY_<KEY> variables precedence over the config file but not over flags.
// The environment comes from s.getenv, so tests need not touch the process environment.
func (s *settings) applyEnv(cmd *cobra.Command, keys map[string]string) {
	r := strings.NewReplacer(".", "_", "-", "_")
	for key, flag := range keys {
		val := s.getenv("FAIRY_" + strings.ToUpper(r.Replace(key)))
		if val == "" {
			continue
		}
		if flag != "" {
			if f := cmd.Flags().Lookup(flag); f != nil && f.Changed {
				continue
			}
		}
		s.v.Set(key, val)
	}
}

// configDir is where fairy looks for config.yaml by default.
func (s *settings) configDir() (string, error) {
	if d := s.getenv("XDG_CONFIG_HOME"); d != "" {
		return filepath.Join(d, "fairy"), nil
	}
	if h := s.getenv("HOME"); h != "" {
		return filepath.Join(h, ".config", "fairy"), nil
	}
	return "", errors.New("no config directory: set HOME or XDG_CONFIG_HOME")
}

// dataDir is where runs and knowledge go by default.
func (s *settings) dataDir() (string, error) {
	if d := s.getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "fairy"), nil
	}
	if h := s.getenv("HOME"); h != "" {
		return filepath.Join(h, ".local", "share", "fairy"), nil
	}
	return "", errors.New("no data directory: set HOME or XDG_DATA_HOME, or pass --runs and --knowledge")
}

// runsDir is the directory for run directories.
func (s *settings) runsDir() (string, error) {
	if d := s.v.GetString(keyRuns); d != "" {
		return d, nil
	}
	d, err := s.dataDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "runs"), nil
}

// knowledgePath is the long-term knowledge file.
func (s *settings) knowledgePath() (string, error) {
	if p := s.v.GetString(keyKnowledge); p != "" {
		return p, nil
	}
	d, err := s.dataDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "knowledge.db"), nil
}

// deviceTarget says which adb server and device to use.
type deviceTarget struct {
	Host   string
	Port   int
	Serial string
}

// device resolves the device flags, config and ANDROID_SERIAL.
func (s *settings) device() deviceTarget {
	t := deviceTarget{
		Host:   s.v.GetString(keyADBHost),
		Port:   s.v.GetInt(keyADBPort),
		Serial: s.v.GetString(keySerial),
	}
	if t.Serial == "" {
		t.Serial = s.getenv("ANDROID_SERIAL")
	}
	return t
}
