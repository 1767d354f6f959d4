package ocr

import (
	"strings"

	"golang.org/x/text/language"
)

// Tesseract reads each writing system with data of its own: a script model (Arabic,
// Cyrillic, Japanese…: every language of the script in one file) or a language model
// (ara, rus, jpn…). Debian packages the script models as tesseract-ocr-script-<iso>
// (ISO 15924, lower case) and the language models as tesseract-ocr-<lang>. A screen is
// read with the data that is installed for the scripts it may hold: those of the phone's
// language, and the one Tesseract's own script detection (OSD, osd.traineddata) sees.

// script is one writing system as Tesseract knows it.
type script struct {
	// iso is its ISO 15924 code, as golang.org/x/text/language gives a locale's.
	iso string
	// name is its English name, which OSD reports (and the name of its script model).
	name string
	// osd are other names OSD reports for it.
	osd []string
	// data are the Tesseract data that read it, the preferred first.
	data []string
	// pkg is the Debian package of the preferred data.
	pkg string
}

// scripts are the writing systems Tesseract has data for.
var scripts = []script{
	{iso: "Latn", name: "Latin", osd: []string{"Fraktur"}, data: []string{"Latin", "eng"}, pkg: "tesseract-ocr-script-latn"},
	{iso: "Hans", name: "Han", data: []string{"chi_sim", "HanS"}, pkg: "tesseract-ocr-chi-sim"},
	{iso: "Hant", name: "Traditional Han", data: []string{"chi_tra", "HanT"}, pkg: "tesseract-ocr-chi-tra"},
	{iso: "Jpan", name: "Japanese", osd: []string{"Katakana", "Hiragana"}, data: []string{"Japanese", "jpn"}, pkg: "tesseract-ocr-script-jpan"},
	{iso: "Kore", name: "Hangul", osd: []string{"Korean"}, data: []string{"Hangul", "kor"}, pkg: "tesseract-ocr-script-hang"},
	{iso: "Cyrl", name: "Cyrillic", data: []string{"Cyrillic", "rus", "ukr"}, pkg: "tesseract-ocr-script-cyrl"},
	{iso: "Arab", name: "Arabic", data: []string{"Arabic", "ara", "fas", "urd"}, pkg: "tesseract-ocr-script-arab"},
	{iso: "Hebr", name: "Hebrew", data: []string{"Hebrew", "heb"}, pkg: "tesseract-ocr-script-hebr"},
	{iso: "Deva", name: "Devanagari", data: []string{"Devanagari", "hin", "mar", "nep"}, pkg: "tesseract-ocr-script-deva"},
	{iso: "Thai", name: "Thai", data: []string{"Thai", "tha"}, pkg: "tesseract-ocr-script-thai"},
	{iso: "Grek", name: "Greek", data: []string{"Greek", "ell"}, pkg: "tesseract-ocr-script-grek"},
	{iso: "Beng", name: "Bengali", data: []string{"Bengali", "ben"}, pkg: "tesseract-ocr-script-beng"},
	{iso: "Taml", name: "Tamil", data: []string{"Tamil", "tam"}, pkg: "tesseract-ocr-script-taml"},
	{iso: "Telu", name: "Telugu", data: []string{"Telugu", "tel"}, pkg: "tesseract-ocr-script-telu"},
	{iso: "Knda", name: "Kannada", data: []string{"Kannada", "kan"}, pkg: "tesseract-ocr-script-knda"},
	{iso: "Mlym", name: "Malayalam", data: []string{"Malayalam", "mal"}, pkg: "tesseract-ocr-script-mlym"},
	{iso: "Gujr", name: "Gujarati", data: []string{"Gujarati", "guj"}, pkg: "tesseract-ocr-script-gujr"},
	{iso: "Guru", name: "Gurmukhi", data: []string{"Gurmukhi", "pan"}, pkg: "tesseract-ocr-script-guru"},
	{iso: "Orya", name: "Oriya", data: []string{"Oriya", "ori"}, pkg: "tesseract-ocr-script-orya"},
	{iso: "Khmr", name: "Khmer", data: []string{"Khmer", "khm"}, pkg: "tesseract-ocr-script-khmr"},
	{iso: "Laoo", name: "Lao", data: []string{"Lao", "lao"}, pkg: "tesseract-ocr-script-laoo"},
	{iso: "Mymr", name: "Myanmar", data: []string{"Myanmar", "mya"}, pkg: "tesseract-ocr-script-mymr"},
	{iso: "Sinh", name: "Sinhala", data: []string{"Sinhala", "sin"}, pkg: "tesseract-ocr-script-sinh"},
	{iso: "Armn", name: "Armenian", data: []string{"Armenian", "hye"}, pkg: "tesseract-ocr-script-armn"},
	{iso: "Geor", name: "Georgian", data: []string{"Georgian", "kat"}, pkg: "tesseract-ocr-script-geor"},
	{iso: "Ethi", name: "Ethiopic", data: []string{"Ethiopic", "amh"}, pkg: "tesseract-ocr-script-ethi"},
	{iso: "Tibt", name: "Tibetan", data: []string{"Tibetan", "bod"}, pkg: "tesseract-ocr-script-tibt"},
	{iso: "Thaa", name: "Thaana", data: []string{"Thaana", "div"}, pkg: "tesseract-ocr-script-thaa"},
	{iso: "Syrc", name: "Syriac", data: []string{"Syriac", "syr"}, pkg: "tesseract-ocr-script-syrc"},
}

// scriptOfLocale is the script a locale is written in ("ja-JP": Japanese), from the
// Unicode CLDR's likely scripts; nil for a locale that does not parse or an unknown script.
func scriptOfLocale(locale string) *script {
	locale = strings.TrimSpace(locale)
	if locale == "" {
		return nil
	}
	tag, err := language.Parse(locale)
	if err != nil {
		return nil
	}
	s, _ := tag.Script()
	iso := s.String()
	if iso == "Hang" {
		iso = "Kore"
	}
	for i := range scripts {
		if scripts[i].iso == iso {
			return &scripts[i]
		}
	}
	return nil
}

// scriptNamed is the script OSD reports as name; nil when unknown.
func scriptNamed(name string) *script {
	for i := range scripts {
		if strings.EqualFold(scripts[i].name, name) {
			return &scripts[i]
		}
		for _, o := range scripts[i].osd {
			if strings.EqualFold(o, name) {
				return &scripts[i]
			}
		}
	}
	return nil
}

// scriptOfData is the script data reads (Latin for eng), nil when unknown.
func scriptOfData(data string) *script {
	data = strings.TrimPrefix(data, "script/")
	for i := range scripts {
		for _, d := range scripts[i].data {
			if d == data {
				return &scripts[i]
			}
		}
	}
	return nil
}

// packageOf is the Debian package that installs data: a script model
// (tesseract-ocr-script-cyrl) or a language model (tesseract-ocr-chi-sim).
func packageOf(data string) string {
	data = strings.TrimPrefix(data, "script/")
	if s := scriptOfData(data); s != nil && s.data[0] == data {
		return s.pkg
	}
	if data != "" && strings.ToLower(data[:1]) != data[:1] {
		// A script model not in the table: Debian names it by its ISO code, unknown here.
		return "the tesseract-ocr-script-* package of " + data
	}
	return "tesseract-ocr-" + strings.ReplaceAll(strings.ToLower(data), "_", "-")
}
