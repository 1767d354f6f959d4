package knowledge

import (
	"encoding/json"
	"errors"
	"fmt"
	bolt "go.etcd.io/bbolt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fairy-go/fairy/internal/table"
	"github.com/fairy-go/fairy/knowledge/internal/boltfile"
)

// Record kinds, as a RepairReport counts them.
const (
	kindApps        = "apps"
	kindPages       = "pages"
	kindTransitions = "transitions"
	kindTricks      = "tricks"
	kindRuns        = "runs"
	kindRoutines    = "routines"
	kindReadings    = "readings"
	kindThumbs      = "thumbs"
)

// repairKinds are the kinds in the order a RepairReport lists them.
var repairKinds = []string{kindApps, kindPages, kindTransitions, kindTricks, kindRuns, kindRoutines, kindReadings, kindThumbs}

// RepairReport says what Repair saved from a damaged file and what it lost, kind by kind.
type RepairReport struct {
	// Kinds counts apps, pages, transitions, tricks, runs, routines, readings and
	// thumbnails, in that order.
	Kinds []RepairCount
	// Problems is the damage met on the way (at most a few dozen).
	Problems []string
}

// RepairCount is what Repair did with one kind of record. Saved plus Lost is every record
// of the kind the file held, unless Uncounted says that some could not be counted.
type RepairCount struct {
	Kind  string // apps, pages, transitions, tricks, runs, routines, readings or thumbs
	Saved int    // records copied into the new file
	// Lost counts records that were not copied: found but they do not decode, are invalid
	// or repeat one already saved; on a damaged page whose header still counts them;
	// transitions and thumbnails whose page was lost; tricks the trick index names but no
	// readable page holds.
	Lost int
	// LostPages counts damaged pages of this kind's buckets, skipped whole.
	LostPages int
	// Uncounted says that damaged pages held records of this kind that nothing left in
	// the file counts (a page overwritten or cut off, the bucket above them lost): Lost is
	// then a lower bound, one record for each lost page a branch page still names.
	Uncounted bool
}

// Repair copies every record of the knowledge file src that still reads into a new
// knowledge file dst, and reports, kind by kind, what it saved and lost. It reads src
// with the bounds-checked reader of knowledge/internal/boltfile, so that a damaged page loses its own records
// only, and never writes src. dst must not exist; it appears whole or not at all. Repair
// needs src's meta pages: when they are unreadable it returns a *DamageError saying so.
func Repair(src, dst string, opts Options) (RepairReport, error) {
	var rep RepairReport
	if opts.Timeout <= 0 {
		opts.Timeout = defaultTimeout
	}
	if _, err := os.Stat(dst); err == nil {
		return rep, invalidf("repair knowledge file %s: %s already exists: name a new file for the repaired copy", src, dst)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return rep, fmt.Errorf("repair knowledge file %s: %w", src, err)
	}
	// A shared lock keeps a running fairy from writing src meanwhile. A file bbolt cannot
	// open at all is read without one: boltfile.Read says what is left of it.
	if db, err := openBolt(src, Options{Timeout: opts.Timeout}, true); err == nil {
		defer db.Close()
	} else if errors.Is(err, ErrInUse) || errors.Is(err, fs.ErrNotExist) {
		return rep, fmt.Errorf("repair: %w", err)
	}
	d, err := boltfile.Read(src)
	if d == nil {
		if errors.Is(err, fs.ErrNotExist) {
			return rep, fmt.Errorf("repair knowledge file %s: %w", src, err)
		}
		return rep, &DamageError{File: src, Problems: []string{err.Error(), "nothing can be saved"}, Unreadable: true}
	}
	// The problems are the verification's (meta pages and freelist included); the salvage
	// walk meets the same ones in the buckets.
	if err != nil {
		rep.Problems = append(rep.Problems, table.Escape(err.Error()))
	}
	rep.Problems = append(rep.Problems, boltfile.Verify(d, maxProblems)...)
	sv := newSalvage(d)
	sv.collect()
	if sv.schema != "" && sv.schema != strconv.Itoa(schemaVersion) {
		return rep, fmt.Errorf("repair knowledge file %s: it has schema version %s but this fairy reads version %d: %w", src, sv.schema, schemaVersion, ErrSchema)
	}
	if err := sv.write(dst, opts); err != nil {
		return rep, fmt.Errorf("repair knowledge file %s: %w", src, err)
	}
	for _, k := range repairKinds {
		rep.Kinds = append(rep.Kinds, *sv.counts[k])
	}
	return rep, nil
}

