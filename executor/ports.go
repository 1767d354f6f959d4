package executor

import (
	"context"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/memory"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/replay"
)

// Device is the phone as the executor needs it; *adb.Device (executor/adb) satisfies it.
// Every method honours ctx.
type Device interface {
	Dump(ctx context.Context) ([]byte, error)
	Screenshot(ctx context.Context) ([]byte, error)
	Tap(ctx context.Context, x, y int) error
	LongPress(ctx context.Context, x, y int, d time.Duration) error
	Swipe(ctx context.Context, x1, y1, x2, y2 int, d time.Duration) error
	Key(ctx context.Context, key string) error
	TypeText(ctx context.Context, text string) error
	ClearText(ctx context.Context, x, y int, n int) error
	Launch(ctx context.Context, pkg string) error
	Foreground(ctx context.Context) (pkg, activity string, err error)
	Shell(ctx context.Context, cmd string) (string, error)
	Settle(ctx context.Context) error
}

// shotSettler is a Device that can take the screenshot of the idle screen while it waits
// for it (*adb.Device satisfies it): the next Screenshot returns it. A Device without it
// settles, and the screenshot follows.
type shotSettler interface {
	SettleShot(ctx context.Context) error
}

// toucher is a Device that keeps what it read of the screen while nothing it sent may
// have changed it; Touched tells it someone else's hands did (a hand-over).
type toucher interface {
	Touched()
}

// keyboardReporter is a Device that can say whether the soft keyboard is up. A classic
// `uiautomator dump` holds the active window only, never the input method's, so a screen
// perceived from it cannot show the keyboard by itself; *adb.Device satisfies it (dumpsys
// input_method). A Device without it reports the keyboard from the dump alone.
type keyboardReporter interface {
	KeyboardShown(ctx context.Context) (bool, error)
}

// localeReporter is a Device that can say the phone's language (BCP 47, "ja-JP");
// *adb.Device satisfies it (getprop). The pixel reader reads the picture with that
// language's script data too; a Device without it leaves the choice to script detection.
type localeReporter interface {
	Locale(ctx context.Context) (string, error)
}

// Model is the one model method the agent needs; *openai.Client satisfies it.
type Model interface {
	Generate(ctx context.Context, req llm.Request) (llm.Response, error)
}

// Interactor runs an interaction loop with the person; *interaction.Interactor satisfies it.
type Interactor interface {
	Resolve(ctx context.Context, need interaction.Need) (interaction.Result, error)
}

// Memory is what the executor reads from the short-term memory manager; *memory.Stacks
// satisfies it.
type Memory interface {
	Overall() string
	Task() event.AppTask
	Instructions() []memory.Instruction
	Consent(category, action string) (event.Consent, bool)
	LastFrames(n int) []memory.Frame
	KeyContext() []event.Fact
	Progress() string
}

// Trick kinds, as the knowledge store names them.
const (
	TrickPlanning = "planning"
	trickAction   = "action"
	trickRecovery = "error-recovery"
)

// Tricks supplies learned tips (App Tricks) for an app, of a kind, relevant to a query
// (instruction, sub-goal or error text). The knowledge store plugs in here; nil means none.
type Tricks interface {
	Tricks(ctx context.Context, app, kind, query string, k int) ([]string, error)
}

// Hints supplies a navigation hint from the App Map: how to get from the page with this
// signature to a page that serves the sub-goal; "" when the map knows none.
type Hints interface {
	Hint(ctx context.Context, app, signature, subgoal string) (string, error)
}

// MarkFunc draws the set-of-mark boxes of s over a screenshot and returns the encoded image
// for the model with its MIME type; (*perception.Marker).Render is one.
type MarkFunc func(shot []byte, s *perception.Screen) ([]byte, string, error)

// Predictions says where a known action leads: the signature of the page the App Map
// expects action a on element el (nil: no element), taken for sub-goal goal, to open from
// the page with signature from. ok is true only for a reliable transition to another page
// that is navigation — no side effect, no effect of text typed before it — and that is
// evidence for the sub-goal (it completed it before, or the sub-goal names its element):
// a known action taken by mistake predicts nothing. The learner's session satisfies it;
// nil means every step is re-planned.
type Predictions interface {
	Predict(ctx context.Context, app, from string, a event.Action, el *event.ElementRef, goal string) (to string, ok bool)
}

// Effects supplies what actions in an app were once seen to do that cannot be taken back
// (the App Map's deeds), for the guard to hold their elements whatever their words say
// (Guard.Learned). The learner's session satisfies it; nil means the guard judges by the
// screen alone.
type Effects interface {
	Effects(app string) []event.LearnedEffect
}

// Readings remembers what the Key Context Collector read off a page content, so a content
// read before is not sent to the model again. Read returns the facts read off it before
// (ok false: never read); anyTask lets a reading made for another instruction count.
// Remember records a reading (no facts: nothing on it mattered). The learner's session
// satisfies it; nil means every new text is read by the model.
type Readings interface {
	Read(ctx context.Context, app, instruction, signature, text string, anyTask bool) ([]event.Fact, bool)
	Remember(ctx context.Context, app, instruction, signature, text string, facts []event.Fact)
}

// Shortcuts supplies the App Map's known paths for the decider's Navigate action: the steps
// from the page with signature from to the page target (a page ID a navigation hint named);
// ok is false when the map knows no reliable path that can be replayed without the model.
// The learner's session satisfies it; nil means Navigate is not offered.
type Shortcuts interface {
	Shortcut(ctx context.Context, app, from, target string) ([]replay.Step, bool)
}

// Routines supplies learned routines: a finished app task's trajectory, named by what it
// achieves, that the Re-Planner may run by name as one high-level action. The learner's
// session satisfies it; nil means no routine is offered.
type Routines interface {
	// Offer lists the routines of app that can run from the page with this signature,
	// the ones most relevant to task first; answers are what the person said so far
	// (oldest first), labels the current screen's element labels.
	Offer(ctx context.Context, app, signature, task string, answers, labels []string) []replay.Offer
	// Steps returns routine id's steps from the page with this signature (from its step
	// at, when that step is on this page: where an earlier replay paused), with args for
	// its parameters; an error says why it cannot run here (the Re-Planner is told). A
	// blank argument (a row the person has not chosen yet) ends the steps before the step
	// that needs it, and the run's Pause says so.
	Steps(ctx context.Context, app, id, signature string, args []string, at int) (replay.Run, error)
}

// clockReader is a Device that can read the phone's own clock (*adb.Device satisfies it:
// `date`, in the zone the phone names). The planning prompts say the phone's date and
// time; a Device without it leaves them out.
type clockReader interface {
	Clock(ctx context.Context) (time.Time, error)
}
