package rundir

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/fairy-go/fairy/event"
)

// Run is one run directory read back: what `fairy runs show` says and the run's page
// shows.
type Run struct {
	Dir     string
	Summary Summary // zero when summary.json is missing (Note says so)
	// Questions are the questions asked, each with the answer that followed it.
	Questions []Asked
	// Knowledge says in words what the run used and learned of long-term knowledge;
	// Served lists, step by step, what went into prompts or was replayed.
	Knowledge, Served []string
	Trajectory        *Trajectory // nil when the trace does not read (TraceErr says why)
	TraceErr          error
	Note              string // why the figures are missing, when they are
}

// Read reads the run directory dir: summary.json and trace.jsonl. A missing or
// unreadable summary or trace is noted, not an error; a directory with neither is.
func Read(dir string) (*Run, error) {
	v := &Run{Dir: dir}
	raw, err := os.ReadFile(filepath.Join(dir, SummaryFile))
	switch {
	case err == nil:
		if err := json.Unmarshal(raw, &v.Summary); err != nil {
			v.Note = fmt.Sprintf("The run's %s does not read (%v): the figures are missing.", SummaryFile, err)
		}
	case errors.Is(err, fs.ErrNotExist):
		v.Note = "The run wrote no " + SummaryFile + " (it stopped before the end): the figures are missing."
	default:
		return nil, fmt.Errorf("rundir: read run %s: %w", dir, err)
	}
	v.Trajectory, v.TraceErr = ReadTrajectory(dir)
	if v.TraceErr != nil {
		v.Trajectory = nil
		if err != nil {
			return nil, fmt.Errorf("rundir: %s is not a run directory: it has no %s and no %s", dir, SummaryFile, TraceFile)
		}
	} else {
		v.Questions = traceQuestions(v.Trajectory)
		v.Served = servedLines(v.Trajectory)
		if v.Summary.Instruction == "" {
			v.Summary.Instruction = traceInstruction(v.Trajectory)
		}
	}
	v.Summary.RunID = cmp.Or(v.Summary.RunID, filepath.Base(dir))
	v.Knowledge = knowledgeLines(v.Summary.Knowledge)
	return v, nil
}

// Asked is a question the run asked the person, with the answer that followed it.
type Asked struct {
	Type    int // 1 sensitive, 2 irreversible, 3 choice, 4 ambiguous
	Text    string
	Options []string
	Answer  string // "(no answer)" when none followed
	By      string // "the person", or "none" when no answer followed
}

// traceQuestions pairs each question in the trace with the answer that followed it.
func traceQuestions(tr *Trajectory) []Asked {
	var out []Asked
	for _, ev := range tr.Events {
		switch ev.Kind {
		case "InteractionAsked":
			var e event.InteractionAsked
			if json.Unmarshal(ev.Raw, &e) == nil {
				out = append(out, Asked{Type: e.Type, Text: e.Question, Options: e.Options, By: "the person"})
			}
		case "InteractionAnswered":
			var e event.InteractionAnswered
			if json.Unmarshal(ev.Raw, &e) == nil && len(out) > 0 && out[len(out)-1].Answer == "" {
				out[len(out)-1].Answer = e.Answer
			}
		}
	}
	for i := range out {
		if out[i].Answer == "" {
			out[i].Answer, out[i].By = "(no answer)", "none"
		}
	}
	return out
}

// traceInstruction is the instruction of the trace's RunStarted event.
func traceInstruction(tr *Trajectory) string {
	for _, ev := range tr.Events {
		if ev.Kind == "RunStarted" {
			var e event.RunStarted
			if json.Unmarshal(ev.Raw, &e) == nil {
				return e.Instruction
			}
		}
	}
	return ""
}

// knowledgeLines says, in a person's words, what the run used and learned.
func knowledgeLines(k KnowledgeUse) []string {
	if k.Off != "" {
		return []string{"Ran without long-term knowledge: " + k.Off}
	}
	var out []string
	add := func(n int, one, many string) {
		switch {
		case n == 1:
			out = append(out, one)
		case n > 1:
			out = append(out, fmt.Sprintf(many, n))
		}
	}
	add(k.Tricks, "1 App Trick put into a prompt", "%d App Tricks put into prompts")
	add(k.Hints, "1 navigation hint from the App Map", "%d navigation hints from the App Map")
	add(k.DescribedApps, "1 learned app description given to the planner", "%d learned app descriptions given "+
		"to the planner")
	add(k.VerifiedSteps, "1 step confirmed by the App Map without the Re-Planner",
		"%d steps confirmed by the App Map without the Re-Planner")
	add(k.Navigations, "1 known path replayed", "%d known paths replayed")
	add(k.ShortcutSteps, "1 step replayed from the App Map with no model call",
		"%d steps replayed from the App Map with no model call")
	add(k.Routines, "1 learned routine run", "%d learned routines run")
	add(k.KnownReads, "1 page whose facts were already known", "%d pages whose facts were already known")
	if len(out) == 0 {
		out = append(out, "No learned knowledge was used.")
	}
	switch {
	case k.LearnErrors > 0:
		out = append(out, fmt.Sprintf("Learning failed %d time(s); the run's own outcome is unaffected.", k.LearnErrors))
	case k.LearnedTasks > 0:
		tasks := "1 app task"
		if k.LearnedTasks > 1 {
			tasks = fmt.Sprintf("%d app tasks", k.LearnedTasks)
		}
		out = append(out, fmt.Sprintf("Learned from %s: %d trick(s) added or merged, and the App Map updated.", tasks,
			k.LearnedTricks))
	}
	return out
}

// servedLines lists, step by step, the knowledge the trace shows going into prompts or
// replayed.
func servedLines(tr *Trajectory) []string {
	var out []string
	for _, ev := range tr.Events {
		switch ev.Kind {
		case "KnowledgeServed":
			var e event.KnowledgeServed
			if json.Unmarshal(ev.Raw, &e) != nil {
				continue
			}
			var what []string
			if e.Tricks > 0 {
				what = append(what, fmt.Sprintf("%d trick line(s)", e.Tricks))
			}
			if e.Hint {
				what = append(what, "a navigation hint")
			}
			if e.Apps > 0 {
				what = append(what, fmt.Sprintf("%d app description(s)", e.Apps))
			}
			if len(what) > 0 {
				out = append(out, fmt.Sprintf("%s%s: %s", stepPrefix(e.Step), e.Role, strings.Join(what, ", ")))
			}
		case "Navigated":
			var e event.Navigated
			if json.Unmarshal(ev.Raw, &e) == nil {
				line := fmt.Sprintf("%sknown path to %s: %d of %d steps replayed", stepPrefix(e.Step), e.Target,
					e.Replayed, e.Planned)
				if e.Stopped != "" {
					line += " (stopped: " + e.Stopped + ")"
				}
				out = append(out, line)
			}
		case "RoutineRan":
			var e event.RoutineRan
			if json.Unmarshal(ev.Raw, &e) == nil {
				out = append(out, fmt.Sprintf("%sroutine %q: %d of %d steps replayed", stepPrefix(e.Step), e.Name,
					e.Replayed, e.Planned))
			}
		}
	}
	return out
}

func stepPrefix(step int) string {
	if step == 0 {
		return "planning · "
	}
	return fmt.Sprintf("step %d · ", step)
}
