package prompts

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fairy-go/fairy/event"
)

// fixedNote is a note of the golden tests whose sentence is its own text: the golden
// prompts show where notes sit in a prompt, whatever note it is (notes_test checks each
// note's sentence).
type fixedNote string

func (fixedNote) noteName() string { return "fixed_test" }

// withFixedNote gives s the template of fixedNote.
func withFixedNote(t *testing.T, s *Set) {
	t.Helper()
	if _, err := s.tmpl.New(noteTemplate(fixedNote(""))).Parse("{{.}}"); err != nil {
		t.Fatal(err)
	}
}

// TestNoteSentences renders every note type and compares it with the sentence the executor
// built with fmt.Sprintf before the notes moved here (the format strings below are the
// executor's, verbatim): the notes are the same bytes to the model. Values hold what a
// %q and a %s treat differently (quotes, a no-break space, a line break).
func TestNoteSentences(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	const (
		why  = `the switch "Wi‑Fi" is on`
		odd  = "Tom\u00a0\"T\" Lee\nsecond line" // %q escapes the no-break space and the break
		sub  = "Send the receipt to Tom"
		stop = `step 3 of 4 (Tap(2)): index 2 is not on the screen`
	)
	tap := event.Action{Type: event.Tap, Index: 4}
	in := event.Action{Type: event.Input, Index: 2, Text: "hi \"you\""}
	nav := event.Action{Type: event.Navigate, Target: odd}
	bad := fmt.Errorf("bad action: %w", errors.New(odd))
	tests := []struct {
		note Note
		want string
	}{
		{NoteAlreadySo{Why: why}, fmt.Sprintf("%s already: check whether the task is done.", why)},
		{NoteFinishAfter{},
			"The Action Decider believes the task is finished after these actions; check the screen and answer Finished if so."},
		{NoteLoop{Action: in, Times: 3, Back: true},
			fmt.Sprintf("%s on this page came back %d times without progress: it does not work here; try another way.", in, 3) + " The executor pressed Back."},
		{NoteLoop{Action: tap, Times: 3},
			fmt.Sprintf("%s on this page came back %d times without progress: it does not work here; try another way.", tap, 3) + " Make a full new plan."},
		{NoteNotDone{Why: why}, "The finish check says the task is NOT done yet: " + why + ". Re-plan what is missing."},
		{NoteNotDoneWentBack{Why: why},
			"The finish check says the task is NOT done yet: " + why + ". The agent went back a page: open what the person chose."},
		{NoteNotDoneForm{Why: why},
			"The finish check says the task is NOT done yet: " + why + ". Finish again with the answer in that form."},
		{NoteNoUsableAction{Problems: []Note{NoteNoAction{}, NoteRejected{Action: tap.String(), Why: odd}}},
			"The Action Decider gave no usable action: " + strings.Join([]string{"The answer had no action. Give at least one action.", fmt.Sprintf("%s: %s.", tap, odd)}, " ")},
		{NoteNoUsableAction{}, "The Action Decider gave no usable action: "},
		{NoteDeciderAsks{Why: why},
			"The Action Decider says the person must be asked before going on: " + why + ". Decide the interaction type and ask."},
		{NoteDeedUnshown{Why: why},
			"What the person consented to does not show on the screen after the action: " + why + ". The last step's result is wrong (C), whatever it looks like: make the screen show what was consented to."},
		{NoteHandedBack{Step: 7, Need: "a password", Took: 12600 * time.Millisecond},
			fmt.Sprintf("At step %d the phone was handed to the person for %s; they gave it back after %.0f s. Read the screen as it is now and go on with the task: what they entered is theirs, never type it or ask for it.", 7, "a password", (12600 * time.Millisecond).Seconds())},
		{NoteAnswered{Reason: why, Summary: odd, Subgoal: sub},
			fmt.Sprintf("The person was just asked (%s) and answered; the summary is on the instruction stack: %q. Keep working on the sub-goal this was for (%s): do not skip it.", why, odd, sub)},
		{NoteShortcutStopped{Target: odd, At: stop},
			fmt.Sprintf("The shortcut to page %q stopped at %s. Go on step by step from the current screen.", odd, stop)},
		{NoteReopened{App: "com.fairy.shop"},
			fmt.Sprintf("The phone had left %s after the last step (a wrong page); the agent opened the app again. Go on with the sub-goal from the screen it shows.", "com.fairy.shop")},
		{NoteWentBackKnown{},
			"The last step led to a wrong page; the agent went back to the last page that was right by the App Map's known way. Go on with the sub-goal from there."},
		{NoteThreeFailed{},
			"The last three steps failed (results C or D). The current plan does not work: make a full new plan from the current screen."},
		{NoteRoutineStopped{Routine: odd, At: stop},
			fmt.Sprintf("The routine %q stopped at %s: the screen was not what it learned. Go on step by step from the current screen.", odd, stop)},
		{NoteRoutinePaused{Routine: odd, At: stop},
			fmt.Sprintf("The routine %q paused at %s; once the person has answered, it can go on from the current screen.", odd, stop)},
		{NoteRoutineUnknown{Routine: odd, Pause: why},
			fmt.Sprintf("The routine %q paused: %s, which is not known yet. Ask the person; then it can go on from the current screen.", odd, why)},
		{NoteRoutineEnded{Routine: odd},
			fmt.Sprintf("The routine %q ran to its end: judge whether the app task is done.", odd)},
		{NoteRoutineAbsent{Routine: odd},
			MarkRoutineRefused + fmt.Sprintf("There is no routine %q on this screen", odd) + ". It is not offered again in this task: go on step by step from the current screen."},
		{NoteRoutineArgs{Routine: odd, Params: 2, Args: 1},
			MarkRoutineRefused + fmt.Sprintf("Routine %q takes %d argument(s), one per parameter; the answer gave %d", odd, 2, 1) + ". It is not offered again in this task: go on step by step from the current screen."},
		{NoteRoutineCannotRun{Routine: odd, Err: bad},
			MarkRoutineRefused + fmt.Sprintf("Routine %q cannot run here (%v)", odd, bad) + ". It is not offered again in this task: go on step by step from the current screen."},
		{NoteNoProgress{},
			"The last three steps made no progress. The current plan does not work: make a full new plan from the current screen."},
		{NoteRoutineShort{Missing: why},
			"The routine reached the page its task was done on, but the page is not in the state the task needs: " + why + ". Judge what is left to do."},
		{NoteRefusedStayed{Reason: why, Answer: odd, Subgoal: sub},
			fmt.Sprintf("The person refused the consent (%s) and said: %q. That action is not what the sub-goal (%s) does: the agent stayed on this page. Do the sub-goal's own action.", why, odd, sub)},
		{NoteRefusedWentBack{Reason: why, Answer: odd, Subgoal: sub},
			fmt.Sprintf("The person refused the consent (%s) and said: %q. What the steps before did was a wrong result (C), whatever was judged then: the agent went back one page. Redo the sub-goal that chose it (%s) the way the person said.", why, odd, sub)},
		{NoteOffTask{Why: `acted on "shopping", and the task names "groceries", a row of the same list`},
			"The last action " + `acted on "shopping", and the task names "groceries", a row of the same list` + MarkOffTask},
		// The Action Decider's notes: what was wrong with its last answer.
		{NoteNoAction{}, "The answer had no action. Give at least one action."},
		{NoteInvalidAction{Action: in, Err: bad}, fmt.Sprintf("%s is not valid: %v.", in, bad)},
		{NoteNotTextField{Action: in, Why: why}, fmt.Sprintf("%s: %s; type only into input fields.", in, why)},
		{NotePasswordField{Action: in, Why: why},
			fmt.Sprintf("%s: %s; hand the phone over (interaction 5) instead.", in, why)},
		{NoteIndexOff{Action: tap, Why: why}, fmt.Sprintf("%s: %s; use an index from the screen.", tap, why)},
		{NoteRejected{Action: `click(start_box='(120,450)')`, Why: odd},
			fmt.Sprintf("%s: %s.", `click(start_box='(120,450)')`, odd)},
		{NoteSubmitEarly{Why: why}, why + "; put the submitting tap last."},
		{NoteKeypadMiss{Why: why}, why + "; tap the keys of the value the task gave."},
		{NoteUnread{Err: bad}, bad.Error() + "."},
		{NoteNavigateAlone{Action: nav}, fmt.Sprintf("%s must be the only action of its batch.", nav)},
		{NoteNoAppMap{Action: nav}, fmt.Sprintf("%s is not available: there is no App Map; use atomic actions.", nav)},
		{NoteNavigateRetired{Action: nav, Times: 2},
			fmt.Sprintf("%s stopped short %d times in this task; it is not offered again: use atomic actions.", nav, 2)},
		{NoteNoPath{Action: nav},
			fmt.Sprintf("%s: the App Map knows no reliable path from this page to page %q; use atomic actions.", nav, nav.Target)},
		{NoteMapDisagrees{},
			"The App Map knows the last action, taken for this sub-goal, to open another page than the one on the screen now: check that it did what the sub-goal needed. If it did not, this is a wrong page (C)."},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		seen[reflect.TypeOf(tt.note).Name()] = true
		got, err := noteText(s.tmpl, tt.note)
		if err != nil {
			t.Errorf("%T: %v", tt.note, err)
			continue
		}
		if got != tt.want {
			t.Errorf("%T renders\n%q\nwant\n%q", tt.note, got, tt.want)
		}
	}
	for _, n := range allNotes() {
		if name := reflect.TypeOf(n).Name(); !seen[name] {
			t.Errorf("%s has no sentence in this test", name)
		}
	}
}

