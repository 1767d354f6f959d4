// Package ocr reads text from pixels with Tesseract, Debian's tesseract-ocr (and
// tesseract-ocr-chi-sim for Chinese): the tesseract program runs once per read, the image
// on its standard input, words with their boxes (TSV) on its standard output. No cgo, no
// library binding: the single program is all fairy needs. *Tesseract satisfies
// perception.OCR; perception decides what to read and how to prepare it.
package ocr
