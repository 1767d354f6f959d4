package androidworld

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/sim"
)

// Checks: a text sent to a number.

// smsCheck: an outgoing message to Number whose text fuzzy-matches Text, as
// sms_validators.was_sent: the message's number loses its dashes and spaces, nothing
// else, and must then be Number as the task gave it ("+1 555-010-2030" is "+15550102030";
// "(555) 010-2030" and "15550102030" are not). With App set, that app must be in front too
// (SimpleSMSSendSms's in_correct_app).
type smsCheck struct {
	Number, Text string
	App          string
}

func (c *smsCheck) Kind() string  { return "sms" }
func (c *smsCheck) Virtual() bool { return true }
func (c *smsCheck) Describe() string {
	return fmt.Sprintf("a text to %s saying %q", c.Number, c.Text)
}

func (c *smsCheck) Evaluate(ctx context.Context, p suite.Probe) (bool, string, error) {
	st, err := phoneState(p)
	if err != nil {
		return false, "", err
	}
	rows, err := st.Records(messagesPkg + ":messages")
	if err != nil {
		return false, "", err
	}
	ok, ev := c.sent(rows)
	if ok && c.App != "" {
		fg, err := foreground(ctx, p)
		if err != nil {
			return false, "", err
		}
		if fg != c.App {
			return false, ev + "; but " + fg + " is in front, not " + c.App, nil
		}
	}
	return ok, ev, nil
}

func (c *smsCheck) sent(rows []sim.Record) (bool, string) {
	var seen []string
	for _, r := range rows {
		if r["dir"] != "out" {
			continue
		}
		seen = append(seen, fmt.Sprintf("to %s: %q", r["phone"], r["text"]))
		if sentNumber(r["phone"]) == c.Number && fuzzyMatch(r["text"], c.Text) {
			return true, "sent to " + r["phone"] + ": " + strconv.Quote(r["text"])
		}
	}
	return false, fmt.Sprintf("no such text among %d sent: %s", len(seen), strings.Join(lastN(seen, 4), "; "))
}

// sentNumber is a message's number as was_sent compares it: dashes and spaces removed.
func sentNumber(s string) string { return strings.NewReplacer("-", "", " ", "").Replace(s) }
