// Package boltfile is a bounds-checked reader of bbolt's file format (version 2),
// independent of bbolt.
//
// bbolt trusts its pages: it reads them straight from a memory map, so a damaged page makes
// it panic ("assertion failed: Page expected to be…", "slice bounds out of range") or read
// past the end of a truncated file, a memory fault that no recover catches. knowledge's Open
// therefore walks the file with this reader before bbolt reads any page (Verify), and
// knowledge's Repair salvages records with it (Walker); neither can crash on any input.
//
// The types to know: File is a whole file read through its newest valid meta record (Read,
// Parse); Walker visits the records of a bucket in key order, skipping and noting damaged
// pages; Verify walks every bucket and the freelist and says what is wrong. What the records
// mean is the knowledge store's business, not this package's.
//
// The layout is that of bbolt's internal/common package: a page is a 16-byte header (id
// u64, flags u16, count u16, overflow u32) followed by count 16-byte elements; pages 0 and 1
// hold the two meta records, the newer valid one of which names the root bucket, the
// freelist page and the high-water mark. Integers are in the machine's byte order, as bbolt
// writes them.
package boltfile
