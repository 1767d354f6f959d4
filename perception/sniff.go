package perception

import "bytes"

// binaryMagic lists the openings of binary formats a UI dump is mistaken for: the
// screenshot taken with it, a compressed or archived dump, Android's binary XML.
var binaryMagic = []struct {
	prefix string
	looks  string
}{
	{"\x89PNG\r\n\x1a\n", "a PNG image"},
	{"\xff\xd8\xff", "a JPEG image"},
	{"GIF87a", "a GIF image"},
	{"GIF89a", "a GIF image"},
	{"\x1f\x8b", "gzip data"},
	{"PK\x03\x04", "a zip archive"},
	{"\x28\xb5\x2f\xfd", "zstd data"},
	{"\xfd7zXZ\x00", "xz data"},
	{"%PDF-", "a PDF document"},
	{"\x7fELF", "an executable"},
	{"ABX\x00", "Android binary XML (ABX)"},
	{"\x03\x00\x08\x00", "Android binary XML (AXML)"},
	{"\xff\xfe", "UTF-16 text (save the dump as UTF-8)"},
	{"\xfe\xff", "UTF-16 text (save the dump as UTF-8)"},
}

// sniffSample is how much of the input the control-byte count looks at.
const sniffSample = 8 << 10

// sniffBinary names what data looks like when it is not text, or returns "". Real dumps
// hold no control bytes but the odd one in a text attribute; binary data holds them by
// the hundred.
func sniffBinary(data []byte) string {
	for _, m := range binaryMagic {
		if bytes.HasPrefix(data, []byte(m.prefix)) {
			return m.looks
		}
	}
	if len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP" {
		return "a WebP image"
	}
	if len(data) >= 2 && (data[0] == '<' && data[1] == 0 || data[0] == 0 && data[1] == '<') {
		return "UTF-16 text (save the dump as UTF-8)"
	}
	sample := data[:min(len(data), sniffSample)]
	ctrl := 0
	for _, c := range sample {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' {
			ctrl++
		}
	}
	if ctrl > 0 && ctrl*20 >= len(sample) { // 5% or more
		return "binary data"
	}
	return ""
}

// dumperPhrases are what uiautomator prints instead of a hierarchy, in lower case.
var dumperPhrases = [][]byte{
	[]byte("error:"), []byte("dumped to:"), []byte("null root node"), []byte("idle state"),
	[]byte("killed"), []byte("exception"), []byte("uiautomator"),
}

// isDumperMessage reports text that reads like a dumper's complaint rather than some
// other file.
func isDumperMessage(text []byte) bool {
	lower := bytes.ToLower(text)
	for _, p := range dumperPhrases {
		if bytes.Contains(lower, p) {
			return true
		}
	}
	return false
}

// firstLine returns the first non-blank line of text, cut to a few dozen bytes, for
// quoting a file that is not a dump.
func firstLine(text []byte) string {
	text = bytes.TrimSpace(text)
	if i := bytes.IndexAny(text, "\r\n"); i >= 0 {
		text = text[:i]
	}
	const max = 60
	s := cutMessage(text)
	if len(s) > max {
		n := max
		for n > 0 && !isRuneStart(s[n]) {
			n--
		}
		s = s[:n] + "…"
	}
	return s
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
