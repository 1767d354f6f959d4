package executor

import (
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/guard"
	"github.com/fairy-go/fairy/perception"
)

// TestConsentCarriesToTheConfirmationItOpened: the yes to "Delete note" covers the
// Delete of the dialog it opened, once, on that dialog only; not a payment there, not the
// dialog met again later, and not a dialog the next screen no longer shows.
func TestConsentCarriesToTheConfirmationItOpened(t *testing.T) {
	g, err := guard.New(guard.DefaultPolicy())
	if err != nil {
		t.Fatal(err)
	}
	dialog := &perception.Screen{Signature: "dlg", Elements: []perception.Element{
		{Index: 1, Label: "Delete this note?", Class: "android.widget.TextView"},
		{Index: 2, Label: "Cancel", Class: "android.widget.Button", Clickable: true, ResourceID: "android:id/button2"},
		{Index: 3, Label: "Delete", Class: "android.widget.Button", Clickable: true, ResourceID: "android:id/button1"},
	}}
	del, ok := g.Check(event.Action{Type: event.Tap, Index: 3}, &dialog.Elements[2], dialog)
	if !ok {
		t.Fatal("the dialog's Delete is not held")
	}
	opener := spentKey("delete", "page n: delete note", "what: Shopping list")
	r := &run{cfg: &Config{Guard: g, Bus: event.NewBus(nil)}, spent: map[string]int{opener: 3}, justSpent: opener}
	if !r.openedConfirmation(dialog) {
		t.Fatal("the dialog is not taken for the confirmation Delete note opened")
	}
	r.screen = dialog
	if r.takeCarried(guard.Verdict{Category: "payment", Action: del.Action}) {
		t.Error("a delete's consent carried to a payment")
	}
	if !r.takeCarried(del) {
		t.Fatal("the yes to Delete note does not carry to the dialog's Delete")
	}
	if r.takeCarried(del) {
		t.Error("the carried consent covers a second Delete")
	}
	// A carry holds for the screen after its opener only.
	r.spent[opener], r.justSpent = 3, opener
	r.openedConfirmation(dialog)
	r.openedConfirmation(&perception.Screen{Signature: "list"})
	r.screen = dialog
	if r.takeCarried(del) {
		t.Error("a carried consent outlived the screen it was carried to")
	}
}
