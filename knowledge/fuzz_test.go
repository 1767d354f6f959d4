package knowledge

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// damageBytes applies a fuzzer's damage to a copy of data: it cuts it to size bytes (when
// shorter) and applies flips, 5 bytes each: a position (uint32, little-endian) and a byte
// to XOR there. A position with its top bit set aims at the start of a page, where the
// page header and the first elements are: page (low 16 bits) modulo the page count,
// offset ((bits 16–21) in it; others fall anywhere in the file.
func damageBytes(data []byte, size uint32, flips []byte) []byte {
	b := append([]byte(nil), data...)
	ps := os.Getpagesize()
	for len(flips) >= 5 {
		at, x := binary.LittleEndian.Uint32(flips), flips[4]
		flips = flips[5:]
		pos := int(at % uint32(len(b)))
		if at&(1<<31) != 0 {
			pos = int(at&0xFFFF)%(len(b)/ps)*ps + int(at>>16&0x3F)
		}
		b[pos] ^= x
	}
	if int(size) < len(b) {
		b = b[:size]
	}
	return b
}

// flip encodes one flip for damageBytes: the byte at offset in page is XORed with x.
func flip(page, offset int, x byte) []byte {
	b := binary.LittleEndian.AppendUint32(nil, 1<<31|uint32(offset)<<16|uint32(page))
	return append(b, x)
}

// knownError reports whether err is one of the package's errors.
func knownError(err error) bool {
	for _, e := range []error{ErrDamaged, ErrNotKnowledge, ErrSchema, ErrNotFound, ErrNoPath, ErrInvalid, ErrAmbiguous, ErrTooLarge} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// FuzzOpen opens truncated and bit-flipped copies of a realistic knowledge file (tricks,
// App Maps, runs, app metadata), read-only and for writing, reads everything in them —
// apps, tricks, maps, paths, runs, export, check — and writes, then repairs them. No copy
// makes the package panic or fault; every error is one of the package's; a repaired copy
// always opens and checks sound.
func FuzzOpen(f *testing.F) {
	data := realisticFile(f)
	full := uint32(len(data))
	ps := os.Getpagesize()
	f.Add(full, []byte(nil))
	f.Add(full/2, []byte(nil))
	f.Add(uint32(3*ps+100), []byte(nil))
	f.Add(full, flip(0, 40, 0xFF))                              // a meta page's checksummed body
	f.Add(full, append(flip(0, 0, 1), flip(1, 0, 1)...))        // both meta pages' IDs
	f.Add(full, flip(2, 10, 0x80))                              // a page's element count
	f.Add(full, flip(5, 12, 0x40))                              // a page's overflow count
	f.Add(full, flip(10, 8, 0x03))                              // a page's type
	f.Add(full, flip(10, 16+8, 0x01))                           // a branch element's child
	f.Add(full, flip(20, 16+4, 0x10))                           // a leaf element's position
	f.Add(full, append(flip(30, 20, 0x7F), flip(31, 30, 1)...)) // two pages at once
	f.Fuzz(func(t *testing.T, size uint32, flips []byte) {
		if len(flips) > 5*64 {
			flips = flips[:5*64]
		}
		dir := t.TempDir()
		path, repaired := filepath.Join(dir, "k.db"), filepath.Join(dir, "repaired.db")
		damaged := damageBytes(data, size, flips)
		// Read-only: Open's verification. For writing: everything, and a write.
		for _, ro := range []bool{true, false} {
			if err := os.WriteFile(path, damaged, 0o600); err != nil {
				t.Fatal(err)
			}
			s, err := Open(path, Options{ReadOnly: ro, noSync: true})
			if err == nil {
				if !ro {
					err = readEverything(s)
				}
				if cerr := s.Close(); cerr != nil {
					t.Fatalf("close: %v", cerr)
				}
			}
			if err != nil && !knownError(err) {
				t.Fatalf("read-only %v: an error that is not the package's: %v", ro, err)
			}
		}
		if err := os.WriteFile(path, damaged, 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := Repair(path, repaired, Options{noSync: true})
		if err != nil {
			if !knownError(err) {
				t.Fatalf("repair: an error that is not the package's: %v", err)
			}
			return
		}
		s, err := Open(repaired, Options{noSync: true})
		if err != nil {
			t.Fatalf("the repaired copy does not open: %v", err)
		}
		defer s.Close()
		if err := s.Check(); err != nil {
			t.Fatalf("the repaired copy is not sound: %v", err)
		}
	})
}
