package knowledge

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"
)

// exportFormat names the export document format.
const exportFormat = "fairy-knowledge"

// exportDocument is the JSON export of a whole knowledge file (see the package
// documentation for the format). Lists are sorted so that the same
// knowledge always exports to the same bytes, save ExportedAt.
type exportDocument struct {
	Format     string    `json:"format"` // always "fairy-knowledge"
	Schema     int       `json:"schema"` // schemaVersion
	ExportedAt time.Time `json:"exported_at"`
	Apps       []App     `json:"apps"`
	Maps       []Map     `json:"maps"`
	Tricks     []Trick   `json:"tricks"`
	Runs       []Run     `json:"runs"`
	Routines   []Routine `json:"routines,omitempty"`
	// Readings are the page contents the Key Context Collector read (hashed), with
	// their facts.
	Readings []readingRecord `json:"readings,omitempty"`
	// Thumbs are the pages' pictures (thumbs.go).
	Thumbs []thumbRecord `json:"thumbs,omitempty"`
}

// readingRecord is one reading in an export document.
type readingRecord struct {
	App string `json:"app"`
	Key string `json:"key"`
	Reading
}

// ImportStats counts what Import added or merged.
type ImportStats struct {
	Apps, Pages, Transitions, Tricks, Runs, Routines, Readings, Thumbs int
}

// Export writes everything in the file as one JSON document, read in a
// single consistent transaction.
func (s *Store) Export(w io.Writer) error {
	doc := exportDocument{Format: exportFormat, Schema: schemaVersion, ExportedAt: s.now()}
	err := s.view(func(tx *bolt.Tx) error {
		var err error
		if doc.Apps, err = listApps(tx); err != nil {
			return err
		}
		if b := tx.Bucket(bucketMaps); b != nil {
			var apps []string
			_ = b.ForEachBucket(func(k []byte) error { apps = append(apps, string(k)); return nil })
			for _, app := range apps {
				m, err := loadMap(tx, app)
				if err != nil {
					return err
				}
				doc.Maps = append(doc.Maps, *m.snapshot())
			}
		}
		if doc.Tricks, err = listTricks(tx, "", "", false); err != nil {
			return err
		}
		slices.SortFunc(doc.Tricks, func(a, b Trick) int {
			if c := cmp.Compare(a.App, b.App); c != 0 {
				return c
			}
			return compareIDs(a.ID, b.ID)
		})
		if doc.Routines, err = listRoutines(tx, ""); err != nil {
			return err
		}
		if doc.Readings, err = listReadings(tx); err != nil {
			return err
		}
		if doc.Thumbs, err = listThumbs(tx); err != nil {
			return err
		}
		doc.Runs, err = listRuns(tx)
		return err
	})
	if err != nil {
		return fmt.Errorf("export knowledge: %w", err)
	}
	if doc.Apps == nil {
		doc.Apps = []App{}
	}
	if doc.Maps == nil {
		doc.Maps = []Map{}
	}
	if doc.Tricks == nil {
		doc.Tricks = []Trick{}
	}
	if doc.Runs == nil {
		doc.Runs = []Run{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("export knowledge: %w", err)
	}
	return nil
}

// Import merges an exported document into the store in one transaction:
// nothing is written if any record is invalid, or if the document or a text in it
// is over an import cap (ErrTooLarge; see MaxImportBytes). Merging is idempotent —
// importing the same document twice changes nothing the second time:
//   - apps: non-empty imported fields replace stored ones;
//   - pages (by key) and transitions (by from, action, to): counters become the
//     larger of the two, first/last seen the earliest/latest, empty
//     descriptions and elements are filled; new pages get local short IDs;
//   - tricks: one with the same app, kind and text as a stored trick updates
//     its counters (larger of the two); others are added under their ID, or a
//     new one when that ID is taken;
//   - runs: by ID, replaced;
//   - routines (by ID) and readings (by app and key): counters become the larger of
//     the two; a reading's facts are the union; a routine's confirming instances
//     and bindings are the union, unless one side was demoted more often (its own
//     are kept);
//   - thumbnails (by app and page key, the page imported or stored): the newer picture.
func (s *Store) Import(r io.Reader) (ImportStats, error) {
	// Read up to the cap first: a document over it is refused without being parsed.
	raw, err := io.ReadAll(io.LimitReader(r, MaxImportBytes+1))
	if err != nil {
		return ImportStats{}, fmt.Errorf("import knowledge: %w", err)
	}
	if len(raw) > MaxImportBytes {
		return ImportStats{}, fmt.Errorf("import knowledge: the document is over the %d MiB cap: nothing imported: %w", MaxImportBytes>>20, ErrTooLarge)
	}
	var doc exportDocument
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return ImportStats{}, fmt.Errorf("import knowledge: decode: %w", err)
	}
	if doc.Format != exportFormat {
		return ImportStats{}, fmt.Errorf("import knowledge: format %q, want %q: %w", doc.Format, exportFormat, ErrFormat)
	}
	if doc.Schema != schemaVersion {
		return ImportStats{}, fmt.Errorf("import knowledge: schema %d, this fairy reads %d: %w", doc.Schema, schemaVersion, ErrFormat)
	}
	if err := doc.checkCaps(); err != nil {
		return ImportStats{}, fmt.Errorf("import knowledge: nothing imported: %w", err)
	}
	var st ImportStats
	err = s.Update(func(tx *Tx) error {
		st = ImportStats{}
		for _, a := range doc.Apps {
			if _, err := tx.PutApp(a); err != nil {
				return err
			}
			st.Apps++
		}
		for _, m := range doc.Maps {
			n, k, err := tx.importMap(m)
			if err != nil {
				return err
			}
			st.Pages += n
			st.Transitions += k
		}
		for _, t := range doc.Tricks {
			if err := tx.importTrick(t); err != nil {
				return err
			}
			st.Tricks++
		}
		for _, r := range doc.Runs {
			if err := tx.PutRun(r); err != nil {
				return err
			}
			st.Runs++
		}
		for _, r := range doc.Routines {
			if err := tx.importRoutine(r); err != nil {
				return err
			}
			st.Routines++
		}
		for _, r := range doc.Readings {
			if err := tx.importReading(r); err != nil {
				return err
			}
			st.Readings++
		}
		for _, r := range doc.Thumbs {
			if err := tx.importThumb(r); err != nil {
				return err
			}
			st.Thumbs++
		}
		return nil
	})
	if err != nil {
		return ImportStats{}, fmt.Errorf("import knowledge: %w", err)
	}
	return st, nil
}