// TestNotesInPrompt: the Re-Planner's prompt numbers the notes under their heading.
func TestNotesInPrompt(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Replan(ReplannerData{Instruction: "Order a bubble tea", Task: task, Step: 2, Screen: screen,
		Notes: []Note{NoteThreeFailed{}, NoteRoutineEnded{Routine: "Order"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := "Notes from the executor:\n1. The last three steps failed (results C or D). The current plan does not work: make a full new plan from the current screen.\n" +
		"2. The routine \"Order\" ran to its end: judge whether the app task is done.\n"
	if !strings.Contains(p.User, want) {
		t.Errorf("the prompt's notes are not\n%s\nprompt:\n%s", want, p.User)
	}
	if _, err := s.Replan(ReplannerData{Notes: []Note{nil}}); err == nil {
		t.Error("a nil note rendered")
	}
	tap := event.Action{Type: event.Tap, Index: 9}
	problems := []Note{NoteIndexOff{Action: tap, Why: "index 9 is not on the current screen (it has elements 1–2)"}, NoteNoAction{}}
	p, err = s.Decide(DeciderData{Instruction: "Order a bubble tea", Task: task, Subgoal: "Pay", Screen: screen, Notes: problems})
	if err != nil {
		t.Fatal(err)
	}
	want = "Notes from the executor:\n1. Tap(9): index 9 is not on the current screen (it has elements 1–2); use an index from the screen.\n" +
		"2. The answer had no action. Give at least one action.\n"
	if !strings.Contains(p.User, want) {
		t.Errorf("the decider's notes are not\n%s\nprompt:\n%s", want, p.User)
	}
	// A task that fails on the decider's answers names the same sentences, a space between.
	got, err := s.NoteText(problems...)
	if want := "Tap(9): index 9 is not on the current screen (it has elements 1–2); use an index from the screen. The answer had no action. Give at least one action."; err != nil || got != want {
		t.Errorf("NoteText = %q, %v; want %q", got, err, want)
	}
}

// TestNoteWithoutTemplate: a note type whose template is missing fails Load with its name,
// not a prompt rendered without the sentence.
func TestNoteWithoutTemplate(t *testing.T) {
	line := "{{define \"note_routine_ended\"}}The routine {{printf \"%q\" .Routine}} ran to its end: judge whether the app task is done.{{end}}\n"
	_, err := LoadFrom(changedFiles(t, "templates/notes.tmpl", line, ""))
	if err == nil || !strings.Contains(err.Error(), "note_routine_ended") || !strings.Contains(err.Error(), "NoteRoutineEnded") {
		t.Errorf("Load without a note's template: %v, want an error naming note_routine_ended and NoteRoutineEnded", err)
	}
}

// TestEveryNoteTypeListed: every type of this package with a noteName method is in
// allNotes, so Load checks its template and TestNoteSentences its sentence.
func TestEveryNoteTypeListed(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "notes.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, n := range allNotes() {
		listed[reflect.TypeOf(n).Name()] = true
	}
	found := 0
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv == nil || fn.Name.Name != "noteName" {
			continue
		}
		found++
		id, ok := fn.Recv.List[0].Type.(*ast.Ident)
		if !ok {
			t.Errorf("noteName on %T: notes are value types", fn.Recv.List[0].Type)
			continue
		}
		if !listed[id.Name] {
			t.Errorf("%s is a note type missing from allNotes", id.Name)
		}
	}
	if found != len(listed) {
		t.Errorf("notes.go declares %d note types, allNotes lists %d", found, len(listed))
	}
}

// TestNoteTemplatesAreNotes: every note_ template is some note's (no sentence left behind
// when a note type goes).
func TestNoteTemplatesAreNotes(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, n := range allNotes() {
		names[noteTemplate(n)] = true
	}
	for _, tm := range s.tmpl.Templates() {
		if strings.HasPrefix(tm.Name(), "note_") && !names[tm.Name()] {
			t.Errorf("template %s belongs to no note type", tm.Name())
		}
	}
}
