package boltfile

import (
	"strconv"
	"strings"
)

// Verify walks every bucket of d and its freelist and returns what is wrong, maxReport
// problems at most (0 for all). It is bbolt's own consistency check (Tx.Check) done without
// trusting the pages.
func Verify(d *File, maxReport int) []string {
	w := NewWalker(d, maxReport)
	// A meta page whose checksum fails is how bbolt survives a write torn by a crash: it
	// uses the other one. A meta page that is not a meta page at all was overwritten.
	for id := range uint64(2) {
		if h := ReadHeader(d.data[id*d.pageSize:]); h.ID != id || h.Flags != pageMeta {
			w.Problem("meta page %d is overwritten (the other one is used: the last change may be lost)", id)
		}
	}
	var walk func(where string, hdr []byte)
	walk = func(where string, hdr []byte) {
		w.WalkBucket(where, hdr, func(k, v []byte, bucket bool) {
			if bucket {
				walk(bucketPath(where, k), v)
			}
		})
	}
	walk("root", d.RootHeader())
	w.checkFreelist()
	return w.problems
}

// RootHeader is the root bucket's header: its page, as the meta record names it.
func (d *File) RootHeader() []byte {
	hdr := make([]byte, bucketHeaderSize)
	le.PutUint64(hdr, d.Meta.Root)
	return hdr
}

// Sequence is a bucket header's sequence number (0 for a header cut short).
func Sequence(hdr []byte) uint64 {
	if len(hdr) < bucketHeaderSize {
		return 0
	}
	return le.Uint64(hdr[8:])
}

// bucketPath names bucket k inside the bucket parent ("root" for the top): maps/com.a/pages.
func bucketPath(parent string, k []byte) string {
	if parent == "root" {
		return Printable(k)
	}
	return parent + "/" + Printable(k)
}

// Printable is a bucket name or key as a problem shows it.
func Printable(b []byte) string {
	s := string(b)
	if strconv.CanBackquote(s) && !strings.ContainsAny(s, "/ ") {
		return s
	}
	return strconv.Quote(s)
}

// LooksLikeBolt reports whether head (the start of a file) has a bbolt magic number or a
// bbolt page 2, as a file of bbolt's whose meta pages were overwritten still has; ps is the
// page size to look for them at.
func LooksLikeBolt(head []byte, ps int64) bool {
	for _, at := range []int64{PageHeaderSize, ps + PageHeaderSize} {
		if int64(len(head)) >= at+4 && le.Uint32(head[at:]) == boltMagic {
			return true
		}
	}
	if int64(len(head)) < 3*ps {
		return false
	}
	h := ReadHeader(head[2*ps:])
	return h.ID == 2 && (h.Flags == pageLeaf || h.Flags == pageBranch || h.Flags == pageFreelist)
}
