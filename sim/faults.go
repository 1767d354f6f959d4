package sim

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Faults switches on the misbehaviours real phones have. The zero value is a well-behaved
// phone. Probabilities are in [0,1] and are drawn from the phone's seeded random source, so
// a phone with the same seed and the same command sequence fails the same way every time.
type Faults struct {
	// Idle is the probability that a `uiautomator dump` answers
	// "ERROR: could not get idle state." (exit status 0) instead of dumping.
	Idle float64
	// IdleRun caps how many dumps in a row may fail with the idle error (default 2), so a
	// client that retries always gets through.
	IdleRun int
	// Slow delays every shell command by this much (the delay honours ctx).
	Slow time.Duration
	// Drop is the probability that a shell command's connection is cut mid-output: Shell
	// writes part of the output and returns an error wrapping wire.ErrDropConnection.
	Drop float64
	// DeadTap is the probability that a tap (input tap, or a short swipe) changes nothing.
	DeadTap float64
	// Dialog is the probability that an unexpected "Rate this app" dialog pops up when an
	// app comes to the front or opens a screen.
	Dialog float64
	// NonASCIISilent makes plain `input text` with non-ASCII characters fail silently: the
	// non-ASCII characters are dropped, the rest is typed and the exit status is 0 (as on some
	// older builds). Without it the phone fails loudly as Android 11+ does (a
	// NullPointerException message and exit status 255, nothing typed).
	NonASCIISilent bool
	// UIServerDie makes the resident UI server (Appium's UiAutomator2 server) die after
	// answering this many requests each time it is started (0: never), as the server does
	// when the system reclaims its memory or the instrumentation crashes.
	UIServerDie int
	// NoMJPEG makes the resident UI server's MJPEG stream close every connection
	// unanswered, as when its port is taken (MjpegScreenshotServer then logs "Failed to
	// create Socket Server" and serves nothing).
	NoMJPEG bool
}

// ParseFaults parses a fault spec such as
// "idle=0.3,slow=200ms,drop=0.05,deadtap=0.1,dialog=0.1,nonascii". Keys: idle, idlerun,
// slow, drop, deadtap, dialog, nonascii, uiserverdie, nomjpeg. An empty spec is the zero Faults.
func ParseFaults(spec string) (Faults, error) {
	var f Faults
	spec = strings.TrimSpace(spec)
	if spec == "" || spec == "none" {
		return f, nil
	}
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		key, val, hasVal := strings.Cut(part, "=")
		key = strings.ToLower(strings.TrimSpace(key))
		val = strings.TrimSpace(val)
		prob := func() (float64, error) {
			if !hasVal {
				return 0, fmt.Errorf("%w: %q needs a value", ErrFaultSpec, key)
			}
			p, err := strconv.ParseFloat(val, 64)
			if err != nil || p < 0 || p > 1 {
				return 0, fmt.Errorf("%w: %s=%q is not a probability in [0,1]", ErrFaultSpec, key, val)
			}
			return p, nil
		}
		var err error
		switch key {
		case "idle":
			f.Idle, err = prob()
		case "drop":
			f.Drop, err = prob()
		case "deadtap":
			f.DeadTap, err = prob()
		case "dialog":
			f.Dialog, err = prob()
		case "idlerun":
			n, perr := strconv.Atoi(val)
			if perr != nil || n < 1 {
				err = fmt.Errorf("%w: idlerun=%q is not a positive integer", ErrFaultSpec, val)
			}
			f.IdleRun = n
		case "slow":
			d, perr := time.ParseDuration(val)
			if perr != nil || d < 0 {
				err = fmt.Errorf("%w: slow=%q is not a duration", ErrFaultSpec, val)
			}
			f.Slow = d
		case "uiserverdie":
			n, perr := strconv.Atoi(val)
			if perr != nil || n < 1 {
				err = fmt.Errorf("%w: uiserverdie=%q is not a positive integer", ErrFaultSpec, val)
			}
			f.UIServerDie = n
		case "nomjpeg":
			if hasVal && val != "1" && val != "true" {
				err = fmt.Errorf("%w: nomjpeg takes no value", ErrFaultSpec)
			}
			f.NoMJPEG = true
		case "nonascii":
			if hasVal && val != "1" && val != "true" && val != "silent" {
				err = fmt.Errorf("%w: nonascii takes no value", ErrFaultSpec)
			}
			f.NonASCIISilent = true
		default:
			err = fmt.Errorf("%w: unknown fault %q (known: idle, idlerun, slow, drop, deadtap, dialog, nonascii, "+
				"uiserverdie, nomjpeg)", ErrFaultSpec, key)
		}
		if err != nil {
			return Faults{}, err
		}
	}
	return f, nil
}

// String renders f in the spec syntax ParseFaults reads.
func (f Faults) String() string {
	var parts []string
	num := func(k string, v float64) {
		if v > 0 {
			parts = append(parts, k+"="+strconv.FormatFloat(v, 'g', -1, 64))
		}
	}
	num("idle", f.Idle)
	if f.IdleRun > 0 {
		parts = append(parts, "idlerun="+strconv.Itoa(f.IdleRun))
	}
	if f.Slow > 0 {
		parts = append(parts, "slow="+f.Slow.String())
	}
	num("drop", f.Drop)
	num("deadtap", f.DeadTap)
	num("dialog", f.Dialog)
	if f.NonASCIISilent {
		parts = append(parts, "nonascii")
	}
	if f.UIServerDie > 0 {
		parts = append(parts, "uiserverdie="+strconv.Itoa(f.UIServerDie))
	}
	if f.NoMJPEG {
		parts = append(parts, "nomjpeg")
	}
	return strings.Join(parts, ",")
}
