package etcdstore

import (
	"testing"

	"github.com/fairy-go/fairy/knowledge"
)

// TestDeedsReachEveryAgent: a deed one agent learns (an action that deleted a row) is
// listed by every other agent sharing the knowledge, on a bbolt file and on etcd alike.
func TestDeedsReachEveryAgent(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			learner, other := b.open(t), b.open(t)
			if _, err := other.Deeds("com.tidy"); err != nil { // the other agent has the map in hand
				t.Fatal(err)
			}
			goBtn := knowledge.Action{Kind: knowledge.ActionTap, Target: knowledge.Element{ResourceID: "com.tidy:id/go", Text: "Go"}}
			from := knowledge.PageKey(".Main", "list")
			deed := knowledge.Deed{Category: "delete", Evidence: "deleted a row", X: 810, Y: 2190}
			if _, err := learner.RecordTransition("com.tidy", knowledge.Transition{From: from, To: from, Action: goBtn, Effect: knowledge.EffectSamePage, Deed: deed}, true); err != nil {
				t.Fatal(err)
			}
			eventually(t, "the deed at the other agent", func() bool {
				ds, err := other.Deeds("com.tidy")
				return err == nil && len(ds) == 1 && ds[0].Category == "delete" && ds[0].Target.ResourceID == "com.tidy:id/go" && ds[0].X == 810
			})
		})
	}
}
