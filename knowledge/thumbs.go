package knowledge

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Thumbs are small pictures of an App Map's pages, for `fairy map view`: one JPEG per
// page, taken by the learner from the run's own screenshot the first time it records the
// page and again once the picture is older than ThumbMaxAge. They live in the knowledge
// file beside the map they illustrate, so that a map copied, exported or repaired keeps
// its pictures, and are capped small (MaxThumbBytes) so that a map of a hundred pages
// costs at most a megabyte and a half.
//
// Layout: thumbs/<app>  page key -> Thumb (JSON; the JPEG base64).
var bucketThumbs = []byte("thumbs")

// MaxThumbBytes bounds a thumbnail's JPEG; ThumbMaxAge is the age past which the
// learner takes a page's picture again.
const (
	MaxThumbBytes = 16 << 10
	ThumbMaxAge   = 7 * 24 * time.Hour
)

// Thumb is a page's picture.
type Thumb struct {
	JPEG  []byte    `json:"jpeg"`
	Taken time.Time `json:"taken"`
}

// Stale reports whether the picture should be taken again at now: it is missing or
// older than ThumbMaxAge.
func (t Thumb) Stale(now time.Time) bool {
	return len(t.JPEG) == 0 || now.Sub(t.Taken) > ThumbMaxAge
}

// thumbRecord is one thumbnail in an export document.
type thumbRecord struct {
	App string `json:"app"`
	Key string `json:"key"` // the page's key
	Thumb
}

// validate checks a thumbnail: a JPEG no larger than MaxThumbBytes.
func (t Thumb) validate() error {
	if len(t.JPEG) > MaxThumbBytes {
		return fmt.Errorf("thumbnail of %d bytes is over the %d-byte cap: %w", len(t.JPEG), MaxThumbBytes, ErrTooLarge)
	}
	if !bytes.HasPrefix(t.JPEG, []byte{0xff, 0xd8, 0xff}) {
		return fmt.Errorf("thumbnail is not a JPEG: %w", ErrInvalid)
	}
	return nil
}

// PutThumb stores the picture of page key of app (see Tx.PutThumb).
func (s *Store) PutThumb(app, key string, t Thumb) error {
	return s.Update(func(tx *Tx) error { return tx.PutThumb(app, key, t) })
}

// PutThumb stores the picture of page key of app in this transaction, replacing the one
// it had. The page must be on the map; a zero Taken is now.
func (tx *Tx) PutThumb(app, key string, t Thumb) error {
	if strings.TrimSpace(app) == "" || key == "" {
		return fmt.Errorf("put thumbnail: empty app or page key: %w", ErrInvalid)
	}
	if err := t.validate(); err != nil {
		return fmt.Errorf("put thumbnail of %s in %s: %w", key, app, err)
	}
	if t.Taken.IsZero() {
		t.Taken = tx.s.now()
	}
	return tx.putThumb(app, key, t)
}

// putThumb writes a validated thumbnail of a page that must exist.
func (tx *Tx) putThumb(app, key string, t Thumb) error {
	if tx.s.opts.ReadOnly {
		return errReadOnly
	}
	ab := appBucket(tx.tx, app)
	if ab == nil || ab.Bucket(bucketPages) == nil || ab.Bucket(bucketPages).Get([]byte(key)) == nil {
		return fmt.Errorf("put thumbnail in %s: page %s is not on the map: %w", app, key, ErrNotFound)
	}
	top, err := root(tx.tx, bucketThumbs)
	if err != nil {
		return err
	}
	b, err := top.CreateBucketIfNotExists([]byte(app))
	if err != nil {
		return err
	}
	return putJSON(b, key, t)
}

// Thumb returns the picture of page key of app; ok is false when it has none.
func (s *Store) Thumb(app, key string) (t Thumb, ok bool, err error) {
	err = s.view(func(tx *bolt.Tx) error {
		b := thumbBucket(tx, app)
		if b == nil {
			return nil
		}
		v := b.Get([]byte(key))
		if v == nil {
			return nil
		}
		ok = true
		return decode("thumbnail", []byte(key), v, &t)
	})
	if err != nil {
		return Thumb{}, false, fmt.Errorf("thumbnail of %s in %s: %w", key, app, err)
	}
	return t, ok, nil
}

// Thumbs returns every picture of app's pages, by page key.
func (s *Store) Thumbs(app string) (map[string]Thumb, error) {
	out := map[string]Thumb{}
	err := s.view(func(tx *bolt.Tx) error {
		return eachJSON(thumbBucket(tx, app), "thumbnail", func(k []byte, t Thumb) error {
			out[string(k)] = t
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("thumbnails of %s: %w", app, err)
	}
	return out, nil
}

func thumbBucket(tx *bolt.Tx, app string) *bolt.Bucket {
	top := tx.Bucket(bucketThumbs)
	if top == nil {
		return nil
	}
	return top.Bucket([]byte(app))
}

// listThumbs lists every thumbnail, by app and page key.
func listThumbs(tx *bolt.Tx) ([]thumbRecord, error) {
	top := tx.Bucket(bucketThumbs)
	if top == nil {
		return nil, nil
	}
	var apps []string
	_ = top.ForEachBucket(func(k []byte) error { apps = append(apps, string(k)); return nil })
	var out []thumbRecord
	for _, a := range apps {
		err := eachJSON(top.Bucket([]byte(a)), "thumbnail", func(k []byte, t Thumb) error {
			out = append(out, thumbRecord{App: a, Key: string(k), Thumb: t})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// importThumb merges one thumbnail: the newer picture wins. Its page must be on the map
// (imported before it).
func (tx *Tx) importThumb(r thumbRecord) error {
	if r.App == "" || r.Key == "" {
		return fmt.Errorf("thumbnail %q of %q: needs an app and a page key: %w", r.Key, r.App, ErrInvalid)
	}
	if err := r.validate(); err != nil {
		return fmt.Errorf("thumbnail of %s in %s: %w", r.Key, r.App, err)
	}
	if b := thumbBucket(tx.tx, r.App); b != nil {
		var old Thumb
		if v := b.Get([]byte(r.Key)); v != nil && decode("thumbnail", []byte(r.Key), v, &old) == nil && old.Taken.After(r.Taken) {
			return nil
		}
	}
	return tx.putThumb(r.App, r.Key, r.Thumb)
}
