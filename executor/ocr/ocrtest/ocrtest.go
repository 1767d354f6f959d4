// Package ocrtest starts fairy's Tesseract reader for tests that read screens from their
// pictures. Tesseract is an outside program (Debian's tesseract-ocr), so those tests belong
// to the full tier: under -short they are skipped; without tesseract they fail when CI is
// set (scripts/test.sh installs it) and are skipped otherwise.
package ocrtest

import (
	"context"
	"errors"
	"testing"

	"github.com/fairy-go/fairy/executor/ocr"
	"github.com/fairy-go/fairy/internal/testenv"
)

// Start starts the reader for tb and stops its programs when tb ends.
func Start(tb testing.TB) *ocr.Tesseract {
	tb.Helper()
	testenv.MustHaveFullTier(tb, "starts tesseract")
	tess, err := ocr.New(context.Background(), ocr.Config{})
	if err != nil {
		if !errors.Is(err, ocr.ErrNotInstalled) {
			tb.Fatal(err)
		}
		testenv.Missing(tb, "%v", err)
	}
	tb.Cleanup(func() { tess.Close() })
	return tess
}
