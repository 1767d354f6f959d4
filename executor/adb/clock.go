package adb

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Clock is the phone's own date and time: `date`'s output read as the phone's wall clock
// in the zone it names ("Sat Nov 28 21:14:14 CET 2026", toybox's and coreutils' default
// "%a %b %e %H:%M:%S %Z %Y"). A zone given as an offset ("+08", "GMT+05:30") keeps its
// offset; a zone given by its abbreviation keeps its name with the wall clock as shown
// (abbreviations are not unique: "CST" is three zones). One round trip.
func (d *Device) Clock(ctx context.Context) (time.Time, error) {
	out, err := d.sh(ctx, "date", true)
	if err != nil {
		return time.Time{}, fmt.Errorf("adb clock: %w", err)
	}
	t, err := parseDate(out)
	if err != nil {
		return time.Time{}, fmt.Errorf("adb clock: %w", err)
	}
	return t, nil
}

// offsetZone is a zone written as an offset: "+08", "-0330", "GMT+05:30", "UTC-3".
var offsetZone = regexp.MustCompile(`^(?:GMT|UTC)?([+-])(\d{1,2}):?(\d{2})?$`)

// parseDate reads `date`'s default output: weekday, month, day, time, zone, year.
func parseDate(out string) (time.Time, error) {
	f := strings.Fields(out)
	if len(f) != 6 {
		return time.Time{}, fmt.Errorf("the phone's date %q is not \"Mon Jan 2 15:04:05 ZONE 2006\"", strings.TrimSpace(out))
	}
	wall, err := time.Parse("Mon Jan 2 15:04:05 2006", strings.Join([]string{f[0], f[1], f[2], f[3], f[5]}, " "))
	if err != nil {
		return time.Time{}, fmt.Errorf("the phone's date %q: %w", strings.TrimSpace(out), err)
	}
	zone, offset := f[4], 0
	if m := offsetZone.FindStringSubmatch(zone); m != nil {
		h, _ := strconv.Atoi(m[2])
		mins, _ := strconv.Atoi(m[3])
		if h > 14 || mins > 59 {
			return time.Time{}, fmt.Errorf("the phone's date %q names no zone on Earth (%s)", strings.TrimSpace(out), zone)
		}
		offset = h*3600 + mins*60
		if m[1] == "-" {
			offset = -offset
		}
	}
	y, mo, day := wall.Date()
	if y < 2000 {
		// A clock never set since boot counts from 1970: its date would be told as today.
		return time.Time{}, fmt.Errorf("the phone's clock is not set (it says %q); set its date to have it in the prompts",
			strings.TrimSpace(out))
	}
	hh, mm, ss := wall.Clock()
	return time.Date(y, mo, day, hh, mm, ss, 0, time.FixedZone(zone, offset)), nil
}
