package sim

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// fairy-sim: the phone-only service for evaluations. It prints the apps' state and settings,
// resets the phone, sets its faults, and sets up tasks (AndroidWorld-style: seed an app's
// records, fix the clock). Setup is made of `fairy-sim` subcommands, so a suite declares
// them as setup shell lines and they reach the phone the way every other setup command does.
const fairySimSetupUsage = `       fairy-sim seed PKG:COLLECTION BASE64-JSON   replace a collection's records
                                              (a JSON array of objects of strings)
       fairy-sim clock RFC3339                set the clock (it goes on from there)
`

// cmdFairySimSetup runs `fairy-sim seed` and `fairy-sim clock`; ok is false for any other
// subcommand.
func cmdFairySimSetup(p *Phone, c *cmdIO) (status int, ok bool) {
	switch c.args[1] {
	case "seed":
		if len(c.args) != 4 {
			c.errorf("fairy-sim: seed needs PKG:COLLECTION and BASE64-JSON\n")
			return 1, true
		}
		if err := p.seedRecordsLocked(c.args[2], c.args[3]); err != nil {
			c.errorf("fairy-sim: seed %s: %v\n", c.args[2], err)
			return 1, true
		}
		return 0, true
	case "clock":
		if len(c.args) != 3 {
			c.errorf("fairy-sim: clock needs a time (RFC 3339, e.g. 2023-10-15T15:34:00Z)\n")
			return 1, true
		}
		t, err := time.Parse(time.RFC3339, c.args[2])
		if err != nil {
			c.errorf("fairy-sim: clock: %v\n", err)
			return 1, true
		}
		p.setClockLocked(t)
		return 0, true
	}
	return 0, false
}

// seedRecordsLocked replaces the records of an app's collection ("package:name") with
// the base64 JSON array b64. Every record needs an "id" (the checks compare rows by it).
func (p *Phone) seedRecordsLocked(collection, b64 string) error {
	pkg, name, found := strings.Cut(collection, ":")
	if !found || pkg == "" || name == "" {
		return fmt.Errorf("want PACKAGE:COLLECTION")
	}
	a := p.apps[pkg]
	if a == nil {
		return fmt.Errorf("no app %s: %w", pkg, errNotFound)
	}
	if !hasDeclared(a, name) {
		return fmt.Errorf("app %s has no collection %q: %w", pkg, name, errNotFound)
	}
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return fmt.Errorf("records are not base64: %w", err)
	}
	var recs []Record
	if err := json.Unmarshal(raw, &recs); err != nil {
		return fmt.Errorf("records are not a JSON array of objects of strings: %w", err)
	}
	seen := map[string]bool{}
	for i, r := range recs {
		if r["id"] == "" {
			return fmt.Errorf("record %d has no id", i+1)
		}
		if seen[r["id"]] {
			return fmt.Errorf("record id %q used twice", r["id"])
		}
		seen[r["id"]] = true
	}
	if recs == nil {
		recs = []Record{}
	}
	a.records[name] = recs
	return nil
}

// setClockLocked makes the phone's clock read t now and run on from there; a reset
// brings back the phone's own clock.
func (p *Phone) setClockLocked(t time.Time) {
	if p.baseClock == nil {
		p.baseClock = p.cfg.Clock
	}
	base := p.baseClock
	shift := t.Sub(base())
	p.cfg.Clock = func() time.Time { return base().Add(shift).In(t.Location()) }
}

// SeedCommand is the setup shell line that replaces a collection's records.
func SeedCommand(collection string, recs []Record) (string, error) {
	if recs == nil {
		recs = []Record{}
	}
	b, err := json.Marshal(recs)
	if err != nil {
		return "", err
	}
	return "fairy-sim seed " + collection + " " + base64.StdEncoding.EncodeToString(b), nil
}

const fairySimUsage = `usage: fairy-sim state [COLLECTION|PACKAGE]   print app state as JSON
       fairy-sim settings                     print settings as JSON
       fairy-sim reset                        factory-reset the phone
       fairy-sim faults [SPEC]                print or set the faults
` + fairySimSetupUsage

func cmdFairySim(p *Phone, c *cmdIO) int {
	if len(c.args) < 2 {
		c.errorf("%s", fairySimUsage)
		return 1
	}
	enc := func(v any) int {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			c.errorf("fairy-sim: %v\n", err)
			return 1
		}
		c.printf("%s\n", b)
		return 0
	}
	if st, ok := cmdFairySimSetup(p, c); ok {
		return st
	}
	switch c.args[1] {
	case "state":
		st := p.stateLocked()
		if len(c.args) > 2 {
			key := c.args[2]
			if app, ok := st.Apps[key]; ok {
				return enc(app)
			}
			recs, err := p.recordsLocked(key)
			if err != nil {
				c.errorf("fairy-sim: unknown collection %s\n", key)
				return 1
			}
			return enc(recs)
		}
		return enc(st)
	case "settings":
		return enc(p.settings)
	case "reset":
		if err := p.reset(); err != nil {
			c.errorf("fairy-sim: %v\n", err)
			return 1
		}
		c.printf("reset\n")
		return 0
	case "faults":
		if len(c.args) > 2 {
			f, err := ParseFaults(c.args[2])
			if err != nil {
				c.errorf("fairy-sim: %v\n", err)
				return 1
			}
			p.faults = f
		}
		c.printf("%s\n", p.faults)
		return 0
	}
	c.errorf("%s", fairySimUsage)
	return 1
}