// salvage is what Repair read from the damaged file: raw records by their identity.
type salvage struct {
	d      *boltfile.File
	w      *boltfile.Walker
	counts map[string]*RepairCount

	schema, created string
	apps            map[string][]byte            // package → App
	pages           map[string]map[string][]byte // app → page key → Page
	pageSeq         map[string]uint64            // app → the pages bucket's sequence
	trans           map[string]map[string]Transition
	transRaw        map[string]map[string][]byte
	tricks          map[string]salvagedTrick // ID → trick
	trickSeq        uint64
	indexed         map[string]bool // trick IDs the trick index names
	indexWhole      bool            // the trick index was read, with no page of it damaged
	lostTricks      map[string]bool // trick IDs whose record was found but lost
	trickPages      RepairCount     // what the damaged pages of the tricks buckets lost
	runs            map[string][]byte
	routines        map[string]map[string][]byte // app → routine ID → Routine
	readings        map[string]map[string][]byte // app → content key → Reading
	thumbs          map[string]map[string][]byte // app → page key → Thumb
}

type salvagedTrick struct {
	app string
	raw []byte
}

func newSalvage(d *boltfile.File) *salvage {
	sv := &salvage{
		d: d, w: boltfile.NewWalker(d, maxProblems), counts: map[string]*RepairCount{},
		apps: map[string][]byte{}, pages: map[string]map[string][]byte{}, pageSeq: map[string]uint64{},
		trans: map[string]map[string]Transition{}, transRaw: map[string]map[string][]byte{},
		tricks: map[string]salvagedTrick{}, indexed: map[string]bool{}, lostTricks: map[string]bool{}, runs: map[string][]byte{},
		routines: map[string]map[string][]byte{}, readings: map[string]map[string][]byte{}, thumbs: map[string]map[string][]byte{},
	}
	for _, k := range repairKinds {
		sv.counts[k] = &RepairCount{Kind: k}
	}
	return sv
}

// walk walks a bucket of buckets, counting the pages it skips (not those of buckets
// inside it, walked with their own kind) against kind ("" for none): the records of
// kinds, in the buckets those pages named, are then uncounted.
func (sv *salvage) walk(kind, where string, hdr []byte, visit boltfile.VisitFunc, kinds ...string) {
	sv.walkCounting(where, hdr, visit, func(int, bool) {
		if kind != "" {
			sv.counts[kind].LostPages++
		}
		for _, k := range kinds {
			sv.counts[k].Uncounted = true
		}
	})
}

// walkCounting walks one bucket, calling onBad for each page it skips.
func (sv *salvage) walkCounting(where string, hdr []byte, visit boltfile.VisitFunc, onBad func(lost int, exact bool)) {
	outer := sv.w.OnBad
	defer func() { sv.w.OnBad = outer }()
	sv.w.OnBad = onBad
	sv.w.WalkBucket(where, hdr, visit)
}

// lostPage counts a damaged page of records into c: the records it held, exactly or at
// least.
func lostPage(c *RepairCount, lost int, exact bool) {
	c.LostPages++
	c.Lost += lost
	c.Uncounted = c.Uncounted || !exact
}

// records walks a bucket of plain records of kind, handing each to keep, which says
// whether it was saved; nested buckets are lost records, and so are those of its damaged
// pages (lostPage).
func (sv *salvage) records(kind, where string, hdr []byte, keep func(k, v []byte) bool) {
	sv.recordsLosing(kind, sv.counts[kind], where, hdr, keep)
}

// recordsLosing is records, counting what its damaged pages lose into pages.
func (sv *salvage) recordsLosing(kind string, pages *RepairCount, where string, hdr []byte, keep func(k, v []byte) bool) {
	sv.walkCounting(where, hdr, func(k, v []byte, bucket bool) {
		if bucket || !keep(k, v) {
			sv.counts[kind].Lost++
			return
		}
		sv.counts[kind].Saved++
	}, func(lost int, exact bool) { lostPage(pages, lost, exact) })
}

