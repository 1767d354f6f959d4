package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/fairy-go/fairy/agent"
	"github.com/fairy-go/fairy/executor"
	"github.com/fairy-go/fairy/executor/adb"
	"github.com/fairy-go/fairy/guard"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/llm/openai"
	"github.com/spf13/cobra"
)

// Model and agent configuration keys (config file, FAIRY_<KEY> in the environment).
//
//	model:
//	  base-url: https://api.openai.com/v1   # or $OPENAI_BASE_URL; Ollama: http://localhost:11434/v1
//	  api-key: sk-…                          # or $OPENAI_API_KEY
//	  default: gpt-4o-mini                   # model for roles without their own
//	  roles: {planner: gpt-4o, decider: gpt-4o-mini}
//	  backup: gpt-4o-mini                    # takes over after repeated failures
//	  mode: json_schema                      # or json_object, text
//	  timeout: 120s
//	  max-response-bytes: 8MiB               # a longer answer fails the call (bytes, or KiB/MiB/GiB)
//	  prices: {gpt-4o: {prompt_per_m: 2.5, completion_per_m: 10}}
//	  grounding: som                         # or uitars, autoglm, qwen-vl, guiowl, auto
//	agent:
//	  max-steps: 30
//	  max-wall: 10m
//	  max-tokens: 0
//	  max-cost: 0
//	  text-only: false
//	  shell: [getprop, "settings get"]       # the technician's allow-list
const (
	keyModelBaseURL = "model.base-url"
	keyModelAPIKey  = "model.api-key"
	keyModelDefault = "model.default"
	keyModelRoles   = "model.roles"
	keyModelBackup  = "model.backup"
	keyModelMode    = "model.mode"
	keyModelTimeout = "model.timeout"
	keyModelPrices  = "model.prices"
	keyModelMaxResp = "model.max-response-bytes"
	keyModelStrict  = "model.strict"
	// keyModelGrounding is how the decider's model names what to tap: som (set-of-mark
	// numbers), or a coordinate family (see groundingChoices).
	keyModelGrounding = "model.grounding"

	keyAgentMaxSteps  = "agent.max-steps"
	keyAgentMaxWall   = "agent.max-wall"
	keyAgentMaxTokens = "agent.max-tokens"
	keyAgentMaxCost   = "agent.max-cost"
	keyAgentTextOnly  = "agent.text-only"
	keyAgentShell     = "agent.shell"
	// keyAgentHandOverLogins is the person's "always hand over logins": a sign-in page is
	// handed to them too, not only a password, a one-time code or a biometric prompt.
	keyAgentHandOverLogins = "agent.hand-over-logins"

	keyGuard = "guard" // guard.Extension: keywords per category, confirm, rules
)

// openAIBaseURL is the endpoint used when only an API key is given.
const openAIBaseURL = "https://api.openai.com/v1"

// defaultModelName is the model used with OpenAI's endpoint when none is configured.
const defaultModelName = "gpt-4o-mini"

// modelEnvKeys are the model and agent keys FAIRY_<KEY> variables set (none has a flag).
var modelEnvKeys = map[string]string{
	keyModelBaseURL: "", keyModelAPIKey: "", keyModelDefault: "", keyModelBackup: "", keyModelMode: "",
	keyModelTimeout: "", keyModelMaxResp: "", keyAgentMaxSteps: "", keyAgentMaxWall: "", keyAgentMaxTokens: "",
	keyAgentMaxCost: "", keyAgentTextOnly: "", keyModelGrounding: "",
}

// errNoModel says no model endpoint is configured.
var errNoModel = errors.New("no model configured: set OPENAI_API_KEY (and OPENAI_BASE_URL for another endpoint), " +
	"or model.base-url and model.default in the config file; try 'fairy demo' to see fairy work with a simulated phone " +
	"and a scripted model")

