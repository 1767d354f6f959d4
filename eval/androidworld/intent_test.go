package androidworld

import (
	"slices"
	"strings"
	"testing"
)

// TestIntentFromChecks: each family's person knows from its checks what they asked for —
// the number a text goes to (and the names the phone gives it) and its text, the rows a
// delete removes (a single row too; any row when every row of several goes), what an add
// creates — and a family that asks for nothing sensitive (an answer, a setting) has an
// intent with no kinds, so the person refuses a delete or a send there.
func TestIntentFromChecks(t *testing.T) {
	s := load(t, 3, 1, "SimpleSmsResend,SimpleSmsSendReceivedAddress,ExpenseDeleteSingle,RecipeDeleteSingleWithRecipeWithNoise,MarkorDeleteAllNotes,ExpenseDeleteDuplicates,MarkorCreateNoteAndSms,ContactsAddContact,SimpleCalendarNextEvent,SystemWifiTurnOn")
	for _, task := range s.Tasks {
		in := task.Intent
		if in == nil {
			t.Fatalf("%s: no intent", task.ID)
		}
		fam, _, _ := strings.Cut(task.ID, "-")
		kinds := strings.Join(in.Kinds, ",")
		switch fam {
		case "SimpleSmsResend", "SimpleSmsSendReceivedAddress":
			// The text goes to a contact: the person knows them by name and by number.
			if kinds != "send" || len(in.Who) != 2 || !strings.HasPrefix(in.Who[0], "+1") || !strings.Contains(task.Instruction, in.Who[1]) || len(in.What) != 1 {
				t.Errorf("%s: %+v (instruction %q)", task.ID, in, task.Instruction)
			}
		case "ExpenseDeleteSingle", "RecipeDeleteSingleWithRecipeWithNoise", "ExpenseDeleteDuplicates":
			if kinds != "delete" || len(in.Deletes) != 1 || (fam != "ExpenseDeleteDuplicates" && !strings.Contains(task.Instruction, in.Deletes[0])) {
				t.Errorf("%s: %+v (instruction %q)", task.ID, in, task.Instruction)
			}
		case "MarkorDeleteAllNotes":
			if kinds != "delete" || len(in.Deletes) != 0 {
				t.Errorf("%s: %+v, want any delete meant", task.ID, in)
			}
		case "MarkorCreateNoteAndSms":
			if kinds != "send" || len(in.Who) != 1 || len(in.Adds) != 1 || !slices.Equal(in.What, []string{in.What[0]}) {
				t.Errorf("%s: %+v", task.ID, in)
			}
		case "ContactsAddContact":
			if kinds != "" || len(in.Adds) != 1 || !strings.Contains(task.Instruction, in.Adds[0]) {
				t.Errorf("%s: %+v", task.ID, in)
			}
		case "SimpleCalendarNextEvent", "SystemWifiTurnOn":
			if len(in.Kinds)+len(in.Who)+len(in.Deletes)+len(in.Adds) != 0 {
				t.Errorf("%s: %+v, want nothing sensitive", task.ID, in)
			}
		}
	}
	if s := load(t, 3, 1, "SimpleSmsReply"); s.Tasks[0].Intent == nil {
		t.Error("no intent by default")
	}
}