// collect reads every bucket of the layout.
func (sv *salvage) collect() {
	// The root names a bucket for each kind: when a page of it is lost, the kinds whose
	// bucket it no longer names are uncounted (their buckets may have been there).
	rootDamaged, seen := false, map[string]bool{}
	defer func() {
		for _, k := range repairKinds {
			sv.counts[k].Uncounted = sv.counts[k].Uncounted || rootDamaged && !seen[k]
		}
	}()
	sv.walkCounting("root", sv.d.RootHeader(), func(name, hdr []byte, bucket bool) {
		for _, k := range bucketKinds[string(name)] {
			seen[k] = bucket
		}
		if !bucket {
			sv.w.Problem("root: record %s is not a bucket", boltfile.Printable(name))
			return
		}
		switch string(name) {
		case string(bucketMeta):
			sv.walk("", "meta", hdr, func(k, v []byte, _ bool) {
				switch string(k) {
				case string(keySchema):
					sv.schema = string(v)
				case string(keyCreated):
					sv.created = string(v)
				}
			})
		case string(bucketApps):
			sv.records(kindApps, "apps", hdr, func(_, v []byte) bool {
				var a App
				if json.Unmarshal(v, &a) != nil || strings.TrimSpace(a.Package) == "" || a.Package == Common || sv.apps[a.Package] != nil {
					return false
				}
				sv.apps[a.Package] = v
				return true
			})
		case string(bucketMaps):
			sv.walk(kindPages, "maps", hdr, func(app, hdr []byte, bucket bool) {
				if bucket {
					sv.collectMap(string(app), hdr)
				}
			}, kindPages, kindTransitions)
		case string(bucketTricks):
			// What the damaged pages of tricks lost is counted once the trick index is
			// read (put): the index names every trick.
			sv.walkCounting("tricks", hdr, func(app, hdr []byte, bucket bool) {
				if bucket {
					sv.collectTricks(string(app), hdr)
				}
			}, func(int, bool) { sv.trickPages.LostPages++; sv.trickPages.Uncounted = true })
		case string(bucketTrickIDs):
			sv.trickSeq = boltfile.Sequence(hdr)
			sv.indexWhole = true
			sv.walkCounting("trickids", hdr, func(id, _ []byte, _ bool) { sv.indexed[string(id)] = true },
				func(int, bool) { sv.indexWhole = false })
		case string(bucketRuns):
			sv.records(kindRuns, "runs", hdr, func(_, v []byte) bool {
				var r Run
				if json.Unmarshal(v, &r) != nil || strings.TrimSpace(r.ID) == "" || sv.runs[r.ID] != nil {
					return false
				}
				sv.runs[r.ID] = v
				return true
			})
		case string(bucketRoutines):
			sv.perApp(kindRoutines, "routines", hdr, sv.routines, func(app string, v []byte) bool {
				var r Routine
				return json.Unmarshal(v, &r) == nil && r.App == app && r.validate() == nil
			})
		case string(bucketReadings):
			sv.perApp(kindReadings, "readings", hdr, sv.readings, func(_ string, v []byte) bool {
				var r Reading
				return json.Unmarshal(v, &r) == nil && len(r.Facts) <= maxReadingFacts
			})
		case string(bucketThumbs):
			sv.perApp(kindThumbs, "thumbs", hdr, sv.thumbs, func(_ string, v []byte) bool {
				var t Thumb
				return json.Unmarshal(v, &t) == nil && t.validate() == nil
			})
		default:
			sv.w.Problem("root: unknown bucket %s skipped", boltfile.Printable(name))
		}
	}, func(int, bool) { rootDamaged = true })
}

// bucketKinds are the kinds of record each top-level bucket holds.
var bucketKinds = map[string][]string{
	string(bucketApps): {kindApps}, string(bucketMaps): {kindPages, kindTransitions}, string(bucketTricks): {kindTricks},
	string(bucketRuns): {kindRuns}, string(bucketRoutines): {kindRoutines}, string(bucketReadings): {kindReadings}, string(bucketThumbs): {kindThumbs},
}

