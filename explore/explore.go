package explore

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/fairy-go/fairy/guard"
	"github.com/fairy-go/fairy/learner"
)

// Device is the phone as the crawler needs it; *adb.Device (executor/adb) satisfies it,
// as does every executor.Device.
type Device interface {
	Dump(ctx context.Context) ([]byte, error)
	Screenshot(ctx context.Context) ([]byte, error)
	Tap(ctx context.Context, x, y int) error
	Swipe(ctx context.Context, x1, y1, x2, y2 int, d time.Duration) error
	Key(ctx context.Context, key string) error
	Launch(ctx context.Context, pkg string) error
	Foreground(ctx context.Context) (pkg, activity string, err error)
	Settle(ctx context.Context) error
}

// Defaults.
const (
	DefaultBudget = 200 // actions
	DefaultDepth  = 6   // taps from the first page
	// maxScrolls bounds the scrolls down one page's list to find more rows, or to find a
	// row of a replayed path.
	maxScrolls = 4
	// maxBacks bounds the Back presses that look for a page on the way back.
	maxBacks = 8
)

// Config is what an exploration needs.
type Config struct {
	Device Device        // required
	Store  learner.Store // required: the knowledge file (*knowledge.Store)
	App    string        // required: the package to explore
	// Guard judges what is sensitive; nil: the default policy (guard.DefaultPolicy).
	Guard *guard.Guard
	// Budget bounds the actions (taps, Back presses, scrolls, launches); 0: DefaultBudget.
	Budget int
	// Depth bounds how many taps from the first page a page may be; 0: DefaultDepth.
	Depth int
	// Time bounds the wall time; 0: none (the budget bounds it).
	Time time.Duration
	// DryRun perceives the first page and reports what would be tapped, without a tap
	// and without writing to the map.
	DryRun bool
	// Pictures takes a screenshot of every new page, filed as its picture in the map.
	Pictures bool
	// Progress is called after every action (nil: none). It must return quickly.
	Progress func(Progress)
	Clock    func() time.Time // nil: time.Now
	Logger   *slog.Logger     // nil: discard
}

// Progress is the state of an exploration under way.
type Progress struct {
	Pages       int    // distinct pages mapped
	Transitions int    // distinct transitions mapped (as `fairy map list` counts them)
	Actions     int    // actions taken
	Left        int    // actions left in the budget
	Page        string // the page on screen (its description)
	PageID      string // its ID in the map (p5)
	Found       string // the page this step found, when it is new to the exploration
	Doing       string // what the last action was
}

// Summary is what an exploration did.
type Summary struct {
	App      string
	Pages    int // distinct pages mapped (a dry run: seen)
	NewPages int // of them, pages the map did not know before
	// Transitions counts the distinct transitions written into the map, as `fairy map
	// list` counts them: taps, Back presses and scrolls, each a success or a failure.
	Transitions int
	Actions     int
	Elapsed     time.Duration
	// Stopped says why it ended: "done" (nothing left to visit), "budget", "time",
	// "interrupted", or the error that stopped it.
	Stopped string
	// Skipped counts the elements left alone, by reason (Skip* constants).
	Skipped map[string]int
	// Taps are the taps made (or, for a dry run, that would be made), in order.
	Taps []Tap
	// Left are the elements a dry run leaves alone, with why.
	Left []Tap
	// Unreached counts pages found but not visited again to explore them (depth,
	// budget, or a path that no longer replays).
	Unreached int
}

// Tap is one element tapped (or judged) on a page.
type Tap struct {
	Page    string // the page's description
	Element string // its label, or resource id
	Role    string
	Reason  string // why it is left alone ("" for a tap)
}

// Run explores cfg.App and returns what it did. It stops when nothing is left to visit, on
// the budget, the time bound, or ctx's end; what it learned stays in the map in every case
// (the error is only for a crawl that could not start, or a device that failed).
func Run(ctx context.Context, cfg Config) (Summary, error) {
	if cfg.Device == nil || cfg.Store == nil {
		return Summary{}, fmt.Errorf("%w: a device and a knowledge store are required", ErrConfig)
	}
	if cfg.App == "" {
		return Summary{}, fmt.Errorf("%w: no app package to explore", ErrConfig)
	}
	if cfg.Budget < 0 || cfg.Depth < 0 || cfg.Time < 0 {
		return Summary{}, fmt.Errorf("%w: budget, depth and time must not be negative", ErrConfig)
	}
	if cfg.Budget == 0 {
		cfg.Budget = DefaultBudget
	}
	if cfg.Depth == 0 {
		cfg.Depth = DefaultDepth
	}
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Guard == nil {
		g, err := guard.New(guard.DefaultPolicy())
		if err != nil {
			return Summary{}, fmt.Errorf("explore: guard: %w", err)
		}
		cfg.Guard = g
	}
	l, err := learner.New(learner.Config{Store: cfg.Store, Clock: cfg.Clock, Logger: cfg.Logger})
	if err != nil {
		return Summary{}, fmt.Errorf("explore: %w", err)
	}
	c := newCrawler(cfg, l)
	return c.run(ctx)
}
