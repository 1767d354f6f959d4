// Package ocrtest starts fairy's Tesseract reader for tests that read screens from their
// pictures. Tesseract is an outside program (Debian's tesseract-ocr), so those tests belong
// to the full tier: under -short they are skipped; without tesseract they fail when CI is
// set (scripts/test.sh installs it) and are skipped otherwise.
package ocrtest

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/fairy-go/fairy/executor/ocr"
)

// Start starts the reader for tb and stops its programs when tb ends.
func Start(tb testing.TB) *ocr.Tesseract {
	tb.Helper()
	if testing.Short() {
		tb.Skip("starts tesseract: full tier only (scripts/test.sh), skipped under -short")
	}
	tess, err := ocr.New(context.Background(), ocr.Config{})
	if err != nil {
		if os.Getenv("CI") != "" || !errors.Is(err, ocr.ErrNotInstalled) {
			tb.Fatal(err)
		}
		tb.Skip(err)
	}
	tb.Cleanup(func() { tess.Close() })
	return tess
}
