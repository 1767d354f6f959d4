package boltfile

import (
	"bytes"
	"fmt"

	"github.com/fairy-go/fairy/internal/table"
)

// Walker walks bucket trees of a File in key order, skipping what is damaged and
// noting it. Each page may be reached once only, which also ends reference cycles.
type Walker struct {
	d         *File
	reached   map[uint64]bool // pages reached, overflow pages included
	problems  []string
	maxReport int // problems kept; 0 keeps all
	// OnBad is called for each page (or inline bucket) skipped as damaged, with the
	// records lost with it: exactly lost when the page's own header still counts them,
	// else at least lost (a page a branch names holds one record at least).
	OnBad func(lost int, exact bool)
}

// NewWalker returns a walker of d that keeps maxReport problems (0 keeps all).
func NewWalker(d *File, maxReport int) *Walker {
	return &Walker{d: d, reached: map[uint64]bool{0: true, 1: true}, maxReport: maxReport}
}

func (w *Walker) bad(lost int, exact bool) {
	if w.OnBad != nil {
		w.OnBad(lost, exact)
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
func (d *File) leafCount(id uint64) (n int, ok bool) {
	if id < 2 || id >= d.Meta.HWM {
		return 0, false
	}
	off := id * d.pageSize
	h := ReadHeader(d.data[off:])
	if h.ID != id || h.Flags != pageLeaf || h.Count == 0 || PageHeaderSize+uint64(h.Count)*elementSize > d.pageSize {
		return 0, false
	}
	return int(h.Count), true
}

// Problem notes a problem, its names escaped (they come from the file), unless maxReport
// are noted already.
func (w *Walker) Problem(format string, args ...any) {
	if w.maxReport == 0 || len(w.problems) < w.maxReport {
		w.problems = append(w.problems, table.Escape(fmt.Sprintf(format, args...))) // names from the file
	} else if len(w.problems) == w.maxReport {
		w.problems = append(w.problems, "…")
	}
}

// Problems are the problems noted so far, with "…" last when some were left out.
func (w *Walker) Problems() []string { return w.problems }

// VisitFunc receives one record of a bucket; bucket is true for a nested bucket, whose value
// is its header (root page and sequence, then the inline page when the root is 0).
type VisitFunc func(key, value []byte, bucket bool)

// bucketRange are the keys a subtree may hold: [lo, hi), nil for no bound.
type bucketRange struct{ lo, hi []byte }

func (r bucketRange) holds(k []byte) bool {
	return (r.lo == nil || bytes.Compare(k, r.lo) >= 0) && (r.hi == nil || bytes.Compare(k, r.hi) < 0)
}

// WalkBucket visits every readable record of the bucket whose header is hdr, in key order.
// where names the bucket in problems.
func (w *Walker) WalkBucket(where string, hdr []byte, visit VisitFunc) {
	if len(hdr) < bucketHeaderSize {
		w.bad(0, false)
		w.Problem("%s: bucket header is %d bytes", where, len(hdr))
		return
	}
	root := le.Uint64(hdr)
	var last []byte
	if root == 0 {
		inline := hdr[bucketHeaderSize:]
		if len(inline) < PageHeaderSize {
			w.bad(0, false)
			w.Problem("%s: inline bucket is cut short", where)
			return
		}
		h := ReadHeader(inline)
		if h.Flags != pageLeaf {
			w.bad(0, false)
			w.Problem("%s: inline bucket has page type %#x", where, h.Flags)
			return
		}
		w.leaf(where, 0, h, inline, bucketRange{}, &last, visit)
		return
	}
	w.walkPage(where, root, bucketRange{}, 0, &last, visit)
}

func (w *Walker) walkPage(where string, id uint64, r bucketRange, depth int, last *[]byte, visit VisitFunc) {
	if depth > maxTreeDepth {
		w.bad(named(depth), false)
		w.Problem("%s: tree deeper than %d pages at page %d", where, maxTreeDepth, id)
		return
	}
	if w.reached[id] {
		w.bad(named(depth), false)
		w.Problem("%s: page %d is reached twice", where, id)
		return
	}
	h, page, err := w.d.page(id, pageBranch|pageLeaf)
	if err != nil {
		if n, ok := w.d.leafCount(id); ok {
			w.bad(n, true)
		} else {
			w.bad(named(depth), false)
		}
		w.Problem("%s: %v", where, err)
		return
	}
	for p := id; p <= id+uint64(h.Overflow); p++ {
		if w.reached[p] {
			w.Problem("%s: page %d overlaps page %d", where, id, p)
		}
		w.reached[p] = true
	}
	if h.Flags == pageLeaf {
		w.leaf(where, id, h, page, r, last, visit)
		return
	}
	if h.Count == 0 {
		w.bad(named(depth), false)
		w.Problem("%s: page %d: branch page without children", where, id)
		return
	}
	type child struct {
		key []byte
		id  uint64
	}
	children := make([]child, 0, h.Count)
	for i := range int(h.Count) {
		_, k, _, c, err := Element(h, page, i)
		if err != nil {
			// The children named before it are still walked; each one after held a
			// record at least.
			w.bad(int(h.Count)-i, false)
			w.Problem("%s: page %d: %v", where, id, err)
			break
		}
		if len(children) > 0 && bytes.Compare(k, children[len(children)-1].key) <= 0 || !r.holds(k) {
			w.Problem("%s: page %d: branch key %d out of order", where, id, i)
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
func (w *Walker) leaf(where string, id uint64, h Header, page []byte, r bucketRange, last *[]byte, visit VisitFunc) {
	name := func() string { // only for problems: this loop runs for every page
		if id == 0 {
			return "inline bucket"
		}
		return fmt.Sprintf("page %d", id)
	}
	for i := range int(h.Count) {
		flags, k, v, _, err := Element(h, page, i)
		if err != nil {
			// This record and those after it are lost; the header counts them when
			// the count fits the page.
			w.bad(int(h.Count)-i, PageHeaderSize+int(h.Count)*elementSize <= len(page))
			w.Problem("%s: %s: %v", where, name(), err)
			return
		}
		// Keys rise through the bucket, and stay in the range the branch above gives.
		if *last != nil && bytes.Compare(k, *last) <= 0 || (i == 0 || i == int(h.Count)-1) && !r.holds(k) {
			w.Problem("%s: %s: key %d out of order", where, name(), i)
		}
		*last = k
		visit(k, v, flags&leafBucket != 0)
	}
}

// checkFreelist checks the freelist page against the pages the walk reached: every page
// below the high-water mark is either reached or free, never both.
func (w *Walker) checkFreelist() {
	d := w.d
	if d.Meta.Freelist == noFreelist {
		return // not stored: bbolt rebuilds it from the tree
	}
	h, page, err := d.page(d.Meta.Freelist, pageFreelist)
	if err != nil {
		w.Problem("freelist: %v", err)
		return
	}
	for p := d.Meta.Freelist; p <= d.Meta.Freelist+uint64(h.Overflow); p++ {
		if w.reached[p] {
			w.Problem("freelist: page %d is also in use", p)
		}
		w.reached[p] = true
	}
	first, n := uint64(0), uint64(h.Count)
	if n == 0xFFFF { // the count is the first element
		first, n = 1, le.Uint64(page[PageHeaderSize:])
	}
	if n > uint64(len(page)-PageHeaderSize)/8-first {
		w.Problem("freelist: %d free pages do not fit its page", n)
		return
	}
	free := make(map[uint64]bool, n)
	for i := range n {
		id := le.Uint64(page[PageHeaderSize+8*(first+i):])
		switch {
		case id < 2 || id >= d.Meta.HWM:
			w.Problem("freelist: free page %d is outside the file's %d pages", id, d.Meta.HWM)
		case free[id]:
			w.Problem("freelist: page %d is free twice", id)
		case w.reached[id]:
			w.Problem("freelist: page %d is in use but listed as free", id)
		}
		free[id] = true
	}
	if len(w.problems) > 0 {
		return // pages under a damaged one are unreached: no news
	}
	unreached := 0
	for id := uint64(2); id < d.Meta.HWM; id++ {
		if !w.reached[id] && !free[id] {
			unreached++
		}
	}
	if unreached > 0 {
		w.Problem("%d page(s) neither in use nor free", unreached)
	}
}