// perApp collects a top-level bucket of per-app buckets of records of kind into into,
// keeping those valid says are sound.
func (sv *salvage) perApp(kind, where string, hdr []byte, into map[string]map[string][]byte, valid func(app string, v []byte) bool) {
	sv.walk(kind, where, hdr, func(app, hdr []byte, bucket bool) {
		if !bucket {
			sv.counts[kind].Lost++
			return
		}
		a := string(app)
		if into[a] == nil {
			into[a] = map[string][]byte{}
		}
		sv.records(kind, where+"/"+boltfile.Printable(app), hdr, func(k, v []byte) bool {
			if into[a][string(k)] != nil || !valid(a, v) {
				return false
			}
			into[a][string(k)] = v
			return true
		})
	}, kind)
}

func (sv *salvage) collectMap(app string, hdr []byte) {
	where := "maps/" + boltfile.Printable([]byte(app))
	pages, trans := map[string][]byte{}, map[string]Transition{}
	raw := map[string][]byte{}
	sv.walk(kindPages, where, hdr, func(name, hdr []byte, bucket bool) {
		switch {
		case bucket && string(name) == string(bucketPages):
			sv.pageSeq[app] = boltfile.Sequence(hdr)
			sv.records(kindPages, where+"/pages", hdr, func(_, v []byte) bool {
				var p Page
				if json.Unmarshal(v, &p) != nil || p.Key == "" || pages[p.Key] != nil {
					return false
				}
				pages[p.Key] = v
				return true
			})
		case bucket && string(name) == string(bucketTrans):
			// Counted once their pages are known (write).
			sv.walkCounting(where+"/trans", hdr, func(_, v []byte, bucket bool) {
				var t Transition
				if bucket || json.Unmarshal(v, &t) != nil || t.From == "" || t.To == "" || t.Action.Kind == "" {
					sv.counts[kindTransitions].Lost++
					return
				}
				if _, dup := trans[t.key()]; dup {
					sv.counts[kindTransitions].Lost++
					return
				}
				trans[t.key()], raw[t.key()] = t, v
			}, func(lost int, exact bool) { lostPage(sv.counts[kindTransitions], lost, exact) })
		default:
			sv.w.Problem("%s: unknown record %s skipped", where, boltfile.Printable(name))
		}
	}, kindPages, kindTransitions)
	sv.pages[app], sv.trans[app], sv.transRaw[app] = pages, trans, raw
}

func (sv *salvage) collectTricks(app string, hdr []byte) {
	sv.recordsLosing(kindTricks, &sv.trickPages, "tricks/"+boltfile.Printable([]byte(app)), hdr, func(k, v []byte) bool {
		var t Trick
		ok := json.Unmarshal(v, &t) == nil && t.ID != "" && sv.tricks[t.ID].raw == nil
		if ok {
			check := t
			err := check.validate()
			ok = err == nil || errors.Is(err, ErrTooLarge) // a long text stored before the cap is kept
		}
		if !ok {
			sv.lostTricks[string(k)] = true
			return false
		}
		sv.tricks[t.ID] = salvagedTrick{app: strings.TrimSpace(t.App), raw: v}
		return true
	})
}

// write writes what was saved into a new file at a temporary name beside dst, checks it,
// and renames it to dst.
func (sv *salvage) write(dst string, opts Options) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".fairy-repair-*.db")
	if err != nil {
		return err
	}
	name := tmp.Name()
	if err := tmp.Close(); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = os.Remove(name)
		}
	}()
	s, err := Open(name, Options{Timeout: opts.Timeout, Clock: opts.Clock, Logger: opts.Logger, noSync: opts.noSync})
	if err != nil {
		return err
	}
	err = s.Update(func(tx *Tx) error { return sv.put(tx) })
	if err == nil {
		err = s.Check()
	}
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write the repaired copy: %w", err)
	}
	return os.Rename(name, dst)
}

