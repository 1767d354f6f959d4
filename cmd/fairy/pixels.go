package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/fairy-go/fairy/executor"
	"github.com/fairy-go/fairy/executor/ocr"
	"github.com/fairy-go/fairy/perception"
)

// pixelReader reads what the accessibility tree does not describe (a childless WebView, a
// canvas) from the screenshot with Tesseract. Without it, fairy says so once, on stderr,
// and works from the tree alone (nil).
func pixelReader(ctx context.Context, stderr io.Writer) executor.PixelReader {
	if ctx == nil {
		ctx = context.Background()
	}
	t, err := ocr.New(ctx, ocr.Config{})
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
