package learner

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/prompts"
)

// Model is the one model method the learner needs; *openai.Client satisfies it.
type Model interface {
	Generate(ctx context.Context, req llm.Request) (llm.Response, error)
}

// Store is what the learner uses of the knowledge file; *knowledge.Store satisfies it.
type Store interface {
	Update(fn func(*knowledge.Tx) error) error
	Search(app string, kind knowledge.Kind, query string, k int) ([]knowledge.Hit, error)
	Map(app string) (*knowledge.Map, error)
	Path(app, from, to string) ([]knowledge.Transition, error)
	GetApp(pkg string) (knowledge.App, error)
	ListApps() ([]knowledge.App, error)
	Reading(app string, keys ...string) (knowledge.Reading, bool, error)
	Routines(app string) ([]knowledge.Routine, error)
	Deeds(app string) ([]knowledge.KnownDeed, error)
}

// Defaults.
const (
	// defaultMinReliability is the least reliability ((s+1)/(s+f+2)) every transition of a
	// shortcut must have: one clean success (2/3) is enough, one failure after one success
	// (1/2) is not.
	defaultMinReliability = 0.6
	// defaultMaxTricks bounds the tricks one learning call may add.
	defaultMaxTricks = 8
	// defaultMaxTrajectory bounds the trajectory text sent to the learning model, in bytes.
	defaultMaxTrajectory = 16000
	// maxTrickText bounds one trick's text, in bytes.
	maxTrickText = 400
)

// Config holds a Learner's parts and settings.
type Config struct {
	Store Store // required: the knowledge file
	Model Model // optional: without it Learn only counts trick uses (no distillation)
	// Prompts renders the learning prompt; nil: the embedded set (prompts.Load).
	Prompts *prompts.Set
	// MinReliability is the least reliability of each shortcut transition; zero means
	// defaultMinReliability.
	MinReliability float64
	// MaxTricks bounds the tricks kept from one learning answer; zero means DefaultMaxTricks.
	MaxTricks int
	// MaxTrajectory bounds the learning prompt's text (bytes, the system prompt aside): the
	// earliest steps are left out to fit. Zero means DefaultMaxTrajectory.
	MaxTrajectory int
	Clock         func() time.Time // provenance and page times; nil: time.Now
	Logger        *slog.Logger     // nil: discard
}

// Learner is fairy's Self-Learner: it turns runs into an App Map (Session, per step, no
// model) and App Tricks (Session.Learn, one model call per finished app task), and answers
// the agent's questions from what was learned (Tricks, Hint, Shortcut, DescribeApps).
// It is safe for concurrent use.
type Learner struct {
	cfg     Config
	log     *slog.Logger
	prompts *prompts.Set
}

// Log attribute keys.
const (
	logApp  = "app"
	logErr  = "err"
	logStep = "step"
	logRun  = "run"
)

// New checks cfg and returns a Learner.
func New(cfg Config) (*Learner, error) {
	if cfg.Store == nil {
		return nil, fmt.Errorf("%w: no knowledge store", errConfig)
	}
	if cfg.MinReliability == 0 {
		cfg.MinReliability = defaultMinReliability
	}
	if cfg.MinReliability < 0 || cfg.MinReliability > 1 {
		return nil, fmt.Errorf("%w: MinReliability %.2f is outside 0..1", errConfig, cfg.MinReliability)
	}
	if cfg.MaxTricks <= 0 {
		cfg.MaxTricks = defaultMaxTricks
	}
	if cfg.MaxTrajectory <= 0 {
		cfg.MaxTrajectory = defaultMaxTrajectory
	}
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ps := cfg.Prompts
	if ps == nil && cfg.Model != nil {
		var err error
		if ps, err = prompts.Load(); err != nil {
			return nil, fmt.Errorf("%w: %w", errConfig, err)
		}
	}
	return &Learner{cfg: cfg, log: log, prompts: ps}, nil
}
