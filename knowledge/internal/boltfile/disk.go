package knowledge

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"

	"github.com/fairy-go/fairy/internal/table"
)

// A bounds-checked reader of bbolt's file format (version 2), independent of bbolt.
//
// bbolt trusts its pages: it reads them straight from a memory map, so a damaged page makes
// it panic ("assertion failed: Page expected to be…", "slice bounds out of range") or read
// past the end of a truncated file, a memory fault that no recover catches. Open therefore
// walks the file with this reader before bbolt reads any page (verify), and Repair salvages
// records with it; neither can crash on any input. The layout is that of bbolt's
// internal/common package: a page is a 16-byte header (id u64, flags u16, count u16,
// overflow u32) followed by count 16-byte elements; pages 0 and 1 hold the two meta
// records, the newer valid one of which names the root bucket, the freelist page and the
// high-water mark. Integers are in the machine's byte order, as bbolt writes them.

const (
	boltMagic        = 0xED0CDAED
	boltVersion      = 2
	pageHeaderSize   = 16
	elementSize      = 16 // leaf: flags, pos, ksize, vsize u32; branch: pos, ksize u32, pgid u64
	metaChecksumAt   = pageHeaderSize + 56
	metaEnd          = metaChecksumAt + 8
	bucketHeaderSize = 16 // root pgid u64, sequence u64
	noFreelist       = ^uint64(0)
	maxTreeDepth     = 64

	pageBranch   = 0x01
	pageLeaf     = 0x02
	pageMeta     = 0x04
	pageFreelist = 0x10
	leafBucket   = 0x01
)

var le = binary.NativeEndian

// boltMeta is the meta record bbolt uses: the valid one with the higher transaction ID.
type boltMeta struct {
	pageSize uint64
	root     uint64 // root bucket's page
	freelist uint64 // noFreelist when the freelist is not stored
	hwm      uint64 // pages in use: every page ID is below it
	txid     uint64
}

// parseMeta reads the meta record of the page at b and checks magic, version and checksum.
func parseMeta(b []byte) (boltMeta, error) {
	if len(b) < metaEnd {
		return boltMeta{}, fmt.Errorf("meta page cut short")
	}
	m := b[pageHeaderSize:]
	switch {
	case le.Uint32(m[0:]) != boltMagic:
		return boltMeta{}, fmt.Errorf("meta page has no bbolt magic number")
	case le.Uint32(m[4:]) != boltVersion:
		return boltMeta{}, fmt.Errorf("meta page has bbolt version %d", le.Uint32(m[4:]))
	}
	h := fnv.New64a()
	h.Write(b[pageHeaderSize:metaChecksumAt])
	if h.Sum64() != le.Uint64(b[metaChecksumAt:]) {
		return boltMeta{}, fmt.Errorf("meta page checksum mismatch")
	}
	return boltMeta{
		pageSize: uint64(le.Uint32(m[8:])),
		root:     le.Uint64(m[16:]),
		freelist: le.Uint64(m[32:]),
		hwm:      le.Uint64(m[40:]),
		txid:     le.Uint64(m[48:]),
	}, nil
}

// diskFile is a whole bbolt file in memory, read through its newest valid meta record.
type diskFile struct {
	data     []byte
	pageSize uint64
	meta     boltMeta
}

// maxPageSize is the largest page size readDisk accepts (bbolt's largest in use is 64 KiB).
const maxPageSize = 64 << 10

// readDisk reads the file at path, as far as its meta record says pages are in use, and
// picks that meta record as bbolt would. With an error, a nil diskFile means the file has
// no usable meta record; a non-nil one is cut short and reads up to where it stops.
func readDisk(path string) (*diskFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := info.Size()
	head := make([]byte, min(size, 2*maxPageSize))
	if _, err := f.ReadAt(head, 0); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	d, perr := parseDisk(head, size)
	if d == nil {
		return nil, perr
	}
	// bbolt grows a file ahead of its pages: read the pages in use only.
	data := make([]byte, d.meta.hwm*d.pageSize)
	n := copy(data, head)
	if _, err := f.ReadAt(data[n:], int64(n)); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	d.data = data
	return d, perr
}

