package prompts

import (
	"fmt"
	"strings"
	"text/template"
	"time"

	"github.com/fairy-go/fairy/event"
)

// Note is a fact the executor tells the Re-Planner or the Action Decider about the step:
// why it is asked again, what went wrong, what the person just said, what was wrong with
// the decider's last actions. The executor passes the fact's data; the sentence is the
// note's template in templates/notes.tmpl ("note_" and the note's name), so every sentence
// said to a model lives in this package.
//
// The notes are the types named Note…; a note without a template fails Load.
type Note interface {
	// noteName names the note's template, "note_" + the name.
	noteName() string
}

// allNotes lists a value of every note type, so Load can check each has its template.
func allNotes() []Note {
	return []Note{
		NoteAlreadySo{}, NoteFinishAfter{}, NoteLoop{}, NoteNotDone{}, NoteNotDoneWentBack{}, NoteNotDoneForm{},
		NoteNoUsableAction{}, NoteDeciderAsks{}, NoteDeedUnshown{}, NoteHandedBack{}, NoteAnswered{},
		NoteShortcutStopped{}, NoteReopened{}, NoteWentBackKnown{}, NoteThreeFailed{}, NoteRoutineStopped{},
		NoteRoutinePaused{}, NoteRoutineUnknown{}, NoteRoutineEnded{}, NoteRoutineAbsent{}, NoteRoutineArgs{}, NoteRoutineCannotRun{}, NoteNoProgress{},
		NoteRoutineShort{}, NoteRefusedStayed{}, NoteRefusedWentBack{}, NoteOffTask{}, NoteMapDisagrees{},
		NoteNoAction{}, NoteInvalidAction{}, NoteNotTextField{}, NotePasswordField{}, NoteIndexOff{},
		NoteRejected{}, NoteSubmitEarly{}, NoteKeypadMiss{}, NoteUnread{}, NoteNavigateAlone{}, NoteNoAppMap{},
		NoteNavigateRetired{}, NoteNoPath{},
	}
}

// NoteAlreadySo says a tap was not made because the switch is already in the state the
// sub-goal asks (Why: "the switch "Wi-Fi" is on").
type NoteAlreadySo struct{ Why string }

// NoteFinishAfter says the Action Decider believed the task finished after its actions.
type NoteFinishAfter struct{}

// NoteLoop says an action came back Times times on the same page without progress; Back
// is whether the executor pressed Back (else a full new plan is asked for).
type NoteLoop struct {
	Action event.Action
	Times  int
	Back   bool
}

// NoteNotDone says the finish check found the task not done (Why), to re-plan.
type NoteNotDone struct{ Why string }

// NoteNotDoneWentBack says the finish check found the answer read off a page that does
// not show the person's choice (Why), and the agent went back a page.
type NoteNotDoneWentBack struct{ Why string }

// NoteNotDoneForm says the finish check found the answer in another form than the person
// asked (Why), to finish again in that form.
type NoteNotDoneForm struct{ Why string }

// NoteNoUsableAction says the Action Decider's answer had no usable action, with what was
// wrong with it (the notes the decider was told, NoteNoAction… NoteNoPath).
type NoteNoUsableAction struct{ Problems []Note }

// NoteDeciderAsks says the Action Decider asked for the person before going on (Why).
type NoteDeciderAsks struct{ Why string }

// NoteDeedUnshown says what the person consented to does not show on the screen after the
// action (Why): the last step's result is wrong.
type NoteDeedUnshown struct{ Why string }

// NoteHandedBack says the phone was handed to the person at Step for Need, and given back
// after Took.
type NoteHandedBack struct {
	Step int
	Need string
	Took time.Duration
}

// NoteAnswered says the person was just asked (Reason) and answered (Summary), for the
// sub-goal Subgoal.
type NoteAnswered struct{ Reason, Summary, Subgoal string }

// NoteShortcutStopped says the App Map's shortcut to page Target stopped (At: why).
type NoteShortcutStopped struct{ Target, At string }

// NoteReopened says the phone had left App after the last step and the agent opened it
// again.
type NoteReopened struct{ App string }

// NoteWentBackKnown says the last step led to a wrong page and the agent went back to the
// last right page by the App Map's known way.
type NoteWentBackKnown struct{}

// NoteThreeFailed says the last three steps failed (C or D): a full new plan.
type NoteThreeFailed struct{}

// NoteRoutineStopped says the routine Routine stopped (At): the screen was not what it
// learned.
type NoteRoutineStopped struct{ Routine, At string }

