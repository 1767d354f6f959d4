package knowledge

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// Records: how bbolt buckets, keys and sequences map to the Remote's flat records, the walk
// that lists a transaction's changes, and their application to a replica.

// Record keys. A bucket is "@name", a nested one "@outer/@inner"; a key in it is
// "@outer/@inner/=key" and its sequence "@outer/@inner/#seq". Names and keys are
// escaped (escapeSegment), so a '/' in an app package or page key cannot split them.
const seqSegment = "#seq"

func escapeSegment(b []byte) string {
	var sb strings.Builder
	for _, c := range b {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-' {
			sb.WriteByte(c)
			continue
		}
		fmt.Fprintf(&sb, "%%%02X", c)
	}
	return sb.String()
}

func unescapeSegment(s string) ([]byte, error) {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			out = append(out, s[i])
			continue
		}
		if i+2 >= len(s) {
			return nil, fmt.Errorf("record key segment %q: cut escape", s)
		}
		v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
		if err != nil {
			return nil, fmt.Errorf("record key segment %q: %w", s, err)
		}
		out = append(out, byte(v))
		i += 2
	}
	return out, nil
}

// parsedKey is a record key taken apart.
type parsedKey struct {
	buckets [][]byte
	key     []byte // nil for a bucket marker or a sequence
	seq     bool
}

func parseKey(k string) (parsedKey, error) {
	var p parsedKey
	parts := strings.Split(k, "/")
	for i, part := range parts {
		last := i == len(parts)-1
		switch {
		case strings.HasPrefix(part, "@"):
			b, err := unescapeSegment(part[1:])
			if err != nil {
				return p, err
			}
			p.buckets = append(p.buckets, b)
		case last && part == seqSegment:
			p.seq = true
		case last && strings.HasPrefix(part, "="):
			b, err := unescapeSegment(part[1:])
			if err != nil {
				return p, err
			}
			p.key = b
		default:
			return p, fmt.Errorf("record key %q: bad segment %q: %w", k, part, ErrInvalid)
		}
	}
	if len(p.buckets) == 0 {
		return p, fmt.Errorf("record key %q: no bucket: %w", k, ErrInvalid)
	}
	return p, nil
}

// diffRecords walks tx and returns the records that differ from old.
func diffRecords(tx *bolt.Tx, old map[string][]byte) ([]MirrorRecord, error) {
	var changes []MirrorRecord
	seen := make(map[string]struct{}, len(old))
	note := func(k string, v []byte) {
		seen[k] = struct{}{}
		if ov, ok := old[k]; !ok || !bytes.Equal(ov, v) {
			changes = append(changes, MirrorRecord{Key: k, Value: bytes.Clone(v)})
		}
	}
	var walk func(path string, b *bolt.Bucket) error
	walk = func(path string, b *bolt.Bucket) error {
		note(path, nil)
		if seq := b.Sequence(); seq != 0 {
			note(path+"/"+seqSegment, []byte(strconv.FormatUint(seq, 10)))
		}
		return b.ForEach(func(k, v []byte) error {
			if v == nil {
				if nb := b.Bucket(k); nb != nil {
					return walk(path+"/@"+escapeSegment(k), nb)
				}
			}
			note(path+"/="+escapeSegment(k), v)
			return nil
		})
	}
	err := tx.ForEach(func(name []byte, b *bolt.Bucket) error {
		return walk("@"+escapeSegment(name), b)
	})
	if err != nil {
		return nil, err
	}
	for k := range old {
		if _, ok := seen[k]; !ok {
			changes = append(changes, MirrorRecord{Key: k, Deleted: true})
		}
	}
	return changes, nil
}

// applyToMap applies changes to records.
func applyToMap(records map[string][]byte, changes []MirrorRecord) {
	for _, c := range changes {
		if c.Deleted {
			delete(records, c.Key)
		} else {
			records[c.Key] = c.Value
		}
	}
}

// applyRecords writes changes into tx: puts first (creating buckets on the way), then
// deleted keys, then deleted buckets, deepest first.
func applyRecords(tx *bolt.Tx, changes []MirrorRecord) error {
	var gone []parsedKey
	for _, c := range changes {
		p, err := parseKey(c.Key)
		if err != nil {
			return err
		}
		if c.Deleted {
			gone = append(gone, p)
			continue
		}
		b, err := ensureBucket(tx, p.buckets)
		if err != nil {
			return err
		}
		switch {
		case p.seq:
			n, err := strconv.ParseUint(string(c.Value), 10, 64)
			if err != nil {
				return fmt.Errorf("record %q: sequence: %w", c.Key, err)
			}
			if err := b.SetSequence(n); err != nil {
				return err
			}
		case p.key != nil:
			if err := b.Put(p.key, c.Value); err != nil {
				return err
			}
		}
	}
	sort.SliceStable(gone, func(i, j int) bool { return len(gone[i].buckets) > len(gone[j].buckets) })
	for _, p := range gone {
		if p.key == nil && !p.seq {
			continue
		}
		b := findBucket(tx, p.buckets)
		if b == nil {
			continue
		}
		if p.seq {
			if err := b.SetSequence(0); err != nil {
				return err
			}
		} else if err := b.Delete(p.key); err != nil {
			return err
		}
	}
	for _, p := range gone {
		if p.key != nil || p.seq {
			continue
		}
		n := len(p.buckets)
		var err error
		if n == 1 {
			err = tx.DeleteBucket(p.buckets[0])
		} else if parent := findBucket(tx, p.buckets[:n-1]); parent != nil {
			err = parent.DeleteBucket(p.buckets[n-1])
		}
		if err != nil && !errors.Is(err, bolt.ErrBucketNotFound) {
			return err
		}
	}
	return nil
}

func ensureBucket(tx *bolt.Tx, path [][]byte) (*bolt.Bucket, error) {
	b, err := tx.CreateBucketIfNotExists(path[0])
	for _, name := range path[1:] {
		if err != nil {
			return nil, err
		}
		b, err = b.CreateBucketIfNotExists(name)
	}
	return b, err
}

func findBucket(tx *bolt.Tx, path [][]byte) *bolt.Bucket {
	b := tx.Bucket(path[0])
	for _, name := range path[1:] {
		if b == nil {
			return nil
		}
		b = b.Bucket(name)
	}
	return b
}
