package ocr

import "errors"

// ErrNotInstalled means the tesseract program is not on the PATH.
var ErrNotInstalled = errors.New("ocr: tesseract is not installed (Debian: " +
	"apt-get install tesseract-ocr tesseract-ocr-script-latn tesseract-ocr-chi-sim tesseract-ocr-osd); " +
	"fairy reads the accessibility tree only")

// ErrNoLanguage means none of the wanted languages' data is installed.
var ErrNoLanguage = errors.New("ocr: no Tesseract language data for the wanted languages (Debian: " +
	"apt-get install tesseract-ocr-script-latn tesseract-ocr-chi-sim)")

// ErrClosed means the Tesseract was closed.
var ErrClosed = errors.New("ocr: tesseract closed")