func earlier(a, b time.Time) time.Time {
	if a.IsZero() || (!b.IsZero() && b.Before(a)) {
		return b
	}
	return a
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func (tx *Tx) importMap(m Map) (pagesN, transN int, err error) {
	if m.App == "" {
		return 0, 0, fmt.Errorf("map without app: %w", ErrInvalid)
	}
	pages, trans, err := tx.mapBuckets(m.App)
	if err != nil {
		return 0, 0, fmt.Errorf("map %s: %w", m.App, err)
	}
	for _, p := range m.Pages {
		if p.Key == "" {
			return 0, 0, fmt.Errorf("map %s: page without key: %w", m.App, ErrInvalid)
		}
		stored, found, err := getPage(pages, p.Key)
		if err != nil {
			return 0, 0, fmt.Errorf("map %s: %w", m.App, err)
		}
		if !found {
			stored = p
			if stored.ID, err = newPageID(pages); err != nil {
				return 0, 0, err
			}
		} else {
			stored.Visits = max(stored.Visits, p.Visits)
			stored.Asked = max(stored.Asked, p.Asked)
			stored.Explored = max(stored.Explored, p.Explored)
			stored.Secure = stored.Secure || p.Secure
			stored.FirstSeen = earlier(stored.FirstSeen, p.FirstSeen)
			stored.LastSeen = later(stored.LastSeen, p.LastSeen)
			stored.Description = cmp.Or(stored.Description, p.Description)
			if len(stored.Elements) == 0 {
				stored.Elements = p.Elements
			}
		}
		if err := putJSON(pages, stored.Key, stored); err != nil {
			return 0, 0, err
		}
		pagesN++
	}
	for _, t := range m.Transitions {
		if t.From == "" || t.To == "" || t.Action.Kind == "" {
			return 0, 0, fmt.Errorf("map %s: transition needs from, to and action kind: %w", m.App, ErrInvalid)
		}
		if pages.Get([]byte(t.From)) == nil || pages.Get([]byte(t.To)) == nil {
			return 0, 0, fmt.Errorf("map %s: transition %s → %s refers to a missing page: %w", m.App, t.From, t.To, ErrInvalid)
		}
		k := t.key()
		stored := t
		if v := trans.Get([]byte(k)); v != nil {
			if err := decode("transition", []byte(k), v, &stored); err != nil {
				return 0, 0, fmt.Errorf("map %s: %w", m.App, err)
			}
			stored.Successes = max(stored.Successes, t.Successes)
			stored.Failures = max(stored.Failures, t.Failures)
			stored.FirstSeen = earlier(stored.FirstSeen, t.FirstSeen)
			stored.LastSeen = later(stored.LastSeen, t.LastSeen)
			for _, g := range t.Goals {
				stored.Goals = withGoal(stored.Goals, GoalKey(g))
			}
			if stored.Deed.IsZero() {
				stored.Deed = t.Deed
			}
		}
		if err := putJSON(trans, k, stored); err != nil {
			return 0, 0, err
		}
		transN++
	}
	app := m.App
	tx.after = append(tx.after, func() { delete(tx.s.maps, app) }) // reload lazily
	return pagesN, transN, nil
}

func (tx *Tx) importTrick(t Trick) error {
	if err := t.validate(); err != nil {
		return fmt.Errorf("trick %s: %w", t.ID, err)
	}
	same, err := listTricks(tx.tx, t.App, t.Kind, false)
	if err != nil {
		return err
	}
	for _, old := range same {
		if old.Text == t.Text {
			old.Uses = max(old.Uses, t.Uses)
			old.Successes = max(old.Successes, t.Successes)
			old.Merges = max(old.Merges, t.Merges)
			old.Demotions = max(old.Demotions, t.Demotions)
			old.rescore()
			return tx.putTrick(old)
		}
	}
	if t.ID != "" && tx.tx.Bucket(bucketTrickIDs).Get([]byte(t.ID)) != nil {
		t.ID = ""
	}
	_, err = tx.AddTrick(t)
	return err
}

// importRoutine merges one routine.
func (tx *Tx) importRoutine(r Routine) error {
	if err := r.validate(); err != nil {
		return err
	}
	if r.ID != RoutineID(r.App, r.Steps) {
		return fmt.Errorf("routine %s of %s: its ID does not match its steps: %w", r.ID, r.App, ErrInvalid)
	}
	top, err := root(tx.tx, bucketRoutines)
	if err != nil {
		return err
	}
	b, err := top.CreateBucketIfNotExists([]byte(r.App))
	if err != nil {
		return err
	}
	var old Routine
	if v := b.Get([]byte(r.ID)); v != nil && decode("routine", []byte(r.ID), v, &old) == nil {
		r.Runs, r.Stops = max(r.Runs, old.Runs), max(r.Stops, old.Stops)
		mergeTrust(&r, old)
		r.Answers = r.Answers || old.Answers
		if old.LearnedFrom != "" {
			r.LearnedFrom = old.LearnedFrom
		}
		mergeNames(&r, old)
		r.FirstSeen, r.LastSeen = earlier(old.FirstSeen, r.FirstSeen), later(old.LastSeen, r.LastSeen)
	}
	return putJSON(b, r.ID, r)
}

// mergeTrust gives an imported routine r the trust record of old, the stored one: the
// instances, bindings and reruns that confirmed it are the union of both (the knowledge of
// runs that each learned into their own file, merged, confirms what each run did),
// unless one of the two was demoted more often: its record alone is kept, for the
// other's confirmations may be the ones its demotion took back.
func mergeTrust(r *Routine, old Routine) {
	switch {
	case r.Demoted > old.Demoted:
	case r.Demoted < old.Demoted:
		r.Demoted, r.Instances, r.Bindings, r.Reruns = old.Demoted, old.Instances, old.Bindings, old.Reruns
	default:
		r.Instances = mergeInstances(old.Instances, r.Instances)
		r.Bindings = mergeInstances(old.Bindings, r.Bindings)
		r.Reruns = mergeInstances(old.Reruns, r.Reruns)
	}
}

// importReading merges one reading.
func (tx *Tx) importReading(r readingRecord) error {
	if r.App == "" || r.Key == "" || len(r.Facts) > maxReadingFacts {
		return fmt.Errorf("reading %q of %q: needs an app, a key and at most %d facts: %w", r.Key, r.App, maxReadingFacts, ErrInvalid)
	}
	top, err := root(tx.tx, bucketReadings)
	if err != nil {
		return err
	}
	b, err := top.CreateBucketIfNotExists([]byte(r.App))
	if err != nil {
		return err
	}
	var old Reading
	if v := b.Get([]byte(r.Key)); v != nil && decode("reading", []byte(r.Key), v, &old) == nil {
		r.Reads = max(r.Reads, old.Reads)
		for _, f := range old.Facts {
			if !slices.ContainsFunc(r.Facts, func(g Fact) bool { return g.Key == f.Key }) && len(r.Facts) < maxReadingFacts {
				r.Facts = append(r.Facts, f)
			}
		}
	}
	return putJSON(b, r.Key, r.Reading)
}
