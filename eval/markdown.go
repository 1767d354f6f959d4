package eval

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/fairy-go/fairy/llm"
)

func pct(f float64) string { return fmt.Sprintf("%.0f%%", 100*f) }

// Markdown renders the report as report.md.
func (r *Report) Markdown() string {
	var b strings.Builder
	t := r.Totals
	fmt.Fprintf(&b, "# Evaluation of %s\n\n", r.Suite)
	fmt.Fprintf(&b, "%s · %d device(s): %s · parallel %d · repeat %d · knowledge %s",
		r.Started.Format(time.RFC3339), len(r.Devices), strings.Join(r.Devices, ", "), r.Options.Parallel, r.Options.Repeat, r.Options.Knowledge)
	if r.Options.ColdWarm {
		b.WriteString(" · cold/warm")
	}
	if r.Options.Learn != "" {
		fmt.Fprintf(&b, " · learned first on %s (%s)", r.Options.Learn, strings.Join(r.Options.LearnTasks, ", "))
	}
	b.WriteString("\n\n")
	if r.Interrupted {
		b.WriteString("**Interrupted**: only the tasks that finished are reported.\n\n")
	}
	b.WriteString("| | tasks | passed | steps | model calls | prompt tokens | completion tokens | cost | wall s |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	row := func(name string, x *Totals) {
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d | $%.4f | %.1f |\n", name, x.Tasks, x.Passed, x.Steps, x.ModelCalls, x.PromptTokens, x.CompletionTokens, x.Cost, x.WallSeconds)
	}
	row("total", &t)
	if t.Cold != nil {
		row("cold", t.Cold)
	}
	if t.Warm != nil {
		row("warm", t.Warm)
	}
	if t.WarmIndependent != nil {
		row("warm-independent", t.WarmIndependent)
	}
	if t.Learn != nil {
		row("learn", t.Learn)
	}
	if t.AsItGoes != nil {
		row(phaseAsItGoes, t.AsItGoes)
	}
	b.WriteString(passesMarkdown(r))
	if cw := t.ColdWarm; cw != nil {
		fmt.Fprintf(&b, "\nWarm vs cold model calls: %s fewer over all tasks; %s fewer on the %d tasks tagged %q (%d → %d).\n",
			pct(cw.ModelCallsReduction), pct(cw.Revisit.Reduction), len(cw.Revisit.Tasks), revisitTag, cw.Revisit.ColdModelCalls, cw.Revisit.WarmModelCalls)
		b.WriteString("\n## Cold vs warm\n\n| | cold | warm | fewer |\n|---|---:|---:|---:|\n")
		for _, c := range cwRows(t) {
			fmt.Fprintf(&b, "| %s | %d | %d | %s |\n", c.Name, c.Cold, c.Warm, pct(c.Reduction))
		}
		b.WriteString("\n| task | model calls cold → warm | steps cold → warm | prompt tokens cold → warm | model calls, steps warm-independent |\n|---|---:|---:|---:|---:|\n")
		for _, x := range cw.PerTask {
			fmt.Fprintf(&b, "| %s | %d → %d | %d → %d | %d → %d | %d, %d |\n", x.ID, x.ColdModelCalls, x.WarmModelCalls, x.ColdSteps, x.WarmSteps, x.ColdPromptTokens, x.WarmPromptTokens,
				x.IndependentModelCalls, x.IndependentSteps)
		}
		if rows := savingsRows(t); len(rows) > 0 {
			b.WriteString("\n## Savings by mechanism\n\n|")
			for _, c := range rows[0] {
				b.WriteString(" " + c + " |")
			}
			b.WriteString("\n|---|" + strings.Repeat("---:|", len(rows[0])-1) + "\n")
			for _, row := range rows[1:] {
				b.WriteString("|")
				for _, c := range row {
					b.WriteString(" " + mdEscape(c) + " |")
				}
				b.WriteString("\n")
			}
			b.WriteString("\n")
			for _, f := range cw.Figures {
				fmt.Fprintf(&b, "- **%s**: %s.\n", f.Name, f.ProducedBy)
			}
			b.WriteString("- **cold**: empty knowledge; no hint offers Navigate then, so one cold pass serves both figures (cold Navigate replays are counted above).\n")
		}
	}
	b.WriteString(misledMarkdown(r))
	b.WriteString(curvesMarkdown(r.Curves))
	b.WriteString(r.deviceMarkdown())
	if rows := safetyRows(t); r.Options.ModelErrors != "" || t.FalseSuccess > 0 || t.Sensitive > 0 {
		b.WriteString("\n## Model errors and safety\n\n")
		if r.Options.ModelErrors != "" {
			where := "every pass"
			if r.Options.ModelErrorsLearnOnly {
				where = "the passes that learn only (the warm passes ran clean)"
			}
			fmt.Fprintf(&b, "Model errors injected on purpose: %s (seed %d), in %s.\n\n", r.Options.ModelErrors, r.Options.Seed, where)
		}
		for i, row := range rows {
			b.WriteString("|")
			for _, c := range row {
				b.WriteString(" " + mdEscape(c) + " |")
			}
			b.WriteString("\n")
			if i == 0 {
				b.WriteString("|---|" + strings.Repeat("---:|", len(row)-2) + "---|\n")
			}
		}
		b.WriteString("\nFalse success: the agent said done and the task's checks failed. A sensitive action counts as without a named consent when the question the person was asked did not name its specifics (recipient and text, items or amount and payee, what is deleted).\n")
	}
	b.WriteString("\n## Tasks\n\n| task | phase | device | pass | outcome | steps | actions | model calls | questions | wall s | reason |\n|---|---|---|---|---|---:|---:|---:|---:|---:|---|\n")
	for _, x := range r.Tasks {
		mark := "✅"
		if !x.Pass {
			mark = "❌"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %d | %d | %d | %d | %.1f | %s |\n", x.ID, phaseName(x), x.Device, mark, x.Outcome,
			x.Steps, x.Actions, x.ModelCalls, len(x.Questions), x.WallSeconds, mdEscape(clip(x.Reason, 120)))
	}
	b.WriteString(collateralSection(r.Tasks))
	var failed []TaskResult
	for _, x := range r.Tasks {
		if !x.Pass {
			failed = append(failed, x)
		}
	}
	if len(failed) > 0 {
		b.WriteString("\n## Failures\n")
		for _, x := range failed {
			fmt.Fprintf(&b, "\n### %s (%s)\n\n%s — %s\n\n", x.ID, phaseName(x), x.Outcome, x.Reason)
			for _, c := range x.Checks {
				mark := "✅"
				switch {
				case c.Pass:
				case c.Collateral:
					mark = "⚠️ collateral"
				case c.Credit != nil:
					mark = fmt.Sprintf("❌ credit %.2f", *c.Credit)
				default:
					mark = "❌"
				}
				fmt.Fprintf(&b, "- %s %s: %s\n", mark, c.Name, mdEscape(clip(c.Evidence, 400)))
			}
			fmt.Fprintf(&b, "\nRun directory: `%s`\n", x.RunDir)
		}
	}
	return b.String()
}

