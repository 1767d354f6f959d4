// Package knowledge is fairy's long-term memory: one bbolt file holding App
// Tricks, App Maps, app metadata and a short run history. It is the only
// package that imports bbolt.
//
// # The file
//
// A Store holds the file's lock only while a transaction runs, not for its
// whole life (file.go), so inspection commands and a second run can use the
// file while a run goes. Open and every transaction wait for the lock up to
// Options.Timeout without a commit (a file another process keeps longer gives
// ErrInUse with a sentence saying what to do; other writers committing meanwhile
// extend the wait). Open checks the stored schema version
// (ErrSchema on a mismatch), and creates the layout in a new file. Every change is one bbolt transaction — Store.Update groups several
// into one — so a process killed mid-write leaves the last committed state.
//
// # Shared knowledge (a fleet)
//
// OpenMirror opens the same Store over a Remote shared by many agents (etcd, in
// knowledge/etcdstore): every read is the code above on a private local replica, kept
// current by the Remote's watch; every write (Update) is committed to the Remote with a
// compare-and-swap on its revision and redone on the newer state when another agent
// wrote first, so concurrent learners merge. While the Remote is away, reads go on from
// the replica and writes queue (ErrRemoteAway); Close says what was never stored
// (mirror.go).
//
// # Damage
//
// A file cut short, or with pages overwritten or bits flipped, is reported as a
// *DamageError (errors.Is ErrDamaged) that names the file and says what to do, never as
// a panic. Open verifies an existing file page by page before bbolt reads it, with a
// bounds-checked reader of bbolt's format (knowledge/internal/boltfile; a few milliseconds for a 16 MiB file,
// BenchmarkOpenVerified); every read and write also turns a panic or memory fault inside
// bbolt into a DamageError, after which the store writes nothing; a record that does not
// decode is a DamageError naming it. Store.Check adds bbolt's own consistency check and
// checks that the records agree. Repair copies every record that still reads into a new
// file and counts, kind by kind, what it saved and lost; it never writes the damaged file.
//
// Import refuses, whole, a document over MaxImportBytes or with a text over its cap
// (MaxTrickText, MaxName, 2 KiB for a description): ErrTooLarge.
//
// # App Tricks
//
// A Trick is a natural-language tip for one app package (or Common) of one
// Kind: planning, action or error-recovery, with provenance and usage
// counters. Store.Search ranks an app's and Common's tricks against a query by
// BM25 relevance weighted by the trick's score. Text is split into terms that
// work for English and Chinese alike: Latin words (stop words dropped, lightly
// stemmed) and CJK character bigrams. Store.UpsertTrick folds near-duplicates
// into one trick; Store.Demote halves a contradicted trick's score.
//
// # App Maps
//
// Per app, pages (activity + perception page signature) and transitions
// (an action on an element identified by resource-id/text/class, its effect,
// and success/failure counts) form a directed graph held in memory as a
// github.com/dominikbraun/graph graph and persisted in the file. Maps load
// lazily (or at Open with Options.Preload). Store.Path finds the most
// reliable route between two pages over a cached adjacency index.
//
// # Export format
//
// Store.Export writes, and Store.Import reads, one JSON document (stable;
// fields are only ever added, and "schema" changes if their meaning does):
//
//	{
//	  "format": "fairy-knowledge",
//	  "schema": 1,
//	  "exported_at": "2025-01-02T03:04:05Z",
//	  "apps": [{"package": "com.example.chat", "label": "Chat",
//	            "launcher_activity": ".Main", "description": "…", "updated": "…"}],
//	  "maps": [{
//	    "app": "com.example.chat",
//	    "pages": [{"key": ".Main#a1b2", "id": "p1", "activity": ".Main",
//	               "signature": "a1b2", "description": "Conversation list",
//	               "elements": [{"resource_id": "compose", "text": "New", "class": "android.widget.Button"}],
//	               "first_seen": "…", "last_seen": "…", "visits": 3}],
//	    "transitions": [{"from": ".Main#a1b2", "to": ".Compose#c3d4",
//	                     "action": {"kind": "tap", "target": {"resource_id": "compose"},
//	                                "args": {"direction": "up"}},
//	                     "effect": "new-page",
//	                     "successes": 2, "failures": 0,
//	                     "first_seen": "…", "last_seen": "…"}]
//	  }],
//	  "tricks": [{"id": "t1", "app": "com.example.chat", "kind": "action",
//	              "text": "Tap the compose button to start a new message.",
//	              "provenance": {"instruction": "…", "run_id": "…", "outcome": "success", "time": "…"},
//	              "uses": 4, "successes": 3, "merges": 1, "demotions": 0, "score": 0.67}],
//	  "runs": [{"id": "r1", "instruction": "…", "apps": ["com.example.chat"], "outcome": "success",
//	            "steps": 7, "model_calls": 15, "tokens": 12000, "cost": 0.01,
//	            "start": "…", "duration_ns": 42000000000, "used_knowledge": false}]
//	}
//
// Times are RFC 3339 in UTC. Page keys, not page IDs, link transitions to
// pages: IDs are per-file aliases and are renumbered on import. Effects are
// "new-page", "same-page-changed" or "no-change"; kinds "planning", "action"
// or "error-recovery"; action kinds "tap", "long-press", "swipe", "input",
// "clear", "back", "home", "enter", "key", "open-app", "wait". Unknown fields
// are rejected on import.
package knowledge