// parseDisk picks the meta record of a file of size bytes that starts with head (two
// pages at least, when the file has them), as readDisk does.
func parseDisk(head []byte, size int64) (*diskFile, error) {
	// bbolt finds the page size in meta 0, or else in meta 1 at the OS page size.
	m0, err0 := parseMeta(head)
	pageSize := uint64(os.Getpagesize())
	if err0 == nil {
		pageSize = m0.pageSize
	}
	if pageSize < 1024 || pageSize > maxPageSize || pageSize&(pageSize-1) != 0 {
		return nil, fmt.Errorf("meta page gives a page size of %d bytes", pageSize)
	}
	if uint64(size) < 2*pageSize || uint64(len(head)) < 2*pageSize {
		return nil, fmt.Errorf("file is %d bytes, shorter than its two meta pages", size)
	}
	m1, err1 := parseMeta(head[pageSize:])
	// The newer meta record wins when it is valid (bbolt's DB.meta).
	a, b, errA, errB := m0, m1, err0, err1
	if m1.txid > m0.txid {
		a, b, errA, errB = m1, m0, err1, err0
	}
	var m boltMeta
	switch {
	case errA == nil:
		m = a
	case errB == nil:
		m = b
	default:
		return nil, fmt.Errorf("both meta pages are unreadable (%v; %v)", err0, err1)
	}
	if m.pageSize != pageSize {
		return nil, fmt.Errorf("meta pages disagree on the page size (%d, %d)", m.pageSize, pageSize)
	}
	if m.hwm < 3 || m.root < 2 || m.root >= m.hwm {
		return nil, fmt.Errorf("meta page names root page %d of %d pages", m.root, m.hwm)
	}
	if m.freelist != noFreelist && (m.freelist < 2 || m.freelist >= m.hwm) {
		return nil, fmt.Errorf("meta page names freelist page %d of %d pages", m.freelist, m.hwm)
	}
	d := &diskFile{data: head, pageSize: pageSize, meta: m}
	if have := uint64(size) / pageSize; m.hwm > have {
		// Still readable up to where it stops: the walk finds pages past it missing.
		d.meta.hwm = have
		return d, fmt.Errorf("file is truncated: %d bytes, but its meta page counts %d pages of %d bytes (%d bytes)",
			size, m.hwm, pageSize, m.hwm*pageSize)
	}
	return d, nil
}

// pageHeader is a page's 16-byte header.
type pageHeader struct {
	id       uint64
	flags    uint16
	count    uint16
	overflow uint32
}

func readHeader(b []byte) pageHeader {
	return pageHeader{id: le.Uint64(b), flags: le.Uint16(b[8:]), count: le.Uint16(b[10:]), overflow: le.Uint32(b[12:])}
}

// page returns page id with its overflow pages, checking that it lies below the high-water
// mark, calls itself id, and has one of the flags in want.
func (d *diskFile) page(id uint64, want uint16) (pageHeader, []byte, error) {
	if id < 2 || id >= d.meta.hwm {
		return pageHeader{}, nil, fmt.Errorf("page %d: outside the file's %d pages", id, d.meta.hwm)
	}
	off := id * d.pageSize
	h := readHeader(d.data[off:])
	switch {
	case h.id != id:
		return h, nil, fmt.Errorf("page %d: calls itself page %d (overwritten)", id, h.id)
	case h.flags&want == 0 || h.flags&(h.flags-1) != 0:
		return h, nil, fmt.Errorf("page %d: unexpected page type %#x", id, h.flags)
	case id+1+uint64(h.overflow) > d.meta.hwm:
		return h, nil, fmt.Errorf("page %d: its %d overflow pages run past the file's %d pages", id, h.overflow, d.meta.hwm)
	}
	return h, d.data[off : (id+1+uint64(h.overflow))*d.pageSize], nil
}

// element returns the key and value of element i of a leaf page (value nil for a branch
// page, whose element carries a child page ID instead), checking both lie within the page.
func element(h pageHeader, page []byte, i int) (flags uint32, key, value []byte, child uint64, err error) {
	at := uint64(pageHeaderSize + i*elementSize)
	if at+elementSize > uint64(len(page)) {
		return 0, nil, nil, 0, fmt.Errorf("element %d lies past the page's end", i)
	}
	e := page[at:]
	var pos, ksize, vsize uint64
	if h.flags == pageBranch {
		pos, ksize, child = uint64(le.Uint32(e)), uint64(le.Uint32(e[4:])), le.Uint64(e[8:])
	} else {
		flags, pos, ksize, vsize = le.Uint32(e), uint64(le.Uint32(e[4:])), uint64(le.Uint32(e[8:])), uint64(le.Uint32(e[12:]))
	}
	start := at + pos
	if end := start + ksize + vsize; end > uint64(len(page)) {
		return 0, nil, nil, 0, fmt.Errorf("element %d: key and value run past the page's end", i)
	}
	key = page[start : start+ksize]
	if h.flags != pageBranch {
		value = page[start+ksize : start+ksize+vsize]
	}
	if len(key) == 0 {
		return 0, nil, nil, 0, fmt.Errorf("element %d: empty key", i)
	}
	return flags, key, value, child, nil
}

