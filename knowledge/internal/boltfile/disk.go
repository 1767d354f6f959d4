package boltfile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
)

const (
	boltMagic        = 0xED0CDAED
	boltVersion      = 2
	PageHeaderSize   = 16 // a page's header; its elements follow it
	elementSize      = 16 // leaf: flags, pos, ksize, vsize u32; branch: pos, ksize u32, pgid u64
	metaChecksumAt   = PageHeaderSize + 56
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

// Meta is the meta record bbolt uses: the valid one with the higher transaction ID.
type Meta struct {
	PageSize uint64
	Root     uint64 // root bucket's page
	Freelist uint64 // noFreelist when the freelist is not stored
	HWM      uint64 // pages in use: every page ID is below it
	TxID     uint64
}

// parseMeta reads the meta record of the page at b and checks magic, version and checksum.
func parseMeta(b []byte) (Meta, error) {
	if len(b) < metaEnd {
		return Meta{}, fmt.Errorf("meta page cut short")
	}
	m := b[PageHeaderSize:]
	switch {
	case le.Uint32(m[0:]) != boltMagic:
		return Meta{}, fmt.Errorf("meta page has no bbolt magic number")
	case le.Uint32(m[4:]) != boltVersion:
		return Meta{}, fmt.Errorf("meta page has bbolt version %d", le.Uint32(m[4:]))
	}
	h := fnv.New64a()
	h.Write(b[PageHeaderSize:metaChecksumAt])
	if h.Sum64() != le.Uint64(b[metaChecksumAt:]) {
		return Meta{}, fmt.Errorf("meta page checksum mismatch")
	}
	return Meta{
		PageSize: uint64(le.Uint32(m[8:])),
		Root:     le.Uint64(m[16:]),
		Freelist: le.Uint64(m[32:]),
		HWM:      le.Uint64(m[40:]),
		TxID:     le.Uint64(m[48:]),
	}, nil
}

// File is a whole bbolt file in memory, read through its newest valid meta record.
type File struct {
	data     []byte
	pageSize uint64
	Meta     Meta
}

// maxPageSize is the largest page size Read accepts (bbolt's largest in use is 64 KiB).
const maxPageSize = 64 << 10

// Read reads the file at path, as far as its meta record says pages are in use, and
// picks that meta record as bbolt would. With an error, a nil File means the file has
// no usable meta record; a non-nil one is cut short and reads up to where it stops.
func Read(path string) (*File, error) {
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
	d, perr := Parse(head, size)
	if d == nil {
		return nil, perr
	}
	// bbolt grows a file ahead of its pages: read the pages in use only.
	data := make([]byte, d.Meta.HWM*d.pageSize)
	n := copy(data, head)
	if _, err := f.ReadAt(data[n:], int64(n)); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	d.data = data
	return d, perr
}

// Parse picks the meta record of a file of size bytes that starts with head (two
// pages at least, when the file has them), as Read does.
func Parse(head []byte, size int64) (*File, error) {
	// bbolt finds the page size in meta 0, or else in meta 1 at the OS page size.
	m0, err0 := parseMeta(head)
	pageSize := uint64(os.Getpagesize())
	if err0 == nil {
		pageSize = m0.PageSize
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
	if m1.TxID > m0.TxID {
		a, b, errA, errB = m1, m0, err1, err0
	}
	var m Meta
	switch {
	case errA == nil:
		m = a
	case errB == nil:
		m = b
	default:
		return nil, fmt.Errorf("both meta pages are unreadable (%v; %v)", err0, err1)
	}
	if m.PageSize != pageSize {
		return nil, fmt.Errorf("meta pages disagree on the page size (%d, %d)", m.PageSize, pageSize)
	}
	if m.HWM < 3 || m.Root < 2 || m.Root >= m.HWM {
		return nil, fmt.Errorf("meta page names root page %d of %d pages", m.Root, m.HWM)
	}
	if m.Freelist != noFreelist && (m.Freelist < 2 || m.Freelist >= m.HWM) {
		return nil, fmt.Errorf("meta page names freelist page %d of %d pages", m.Freelist, m.HWM)
	}
	d := &File{data: head, pageSize: pageSize, Meta: m}
	if have := uint64(size) / pageSize; m.HWM > have {
		// Still readable up to where it stops: the walk finds pages past it missing.
		d.Meta.HWM = have
		return d, fmt.Errorf("file is truncated: %d bytes, but its meta page counts %d pages of %d bytes (%d bytes)",
			size, m.HWM, pageSize, m.HWM*pageSize)
	}
	return d, nil
}

// Header is a page's 16-byte header.
type Header struct {
	ID       uint64
	Flags    uint16
	Count    uint16 // elements on the page
	Overflow uint32 // pages after it that it spans
}

// ReadHeader reads the page header at the start of b (PageHeaderSize bytes at least).
func ReadHeader(b []byte) Header {
	return Header{ID: le.Uint64(b), Flags: le.Uint16(b[8:]), Count: le.Uint16(b[10:]), Overflow: le.Uint32(b[12:])}
}

// page returns page id with its overflow pages, checking that it lies below the high-water
// mark, calls itself id, and has one of the flags in want.
func (d *File) page(id uint64, want uint16) (Header, []byte, error) {
	if id < 2 || id >= d.Meta.HWM {
		return Header{}, nil, fmt.Errorf("page %d: outside the file's %d pages", id, d.Meta.HWM)
	}
	off := id * d.pageSize
	h := ReadHeader(d.data[off:])
	switch {
	case h.ID != id:
		return h, nil, fmt.Errorf("page %d: calls itself page %d (overwritten)", id, h.ID)
	case h.Flags&want == 0 || h.Flags&(h.Flags-1) != 0:
		return h, nil, fmt.Errorf("page %d: unexpected page type %#x", id, h.Flags)
	case id+1+uint64(h.Overflow) > d.Meta.HWM:
		return h, nil, fmt.Errorf("page %d: its %d overflow pages run past the file's %d pages", id, h.Overflow, d.Meta.HWM)
	}
	return h, d.data[off : (id+1+uint64(h.Overflow))*d.pageSize], nil
}

// Element returns the key and value of element i of a leaf page (value nil for a branch
// page, whose element carries a child page ID instead), checking both lie within the page.
func Element(h Header, page []byte, i int) (flags uint32, key, value []byte, child uint64, err error) {
	at := uint64(PageHeaderSize + i*elementSize)
	if at+elementSize > uint64(len(page)) {
		return 0, nil, nil, 0, fmt.Errorf("element %d lies past the page's end", i)
	}
	e := page[at:]
	var pos, ksize, vsize uint64
	if h.Flags == pageBranch {
		pos, ksize, child = uint64(le.Uint32(e)), uint64(le.Uint32(e[4:])), le.Uint64(e[8:])
	} else {
		flags, pos, ksize, vsize = le.Uint32(e), uint64(le.Uint32(e[4:])), uint64(le.Uint32(e[8:])), uint64(le.Uint32(e[12:]))
	}
	start := at + pos
	if end := start + ksize + vsize; end > uint64(len(page)) {
		return 0, nil, nil, 0, fmt.Errorf("element %d: key and value run past the page's end", i)
	}
	key = page[start : start+ksize]
	if h.Flags != pageBranch {
		value = page[start+ksize : start+ksize+vsize]
	}
	if len(key) == 0 {
		return 0, nil, nil, 0, fmt.Errorf("element %d: empty key", i)
	}
	return flags, key, value, child, nil
}
