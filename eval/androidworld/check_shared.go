package androidworld

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/sim"
	"github.com/pmezard/go-difflib/difflib"
)

// The checks of the benchmark (android_world/task_evals/common_validators), as
// suite.CustomCheck values. What AndroidWorld reads through adb (settings, files, the app
// in front) is read through the device's shell; app databases are read from the virtual
// phone behind State, so the same checks could read an emulator's databases instead.

// state reads an app's rows ("package:collection").
type state interface {
	Records(collection string) ([]sim.Record, error)
}

func phoneState(p suite.Probe) (state, error) {
	if p.Phone == nil {
		return nil, fmt.Errorf("no app database to read (the virtual phone's state)")
	}
	return p.Phone, nil
}

// fuzzyMatch is the benchmark's fuzzy_match: difflib's ratio ≥ 0.9, case ignored, with
// no other change to either text (no trimming).
func fuzzyMatch(a, b string) bool {
	a, b = strings.ToLower(a), strings.ToLower(b)
	m := difflib.NewMatcher(splitChars(a), splitChars(b))
	return m.Ratio() >= 0.9
}

func splitChars(s string) []string {
	out := make([]string, 0, len(s))
	for _, r := range s {
		out = append(out, string(r))
	}
	return out
}

// digits keeps a phone number's digits (and a leading +).
func digits(s string) string {
	var b strings.Builder
	for i, r := range strings.TrimSpace(s) {
		if r >= '0' && r <= '9' || (r == '+' && i == 0) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// smsNumber is a message's number as sms_validators compares it: without "-" and " ",
// nothing else changed.
func smsNumber(s string) string {
	return strings.NewReplacer("-", "", " ", "").Replace(s)
}

// cleanNumber is contacts_utils.clean_phone_number: every non-digit removed (the + too).
func cleanNumber(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) { // Python's \D is every rune but Unicode's decimal digits
			return r
		}
		return -1
	}, s)
}