// walker walks bucket trees of a diskFile in key order, skipping what is damaged and
// noting it. Each page may be reached once only, which also ends reference cycles.
type walker struct {
	d         *diskFile
	reached   map[uint64]bool // pages reached, overflow pages included
	problems  []string
	maxReport int // problems kept; 0 keeps all
	// onBad is called for each page (or inline bucket) skipped as damaged, with the
	// records lost with it: exactly lost when the page's own header still counts them,
	// else at least lost (a page a branch names holds one record at least).
	onBad func(lost int, exact bool)
}

func newWalker(d *diskFile, maxReport int) *walker {
	return &walker{d: d, reached: map[uint64]bool{0: true, 1: true}, maxReport: maxReport}
}

func (w *walker) bad(lost int, exact bool) {
	if w.onBad != nil {
		w.onBad(lost, exact)
	}
}

// named is the least number of records a page held that is lost whole: one when a branch
// page named it by its first key (depth > 0), none known for a bucket's root.
func named(depth int) int {
	if depth > 0 {
		return 1
	}
	return 0
}

// leafCount is the record count a damaged page's header still gives: its header calls it
// page id, a leaf, and its count of elements fits the page. ok is false when the header
// cannot be trusted (overwritten, zeroed, past the file's end).
func (d *diskFile) leafCount(id uint64) (n int, ok bool) {
	if id < 2 || id >= d.meta.hwm {
		return 0, false
	}
	off := id * d.pageSize
	h := readHeader(d.data[off:])
	if h.id != id || h.flags != pageLeaf || h.count == 0 || pageHeaderSize+uint64(h.count)*elementSize > d.pageSize {
		return 0, false
	}
	return int(h.count), true
}

func (w *walker) problem(format string, args ...any) {
	if w.maxReport == 0 || len(w.problems) < w.maxReport {
		w.problems = append(w.problems, table.Escape(fmt.Sprintf(format, args...))) // names from the file
	} else if len(w.problems) == w.maxReport {
		w.problems = append(w.problems, "…")
	}
}

// visitFunc receives one record of a bucket; bucket is true for a nested bucket, whose value
// is its header (root page and sequence, then the inline page when the root is 0).
type visitFunc func(key, value []byte, bucket bool)

// bucketRange are the keys a subtree may hold: [lo, hi), nil for no bound.
type bucketRange struct{ lo, hi []byte }

func (r bucketRange) holds(k []byte) bool {
	return (r.lo == nil || bytes.Compare(k, r.lo) >= 0) && (r.hi == nil || bytes.Compare(k, r.hi) < 0)
}

// walkBucket visits every readable record of the bucket whose header is hdr, in key order.
// where names the bucket in problems.
func (w *walker) walkBucket(where string, hdr []byte, visit visitFunc) {
	if len(hdr) < bucketHeaderSize {
		w.bad(0, false)
		w.problem("%s: bucket header is %d bytes", where, len(hdr))
		return
	}
	root := le.Uint64(hdr)
	var last []byte
	if root == 0 {
		inline := hdr[bucketHeaderSize:]
		if len(inline) < pageHeaderSize {
			w.bad(0, false)
			w.problem("%s: inline bucket is cut short", where)
			return
		}
		h := readHeader(inline)
		if h.flags != pageLeaf {
			w.bad(0, false)
			w.problem("%s: inline bucket has page type %#x", where, h.flags)
			return
		}
		w.leaf(where, 0, h, inline, bucketRange{}, &last, visit)
		return
	}
	w.walkPage(where, root, bucketRange{}, 0, &last, visit)
}

