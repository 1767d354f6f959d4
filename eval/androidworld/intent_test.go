package androidworld

import (
	"encoding/base64"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/eval/suite"
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

// TestIntentKnowsLookAlikes: in the duplicate families a noise row may share the twins'
// title (a near-duplicate: same name, another amount or description). The person asked to
// delete one of the twins keeps the near-duplicate: their intent holds what tells it
// apart (a detail of its own), and nothing the twins show.
func TestIntentKnowsLookAlikes(t *testing.T) {
	found := 0
	for seed := int64(1); seed <= 60 && found < 3; seed++ {
		s := load(t, seed, 3, "ExpenseDeleteDuplicates,RecipeDeleteDuplicateRecipes")
		for _, task := range s.Tasks {
			coll := "com.fairy.expenses:expenses"
			if strings.HasPrefix(task.ID, "Recipe") {
				coll = "com.fairy.recipes:recipes"
			}
			rows := seededRows(t, task, coll)
			twin := rows[slices.IndexFunc(rows, func(r map[string]string) bool { return r["id"] == "t1" })]
			for _, r := range rows {
				if r["id"] == "t1" || r["id"] == "t2" || rowName(r) != rowName(twin) {
					continue
				}
				found++
				t.Logf("%s: twin %v, near-duplicate %v, person keeps %q", task.ID, twin, r, task.Intent.Keeps)
				own := 0
				for k, v := range r {
					if k != "id" && k != "seq" && len(v) >= 4 && v != twin[k] && !slices.Contains(slices.Collect(maps.Values(twin)), v) {
						own++
						if !slices.Contains(task.Intent.Keeps, strings.TrimSpace(v)) {
							t.Errorf("%s: the near-duplicate's %s %q is not among what the person keeps %q", task.ID, k, v, task.Intent.Keeps)
						}
					}
				}
				if own == 0 {
					t.Logf("%s: near-duplicate %v differs only in short fields", task.ID, r)
				}
				for _, k := range task.Intent.Keeps {
					for f, v := range twin {
						if f != "id" && f != "seq" && strings.Contains(strings.ToLower(v), strings.ToLower(k)) {
							t.Errorf("%s: the person keeps %q, which the twin shows (%s %q)", task.ID, k, f, v)
						}
					}
				}
			}
		}
	}
	t.Logf("%d near-duplicates checked", found)
	if found == 0 {
		t.Fatal("no near-duplicate drawn on seeds 1–60: the test saw nothing")
	}
}

// seededRows are the rows a task's setup seeds into collection.
func seededRows(t *testing.T, task *suite.Task, collection string) []map[string]string {
	t.Helper()
	for _, c := range task.Phone.Sim.Setup {
		if f := strings.Fields(c); len(f) == 4 && f[1] == "seed" && f[2] == collection {
			raw, err := base64.StdEncoding.DecodeString(f[3])
			if err != nil {
				t.Fatal(err)
			}
			var rows []map[string]string
			if err := json.Unmarshal(raw, &rows); err != nil {
				t.Fatal(err)
			}
			return rows
		}
	}
	t.Fatalf("%s seeds no %s", task.ID, collection)
	return nil
}

// TestDeleteAllOfOne: MarkorDeleteAllNotes may seed a single note; the person asked to
// delete all notes, so the select-all dialog ("Delete 1 notes?"), which names no note, is
// theirs: their intent names no row (any delete there is meant), as with several notes.
func TestDeleteAllOfOne(t *testing.T) {
	task := load(t, 5, 1, "MarkorDeleteAllNotes").Tasks[0]
	if rows := seededRows(t, task, notesPkg+":notes"); len(rows) != 1 {
		t.Fatalf("seed 5 draws %d notes, want the instance with one", len(rows))
	}
	if in := task.Intent; len(in.Deletes) != 0 || !slices.Contains(in.Kinds, "delete") {
		t.Errorf("a delete-all of one note: %+v, want any delete meant", in)
	}
}
