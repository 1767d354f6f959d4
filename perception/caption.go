package perception

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"sync"

	"golang.org/x/sync/errgroup"
)

// captioner describes an icon: given the crop of a text-less element it
// returns a short description ("search", "settings gear"). The model layer
// supplies it; perception never calls a model itself.
type captioner func(ctx context.Context, icon image.Image) (string, error)

// iconDescriber gives text-less elements a [Element.Caption] through a
// [Captioner], caching results by a hash of the crop's pixels, so an icon is
// described once however many screens show it. Safe for concurrent use.
type iconDescriber struct {
	caption  captioner
	parallel int

	mu    sync.Mutex
	cache map[[32]byte]string
}

// newIconDescriber returns a describer calling fn at most parallel times at
// once (parallel < 1 means 4).
func newIconDescriber(fn captioner, parallel int) (*iconDescriber, error) {
	if fn == nil {
		return nil, errors.New("perception icon describer: nil captioner")
	}
	if parallel < 1 {
		parallel = 4
	}
	return &iconDescriber{caption: fn, parallel: parallel, cache: map[[32]byte]string{}}, nil
}

// Describe sets Caption on every element of s that has no label, cropping
// it from shot (a screenshot of the same screen, at any scale). Icons too
// small to see or larger than a quarter of the screen are skipped. On
// errors the elements that could be described still are, and the errors
// are returned joined.
func (d *iconDescriber) Describe(ctx context.Context, s *Screen, shot image.Image) error {
	sb := shot.Bounds()
	fx, fy := s.PictureScale(sb)
	scrW, scrH := int(float64(sb.Dx())/fx), int(float64(sb.Dy())/fy)
	type job struct {
		elem int
		key  [32]byte
		crop *image.RGBA
	}
	pending := map[[32]byte][]int{} // crop hash -> elements waiting for it
	var jobs []job
	for i := range s.Elements {
		e := &s.Elements[i]
		if e.Label != "" || e.Caption != "" || e.Bounds.Area()*4 > scrW*scrH {
			continue
		}
		r := image.Rect(int(float64(e.Bounds.X1)*fx), int(float64(e.Bounds.Y1)*fy),
			int(float64(e.Bounds.X2)*fx), int(float64(e.Bounds.Y2)*fy)).Add(sb.Min).Intersect(sb)
		if r.Dx() < 4 || r.Dy() < 4 {
			continue
		}
		crop := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
		draw.Draw(crop, crop.Bounds(), shot, r.Min, draw.Src)
		key := cropKey(crop)
		d.mu.Lock()
		c, ok := d.cache[key]
		d.mu.Unlock()
		if ok {
			e.Caption = c
			continue
		}
		if _, waiting := pending[key]; !waiting {
			jobs = append(jobs, job{elem: i, key: key, crop: crop})
		}
		pending[key] = append(pending[key], i)
	}
	results := make([]string, len(jobs))
	errs := make([]error, len(jobs))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(d.parallel)
	for k, j := range jobs {
		g.Go(func() error {
			c, err := d.caption(gctx, j.crop)
			if err != nil {
				errs[k] = fmt.Errorf("perception caption element %d: %w", s.Elements[j.elem].Index, err)
				return nil // keep describing the others
			}
			results[k] = c
			return nil
		})
	}
	_ = g.Wait() // the goroutines report through errs
	for k, j := range jobs {
		if errs[k] != nil {
			continue
		}
		d.mu.Lock()
		d.cache[j.key] = results[k]
		d.mu.Unlock()
		for _, i := range pending[j.key] {
			s.Elements[i].Caption = results[k]
		}
	}
	return errors.Join(errs...)
}

// Len reports how many crops the cache holds.
func (d *iconDescriber) Len() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.cache)
}

func cropKey(img *image.RGBA) [32]byte {
	h := sha256.New()
	var dims [8]byte
	binary.LittleEndian.PutUint32(dims[:4], uint32(img.Rect.Dx()))
	binary.LittleEndian.PutUint32(dims[4:], uint32(img.Rect.Dy()))
	h.Write(dims[:])
	h.Write(img.Pix)
	var k [32]byte
	h.Sum(k[:0])
	return k
}