// NoteRoutinePaused says the routine Routine paused (At) for the person's answer.
type NoteRoutinePaused struct{ Routine, At string }

// NoteRoutineUnknown says the routine Routine paused on a value not known yet (Pause).
type NoteRoutineUnknown struct{ Routine, Pause string }

// NoteRoutineEnded says the routine Routine ran to its end.
type NoteRoutineEnded struct{ Routine string }

// NoteRoutineAbsent, NoteRoutineArgs and NoteRoutineCannotRun say a routine the
// Re-Planner chose cannot run and is not offered again in the task; each starts with
// MarkRoutineRefused.

// NoteRoutineAbsent says no routine named Routine is offered on this screen.
type NoteRoutineAbsent struct{ Routine string }

// NoteRoutineArgs says the answer gave Args arguments to Routine, which takes Params.
type NoteRoutineArgs struct {
	Routine      string
	Params, Args int
}

// NoteRoutineCannotRun says Routine cannot run here (Err).
type NoteRoutineCannotRun struct {
	Routine string
	Err     error
}

// NoteNoProgress says the last three steps made no progress: a full new plan.
type NoteNoProgress struct{}

// NoteRoutineShort says a routine reached the page its task was done on, but the page is
// not in the state the task needs (Missing).
type NoteRoutineShort struct{ Missing string }

// NoteRefusedStayed says the person refused the consent (Reason) and said Answer, and the
// refused action is not the sub-goal's (Subgoal): the agent stayed on the page.
type NoteRefusedStayed struct{ Reason, Answer, Subgoal string }

// NoteRefusedWentBack says the person refused the consent (Reason) and said Answer: the
// steps before were wrong, the agent went back a page to redo the sub-goal (Subgoal).
type NoteRefusedWentBack struct{ Reason, Answer, Subgoal string }

// NoteOffTask says the last action acted on another row of a list than the one the task
// names (Why: "acted on "shopping", and the task names "groceries", …"); it ends with
// MarkOffTask.
type NoteOffTask struct{ Why string }

// NoteMapDisagrees says the App Map knows the last action to open another page than the
// one on the screen.
type NoteMapDisagrees struct{}

// The notes below tell the Action Decider what was wrong with its last answer; each is one
// sentence that ends with what to do instead.

// NoteNoAction says the answer had no action.
type NoteNoAction struct{}

// NoteInvalidAction says the action (as shown: a typed secret withheld) is not valid (Err).
type NoteInvalidAction struct {
	Action event.Action
	Err    error
}

// NoteNotTextField says Action types into an element that is not a text field (Why).
type NoteNotTextField struct {
	Action event.Action
	Why    string
}

// NotePasswordField says Action types into a password field (Why): the person types it.
type NotePasswordField struct {
	Action event.Action
	Why    string
}

// NoteIndexOff says Action names an element index not on the screen (Why).
type NoteIndexOff struct {
	Action event.Action
	Why    string
}

// NoteRejected says the action Action (as the model wrote it) cannot be taken (Why).
type NoteRejected struct{ Action, Why string }

// NoteSubmitEarly says a tap submits the screen before the rest of its batch (Why).
type NoteSubmitEarly struct{ Why string }

// NoteKeypadMiss says the keys a batch taps spell a near miss of a number the task gave (Why).
type NoteKeypadMiss struct{ Why string }

// NoteUnread says a coordinate answer could not be read (Err).
type NoteUnread struct{ Err error }

// NoteNavigateAlone says the Navigate action Action came with other actions in its batch.
type NoteNavigateAlone struct{ Action event.Action }

// NoteNoAppMap says the Navigate action Action cannot run: there is no App Map.
type NoteNoAppMap struct{ Action event.Action }

// NoteNavigateRetired says the Navigate action Action stopped short Times times in the task
// and is not offered again.
type NoteNavigateRetired struct {
	Action event.Action
	Times  int
}

// NoteNoPath says the App Map knows no reliable path from the page to Action's target page.
type NoteNoPath struct{ Action event.Action }

