package executor

import (
	"context"
	"fmt"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/prompts"
)

// maxCheckFails is how many failed finish checks end the task.
const maxCheckFails = 3

// check runs the finish check: the final screen and key context against the task.
func (r *run) check(ctx context.Context) (State, error) {
	r.waitContext() // the final screen's facts count
	if why := r.unsettled(); why != "" {
		// Model-independent, and with or without the finish check: a question with no
		// answer, a value the task names never entered, a consented deed the screen did not
		// show is not done, whatever the model judges and whatever path led here.
		r.publish(event.FinishChecked{Step: r.step, Passed: false, Reason: why})
		r.checkFails++
		if r.checkFails >= maxCheckFails {
			return r.fail("the task is not done: " + why)
		}
		r.planNote = append(r.planNote, prompts.NoteNotDone{Why: why})
		r.reuse, r.noActs, r.lastActs = true, true, nil
		return statePerceive, nil
	}
	if r.cfg.NoFinishCheck {
		return stateFinish, nil
	}
	if miss := r.unshownChoice(); miss != "" {
		// Model-independent: an answer read off a page that does not show what the person
		// chose is about someone else, whatever the model judges.
		reason := fmt.Sprintf("the answer is read from a page that does not show %q, the person's choice", miss)
		r.publish(event.FinishChecked{Step: r.step, Passed: false, Reason: reason})
		r.checkFails++
		if r.checkFails >= maxCheckFails {
			return r.fail("the task is not done: " + reason)
		}
		r.planNote = append(r.planNote, prompts.NoteNotDoneWentBack{Why: reason})
		return r.goBack(ctx, "Back: "+reason)
	}
	if why := r.formatMiss(); why != "" {
		// Model-independent: the person asked for the answer in a form, and this one has
		// another; whatever the model judges, the person cannot use it as asked.
		r.publish(event.FinishChecked{Step: r.step, Passed: false, Reason: why})
		r.checkFails++
		if r.checkFails >= maxCheckFails {
			return r.fail("the task is not done: " + why)
		}
		r.planNote = append(r.planNote, prompts.NoteNotDoneForm{Why: why})
		r.reuse, r.noActs, r.lastActs = true, true, nil
		return statePerceive, nil
	}
	r.pictureNow(ctx) // the finish check looks at the screen a verified step did not picture
	mem := r.cfg.Memory
	p, err := r.cfg.Prompts.Check(prompts.CheckerData{Instruction: r.a.Instruction, Task: r.a.Task, Instructions: mem.Instructions(),
		Screen: r.screen.Text(), Context: mem.KeyContext(), Answer: r.answer, AnswerFormat: r.answerFormat(), Now: r.phoneNow(ctx),
		Plan: r.plan, Progress: mem.Progress()})
	if err != nil {
		return stateError, err
	}
	var v prompts.CheckerAnswer
	if err := call(ctx, r.cfg.Model, RoleChecker, p, r.images(), &v); err != nil {
		return stateError, err
	}
	r.publish(event.FinishChecked{Step: r.step, Passed: v.Passed, Reason: v.Reason})
	if v.Passed {
		return stateFinish, nil
	}
	r.checkFails++
	if r.checkFails >= maxCheckFails {
		return r.fail("the task is not done: " + v.Reason)
	}
	r.planNote = append(r.planNote, prompts.NoteNotDone{Why: v.Reason})
	r.reuse, r.noActs, r.lastActs = true, true, nil
	return statePerceive, nil
}

// formatMiss says why the Finish answer does not have the form the app task asks for
// ("in the format <month name> <day> <year>", "as a single integer"); "" when it does,
// when no form was asked or when its words do not tell the form (the model judges it).
// Only the app task's own words count: an instruction's format is for the task that
// answers, and another app task's Finish text is no answer to the person.
func (r *run) formatMiss() string {
	f := prompts.AnswerFormat(r.a.Task.Task)
	if f == "" {
		return ""
	}
	if fits, known := prompts.FitsFormat(f, r.answer); !known || fits {
		return ""
	}
	return fmt.Sprintf("the answer %q is not %s, as the person asked", r.answer, f)
}
