package knowledge

import (
	"fmt"
	"strings"
)

// The Store's App Map API: a snapshot of an app's map, a page by reference, and the two
// records (a page visit, a transition) each in a transaction of its own.

// RecordPage records a visit to a page of app: the first visit creates it
// (with a short ID), later ones bump Visits and LastSeen and replace the
// description and elements when given. Key defaults to PageKey(Activity,
// Signature).
func (s *Store) RecordPage(app string, p Page) (Page, error) {
	err := s.Update(func(tx *Tx) error { var err error; p, err = tx.RecordPage(app, p); return err })
	return p, err
}

// RecordTransition records that action t.Action on page t.From led to
// t.To with t.Effect, counting a success or a failure (the action did not do
// what the map expected). Missing pages are created bare. An empty Effect is
// inferred as EffectNewPage when From ≠ To.
func (s *Store) RecordTransition(app string, t Transition, success bool) (Transition, error) {
	err := s.Update(func(tx *Tx) error { var err error; t, err = tx.RecordTransition(app, t, success); return err })
	return t, err
}

// Map returns a snapshot of app's map (empty, not an error, for an unknown app).
func (s *Store) Map(app string) (*Map, error) {
	var out *Map
	err := s.withMap(app, func(m *appMap) error { out = m.snapshot(); return nil })
	if err != nil {
		return nil, fmt.Errorf("map %s: %w", app, err)
	}
	return out, nil
}

// Page resolves a page of app by key, short ID or unique key prefix.
func (s *Store) Page(app, ref string) (Page, error) {
	var out Page
	err := s.withMap(app, func(m *appMap) error {
		if p, ok := m.pages[ref]; ok {
			out = *p
			return nil
		}
		var found []*Page
		for _, p := range m.pages {
			if p.ID == ref {
				out = *p
				return nil
			}
			if ref != "" && strings.HasPrefix(p.Key, ref) {
				found = append(found, p)
			}
		}
		switch len(found) {
		case 0:
			return fmt.Errorf("page %q in %s: %w", ref, app, ErrNotFound)
		case 1:
			out = *found[0]
			return nil
		}
		return fmt.Errorf("page %q in %s matches %d pages; use its ID: %w", ref, app, len(found), ErrAmbiguous)
	})
	return out, err
}
