package knowledge

import (
	"fmt"
	"maps"
	"slices"
)

// Caps on imported knowledge. An export document is what fairy itself writes — the learner
// keeps a trick under 400 bytes, a description under 300, a label under 40 — so input far
// beyond these is a mistake or an attack, refused whole before anything is written.
const (
	// MaxImportBytes bounds a whole import document.
	MaxImportBytes = 64 << 20
	// MaxTrickText bounds a trick's text, and an instruction in a provenance or a run.
	// It holds for every trick stored, imported or not.
	MaxTrickText = 4 << 10
	// maxDescription bounds an app's or a page's description, an element's text or
	// content description, and an action argument.
	maxDescription = 2 << 10
	// MaxName bounds a name: a package, label, activity, page key, signature, ID,
	// resource-id, class, kind or outcome.
	MaxName = 256
)

// field is one capped string of an import record.
type field struct {
	name, value string
	limit       int
}

// overCap returns an ErrTooLarge error for the first field over its cap; what names the
// record ("app com.a").
func overCap(what string, fields ...field) error {
	for _, f := range fields {
		if len(f.value) > f.limit {
			return fmt.Errorf("%s: %s is %d bytes, over the %d-byte cap: %w", what, f.name, len(f.value), f.limit, ErrTooLarge)
		}
	}
	return nil
}

// checkCaps checks every string of the document against the import caps.
func (d *exportDocument) checkCaps() error {
	for _, a := range d.Apps {
		if err := overCap("app "+clipName(a.Package),
			field{"package", a.Package, MaxName}, field{"label", a.Label, MaxName},
			field{"launcher activity", a.LauncherActivity, MaxName}, field{"description", a.Description, maxDescription}); err != nil {
			return err
		}
	}
	for _, m := range d.Maps {
		if err := overCap("map "+clipName(m.App), field{"app", m.App, MaxName}); err != nil {
			return err
		}
		for _, p := range m.Pages {
			what := fmt.Sprintf("map %s page %s", clipName(m.App), clipName(p.Key))
			if err := overCap(what, field{"key", p.Key, MaxName}, field{"ID", p.ID, MaxName}, field{"activity", p.Activity, MaxName},
				field{"signature", p.Signature, MaxName}, field{"description", p.Description, maxDescription}); err != nil {
				return err
			}
			for _, e := range p.Elements {
				if err := e.checkCaps(what + " element"); err != nil {
					return err
				}
			}
		}
		for _, t := range m.Transitions {
			what := fmt.Sprintf("map %s transition from %s", clipName(m.App), clipName(t.From))
			if err := overCap(what, field{"from", t.From, MaxName}, field{"to", t.To, MaxName},
				field{"action kind", string(t.Action.Kind), MaxName}, field{"effect", string(t.Effect), MaxName}); err != nil {
				return err
			}
			if err := t.Action.Target.checkCaps(what + " target"); err != nil {
				return err
			}
			if err := checkDeed(t.Deed); err != nil {
				return fmt.Errorf("%s: %w", what, err)
			}
			for _, k := range slices.Sorted(maps.Keys(t.Action.Args)) {
				if err := overCap(what, field{"argument name", k, MaxName}, field{"argument " + clipName(k), t.Action.Args[k], maxDescription}); err != nil {
					return err
				}
			}
		}
	}
	for _, t := range d.Tricks {
		if err := overCap("trick "+clipName(t.ID), field{"ID", t.ID, MaxName}, field{"app", t.App, MaxName}, field{"kind", string(t.Kind), MaxName},
			field{"text", t.Text, MaxTrickText}, field{"instruction", t.Provenance.Instruction, MaxTrickText},
			field{"run ID", t.Provenance.RunID, MaxName}, field{"outcome", t.Provenance.Outcome, MaxName}); err != nil {
			return err
		}
	}
	for _, r := range d.Runs {
		what := "run " + clipName(r.ID)
		if err := overCap(what, field{"ID", r.ID, MaxName}, field{"instruction", r.Instruction, MaxTrickText}, field{"outcome", r.Outcome, MaxName}); err != nil {
			return err
		}
		for _, a := range r.Apps {
			if err := overCap(what, field{"app", a, MaxName}); err != nil {
				return err
			}
		}
	}
	return nil
}

func (e Element) checkCaps(what string) error {
	return overCap(what, field{"resource-id", e.ResourceID, MaxName}, field{"text", e.Text, maxDescription},
		field{"content description", e.Desc, maxDescription}, field{"class", e.Class, MaxName})
}

// clipName shortens a name for an error message: an over-long one is what the message
// is about.
func clipName(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}
