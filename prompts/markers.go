package prompts

// Markers are the fixed labels the prompts put at the start of a line. The templates write
// them through the `mark` function, and the scripted model's rules and eval's walkthroughs
// match prompts by them: a template that stops writing one breaks the walkthrough tests,
// never silently.
const (
	// MarkClock is the line with the phone's date, weekday, time and zone, read from its
	// clock: "Phone's clock: Saturday, November 28, 2026, 21:14 (UTC)".
	MarkClock = "Phone's clock: "
	// MarkAnswerFormat is the line with the answer format the person asked for.
	MarkAnswerFormat = "Answer format the person asked for: "
	// MarkAsked opens the Re-Planner's account of a step that only asked the person.
	MarkAsked = "Last step: the agent only asked the person: "
	// MarkPhase opens the Global Planner's prompt: "Phase: plan" or "Phase: adjust".
	MarkPhase = "Phase: "
	// MarkFinishedTasks heads the planner's list of finished app tasks, one a line:
	// "N. [package] task — outcome".
	MarkFinishedTasks = "Finished app tasks:"
	// MarkTask heads an app task: "App task in PACKAGE:".
	MarkTask = "App task in "
	// MarkSubgoal is the sub-goal line of the Re-Planner and the Action Decider.
	MarkSubgoal = "Current sub-goal: "
	// markLastActions heads the Re-Planner's list of the previous step's actions.
	markLastActions = "Last actions:"
	// MarkExpected is what the Action Decider expected its last actions to show.
	MarkExpected = "Expected after them: "
	// MarkScreenChange is the Re-Planner's line on how the screen changed; ChangeNone is
	// its value when nothing did.
	MarkScreenChange = "Screen change: "
	// MarkInteractionType opens the User Interactor's prompt: "Interaction type: N (kind)".
	MarkInteractionType = "Interaction type: "
	// MarkWhyAsk is the reason the agent asks the person.
	MarkWhyAsk = "Why the agent asks: "
	// MarkAgent and MarkPerson start the turns of a conversation with the person.
	MarkAgent  = "Agent: "
	MarkPerson = "Person: "
	// MarkUserSaid marks an instruction-stack entry that came from the person.
	MarkUserSaid = "(the user said) "
	// markOutcome is how an app task (Self-Learner) or a run (judge) ended:
	// "Outcome: done", the learner's followed by " after N steps".
	markOutcome = "Outcome: "
	// markQuestionKind is the kind of the question the simulated user is asked:
	// "Question kind: yes/no", "options" or "open".
	markQuestionKind = "Question kind: "
)

// Phases of the Global Planner.
const (
	PhasePlan   = "plan"
	PhaseAdjust = "adjust"
)

// MarkRoutineRefused starts the note that says a routine the Re-Planner chose could not
// run (and is not offered again in the task).
const MarkRoutineRefused = "Routine refused: "

// MarkOffTask ends the note that says the last action acted on another row of a list
// than the one the task names (another expense, another note, another recipient).
const MarkOffTask = ": check that it acted on what the task names."

// MarkRoutineFit ends a routine offer whose arguments the task's own words give.
const MarkRoutineFit = "fits this task with args "

// ChangeNone is the screen change when the screen did not change (perception.Diff).
const ChangeNone = "no change"

// Data block names: untrusted text sits between a line "<<<NAME" and a line "NAME>>>".
const (
	blockInstruction  = "INSTRUCTION"
	blockTask         = "TASK"
	blockInstructions = "INSTRUCTIONS"
	BlockScreen       = "SCREEN"
	blockContext      = "CONTEXT"
	BlockHint         = "HINT"
	BlockRoutines     = "ROUTINES"
	blockApps         = "APPS"
	BlockConversation = "CONVERSATION"
	blockTrajectory   = "TRAJECTORY"
	blockTricks       = "TRICKS"
	blockErrors       = "ERRORS"
	blockReason       = "REASON"
	blockAnswer       = "ANSWER"
	blockPersona      = "PERSONA"
	blockIntent       = "INTENT"
	blockQuestion     = "QUESTION"
	blockOptions      = "OPTIONS"
	blockCriteria     = "CRITERIA"
)

// markers is what templates reach through `mark`.
var markers = map[string]string{
	"Phase": MarkPhase, "FinishedTasks": MarkFinishedTasks, "Task": MarkTask, "Subgoal": MarkSubgoal,
	"LastActions": markLastActions, "Expected": MarkExpected, "ScreenChange": MarkScreenChange,
	"InteractionType": MarkInteractionType, "WhyAsk": MarkWhyAsk, "Agent": MarkAgent, "Person": MarkPerson,
	"UserSaid": MarkUserSaid, "Outcome": markOutcome, "QuestionKind": markQuestionKind,
	"Clock": MarkClock, "AnswerFormat": MarkAnswerFormat, "Asked": MarkAsked,
	"RoutineRefused": MarkRoutineRefused, "OffTask": MarkOffTask,
}

// mark returns the marker named name; an unknown name fails the template.
func mark(name string) (string, error) {
	m, ok := markers[name]
	if !ok {
		return "", errUnknownMarker(name)
	}
	return m, nil
}

type errUnknownMarker string

func (e errUnknownMarker) Error() string { return "prompts: unknown marker " + string(e) }
