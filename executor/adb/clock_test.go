package adb

import (
	"context"
	"testing"
	"time"

	"github.com/fairy-go/fairy/sim"
)

// TestClock: the phone's date and time are read from its own clock, through `date` over
// the real adb protocol, in the zone the phone names; `fairy-sim clock` sets it as a
// suite's setup does.
func TestClock(t *testing.T) {
	berlin := time.FixedZone("CEST", 2*3600)
	fixed := time.Date(2023, 10, 15, 15, 34, 5, 0, berlin)
	p := newPhone(t, sim.Config{Clock: func() time.Time { return fixed }})
	host, port := hostFace(t, p)
	d := openDevice(t, Config{Host: host, Port: port})
	ctx := context.Background()
	got, err := d.Clock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got.Format("Mon 2006-01-02 15:04:05 MST") != "Sun 2023-10-15 15:34:05 CEST" {
		t.Errorf("Clock = %v, want Sunday 2023-10-15 15:34:05 CEST", got)
	}
	if _, _, err := d.RawShell(ctx, "fairy-sim clock 2026-11-28T21:14:00+08:00"); err != nil {
		t.Fatal(err)
	}
	got, err = d.Clock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if y, m, day := got.Date(); y != 2026 || m != time.November || day != 28 || got.Hour() != 21 || got.Weekday() != time.Saturday {
		t.Errorf("Clock after fairy-sim clock = %v, want Saturday 2026-11-28 21:14", got)
	}
	for _, tc := range []struct{ out, want string }{
		{"Sat Nov 28 21:14:14 CET 2026\n", "2026-11-28 21:14:14 CET"},
		{"Mon Jan  2 03:04:05 +08 2006\r\n", "2006-01-02 03:04:05 +08"},
		{"Tue Mar  5 10:00:00 GMT+05:30 2024", "2024-03-05 10:00:00 GMT+05:30"},
	} {
		got, err := parseDate(tc.out)
		if err != nil {
			t.Errorf("parseDate(%q): %v", tc.out, err)
			continue
		}
		if s := got.Format("2006-01-02 15:04:05 MST"); s != tc.want {
			t.Errorf("parseDate(%q) = %s, want %s", tc.out, s, tc.want)
		}
	}
	if _, off := mustParse(t, "Mon Jan  2 03:04:05 GMT+05:30 2006").Zone(); off != 5*3600+30*60 {
		t.Errorf("GMT+05:30 read as offset %d", off)
	}
	for _, bad := range []string{"", "date: unknown option", "2026-11-28T21:14:00Z",
		"Thu Jan  1 00:00:05 UTC 1970", // a clock never set: no date rather than a wrong one
		"Sat Nov 28 21:14:14 +99 2026", "Sat Nov 28 21:14:14 UTC+14:99 2026"} {
		if _, err := parseDate(bad); err == nil {
			t.Errorf("parseDate(%q) read a date", bad)
		}
	}
}

func mustParse(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := parseDate(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