func (w *walker) walkPage(where string, id uint64, r bucketRange, depth int, last *[]byte, visit visitFunc) {
	if depth > maxTreeDepth {
		w.bad(named(depth), false)
		w.problem("%s: tree deeper than %d pages at page %d", where, maxTreeDepth, id)
		return
	}
	if w.reached[id] {
		w.bad(named(depth), false)
		w.problem("%s: page %d is reached twice", where, id)
		return
	}
	h, page, err := w.d.page(id, pageBranch|pageLeaf)
	if err != nil {
		if n, ok := w.d.leafCount(id); ok {
			w.bad(n, true)
		} else {
			w.bad(named(depth), false)
		}
		w.problem("%s: %v", where, err)
		return
	}
	for p := id; p <= id+uint64(h.overflow); p++ {
		if w.reached[p] {
			w.problem("%s: page %d overlaps page %d", where, id, p)
		}
		w.reached[p] = true
	}
	if h.flags == pageLeaf {
		w.leaf(where, id, h, page, r, last, visit)
		return
	}
	if h.count == 0 {
		w.bad(named(depth), false)
		w.problem("%s: page %d: branch page without children", where, id)
		return
	}
	type child struct {
		key []byte
		id  uint64
	}
	children := make([]child, 0, h.count)
	for i := range int(h.count) {
		_, k, _, c, err := element(h, page, i)
		if err != nil {
			// The children named before it are still walked; each one after held a
			// record at least.
			w.bad(int(h.count)-i, false)
			w.problem("%s: page %d: %v", where, id, err)
			break
		}
		if len(children) > 0 && bytes.Compare(k, children[len(children)-1].key) <= 0 || !r.holds(k) {
			w.problem("%s: page %d: branch key %d out of order", where, id, i)
		}
		children = append(children, child{k, c})
	}
	for i, c := range children {
		hi := r.hi
		if i+1 < len(children) {
			hi = children[i+1].key
		}
		w.walkPage(where, c.id, bucketRange{lo: c.key, hi: hi}, depth+1, last, visit)
	}
}

// leaf visits the records of leaf page id (0 for an inline bucket) in order.
func (w *walker) leaf(where string, id uint64, h pageHeader, page []byte, r bucketRange, last *[]byte, visit visitFunc) {
	name := func() string { // only for problems: this loop runs for every page
		if id == 0 {
			return "inline bucket"
		}
		return fmt.Sprintf("page %d", id)
	}
	for i := range int(h.count) {
		flags, k, v, _, err := element(h, page, i)
		if err != nil {
			// This record and those after it are lost; the header counts them when
			// the count fits the page.
			w.bad(int(h.count)-i, pageHeaderSize+int(h.count)*elementSize <= len(page))
			w.problem("%s: %s: %v", where, name(), err)
			return
		}
		// Keys rise through the bucket, and stay in the range the branch above gives.
		if *last != nil && bytes.Compare(k, *last) <= 0 || (i == 0 || i == int(h.count)-1) && !r.holds(k) {
			w.problem("%s: %s: key %d out of order", where, name(), i)
		}
		*last = k
		visit(k, v, flags&leafBucket != 0)
	}
}

// checkFreelist checks the freelist page against the pages the walk reached: every page
// below the high-water mark is either reached or free, never both.
func (w *walker) checkFreelist() {
	d := w.d
	if d.meta.freelist == noFreelist {
		return // not stored: bbolt rebuilds it from the tree
	}
	h, page, err := d.page(d.meta.freelist, pageFreelist)
	if err != nil {
		w.problem("freelist: %v", err)
		return
	}
	for p := d.meta.freelist; p <= d.meta.freelist+uint64(h.overflow); p++ {
		if w.reached[p] {
			w.problem("freelist: page %d is also in use", p)
		}
		w.reached[p] = true
	}
	first, n := uint64(0), uint64(h.count)
	if n == 0xFFFF { // the count is the first element
		first, n = 1, le.Uint64(page[pageHeaderSize:])
	}
	if n > uint64(len(page)-pageHeaderSize)/8-first {
		w.problem("freelist: %d free pages do not fit its page", n)
		return
	}
	free := make(map[uint64]bool, n)
	for i := range n {
		id := le.Uint64(page[pageHeaderSize+8*(first+i):])
		switch {
		case id < 2 || id >= d.meta.hwm:
			w.problem("freelist: free page %d is outside the file's %d pages", id, d.meta.hwm)
		case free[id]:
			w.problem("freelist: page %d is free twice", id)
		case w.reached[id]:
			w.problem("freelist: page %d is in use but listed as free", id)
		}
		free[id] = true
	}
	if len(w.problems) > 0 {
		return // pages under a damaged one are unreached: no news
	}
	unreached := 0
	for id := uint64(2); id < d.meta.hwm; id++ {
		if !w.reached[id] && !free[id] {
			unreached++
		}
	}
	if unreached > 0 {
		w.problem("%d page(s) neither in use nor free", unreached)
	}
}
