package walkthrough

import (
	"regexp"
	"strings"

	"github.com/fairy-go/fairy/prompts"
)

// answeredMarker is what the walk's interactor rules write into a summary between the
// reason and the person's words; a step's ask counts as answered once the instruction
// stack holds its reason followed by it.
const answeredMarker = " — the person answered: "

// lostSubgoal is the Re-Planner's sub-goal on a screen no step of the walk knows.
const lostSubgoal = "Go back to a screen the walkthrough knows"

// Patterns on the prompts, built from the markers package prompts writes.

// line matches a whole line that starts with a marker followed by text (both literal).
func line(marker, text string) string {
	return `(?m)^` + regexp.QuoteMeta(marker+text) + `$`
}

// block matches the opening of a data block.
func block(name string) string { return regexp.QuoteMeta("<<<"+name) + `\n` }

// inScreen scopes a pattern to the SCREEN block, the last block of the Re-Planner's,
// the decider's and the collector's prompts.
func inScreen(p string) string { return `(?s)` + block(prompts.BlockScreen) + `.*(?-s:` + p + `)` }

// taskMarker matches the heading of an app task in app.
func taskMarker(app string) string {
	return `(?m)^` + regexp.QuoteMeta(prompts.MarkTask+app) + `:`
}

// hintPattern matches a navigation hint block toward a page whose name matches to (a
// regexp) that offers a replayable Navigate; group 1 is the Navigate target.
func hintPattern(to string) string {
	return block(prompts.BlockHint) + `[^\n]*? to page p\d+ "(?:` + to + `)[^\n]*?Navigate\("(\w+)"\) replays`
}

// answeredPattern matches the instruction-stack entry the person's answer to reason left;
// with capture, group NAME is the answer (the option it names when there are options).
func answeredPattern(reason string, options []string, capture string) string {
	p := `(?m)^\d+\. ` + regexp.QuoteMeta(prompts.MarkUserSaid+reason+answeredMarker)
	if capture == "" {
		return p
	}
	if len(options) == 0 {
		return p + `(?P<` + capture + `>[^\n]*)`
	}
	alts := make([]string, len(options))
	for i, o := range options {
		alts[i] = regexp.QuoteMeta(o)
	}
	return p + `[^\n]*?(?P<` + capture + `>(?i:` + strings.Join(alts, "|") + `))`
}

// routinePattern matches a routine offer that fits the task (a regexp): group 1 is its
// name as quoted in the prompt (its escapes, \n or \", as they stand), group 2 its
// arguments as a JSON array.
var routinePattern = block(prompts.BlockRoutines) + `(?:[^\n]*\n)*?- "((?:[^"\\\n]|\\.)*)" — [^\n]*?` + regexp.QuoteMeta(prompts.MarkRoutineFit) + `(\[[^\n]*\])`

// personPattern matches a conversation in which the person answered.
var personPattern = `(?m)^` + regexp.QuoteMeta(prompts.MarkPerson)

// lastAnswer matches the person's last answer in a conversation when it matches answer;
// group "person" is the whole answer.
func lastAnswer(answer string) string {
	return `(?m)^` + regexp.QuoteMeta(prompts.MarkPerson) + `(?P<person>` + answer + `[^\n]*)\n` + regexp.QuoteMeta(prompts.BlockConversation+">>>") + `$`
}

// A plain yes or no to a consent question, as the interactor model reads it.
const (
	consentYes = `(?i:(?:yes|yeah|yep|ok|okay|sure|go ahead|approve|allow|do it)\b|是|好|可以|确认|同意|行)`
	consentNo  = `(?i:(?:no|nope|don't|do not|stop|cancel|refuse|deny|never)\b|不|否|取消|拒绝|别)`
)