// cwRow is one figure of the cold/warm comparison: its cold and warm value and the
// reduction.
type cwRow struct {
	Name       string
	Cold, Warm int
	Reduction  float64
}

// cwRows lists model calls, steps and prompt tokens, cold and warm, over all tasks (the
// pass totals) and over the tasks tagged revisit; nil without a cold/warm comparison.
func cwRows(t Totals) []cwRow {
	cw := t.ColdWarm
	if cw == nil {
		return nil
	}
	var rows []cwRow
	if t.Cold != nil && t.Warm != nil {
		rows = append(rows,
			cwRow{"model calls, all tasks", t.Cold.ModelCalls, t.Warm.ModelCalls, cw.ModelCallsReduction},
			cwRow{"steps, all tasks", t.Cold.Steps, t.Warm.Steps, cw.StepsReduction},
			cwRow{"prompt tokens, all tasks", t.Cold.PromptTokens, t.Warm.PromptTokens, cw.PromptTokensReduction})
	}
	rv := cw.Revisit
	tag := fmt.Sprintf("%d tasks tagged %s", len(rv.Tasks), revisitTag)
	return append(rows,
		cwRow{"model calls, " + tag, rv.ColdModelCalls, rv.WarmModelCalls, rv.Reduction},
		cwRow{"steps, " + tag, rv.ColdSteps, rv.WarmSteps, rv.StepsReduction},
		cwRow{"prompt tokens, " + tag, rv.ColdPromptTokens, rv.WarmPromptTokens, rv.PromptTokensReduction})
}

