package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"

	"github.com/fairy-go/fairy/executor/ocr"
	"github.com/fairy-go/fairy/perception"
)

// keyPixelsLanguages names the Tesseract languages the pixel reader always reads with
// (config file only):
//
//	pixels:
//	  languages: [Latin, chi_sim, Cyrillic]   # default: chi_sim, Latin (eng without Latin)
//
// The data of the phone's language and of the script Tesseract's detection sees on the
// screen is read with beside them.
const keyPixelsLanguages = "pixels.languages"

// tessLanguage is what a Tesseract language name looks like: eng, chi_sim, Cyrillic,
// script/Arabic.
var tessLanguage = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*(/[A-Za-z][A-Za-z0-9_]*)?$`)

// checkPixelLanguages refuses a name that cannot be a Tesseract language.
func checkPixelLanguages(langs []string) error {
	for _, l := range langs {
		if !tessLanguage.MatchString(l) {
			return fmt.Errorf("%s: %q is not a Tesseract language name: give names as 'tesseract --list-langs' prints them "+
				"(eng, chi_sim, Cyrillic, Japanese)", keyPixelsLanguages, l)
		}
	}
	return nil
}

// pixelReader reads what the accessibility tree does not describe (a childless WebView, a
// canvas) from the screenshot with Tesseract, with languages (the config's
// pixels.languages; nil: the defaults). What the person should know — no Tesseract, a
// script on the screen or of the phone's language whose data is not installed — is said
// once, on stderr, with the Debian package that brings it. Without Tesseract fairy works
// from the tree alone (nil).
func pixelReader(ctx context.Context, stderr io.Writer, languages []string) *perception.PixelReader {
	if ctx == nil {
		ctx = context.Background()
	}
	note := func(s string) { fmt.Fprintf(stderr, "note: %s\n", s) }
	t, err := ocr.New(ctx, ocr.Config{Languages: languages, Note: note})
	if err != nil {
		switch {
		case errors.Is(err, ocr.ErrNotInstalled):
			fmt.Fprintf(stderr, "note: %v\n", ocr.ErrNotInstalled)
		case errors.Is(err, ocr.ErrNoLanguage):
			fmt.Fprintf(stderr, "note: %v\n", err)
		default:
			fmt.Fprintf(stderr, "note: text in pictures will not be read: %v\n", err)
		}
		return nil
	}
	r, err := perception.NewPixelReader(t)
	if err != nil {
		return nil
	}
	return r
}