// put writes the saved records, verbatim, into a new file's transaction.
func (sv *salvage) put(tx *Tx) error {
	btx := tx.tx
	if _, err := time.Parse(time.RFC3339, sv.created); err == nil {
		if err := btx.Bucket(bucketMeta).Put(keyCreated, []byte(sv.created)); err != nil {
			return err
		}
	}
	apps := btx.Bucket(bucketApps)
	for _, pkg := range sortedKeys(sv.apps) {
		if err := apps.Put([]byte(pkg), sv.apps[pkg]); err != nil {
			return err
		}
	}
	for _, app := range sortedKeys(sv.pages) {
		pages, trans, err := tx.mapBuckets(app)
		if err != nil {
			return err
		}
		seq := sv.pageSeq[app]
		for _, key := range sortedKeys(sv.pages[app]) {
			if err := pages.Put([]byte(key), sv.pages[app][key]); err != nil {
				return err
			}
			var p Page
			_ = json.Unmarshal(sv.pages[app][key], &p)
			seq = max(seq, idNumber(p.ID, "p"))
		}
		if err := pages.SetSequence(seq); err != nil {
			return err
		}
		for _, k := range sortedKeys(sv.trans[app]) {
			t := sv.trans[app][k]
			if sv.pages[app][t.From] == nil || sv.pages[app][t.To] == nil {
				sv.counts[kindTransitions].Lost++
				continue
			}
			if err := trans.Put([]byte(k), sv.transRaw[app][k]); err != nil {
				return err
			}
			sv.counts[kindTransitions].Saved++
		}
	}
	tricks, ids := btx.Bucket(bucketTricks), btx.Bucket(bucketTrickIDs)
	seq := sv.trickSeq
	for _, id := range sortedKeys(sv.tricks) {
		t := sv.tricks[id]
		ab, err := tricks.CreateBucketIfNotExists([]byte(t.app))
		if err != nil {
			return err
		}
		if err := ab.Put([]byte(id), t.raw); err != nil {
			return err
		}
		if err := ids.Put([]byte(id), []byte(t.app)); err != nil {
			return err
		}
		seq = max(seq, idNumber(id, "t"))
	}
	if err := ids.SetSequence(seq); err != nil {
		return err
	}
	// Tricks named by the index but neither saved nor found were on lost pages. With the
	// whole index read, that is their exact count; without it, what the damaged pages
	// still count is a lower bound too.
	missing := 0
	for id := range sv.indexed {
		if sv.tricks[id].raw == nil && !sv.lostTricks[id] {
			missing++
		}
	}
	tc := sv.counts[kindTricks]
	tc.LostPages += sv.trickPages.LostPages
	if sv.indexWhole {
		tc.Lost += missing
		tc.Uncounted = false
	} else {
		tc.Lost += max(missing, sv.trickPages.Lost)
		tc.Uncounted = tc.Uncounted || sv.trickPages.Uncounted || sv.trickPages.LostPages > 0
	}
	runs := btx.Bucket(bucketRuns)
	for _, id := range sortedKeys(sv.runs) {
		if err := runs.Put([]byte(id), sv.runs[id]); err != nil {
			return err
		}
	}
	// A thumbnail whose page was lost goes with it.
	for app, recs := range sv.thumbs {
		for key := range recs {
			if sv.pages[app][key] == nil {
				delete(recs, key)
				sv.counts[kindThumbs].Saved--
				sv.counts[kindThumbs].Lost++
			}
		}
	}
	for name, recs := range map[string]map[string]map[string][]byte{string(bucketRoutines): sv.routines, string(bucketReadings): sv.readings,
		string(bucketThumbs): sv.thumbs} {
		if err := putPerApp(btx, []byte(name), recs); err != nil {
			return err
		}
	}
	return nil
}

// putPerApp writes records by app into the top-level bucket name, creating it when there
// is anything to write.
func putPerApp(btx *bolt.Tx, name []byte, recs map[string]map[string][]byte) error {
	for _, app := range sortedKeys(recs) {
		if len(recs[app]) == 0 {
			continue
		}
		top, err := root(btx, name)
		if err != nil {
			return err
		}
		b, err := top.CreateBucketIfNotExists([]byte(app))
		if err != nil {
			return err
		}
		for _, k := range sortedKeys(recs[app]) {
			if err := b.Put([]byte(k), recs[app][k]); err != nil {
				return err
			}
		}
	}
	return nil
}

// idNumber is n of an ID prefix+n (t12, p3); 0 for another ID.
func idNumber(id, prefix string) uint64 {
	n, err := strconv.ParseUint(strings.TrimPrefix(id, prefix), 10, 64)
	if err != nil || !strings.HasPrefix(id, prefix) {
		return 0
	}
	return n
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
