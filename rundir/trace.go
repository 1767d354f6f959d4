package rundir

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/llm"
)

// Trajectory is a run read back from its run directory's trace.jsonl: what the report
// shows of every step.
type Trajectory struct {
	Steps []StepView
	// Events is the trace in order, for assertions that need the sequence.
	Events []TraceEvent
}

// StepView is one executor step of a run.
type StepView struct {
	App        string
	Step       int
	Image      string // screenshot file in the run directory ("" when none)
	Result     string // A/B/C/D from the Re-Planner
	Reflection string
	Subgoal    string
	Thought    string
	Lines      []string // actions, questions, answers, guard and loop notes, in order
	Screen     string   // the screen's text form, as the models were told it
}

// TraceEvent is one trace line with the fields assertions use.
type TraceEvent struct {
	Seq   int64
	Kind  string
	Image string
	Raw   json.RawMessage
}

// ReadTrajectory reads dir/trace.jsonl. Unknown event kinds are kept as a note line, so a
// newer agent's events still show.
func ReadTrajectory(dir string) (*Trajectory, error) {
	f, err := os.Open(filepath.Join(dir, TraceFile))
	if err != nil {
		return nil, fmt.Errorf("rundir: read trace: %w", err)
	}
	defer f.Close()
	tr := &Trajectory{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	var cur *StepView
	app := ""
	step := func() *StepView {
		if cur == nil {
			tr.Steps = append(tr.Steps, StepView{App: app})
			cur = &tr.Steps[len(tr.Steps)-1]
		}
		return cur
	}
	for sc.Scan() {
		var l traceLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			continue // a torn last line after a crash
		}
		tr.Events = append(tr.Events, TraceEvent{Seq: l.Seq, Kind: l.Kind, Image: l.Image, Raw: l.Event})
		switch l.Kind {
		case "AppTaskStarted":
			var e event.AppTaskStarted
			_ = json.Unmarshal(l.Event, &e)
			app = e.Task.App
		case "StepStarted":
			var e event.StepStarted
			_ = json.Unmarshal(l.Event, &e)
			if e.App != "" {
				app = e.App
			}
			tr.Steps = append(tr.Steps, StepView{App: app, Step: e.Step})
			cur = &tr.Steps[len(tr.Steps)-1]
		case "ScreenPerceived":
			if l.Image != "" {
				step().Image = l.Image
			}
			var e event.ScreenPerceived
			_ = json.Unmarshal(l.Event, &e)
			if e.Text != "" {
				step().Screen = e.Text
			}
			if len(e.Read) > 0 {
				boxes := make([]string, len(e.Read))
				for i, b := range e.Read {
					boxes[i] = fmt.Sprintf("%q [%d,%d][%d,%d]", b.Text, b.Bounds[0], b.Bounds[1], b.Bounds[2], b.Bounds[3])
				}
				step().Lines = append(step().Lines, fmt.Sprintf("read from the picture (%d): %s", len(e.Read),
					strings.Join(boxes, ", ")))
			}
		case "Reflected":
			var e event.Reflected
			_ = json.Unmarshal(l.Event, &e)
			s := step()
			s.Result, s.Reflection = e.Result, e.Reflection
		case "Planned":
			var e event.Planned
			_ = json.Unmarshal(l.Event, &e)
			s := step()
			s.Subgoal = e.Subgoal
			if e.Interaction != 0 {
				s.Lines = append(s.Lines, fmt.Sprintf("needs the person (type %d): %s", e.Interaction, e.Reason))
			}
			if e.Full {
				s.Lines = append(s.Lines, "full re-plan")
			}
		case "InteractionAsked":
			var e event.InteractionAsked
			_ = json.Unmarshal(l.Event, &e)
			line := "asked: " + e.Question
			if len(e.Options) > 0 {
				line += " [" + strings.Join(e.Options, " | ") + "]"
			}
			step().Lines = append(step().Lines, line)
		case "InteractionAnswered":
			var e event.InteractionAnswered
			_ = json.Unmarshal(l.Event, &e)
			step().Lines = append(step().Lines, "answered: "+e.Answer)
		case "ActionsDecided":
			var e event.ActionsDecided
			_ = json.Unmarshal(l.Event, &e)
			step().Thought = e.Thought
		case "ActionExecuted":
			var e event.ActionExecuted
			_ = json.Unmarshal(l.Event, &e)
			line := e.Action.String()
			if e.Element != nil && e.Element.Label != "" {
				line += fmt.Sprintf(" on %q", e.Element.Label)
			}
			if e.Consent != "" {
				line += " (consent: " + e.Consent + ")"
			}
			if e.Err != "" {
				line += " — error: " + e.Err
			}
			step().Lines = append(step().Lines, line)
		case "ActionRejected":
			var e event.ActionRejected
			_ = json.Unmarshal(l.Event, &e)
			step().Lines = append(step().Lines, fmt.Sprintf("rejected %s: %s", e.Action, e.Reason))
		case "ActionGuarded":
			var e event.ActionGuarded
			_ = json.Unmarshal(l.Event, &e)
			step().Lines = append(step().Lines, fmt.Sprintf("guard held %s on %q (%s)", e.Action, e.Target, e.Category))
		case "LoopBroken":
			var e event.LoopBroken
			_ = json.Unmarshal(l.Event, &e)
			step().Lines = append(step().Lines, fmt.Sprintf("loop on %s broken: %s", e.Action, e.Remedy))
		case "Unpredicted":
			var e event.Unpredicted
			_ = json.Unmarshal(l.Event, &e)
			step().Lines = append(step().Lines, fmt.Sprintf("the App Map expected page %s, the screen is page %s",
				e.Expected, e.Got))
		case "ConfirmationOpened":
			var e event.ConfirmationOpened
			_ = json.Unmarshal(l.Event, &e)
			step().Lines = append(step().Lines, fmt.Sprintf("the consented %s action opened its confirmation", e.Category))
		case "FinishChecked":
			var e event.FinishChecked
			_ = json.Unmarshal(l.Event, &e)
			step().Lines = append(step().Lines, fmt.Sprintf("finish check passed=%t %s", e.Passed, e.Reason))
		case "HandOver":
			var e event.HandOver
			_ = json.Unmarshal(l.Event, &e)
			switch {
			case e.Error != "":
				step().Lines = append(step().Lines, fmt.Sprintf("handed over to the person for %s at step %d: "+
					"not taken back (%s)", e.Reason, e.Step, e.Error))
			case !e.Ended.IsZero():
				step().Lines = append(step().Lines, fmt.Sprintf("handed over to the person for %s at step %d for %.0f s",
					e.Reason, e.Step, e.Duration.Seconds()))
			}
		case "TaskFinished":
			var e event.TaskFinished
			_ = json.Unmarshal(l.Event, &e)
			step().Lines = append(step().Lines, fmt.Sprintf("app task %s: %s %s", e.App, e.Outcome, e.Reason))
			cur = nil
		case "RunStarted", "GlobalPlanned", "ModelCalled", "ContextCollected", "InteractionEnded", "RunFinished":
		default:
			if cur != nil {
				cur.Lines = append(cur.Lines, l.Kind+" "+llm.Head(string(l.Event), 200))
			}
		}
	}
	if err := sc.Err(); err != nil {
		return tr, fmt.Errorf("rundir: read trace: %w", err)
	}
	return tr, nil
}