// openAIConfig resolves the model settings; ok is false when no endpoint is configured
// (neither a base URL nor an API key anywhere).
func (s *settings) openAIConfig(cmd *cobra.Command) (cfg openai.Config, ok bool, err error) {
	s.applyEnv(cmd, modelEnvKeys)
	v := s.v
	cfg.APIKey = v.GetString(keyModelAPIKey)
	if cfg.APIKey == "" {
		cfg.APIKey = s.getenv("OPENAI_API_KEY")
	}
	cfg.BaseURL = v.GetString(keyModelBaseURL)
	if cfg.BaseURL == "" {
		cfg.BaseURL = s.getenv("OPENAI_BASE_URL")
	}
	if scriptedOnly(cmd) {
		// The scripted model answers: the model settings are not used, so a half-made model
		// configuration (a base URL without a model name) cannot stop the command either.
		return openai.Config{}, false, nil
	}
	if cfg.BaseURL == "" && cfg.APIKey == "" {
		if name, named := namedModel(cmd); named {
			return openai.Config{}, false, fmt.Errorf("--model %s: no model endpoint configured: "+
				"set OPENAI_BASE_URL (and OPENAI_API_KEY), or model.base-url in the config file", name)
		}
		return openai.Config{}, false, nil
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = openAIBaseURL
	}
	cfg.DefaultModel = v.GetString(keyModelDefault)
	if name, named := namedModel(cmd); named {
		// --model NAME answers every role: the command named it, so no role keeps another.
		cfg.DefaultModel = name
	} else if roles := v.GetStringMapString(keyModelRoles); len(roles) > 0 {
		cfg.Models = map[llm.Role]string{}
		for role, m := range roles {
			cfg.Models[llm.Role(strings.ToLower(role))] = m
		}
	}
	if cfg.DefaultModel == "" && len(cfg.Models) == 0 {
		if strings.TrimRight(cfg.BaseURL, "/") != openAIBaseURL {
			return openai.Config{}, false, fmt.Errorf("model endpoint %s has no model name: "+
				"set model.default (FAIRY_MODEL_DEFAULT) or model.roles.<role>", cfg.BaseURL)
		}
		cfg.DefaultModel = defaultModelName
	}
	cfg.BackupModel = v.GetString(keyModelBackup)
	cfg.Mode = openai.Mode(v.GetString(keyModelMode))
	cfg.ModeSetting = keyModelMode
	if v.IsSet(keyModelStrict) {
		cfg.NotStrict = !v.GetBool(keyModelStrict)
	}
	if t := v.GetString(keyModelTimeout); t != "" {
		if cfg.Timeout, err = time.ParseDuration(t); err != nil {
			return openai.Config{}, false, fmt.Errorf("%s: %w", keyModelTimeout, err)
		}
	}
	if b := v.GetString(keyModelMaxResp); b != "" {
		if cfg.MaxResponseBytes, err = parseByteSize(b); err != nil {
			return openai.Config{}, false, fmt.Errorf("%s: %w", keyModelMaxResp, err)
		}
	}
	cfg.MaxResponseSetting = keyModelMaxResp
	if v.IsSet(keyModelPrices) {
		var prices map[string]llm.Price
		if err := v.UnmarshalKey(keyModelPrices, &prices); err != nil {
			return openai.Config{}, false, fmt.Errorf("%s: %w", keyModelPrices, err)
		}
		cfg.Prices = llm.PriceTable(prices)
	}
	cfg.Logger = s.runLogger()
	return cfg, true, nil
}

