package adb

import (
	"context"
	"fmt"
	"strings"
)

// Locale is the phone's language as a BCP 47 tag ("ja-JP"): persist.sys.locale, which the
// language picker sets (Android 7 and later), else persist.sys.language and
// persist.sys.country (before it), else ro.product.locale, the factory's. "" when none
// says. One getprop lists them all: one round trip.
func (d *Device) Locale(ctx context.Context) (string, error) {
	out, err := d.sh(ctx, "getprop", true)
	if err != nil {
		return "", fmt.Errorf("adb locale: %w", err)
	}
	return localeOf(out), nil
}

// localeOf reads the locale from getprop's listing ("[key]: [value]" lines).
func localeOf(props string) string {
	p := map[string]string{}
	for _, l := range strings.Split(props, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(l), "]: [")
		if ok && strings.HasPrefix(k, "[") && strings.HasSuffix(v, "]") {
			p[k[1:]] = strings.TrimSpace(v[:len(v)-1])
		}
	}
	if l := p["persist.sys.locale"]; l != "" {
		return l
	}
	if l := p["persist.sys.language"]; l != "" {
		if c := p["persist.sys.country"]; c != "" {
			return l + "-" + c
		}
		return l
	}
	return p["ro.product.locale"]
}
