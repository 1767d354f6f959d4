package agent

import (
	"context"
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/knowledge/etcdstore"
	"github.com/fairy-go/fairy/knowledge/etcdstore/etcdtest"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/llm/openai"
	"github.com/fairy-go/fairy/llm/scripted"
	"github.com/fairy-go/fairy/sim"
)

// runWithStore runs the page-by-page Maps task once on a fresh virtual phone against
// store; before is called before every model call.
func runWithStore(t *testing.T, store *knowledge.Store, id string, before func(llm.Request)) (Result, bool) {
	t.Helper()
	ctx := t.Context()
	clock := func() time.Time { return time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC) }
	phone, err := sim.New(sim.Config{Seed: 7, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	phones, err := ServePhones(nil, phone)
	if err != nil {
		t.Fatal(err)
	}
	defer phones.Close()
	dev, err := OpenDevice(ctx, phones.Device(phone.Serial(), nil))
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close(context.Background())
	rules, err := scripted.ParseRules([]byte(pageByPage))
	if err != nil {
		t.Fatal(err)
	}
	model, err := ServeScriptedModel(rules, openai.Config{MaxRetries: -1, RepairRetries: -1, Timeout: 10 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	person, err := interaction.NewCanned(nil, "yes")
	if err != nil {
		t.Fatal(err)
	}
	ag, err := New(Config{TextOnly: true, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	res, err := ag.Run(ctx, Run{Instruction: "Turn off all notifications from Maps", Dir: filepath.Join(t.TempDir(), id), ID: id,
		Device: dev, Model: hookModel{Model: model.Model, before: before}, Dialoger: person, Knowledge: store})
	if err != nil {
		t.Fatal(err)
	}
	return res, phone.Setting("secure/notif_off_com.fairy.maps") == "1"
}

// TestEtcdKilledMidRun: an agent learns into etcd, then etcd is killed in the middle of
// its next run. The task finishes; the run still gains from what its local copy holds (the
// App Map's verified steps); what it could not store shows as learning errors, and
// closing the store says how many writes were never stored.
func TestEtcdKilledMidRun(t *testing.T) {
	srv := etcdtest.Start(t)
	cfg, err := etcdstore.ParseURL(srv.URL("fleet"))
	if err != nil {
		t.Fatal(err)
	}
	store, err := etcdstore.Open(cfg, knowledge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	cold, coldOff := runWithStore(t, store, "cold", nil)
	if cold.Err != nil || cold.KnowledgeErr != nil || cold.Summary.Outcome != event.OutcomeDone || !coldOff {
		t.Fatalf("cold run with etcd up: %v, %v, %s, off=%v", cold.Err, cold.KnowledgeErr, cold.Summary.Outcome, coldOff)
	}
	var calls atomic.Int32
	warm, warmOff := runWithStore(t, store, "warm", func(llm.Request) {
		if calls.Add(1) == 3 {
			srv.Kill()
		}
	})
	if warm.Err != nil || warm.Summary.Outcome != event.OutcomeDone || !warmOff {
		t.Fatalf("run with etcd killed mid-run: %v, outcome %s (%s), notifications off=%v", warm.Err, warm.Summary.Outcome, warm.Summary.Reason, warmOff)
	}
	k := warm.Summary.Knowledge
	t.Logf("etcd killed at the 3rd model call: model calls %d → %d, verified steps %d, learn errors %d, knowledge error: %v",
		cold.Summary.ModelCalls, warm.Summary.ModelCalls, k.VerifiedSteps, k.LearnErrors, warm.KnowledgeErr)
	if k.VerifiedSteps == 0 {
		t.Errorf("the run with etcd gone verified no step: the local copy of the map was not used")
	}
	if k.LearnErrors == 0 && warm.KnowledgeErr == nil {
		t.Errorf("nothing says that the run's learning could not be stored")
	}
	if err := store.Close(); !errors.Is(err, knowledge.ErrRemoteAway) {
		t.Errorf("closing the store with etcd gone: %v, want ErrRemoteAway (writes never stored)", err)
	}
}
