package knowledge

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The App Map writes of a transaction (Tx): pages, their counters and transitions, applied
// to the in-memory model only after the transaction commits.

// mapBuckets returns the pages and transitions buckets of app, created on first use.
func (tx *Tx) mapBuckets(app string) (pages, trans *bolt.Bucket, err error) {
	if tx.s.opts.ReadOnly {
		return nil, nil, errReadOnly
	}
	maps, err := root(tx.tx, bucketMaps)
	if err != nil {
		return nil, nil, err
	}
	ab, err := maps.CreateBucketIfNotExists([]byte(app))
	if err != nil {
		return nil, nil, err
	}
	if pages, err = ab.CreateBucketIfNotExists(bucketPages); err != nil {
		return nil, nil, err
	}
	if trans, err = ab.CreateBucketIfNotExists(bucketTrans); err != nil {
		return nil, nil, err
	}
	return pages, trans, nil
}

// RecordPage records a page visit in this transaction (see Store.RecordPage).
func (tx *Tx) RecordPage(app string, p Page) (Page, error) {
	if strings.TrimSpace(app) == "" {
		return Page{}, fmt.Errorf("record page: empty app: %w", ErrInvalid)
	}
	if p.Key == "" {
		if p.Activity == "" && p.Signature == "" {
			return Page{}, fmt.Errorf("record page in %s: no key, activity or signature: %w", app, ErrInvalid)
		}
		p.Key = PageKey(p.Activity, p.Signature)
	}
	pages, _, err := tx.mapBuckets(app)
	if err != nil {
		return Page{}, fmt.Errorf("record page in %s: %w", app, err)
	}
	now := tx.s.now()
	stored, found, err := getPage(pages, p.Key)
	if err != nil {
		return Page{}, fmt.Errorf("record page in %s: %w", app, err)
	}
	if !found {
		stored = Page{Key: p.Key, Activity: p.Activity, Signature: p.Signature, FirstSeen: now}
		if stored.ID, err = newPageID(pages); err != nil {
			return Page{}, fmt.Errorf("record page in %s: %w", app, err)
		}
	}
	if p.Description != "" {
		stored.Description = p.Description
	}
	if len(p.Elements) > 0 {
		stored.Elements = slices.Clone(p.Elements)
	}
	if stored.Activity == "" {
		stored.Activity = p.Activity
	}
	if stored.Signature == "" {
		stored.Signature = p.Signature
	}
	stored.Secure = stored.Secure || p.Secure
	stored.Visits++
	stored.LastSeen = now
	if err := putJSON(pages, stored.Key, stored); err != nil {
		return Page{}, fmt.Errorf("record page in %s: %w", app, err)
	}
	tx.afterMap(app, func(m *appMap) { m.putPage(stored) })
	return stored, nil
}

// PageAsked counts a question to the person on page key of app (see Page.Asked).
func (tx *Tx) PageAsked(app, key string) error {
	pages, _, err := tx.mapBuckets(app)
	if err != nil {
		return fmt.Errorf("page asked in %s: %w", app, err)
	}
	stored, found, err := getPage(pages, key)
	if err != nil {
		return fmt.Errorf("page asked in %s: %w", app, err)
	}
	if !found {
		return fmt.Errorf("page asked in %s: page %s: %w", app, key, ErrNotFound)
	}
	stored.Asked++
	if err := putJSON(pages, stored.Key, stored); err != nil {
		return fmt.Errorf("page asked in %s: %w", app, err)
	}
	tx.afterMap(app, func(m *appMap) { m.putPage(stored) })
	return nil
}

// PageExplored counts a visit of the model-free crawler on page key of app (see
// Page.Explored); the page must be recorded first.
func (tx *Tx) PageExplored(app, key string) error {
	pages, _, err := tx.mapBuckets(app)
	if err != nil {
		return fmt.Errorf("page explored in %s: %w", app, err)
	}
	stored, found, err := getPage(pages, key)
	if err != nil {
		return fmt.Errorf("page explored in %s: %w", app, err)
	}
	if !found {
		return fmt.Errorf("page explored in %s: page %s: %w", app, key, ErrNotFound)
	}
	stored.Explored++
	if err := putJSON(pages, stored.Key, stored); err != nil {
		return fmt.Errorf("page explored in %s: %w", app, err)
	}
	tx.afterMap(app, func(m *appMap) { m.putPage(stored) })
	return nil
}

func newPageID(pages *bolt.Bucket) (string, error) {
	n, err := pages.NextSequence()
	if err != nil {
		return "", err
	}
	return "p" + strconv.FormatUint(n, 10), nil
}

func getPage(pages *bolt.Bucket, key string) (Page, bool, error) {
	v := pages.Get([]byte(key))
	if v == nil {
		return Page{}, false, nil
	}
	var p Page
	if err := decode("page", []byte(key), v, &p); err != nil {
		return Page{}, false, err
	}
	return p, true, nil
}

// ensurePage creates a bare page if it does not exist.
func (tx *Tx) ensurePage(app string, pages *bolt.Bucket, key string, now time.Time) error {
	if pages.Get([]byte(key)) != nil {
		return nil
	}
	p := Page{Key: key, FirstSeen: now, LastSeen: now}
	if act, sig, ok := strings.Cut(key, "#"); ok {
		p.Activity, p.Signature = act, sig
	}
	var err error
	if p.ID, err = newPageID(pages); err != nil {
		return err
	}
	if err := putJSON(pages, key, p); err != nil {
		return err
	}
	tx.afterMap(app, func(m *appMap) { m.putPage(p) })
	return nil
}

