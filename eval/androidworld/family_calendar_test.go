package androidworld

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// SimpleCalendarAddOneEvent's check is the benchmark's start_ts and end_ts: the added row
// must have the start (date, time) and the end (end_date, end) the duration gives, an
// event at 23h ending the next day; the walk sets them on the editor's date and time
// pickers, not in typed fields.
func TestCalendarAddChecksStartAndEnd(t *testing.T) {
	d, err := loadData()
	if err != nil {
		t.Fatal(err)
	}
	var f builder
	for _, b := range builders {
		if b.name == "SimpleCalendarAddOneEvent" {
			f = b
		}
	}
	pastMidnight := false
	for i := range 400 {
		g := &gen{r: instanceRand(int64(i), f.name, 0), d: d}
		in, err := f.draw(g)
		if err != nil {
			t.Fatal(err)
		}
		day, _ := strconv.Atoi(in.params["day"])
		hour, _ := strconv.Atoi(in.params["hour"])
		mins, _ := strconv.Atoi(in.params["duration_mins"])
		start := time.Date(2023, 10, day, hour, 0, 0, 0, time.UTC)
		end := start.Add(time.Duration(mins) * time.Minute)
		rc, ok := in.checks[0].(*rowsCheck)
		if !ok || len(rc.Added) != 1 {
			t.Fatalf("seed %d: checks %+v", i, in.checks)
		}
		row := rc.Added[0]
		want := map[string]string{"date": start.Format("2006-01-02"), "time": start.Format("15:04"),
			"end_date": end.Format("2006-01-02"), "end": end.Format("15:04")}
		for k, v := range want {
			if row[k] != v {
				t.Fatalf("seed %d: added row %v: %s = %q, want %q (an event at %dh for %d mins)", i, row, k, row[k], v, hour, mins)
			}
		}
		pastMidnight = pastMidnight || end.Day() != start.Day()
		var walk strings.Builder
		for _, s := range in.walk[0].Steps {
			walk.WriteString(strings.Join(s.Do, " ") + "\n")
		}
		for _, typed := range []string{`Input "start_date"`, `Input "start_time"`, `Input "duration"`} {
			if strings.Contains(walk.String(), typed) {
				t.Fatalf("seed %d: the walk types a field the editor does not have: %s", i, typed)
			}
		}
		if !strings.Contains(walk.String(), `Input "input_hour"`) {
			t.Fatalf("seed %d: the walk never types on the time picker:\n%s", i, walk.String())
		}
	}
	if !pastMidnight {
		t.Error("no seed drew an event that ends the next day")
	}
}
