package executor

import (
	"context"
	"errors"
	"log/slog"
	"testing"
)

// localePhone is a fakePhone that says its language, and counts how often it is asked.
type localePhone struct {
	*fakePhone
	locale string
	err    error
	asked  int
}

func (p *localePhone) Locale(context.Context) (string, error) {
	p.asked++
	return p.locale, p.err
}

// TestPhoneLocale: the pixel reader is told the phone's language, read from the device
// once a task; a device that cannot say, or fails to, leaves it unknown.
func TestPhoneLocale(t *testing.T) {
	e := &Executor{log: slog.New(slog.DiscardHandler)}
	ja := &localePhone{fakePhone: &fakePhone{}, locale: "ja-JP"}
	r := &run{e: e, cfg: &Config{Device: ja}}
	for range 3 {
		if got := r.phoneLocale(context.Background()); got != "ja-JP" {
			t.Fatalf("phoneLocale = %q, want ja-JP", got)
		}
	}
	if ja.asked != 1 {
		t.Errorf("the phone was asked %d times, want once", ja.asked)
	}
	broken := &localePhone{fakePhone: &fakePhone{}, err: errors.New("device offline")}
	if got := (&run{e: e, cfg: &Config{Device: broken}}).phoneLocale(context.Background()); got != "" {
		t.Errorf("phoneLocale of a failing device = %q, want unknown", got)
	}
	if got := (&run{e: e, cfg: &Config{Device: &fakePhone{}}}).phoneLocale(context.Background()); got != "" {
		t.Errorf("phoneLocale of a device that cannot say = %q, want unknown", got)
	}
}