// savingsRows is the savings-by-mechanism table: a header row, then one row per figure of
// each cold/warm figure, then the model calls of each role; nil without figures.
func savingsRows(t Totals) [][]string {
	cw := t.ColdWarm
	if cw == nil || len(cw.Figures) == 0 {
		return nil
	}
	head := []string{""}
	for _, f := range cw.Figures {
		head = append(head, f.Name)
	}
	rows := [][]string{head}
	line := func(name string, v func(f Figure) string) {
		row := []string{name}
		for _, f := range cw.Figures {
			row = append(row, v(f))
		}
		rows = append(rows, row)
	}
	line("model calls cold → warm", func(f Figure) string {
		return fmt.Sprintf("%d → %d (%.2f×)", f.ColdModelCalls, f.WarmModelCalls, ratio(f.ColdModelCalls, f.WarmModelCalls))
	})
	line("steps cold → warm", func(f Figure) string { return fmt.Sprintf("%d → %d", f.ColdSteps, f.WarmSteps) })
	line("calls a step waits on, per step", func(f Figure) string {
		return fmt.Sprintf("%.2f → %.2f", f.ColdCriticalPerStep, f.WarmCriticalPerStep)
	})
	line("prompt tokens cold → warm", func(f Figure) string { return fmt.Sprintf("%d → %d", f.ColdPromptTokens, f.WarmPromptTokens) })
	line("calls saved", func(f Figure) string { return fmt.Sprint(f.Savings.Saved) })
	line("· verified steps (1 Re-Planner call each)", func(f Figure) string { return fmt.Sprint(f.Savings.VerifiedSteps) })
	line("· known readings (1 Key Context Collector call each)", func(f Figure) string { return fmt.Sprint(f.Savings.KnownReads) })
	line("· learning skipped after a known routine (1 learner call each)", func(f Figure) string { return fmt.Sprint(f.Savings.SkippedLearns) })
	line("· on tasks that ran a learned routine, beyond the above", func(f Figure) string {
		return fmt.Sprintf("%d (%d routines, %d steps replayed)", f.Savings.RoutineSaved, f.Savings.Routines, f.Savings.RoutineSteps)
	})
	line("· on tasks that replayed a Navigate, beyond the above", func(f Figure) string {
		return fmt.Sprintf("%d (%d Navigate, %d steps replayed; cold %d)", f.Savings.NavigateSaved, f.Savings.Navigations, f.Savings.ShortcutSteps, f.Savings.ColdNavigations)
	})
	line("· skipped fixed calls and the rest", func(f Figure) string { return fmt.Sprint(f.Savings.Other) })
	line("tasks whose result changed", func(f Figure) string {
		if len(f.OutcomesChanged) == 0 {
			return "none"
		}
		return strings.Join(f.OutcomesChanged, ", ")
	})
	roles := map[string]bool{}
	for _, f := range cw.Figures {
		for k := range f.Savings.ByRole {
			roles[k] = true
		}
	}
	var names []string
	for k := range roles {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		line(k+" calls cold → warm", func(f Figure) string {
			rc := f.Savings.ByRole[k]
			return fmt.Sprintf("%d → %d", rc.Cold, rc.Warm)
		})
	}
	return rows
}

// ratio is warm/cold (0 without cold calls).
func ratio(cold, warm int) float64 {
	if cold == 0 {
		return 0
	}
	return float64(warm) / float64(cold)
}

func phaseName(x TaskResult) string {
	s := x.Phase
	if s == "" {
		s = "—"
	}
	if x.Repeat > 0 {
		s += fmt.Sprintf(" #%d", x.Repeat+1)
	}
	return s
}

func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// collateralSection lists the collateral changes of the runs that made any: what changed
// beyond what the tasks' scoring checks look at (they did not fail the task); "" when none.
func collateralSection(tasks []TaskResult) string {
	var b strings.Builder
	for _, x := range tasks {
		for _, c := range x.Collateral {
			if b.Len() == 0 {
				b.WriteString("\n## Collateral changes\n\nChanges beyond what a task's scoring checks look at (a row deleted or added besides the target); they do not fail the task.\n\n")
			}
			fmt.Fprintf(&b, "- %s (%s): %s\n", x.ID, phaseName(x), mdEscape(clip(strings.Join(strings.Fields(c), " "), 300)))
		}
	}
	return b.String()
}

// clip shortens s to at most n bytes on a rune boundary.
func clip(s string, n int) string { return llm.Head(s, n) }
