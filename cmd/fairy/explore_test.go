package main

import (
	"context"
	"errors"
	"io"
	"testing"

	"github.com/fairy-go/fairy/executor/adb"
)

// TestExploreBadInput: a bad package or bound is a usage error that names the fix, and no
// device is opened for it.
func TestExploreBadInput(t *testing.T) {
	opened := false
	d := exploreDeps{OpenDevice: func(context.Context) (*adb.Device, error) {
		opened = true
		return nil, errors.New("no device")
	}, Stdout: io.Discard}
	ok := exploreFlags{budget: 200, depth: 6}
	for _, c := range []struct {
		app string
		f   exploreFlags
	}{
		{"settings; rm -rf /", ok},
		{"", ok},
		{"com.android.settings", exploreFlags{budget: 0, depth: 6}},
		{"com.android.settings", exploreFlags{budget: 10, depth: 0}},
		{"com.android.settings", exploreFlags{budget: 10, depth: 2, time: -1}},
	} {
		err := runExplore(t.Context(), d, c.f, c.app, io.Discard)
		var ee *exitError
		if !errors.As(err, &ee) || ee.code != exitUsage {
			t.Errorf("%q %+v: err = %v, want a usage error", c.app, c.f, err)
		}
	}
	if opened {
		t.Error("a device was opened for bad input")
	}
}
