package ocr

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/fairy-go/fairy/perception"
)

// Config says which tesseract to run and which languages to read.
type Config struct {
	// Program is the tesseract program (default: "tesseract" on the PATH).
	Program string
	// Languages are Tesseract language codes always read with, in order (default: chi_sim
	// and Latin, the data of the Latin script, or eng where Latin is not installed); those
	// whose data is not installed are left out (see Tesseract.Languages) and noted. The
	// data of the phone's language and of the script detection finds on the screen is
	// read with beside them.
	Languages []string
	// Note receives what the person should know, each thing once: a script on the screen
	// or of the phone's language whose data is not installed, and the Debian package that
	// brings it. nil: notes are dropped. It may be called from several reads at once.
	Note func(string)
}

// Tesseract runs the tesseract program, one kept per language (see worker); Close ends
// them. Safe for concurrent use.
type Tesseract struct {
	program string
	langs   []string
	// have are the installed data, as --list-langs names them, by their own name
	// ("Arabic" for "script/Arabic").
	have map[string]string
	// osd says Tesseract's script detection data (osd) is installed.
	osd  bool
	note func(string)

	mu     sync.Mutex
	idle   map[string][]*worker
	closed bool
	noted  map[string]bool
	// The languages each perception.Script reads with: alphabetic data (all the data when
	// there is none), and the ideographic data the alphabetic reading did not use.
	alphabetic, ideographic []string
}

// New finds the program and the installed languages; ErrNotInstalled when there is no
// tesseract, ErrNoLanguage when none of the wanted languages is installed.
func New(ctx context.Context, cfg Config) (*Tesseract, error) {
	prog := cfg.Program
	if prog == "" {
		prog = "tesseract"
	}
	path, err := exec.LookPath(prog)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotInstalled, err)
	}
	want := cfg.Languages
	defaults := len(want) == 0
	if defaults {
		want = []string{"chi_sim", "Latin"}
	}
	out, err := exec.CommandContext(ctx, path, "--list-langs").CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("ocr: %s --list-langs: %w: %s", path, err, bytes.TrimSpace(out))
	}
	var have []string
	installed := map[string]string{}
	for _, l := range strings.Split(string(out), "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.Contains(l, " ") {
			have = append(have, l)
			installed[strings.TrimPrefix(l, "script/")] = l
		}
	}
	// The programs are kept between reads (see worker): that needs stream_filelist
	// (Tesseract 4 and later).
	params, err := exec.CommandContext(ctx, path, "--print-parameters").CombinedOutput()
	if err != nil || !bytes.Contains(params, []byte("stream_filelist")) {
		return nil, fmt.Errorf("ocr: %s cannot read a stream of images (stream_filelist, "+
			"Tesseract 4 or later): %v", path, err)
	}
	if defaults && !slices.Contains(have, "Latin") {
		// English data reads the other Latin-script languages without their accents
		// (löschen as loschen, cartão as cartao, which is another word): the Latin
		// script's data (Debian tesseract-ocr-script-latn) reads them all, accents and
		// all, in one pass (TestRecallOnDrawnScreens: 171/181 with eng beside it, 164
		// with eng alone, 174 with Latin alone). It costs more: about 1.4 times English's
		// CPU a strip (63 against 45 ms, one thread, measured on the 2-core machine), and
		// its 89 MB load the first read of a run. Without it, English.
		want = []string{"chi_sim", "eng"}
	}
	t := &Tesseract{program: path, idle: map[string][]*worker{}, have: installed, note: cfg.Note, noted: map[string]bool{}}
	_, t.osd = installed["osd"]
	for _, l := range want {
		if d, ok := installed[strings.TrimPrefix(l, "script/")]; ok {
			t.langs = append(t.langs, d)
		} else if !defaults {
			t.say("lang:"+l, fmt.Sprintf("pixels: Tesseract has no data for %s, which the config names: install it (Debian: "+
				"apt-get install %s)", l, packageOf(l)))
		}
	}
	if !t.osd {
		t.say("osd", "pixels: Tesseract cannot tell which script a screen is written in, "+
			"so text in scripts beyond the configured languages and the phone's is not read: "+
			"install its script detection data (Debian: apt-get install tesseract-ocr-osd)")
	}
	if len(t.langs) == 0 {
		return nil, fmt.Errorf("%w: wanted %s, installed %s", ErrNoLanguage, strings.Join(want, ", "),
			strings.Join(have, ", "))
	}
	for _, l := range t.langs {
		if cjkData(l) {
			t.ideographic = append(t.ideographic, l)
		} else {
			t.alphabetic = append(t.alphabetic, l)
		}
	}
	if len(t.alphabetic) == 0 {
		t.alphabetic, t.ideographic = t.ideographic, nil // CJK data only: it reads Latin too
	}
	return t, nil
}

