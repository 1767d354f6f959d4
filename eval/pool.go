package eval

import (
	"context"
	"sync"
)

// runPass runs jobs over the devices, one worker per device; a job never shares a phone.
func runPass(ctx context.Context, cfg Config, devices []Device, jobs []*Job, prog *progress) ([]TaskResult, error) {
	var (
		mu      sync.Mutex
		pending = append([]*Job(nil), jobs...)
		results []TaskResult
	)
	// Jobs no device can run are reported at once.
	for i := 0; i < len(pending); i++ {
		j := pending[i]
		ok := false
		for _, d := range devices {
			ok = ok || fits(j.Task, d)
		}
		if !ok {
			kind := "a virtual phone (--sim N)"
			if j.Task.Phone.Device != nil {
				kind = "a real device (--devices)"
				if s := j.Task.Phone.Device.Serial; s != "" {
					kind = "device " + s
				}
			}
			r := baseResult(j, cfg)
			r.Outcome, r.Reason = "skipped", "needs "+kind
			results = append(results, r)
			prog.done(r)
			pending = append(pending[:i], pending[i+1:]...)
			i--
		}
	}
	take := func(d Device) *Job {
		mu.Lock()
		defer mu.Unlock()
		for i, j := range pending {
			if fits(j.Task, d) {
				pending = append(pending[:i], pending[i+1:]...)
				return j
			}
		}
		return nil
	}
	var wg sync.WaitGroup
	for _, d := range devices {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				j := take(d)
				if j == nil {
					return
				}
				j.Device = d
				r, finished := runJob(ctx, cfg, j)
				if !finished {
					return // stopped by ctx: not reported
				}
				mu.Lock()
				results = append(results, r)
				mu.Unlock()
				prog.done(r)
			}
		}()
	}
	wg.Wait()
	return results, ctx.Err()
}
