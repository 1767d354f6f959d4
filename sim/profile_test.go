package sim

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// fakeTime is a clock that only moves when the phone sleeps, recording each sleep.
type fakeTime struct {
	now    time.Time
	sleeps []time.Duration
}

func (f *fakeTime) Now() time.Time { return f.now }

func (f *fakeTime) Sleep(_ context.Context, d time.Duration) error {
	f.sleeps = append(f.sleeps, d)
	f.now = f.now.Add(d)
	return nil
}

func TestParseProfile(t *testing.T) {
	for _, name := range []string{"", "instant", "pixel", "slow", " Pixel "} {
		if _, err := ParseProfile(name); err != nil {
			t.Errorf("ParseProfile(%q): %v", name, err)
		}
	}
	_, err := ParseProfile("fast")
	if !errors.Is(err, errConfig) || !strings.Contains(err.Error(), "instant, pixel, slow") {
		t.Errorf("ParseProfile(fast) = %v, want ErrConfig naming the profiles", err)
	}
}

// Each command waits as long as its kind takes on the profile's device; a dump right after
// a screen change waits for the screen to be quiet (animation + uiautomator's idle second)
// first; the instant profile never waits.
func TestProfileDelays(t *testing.T) {
	clk := &fakeTime{now: fixedNow}
	p := newPhone(t, func(c *Config) { c.Clock, c.Sleep = clk.Now, clk.Sleep })
	sh(t, p, "input tap 540 1200")
	sh(t, p, "uiautomator dump /dev/tty")
	if len(clk.sleeps) != 0 {
		t.Fatalf("instant profile slept %v", clk.sleeps)
	}

	pixel, _ := ParseProfile("pixel")
	p = newPhone(t, func(c *Config) { c.Clock, c.Sleep, c.Profile = clk.Now, clk.Sleep, pixel })
	ms := time.Millisecond
	steps := []struct {
		line     string
		min, max time.Duration
	}{
		{"echo hi", 0, 0}, // a shell builtin
		{"ls /sdcard", 15 * ms, 40 * ms},
		{"getprop ro.build.version.sdk", 15 * ms, 40 * ms},
		{"settings get system user_rotation", 60 * ms, 160 * ms},
		{"screencap -p", 400 * ms, 900 * ms},
		// The raw frame (1080×2400×4 bytes and its header) also crosses the USB link: 260 ms.
		{"screencap", 200*ms + 260*ms, 350*ms + 261*ms},
		{"am start -n com.android.settings/.Settings", 600 * ms, 1400 * ms},
		// The launch changed the screen: the dump waits out the animation and a quiet second.
		{"uiautomator dump /dev/tty", 1300*ms + 500*ms, 1300*ms + 1100*ms},
		// The screen has been quiet since, but the dump's new UiAutomation connection has
		// seen no event: it waits a whole quiet second from its start, then dumps.
		{"uiautomator dump /dev/tty", 1000*ms + 500*ms, 1000*ms + 1100*ms},
		// `cmd input` since Android 12: a binder call, no Java process start.
		{"input keyevent 4", 60 * ms, 160 * ms},
	}
	for _, s := range steps {
		clk.sleeps = nil
		sh(t, p, s.line)
		var total time.Duration
		for _, d := range clk.sleeps {
			total += d
		}
		if total < s.min || total > s.max {
			t.Errorf("%s waited %v, want %v..%v on the pixel profile", s.line, total, s.min, s.max)
		}
	}
}

// drawingClock is a fakeTime whose every reading moves it on by step, as if the host
// spent that long between two readings (drawing a frame).
type drawingClock struct {
	fakeTime
	step time.Duration
}

func (c *drawingClock) Now() time.Time { c.now = c.now.Add(c.step); return c.now }

// TestFrameTimeIsThePhones: a screencap's frame is drawn within the profile's latency: the
// simulator's own drawing time (the host's CPU, slower on a loaded host) is not added to
// the phone's time. Here the host's clock moves on by 500 ms at every reading, so drawing
// spends at least that: the sleep after it is the latency (400–900 ms) less what was spent.
func TestFrameTimeIsThePhones(t *testing.T) {
	pixel, _ := ParseProfile("pixel")
	clk := &drawingClock{fakeTime: fakeTime{now: fixedNow}, step: 500 * time.Millisecond}
	p := newPhone(t, func(c *Config) { c.Clock, c.Sleep, c.Profile = clk.Now, clk.Sleep, pixel })
	sh(t, p, "screencap -p")
	var slept time.Duration
	for _, d := range clk.sleeps {
		slept += d
	}
	if slept >= 400*time.Millisecond {
		t.Errorf("screencap -p slept %v after drawing, want its latency less the drawing time (under 400ms)", slept)
	}
	clk.sleeps = nil
	sh(t, p, "input keyevent 4") // a command that changes the screen waits its whole latency first
	slept = 0
	for _, d := range clk.sleeps {
		slept += d
	}
	if slept < 60*time.Millisecond {
		t.Errorf("input keyevent slept %v, want its whole latency (60ms..160ms)", slept)
	}
}
