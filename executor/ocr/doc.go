// Package ocr reads text from pixels with Tesseract, Debian's tesseract-ocr (and its
// language and script data: tesseract-ocr-chi-sim, tesseract-ocr-script-*, and
// tesseract-ocr-osd for its script detection; see scripts.go for which data a screen is
// read with): one tesseract program per language, started at the
// first read and kept (see worker), is handed the path of each image on its standard input
// and answers its words with their boxes (TSV) on its standard output. No cgo, no library
// binding: the single program is all fairy needs. *Tesseract satisfies perception.OCR;
// perception decides what to read and how to prepare it.
package ocr