// parseByteSize reads a positive byte count: "8388608", "512KiB", "8MiB", "1GiB".
func parseByteSize(s string) (int64, error) {
	num, unit := strings.TrimSpace(s), int64(1)
	for _, u := range []struct {
		suffix string
		size   int64
	}{{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}} {
		if strings.HasSuffix(strings.ToLower(num), u.suffix) {
			num, unit = strings.TrimSpace(num[:len(num)-len(u.suffix)]), u.size
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 || n > math.MaxInt64/unit {
		return 0, fmt.Errorf("%q is not a size: give bytes (8388608) or KiB, MiB, GiB (8MiB)", s)
	}
	return n * unit, nil
}

// modelConfig is openAIConfig for commands that need a model (fairy model check).
func (s *settings) modelConfig(cmd *cobra.Command) (openai.Config, error) {
	cfg, ok, err := s.openAIConfig(cmd)
	if err != nil {
		return openai.Config{}, err
	}
	if !ok {
		return openai.Config{}, errNoModel
	}
	return cfg, nil
}

// runConfig resolves what `fairy run` and `fairy eval` need; Model stays nil when no model
// is configured (run then says how to configure one; eval uses the suite's scripted model).
func (s *settings) runConfig(cmd *cobra.Command) (runConfig, error) {
	var rc runConfig
	var err error
	if rc.RunsDir, err = s.runsDir(); err != nil {
		return rc, err
	}
	if p, err := s.knowledgePath(); err == nil {
		rc.Knowledge = p // without a data directory (no HOME) the run goes without knowledge
		rc.KnowledgeDefault = s.v.GetString(keyKnowledge) == ""
	}
	rc.Agent.Logger = s.runLogger()
	rc.Log = s.log
	rc.Etcd = s.etcdAccess()
	mc, ok, err := s.openAIConfig(cmd)
	if err != nil {
		return rc, err
	}
	rc.ModelIgnored = scriptedOnly(cmd) && (s.v.GetString(keyModelBaseURL) != "" || s.v.GetString(keyModelAPIKey) != "" ||
		s.getenv("OPENAI_BASE_URL") != "" || s.getenv("OPENAI_API_KEY") != "")
	if ok {
		c, err := openai.New(mc)
		if err != nil {
			return rc, err
		}
		rc.Model = c
		rc.ModelName = modelDescription(mc)
		if rc.Grounding.Family, err = s.grounding(cmd); err != nil {
			return rc, err
		}
		rc.Grounding.Model, rc.Grounding.Endpoint = c.ModelFor(llm.RoleDecider), mc.BaseURL
		rc.Grounding.Store, _ = s.probeStore() // without a config directory each run probes again
		if mc.APIKey != "" {
			rc.Agent.Secrets = append(rc.Agent.Secrets, mc.APIKey)
		}
	}
	v := s.v
	l := &rc.Agent.Limits
	l.MaxSteps = v.GetInt(keyAgentMaxSteps)
	l.MaxTokens = v.GetInt(keyAgentMaxTokens)
	l.MaxCost = v.GetFloat64(keyAgentMaxCost)
	if w := v.GetString(keyAgentMaxWall); w != "" {
		if l.MaxWall, err = time.ParseDuration(w); err != nil {
			return rc, fmt.Errorf("%s: %w", keyAgentMaxWall, err)
		}
	}
	rc.Agent.TextOnly = v.GetBool(keyAgentTextOnly)
	rc.Agent.Shell = v.GetStringSlice(keyAgentShell)
	rc.Agent.HandOverLogins = v.GetBool(keyAgentHandOverLogins)
	if rc.Agent.Guard, err = s.guard(); err != nil {
		return rc, err
	}
	langs := v.GetStringSlice(keyPixelsLanguages)
	if err := checkPixelLanguages(langs); err != nil {
		return rc, err
	}
	if r := pixelReader(cmd.Context(), cmd.ErrOrStderr(), langs); r != nil {
		rc.Agent.Pixels = r
	}
	return rc, nil
}

// guard is the default guard policy extended by the config's guard section; nil when the
// config has none (the executor then uses the default policy).
func (s *settings) guard() (*guard.Guard, error) {
	if !s.v.IsSet(keyGuard) {
		return nil, nil
	}
	var x guard.Extension
	if err := s.v.UnmarshalKey(keyGuard, &x); err != nil {
		return nil, fmt.Errorf("config %s: %w (see docs/guard.md: guard.keywords, guard.confirm, guard.rules)", keyGuard, err)
	}
	p, err := guard.DefaultPolicy().Extend(x)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", keyGuard, err)
	}
	g, err := guard.New(p)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", keyGuard, err)
	}
	return g, nil
}

// openAgentDevice opens the configured phone for the agent.
func (s *settings) openAgentDevice(ctx context.Context) (*adb.Device, error) {
	t := s.device()
	return agent.OpenDevice(ctx, agent.DeviceConfig{Host: t.Host, Port: t.Port, Serial: t.Serial,
		Shell: s.v.GetStringSlice(keyAgentShell), Logger: s.runLogger()})
}

// runLogger is the logger of the agent commands: text at the configured level, on stderr
// or, for a run's transcript, in the run directory (runLog).
func (s *settings) runLogger() *slog.Logger {
	var level slog.Level
	if err := level.UnmarshalText([]byte(s.v.GetString(keyLogLevel))); err != nil {
		level = slog.LevelWarn
	}
	return s.log.logger(level)
}

// Compile-time check: the OpenAI client is a model for the agent.
var _ executor.Model = (*openai.Client)(nil)

// grounding is model.grounding, checked: som when unset.
func (s *settings) grounding(cmd *cobra.Command) (string, error) {
	s.applyEnv(cmd, modelEnvKeys)
	return checkGrounding(s.v.GetString(keyModelGrounding))
}

// probeStore is where probes are remembered: probes.json in the config directory.
func (s *settings) probeStore() (probeStore, error) {
	dir, err := s.configDir()
	if err != nil {
		return probeStore{}, err
	}
	return probeStore{path: filepath.Join(dir, probesFile)}, nil
}