// Languages are the languages read, as Tesseract names them (eng, chi_sim, …): the
// scripts fairy can read from pixels.
func (t *Tesseract) Languages() []string { return slices.Clone(t.langs) }

// Read reads the words of img with the data of each language of the hint's script apart
// (each word says its Language): a line of Chinese read with English data comes out as
// confident-looking Latin garbage when the languages are mixed in one reading, so
// perception takes, line by line, the reading its engine was surest of. The languages are
// the configured ones of the script, the data of the phone's language (hint.Locale), and,
// when that reading is unsure, the data of the script Tesseract's script detection sees
// in img. A script whose data is not installed is noted once (Config.Note). The image is
// taken as a uniform block of lines (page segmentation mode 6): perception hands over its
// text lines stacked one under another.
func (t *Tesseract) Read(ctx context.Context, img *image.Gray, hint perception.Hint) ([]perception.Word, error) {
	ideo := hint.Script == perception.Ideographic
	langs := t.alphabetic
	if ideo {
		langs = t.ideographic
	}
	langs = slices.Clone(langs)
	if s := scriptOfLocale(hint.Locale); s != nil {
		if d, ok := t.dataFor(s, "the phone's language ("+hint.Locale+") is written in "+s.name+" script"); ok && cjkData(d) == ideo && !slices.Contains(langs, d) {
			langs = append(langs, d)
		}
	}
	if len(langs) == 0 && !t.osd {
		return nil, nil
	}
	var in bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&in, img); err != nil {
		return nil, fmt.Errorf("ocr: encode image: %w", err)
	}
	words, err := t.readWith(ctx, in.Bytes(), langs)
	if err != nil {
		return nil, err
	}
	if !t.osd || !unsure(words) {
		return words, nil
	}
	s, err := t.detect(ctx, in.Bytes())
	if err != nil || s == nil {
		return words, err
	}
	if slices.ContainsFunc(langs, func(l string) bool { return scriptOfData(l) == s }) {
		return words, nil // read already (eng reads Latin)
	}
	d, ok := t.dataFor(s, "the screen shows "+s.name+" script")
	if !ok || slices.Contains(t.langs, d) && cjkData(d) != ideo {
		return words, nil // not installed, or read by the other script's reading
	}
	more, err := t.readWith(ctx, in.Bytes(), []string{d})
	return append(words, more...), err
}