func (NoteAlreadySo) noteName() string        { return "already_so" }
func (NoteFinishAfter) noteName() string      { return "finish_after" }
func (NoteLoop) noteName() string             { return "loop" }
func (NoteNotDone) noteName() string          { return "not_done" }
func (NoteNotDoneWentBack) noteName() string  { return "not_done_went_back" }
func (NoteNotDoneForm) noteName() string      { return "not_done_form" }
func (NoteNoUsableAction) noteName() string   { return "no_usable_action" }
func (NoteDeciderAsks) noteName() string      { return "decider_asks" }
func (NoteDeedUnshown) noteName() string      { return "deed_unshown" }
func (NoteHandedBack) noteName() string       { return "handed_back" }
func (NoteAnswered) noteName() string         { return "answered" }
func (NoteShortcutStopped) noteName() string  { return "shortcut_stopped" }
func (NoteReopened) noteName() string         { return "reopened" }
func (NoteWentBackKnown) noteName() string    { return "went_back_known" }
func (NoteThreeFailed) noteName() string      { return "three_failed" }
func (NoteRoutineStopped) noteName() string   { return "routine_stopped" }
func (NoteRoutinePaused) noteName() string    { return "routine_paused" }
func (NoteRoutineUnknown) noteName() string   { return "routine_unknown" }
func (NoteRoutineEnded) noteName() string     { return "routine_ended" }
func (NoteRoutineAbsent) noteName() string    { return "routine_absent" }
func (NoteRoutineArgs) noteName() string      { return "routine_args" }
func (NoteRoutineCannotRun) noteName() string { return "routine_cannot_run" }
func (NoteNoProgress) noteName() string       { return "no_progress" }
func (NoteRoutineShort) noteName() string     { return "routine_short" }
func (NoteRefusedStayed) noteName() string    { return "refused_stayed" }
func (NoteRefusedWentBack) noteName() string  { return "refused_went_back" }
func (NoteOffTask) noteName() string          { return "off_task" }
func (NoteMapDisagrees) noteName() string     { return "map_disagrees" }
func (NoteNoAction) noteName() string         { return "no_action" }
func (NoteInvalidAction) noteName() string    { return "invalid_action" }
func (NoteNotTextField) noteName() string     { return "not_text_field" }
func (NotePasswordField) noteName() string    { return "password_field" }
func (NoteIndexOff) noteName() string         { return "index_off" }
func (NoteRejected) noteName() string         { return "rejected" }
func (NoteSubmitEarly) noteName() string      { return "submit_early" }
func (NoteKeypadMiss) noteName() string       { return "keypad_miss" }
func (NoteUnread) noteName() string           { return "unread" }
func (NoteNavigateAlone) noteName() string    { return "navigate_alone" }
func (NoteNoAppMap) noteName() string         { return "no_app_map" }
func (NoteNavigateRetired) noteName() string  { return "navigate_retired" }
func (NoteNoPath) noteName() string           { return "no_path" }

// noteTemplate is the name of a note's template.
func noteTemplate(n Note) string { return "note_" + n.noteName() }

// checkNotes reports a note type with no template.
func checkNotes(t *template.Template) error {
	for _, n := range allNotes() {
		if t.Lookup(noteTemplate(n)) == nil {
			return fmt.Errorf("prompts: template %s missing (the sentence of %T)", noteTemplate(n), n)
		}
	}
	return nil
}

// noteText renders one note with t, on one line.
func noteText(t *template.Template, n Note) (string, error) {
	if n == nil {
		return "", fmt.Errorf("prompts: a nil note")
	}
	var b strings.Builder
	if err := t.ExecuteTemplate(&b, noteTemplate(n), n); err != nil {
		return "", fmt.Errorf("prompts: render note %T: %w", n, err)
	}
	return b.String(), nil
}

// notesText renders notes with t, one string each.
func notesText(t *template.Template, ns []Note) ([]string, error) {
	xs := make([]string, 0, len(ns))
	for _, n := range ns {
		s, err := noteText(t, n)
		if err != nil {
			return nil, err
		}
		xs = append(xs, s)
	}
	return xs, nil
}

// noteFuncs are the templates' `notes` (the notes one a line, numbered, as `lines`
// renders a list) and `sentences` (the notes on one line, a space between them), bound
// to the parsed templates.
func noteFuncs(t *template.Template) template.FuncMap {
	return template.FuncMap{
		"notes": func(ns []Note) (string, error) {
			xs, err := notesText(t, ns)
			return linesText(xs), err
		},
		"sentences": func(ns []Note) (string, error) {
			xs, err := notesText(t, ns)
			return strings.Join(xs, " "), err
		},
	}
}

// NoteText renders notes as the prompts show them, joined by a space: the text of a
// reason that also names them (a task that failed on the decider's answers).
func (s *Set) NoteText(ns ...Note) (string, error) {
	xs, err := notesText(s.tmpl, ns)
	return strings.Join(xs, " "), err
}
