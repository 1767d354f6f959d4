package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestPixelReaderWithoutTesseract: with no tesseract on the PATH, fairy says once what to
// install and works from the tree alone (no reader).
func TestPixelReaderWithoutTesseract(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	var errOut bytes.Buffer
	if r := pixelReader(context.Background(), &errOut); r != nil {
		t.Fatalf("a reader without tesseract: %v", r)
	}
	msg := errOut.String()
	if strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "tesseract is not installed") || !strings.Contains(msg, "apt-get install tesseract-ocr") {
		t.Errorf("the note = %q, want one line saying what to install", msg)
	}
}