// readWith reads a PNG with each of langs apart, at once.
func (t *Tesseract) readWith(ctx context.Context, png []byte, langs []string) ([]perception.Word, error) {
	readings := make([][]perception.Word, len(langs))
	g, gctx := errgroup.WithContext(ctx)
	for i, lang := range langs {
		g.Go(func() error {
			ws, err := t.read(gctx, png, lang)
			for k := range ws {
				ws[k].Language = lang
			}
			readings[i] = ws
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	var words []perception.Word
	for _, ws := range readings {
		words = append(words, ws...)
	}
	return words, nil
}

// A reading is unsure when its words' mean confidence is under unsureMean, or one word in
// unsureShare is under unsureWord: text of another script read with the wrong data comes
// out so (Оплатить read with Latin data as "OnnaTnTb" at 76, Thai at 50), text read with
// its own at 85 and more, with a stray weak word (a lone digit of a PIN pad).
const (
	unsureWord  = 60
	unsureMean  = 85
	unsureShare = 5
)

// unsure reports a reading that may be of a script its data does not read.
func unsure(words []perception.Word) bool {
	if len(words) == 0 {
		return true
	}
	sum, weak := 0.0, 0
	for _, w := range words {
		if w.Confidence < unsureWord {
			weak++
		}
		sum += w.Confidence
	}
	return sum/float64(len(words)) < unsureMean || weak*unsureShare >= len(words)
}

// dataFor is the installed data that reads s; when there is none, the person is told once
// (why names where s was seen) which package brings it.
func (t *Tesseract) dataFor(s *script, why string) (string, bool) {
	for _, d := range s.data {
		if l, ok := t.have[d]; ok {
			return l, true
		}
	}
	t.say("script:"+s.iso, fmt.Sprintf("pixels: %s, which Tesseract cannot read here: "+
		"text in it is not read from the picture; install its data (Debian: apt-get install %s)", why, s.pkg))
	return "", false
}

// say hands a note to Config.Note, once for each key.
func (t *Tesseract) say(key, msg string) {
	if t.note == nil {
		return
	}
	t.mu.Lock()
	if t.noted[key] {
		t.mu.Unlock()
		return
	}
	t.noted[key] = true
	t.mu.Unlock()
	t.note(msg)
}

// minScriptConfidence is the OSD script confidence under which its answer is a guess
// (a strip of Japanese seen as "Cyrillic" at 0.00; Korean is seen at 0.23, Thai at 0.63,
// Cyrillic at 4.9).
const minScriptConfidence = 0.1

// detect asks Tesseract's script detection (page segmentation mode 0, osd.traineddata)
// which script img is written in; nil when it cannot tell (too few characters).
func (t *Tesseract) detect(ctx context.Context, png []byte) (*script, error) {
	cmd := exec.CommandContext(ctx, t.program, "-", "-", "--psm", "0", "--dpi", "300")
	cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
	cmd.Stdin = bytes.NewReader(png)
	out, err := cmd.Output()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, nil // "Too few characters. Skipping this page": no script to tell
	}
	name, conf := "", 0.0
	for _, l := range strings.Split(string(out), "\n") {
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "Script":
			name = strings.TrimSpace(v)
		case "Script confidence":
			conf, _ = strconv.ParseFloat(strings.TrimSpace(v), 64)
		}
	}
	if name == "" || conf < minScriptConfidence {
		return nil, nil
	}
	return scriptNamed(name), nil
}

// cjkData reports Tesseract language data for Chinese, Japanese or Korean.
func cjkData(lang string) bool {
	return strings.HasPrefix(lang, "chi_") || strings.HasPrefix(lang, "jpn") || strings.HasPrefix(lang, "kor")
}

// read reads a PNG with one language, on a program kept for it (see worker). A kept
// program found dead (killed while idle) is replaced once.
func (t *Tesseract) read(ctx context.Context, png []byte, lang string) ([]perception.Word, error) {
	for {
		w, kept, err := t.take(lang)
		if err != nil {
			return nil, err
		}
		words, err := w.read(ctx, png)
		if err != nil {
			if kept && ctx.Err() == nil && !w.started() {
				continue // it died before this read reached it
			}
			return nil, err // the worker has ended
		}
		t.give(w)
		return words, nil
	}
}

// parseTSV reads Tesseract's TSV: level, page, block, paragraph, line, word, left, top,
// width, height, confidence, text; words are level 5. header says the first line is the
// column names.
func parseTSV(data []byte, header bool) ([]perception.Word, error) {
	var words []perception.Word
	for n, row := range strings.Split(string(data), "\n") {
		if (n == 0 && header) || strings.TrimSpace(row) == "" {
			continue
		}
		f := strings.Split(strings.TrimRight(row, "\r"), "\t")
		if len(f) < 12 {
			return nil, fmt.Errorf("ocr: tesseract TSV line %d has %d fields, want 12", n+1, len(f))
		}
		if f[0] != "5" || strings.TrimSpace(f[11]) == "" {
			continue
		}
		var v [4]int
		for i := range v {
			x, err := strconv.Atoi(f[6+i])
			if err != nil {
				return nil, fmt.Errorf("ocr: tesseract TSV line %d: %w", n+1, err)
			}
			v[i] = x
		}
		conf, err := strconv.ParseFloat(f[10], 64)
		if err != nil {
			return nil, fmt.Errorf("ocr: tesseract TSV line %d: %w", n+1, err)
		}
		words = append(words, perception.Word{Text: f[11], Box: image.Rect(v[0], v[1], v[0]+v[2], v[1]+v[3]),
			Confidence: conf})
	}
	return words, nil
}
