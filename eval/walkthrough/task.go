package walkthrough

// Task is one app task of a walkthrough: the steps of one app and the screen on which the
// app task is finished (the package comment tells how Rules reads it).
type Task struct {
	App      string `yaml:"app"`
	Task     string `yaml:"task,omitempty"` // default: the instruction
	Produces string `yaml:"produces,omitempty"`
	Steps    []Step `yaml:"steps"`
	// Done is a pattern on the screen that means the app task is finished ("" when the last
	// step's actions end with Finish).
	Done string `yaml:"done,omitempty"`
	// Unless is a pattern on the screen that keeps Done from matching.
	Unless string `yaml:"unless,omitempty"`
}

// Step is one state of a walkthrough.
type Step struct {
	Screen  string `yaml:"screen"`            // regexp on the current screen's text form
	When    string `yaml:"when,omitempty"`    // regexp on the whole prompt that must match too
	Unless  string `yaml:"unless,omitempty"`  // regexp on the whole prompt that must not match
	Without string `yaml:"without,omitempty"` // regexp the current screen must not match
	Subgoal string `yaml:"subgoal"`
	// Do are the decider's actions: Tap "LABEL", LongPress "LABEL", Clear "LABEL",
	// Input "LABEL" "TEXT", Swipe up|down|left|right, Swipe "LABEL" DIR, Back, Home, Enter,
	// Wait SECONDS, OpenApp PACKAGE, Finish ["ANSWER"], NeedInteraction "REASON". A label is
	// looked up on the screen when the model answers (exact, id, then substring); "#N"
	// is the element numbered N (read off the screen: Tap "#${n}").
	Do []string `yaml:"do"`
	// Slip are actions the decider takes instead of Do the first time it acts here: a
	// mis-tap a recovery task must notice and undo.
	Slip []string `yaml:"slip,omitempty"`
	// Expect is what the screen shows once Do ran (the decider's "expect"); by default the
	// next step's sub-goal, the finished app task after the last step, or the answer after
	// a Finish.
	Expect string `yaml:"expect,omitempty"`
	// Loop marks a step the walk comes back to from a later step as progress (a menu the
	// task returns to for its next item): its screen after a later step is no wrong page.
	Loop bool `yaml:"loop,omitempty"`
	// Ask makes the Re-Planner ask the person here first, until the answer is on the
	// instruction stack.
	Ask *Ask `yaml:"ask,omitempty"`
	// Facts are the key context the collector reads off this screen.
	Facts map[string]string `yaml:"facts,omitempty"`
	// Navigate is a regexp on the name of the page a navigation hint leads to. When the
	// decider's prompt holds an App Map hint toward such a page that Navigate can replay,
	// the decider answers Navigate (the learned shortcut) instead of Do; otherwise Do. The
	// same rules serve a run with no knowledge and one with it: only the hint differs. Give
	// the step a sub-goal that names where the task is going (the hint is looked up for it).
	Navigate string `yaml:"navigate,omitempty"`
}

// Ask is a question the Re-Planner raises (interaction type 1–4).
type Ask struct {
	Type     int      `yaml:"type"`
	Reason   string   `yaml:"reason"`
	Question string   `yaml:"question,omitempty"`
	Options  []string `yaml:"options,omitempty"`
	// As names the person's answer for ${NAME} in this and later steps.
	As string `yaml:"as,omitempty"`
}