// RecordTransition records a transition in this transaction (see
// Store.RecordTransition).
func (tx *Tx) RecordTransition(app string, t Transition, success bool) (Transition, error) {
	if strings.TrimSpace(app) == "" {
		return Transition{}, fmt.Errorf("record transition: empty app: %w", ErrInvalid)
	}
	if t.From == "" || t.To == "" || t.Action.Kind == "" {
		return Transition{}, fmt.Errorf("record transition in %s: need from, to and action kind: %w", app, ErrInvalid)
	}
	switch t.Effect {
	case "":
		if t.From == t.To {
			return Transition{}, fmt.Errorf("record transition in %s: effect required on a same-page transition: %w", app, ErrInvalid)
		}
		t.Effect = EffectNewPage
	case EffectNewPage:
		if t.From == t.To {
			return Transition{}, fmt.Errorf("record transition in %s: effect %s but from = to: %w", app, t.Effect, ErrInvalid)
		}
	case EffectSamePage, EffectNoChange:
		if t.From != t.To {
			return Transition{}, fmt.Errorf("record transition in %s: effect %s but from ≠ to: %w", app, t.Effect, ErrInvalid)
		}
	default:
		return Transition{}, fmt.Errorf("record transition in %s: unknown effect %q: %w", app, t.Effect, ErrInvalid)
	}
	if err := checkDeed(t.Deed); err != nil {
		return Transition{}, fmt.Errorf("record transition in %s: %w", app, err)
	}
	pages, trans, err := tx.mapBuckets(app)
	if err != nil {
		return Transition{}, fmt.Errorf("record transition in %s: %w", app, err)
	}
	now := tx.s.now()
	for _, key := range []string{t.From, t.To} {
		if err := tx.ensurePage(app, pages, key, now); err != nil {
			return Transition{}, fmt.Errorf("record transition in %s: %w", app, err)
		}
	}
	k := t.key()
	stored := Transition{From: t.From, To: t.To, Action: t.Action, FirstSeen: now}
	stored.Action.Args = maps.Clone(t.Action.Args)
	if v := trans.Get([]byte(k)); v != nil {
		if err := decode("transition", []byte(k), v, &stored); err != nil {
			return Transition{}, fmt.Errorf("record transition in %s: %w", app, err)
		}
	}
	stored.Effect = t.Effect
	if success {
		stored.Deed = withDeed(stored.Deed, t.Deed)
		stored.Successes++
	} else {
		stored.Failures++
	}
	stored.LastSeen = now
	if err := putJSON(trans, k, stored); err != nil {
		return Transition{}, fmt.Errorf("record transition in %s: %w", app, err)
	}
	tx.afterMap(app, func(m *appMap) { m.putTransition(stored) })
	return stored, nil
}

// TransitionServed records that transition t (its from, to and action) completed sub-goal
// goal in a run that was confirmed. The transition must be in the map (ErrNotFound
// otherwise); a sub-goal it already served is not added twice, and only the latest
// MaxGoals are kept.
func (tx *Tx) TransitionServed(app string, t Transition, goal string) error {
	k := GoalKey(goal)
	if strings.TrimSpace(app) == "" || k == "" {
		return fmt.Errorf("transition served: need an app and a sub-goal: %w", ErrInvalid)
	}
	return tx.updateGoals(app, t, "transition served", func(goals []string) ([]string, error) {
		return withGoal(goals, k), nil
	})
}

// TransitionUnserved takes back a sub-goal TransitionServed recorded: the run it came from
// turned out wrong. A transition or sub-goal not in the map is ErrNotFound.
func (tx *Tx) TransitionUnserved(app string, t Transition, goal string) error {
	return tx.updateGoals(app, t, "transition unserved", func(goals []string) ([]string, error) {
		i := slices.Index(goals, GoalKey(goal))
		if i < 0 {
			return nil, fmt.Errorf("sub-goal %q: %w", goal, ErrNotFound)
		}
		return slices.Delete(goals, i, i+1), nil
	})
}

// updateGoals rewrites the sub-goals of the stored transition t (ErrNotFound when the map
// does not have it) with fn; op names the write in errors.
func (tx *Tx) updateGoals(app string, t Transition, op string, fn func([]string) ([]string, error)) error {
	_, trans, err := tx.mapBuckets(app)
	if err != nil {
		return fmt.Errorf("%s in %s: %w", op, app, err)
	}
	key := t.key()
	v := trans.Get([]byte(key))
	if v == nil {
		return fmt.Errorf("%s in %s: %w", op, app, ErrNotFound)
	}
	var stored Transition
	if err := decode("transition", []byte(key), v, &stored); err != nil {
		return fmt.Errorf("%s in %s: %w", op, app, err)
	}
	if stored.Goals, err = fn(stored.Goals); err != nil {
		return fmt.Errorf("%s in %s: %w", op, app, err)
	}
	if err := putJSON(trans, key, stored); err != nil {
		return fmt.Errorf("%s in %s: %w", op, app, err)
	}
	tx.afterMap(app, func(m *appMap) { m.putTransition(stored) })
	return nil
}

// afterMap schedules a cache update for app, applied after commit if the
// app's map is loaded (an unloaded map is read fresh from the file later).
func (tx *Tx) afterMap(app string, f func(*appMap)) {
	tx.after = append(tx.after, func() {
		if m, ok := tx.s.maps[app]; ok {
			f(m)
		}
	})
}
