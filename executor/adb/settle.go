package adb

import (
	"bytes"
	"context"
	"fmt"
	"time"
)

// Settle waits until two dumps in a row are identical — the screen stopped changing — or
// Config.SettleTimeout passes (then it returns an error wrapping ErrNotSettled, which a
// caller may ignore). Pauses between dumps start at SettleInterval and grow.
func (d *Device) Settle(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, d.cfg.SettleTimeout)
	defer cancel()
	var prev []byte
	pause := d.cfg.SettleInterval
	for n := 0; ; n++ {
		xml, err := d.Dump(ctx)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			return fmt.Errorf("adb settle: %w", err)
		}
		if prev != nil && bytes.Equal(prev, xml) {
			return nil
		}
		prev = xml
		if err := d.cfg.Sleep(ctx, pause); err != nil {
			break
		}
		pause = min(pause*3/2, time.Second)
	}
	if err := context.Cause(ctx); err != nil && ctx.Err() != context.DeadlineExceeded {
		return fmt.Errorf("adb settle: %w", err)
	}
	return fmt.Errorf("adb settle: %w within %s", ErrNotSettled, d.cfg.SettleTimeout)
}
