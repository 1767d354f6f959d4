// Package table writes text tables whose columns line up in a terminal in any script, the
// counted nouns ("3 steps") their cells and the lines around them hold, and text from
// outside made safe for a terminal (Escape).
//
// text/tabwriter counts a cell's width in runes, so a column that holds Chinese, Japanese
// or Korean text (two terminal columns a character) or combining marks (none) drifts out
// of line. A Writer takes the same input — cells ended by tabs, rows by newlines — and pads
// each cell by its display width (Unicode East Asian Width: wide and fullwidth characters
// take two columns, combining marks and zero-width characters none).
package table

import (
	"bytes"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// padding is the space between two columns.
const padding = 2

// Writer buffers a table written to it and writes it, aligned, on Flush. A cell is text
// ended by a tab; the text after a row's last tab is not a column and is not padded. It
// is what tabwriter.NewWriter(w, 0, 4, 2, ' ', 0) does for a one-width script.
type Writer struct {
	w   io.Writer
	buf bytes.Buffer
}

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write buffers p; it never fails.
func (t *Writer) Write(p []byte) (int, error) { return t.buf.Write(p) }

// Flush writes the buffered rows to the underlying writer with their columns aligned, each
// cell escaped (Escape): a table shows names from phones, files and models.
func (t *Writer) Flush() error {
	text := t.buf.String()
	t.buf.Reset()
	if text == "" {
		return nil
	}
	rows := strings.SplitAfter(EscapeLines(text), "\n")
	cells := make([][]string, len(rows))
	var widths []int
	for i, row := range rows {
		cells[i] = strings.Split(row, "\t")
		for j, c := range cells[i][:len(cells[i])-1] { // the last is no column
			if j == len(widths) {
				widths = append(widths, 0)
			}
			widths[j] = max(widths[j], Width(c))
		}
	}
	var out strings.Builder
	for _, row := range cells {
		for j, c := range row {
			out.WriteString(c)
			if j < len(row)-1 {
				out.WriteString(strings.Repeat(" ", widths[j]-Width(c)+padding))
			}
		}
	}
	_, err := io.WriteString(t.w, out.String())
	return err
}

// Width is the number of terminal columns s takes.
func Width(s string) int {
	n := 0
	for _, r := range s {
		n += runeWidth(r)
	}
	return n
}

func runeWidth(r rune) int {
	switch {
	case r == utf8.RuneError || r == '\n':
		return 1
	case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf) || r == 0x200B:
		return 0
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}
