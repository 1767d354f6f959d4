package adbtest_test

import (
	"strings"
	"testing"

	"github.com/fairy-go/fairy/sim/adbtest"
)

func TestStart(t *testing.T) {
	srv := adbtest.Start(t)
	if srv.Port == 5037 {
		t.Fatal("the private server took the default port")
	}
	if v, err := srv.Query("host:version"); err != nil || v != "0029" {
		t.Errorf("host:version = %q, %v", v, err)
	}
	if st, err := srv.State("nope"); err != nil || st != "" {
		t.Errorf("State(nope) = %q, %v", st, err)
	}
	if out := string(srv.Run(t, "devices")); !strings.HasPrefix(out, "List of devices attached") {
		t.Errorf("adb devices: %q", out)
	}
	if _, err := srv.Query("host:frobnicate"); err == nil {
		t.Error("unknown host service: no error")
	}
}
