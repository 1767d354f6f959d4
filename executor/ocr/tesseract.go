package ocr

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
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
	// Languages are Tesseract language codes wanted, in order (default: chi_sim and
	// Latin, the data of the Latin script, or eng where Latin is not installed); those
	// whose data is not installed are left out (see Tesseract.Languages).
	Languages []string
}

// Tesseract runs the tesseract program, one kept per language (see worker); Close ends
// them. Safe for concurrent use.
type Tesseract struct {
	program string
	langs   []string

	mu     sync.Mutex
	idle   map[string][]*worker
	closed bool
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
	for _, l := range strings.Split(string(out), "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.Contains(l, " ") {
			have = append(have, l)
		}
	}
	// The programs are kept between reads (see worker): that needs stream_filelist
	// (Tesseract 4 and later).
	params, err := exec.CommandContext(ctx, path, "--print-parameters").CombinedOutput()
	if err != nil || !bytes.Contains(params, []byte("stream_filelist")) {
		return nil, fmt.Errorf("ocr: %s cannot read a stream of images (stream_filelist, Tesseract 4 or later): %v", path, err)
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
	t := &Tesseract{program: path, idle: map[string][]*worker{}}
	for _, l := range want {
		if slices.Contains(have, l) {
			t.langs = append(t.langs, l)
		}
	}
	if len(t.langs) == 0 {
		return nil, fmt.Errorf("%w: wanted %s, installed %s", ErrNoLanguage, strings.Join(want, ", "), strings.Join(have, ", "))
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

// Read reads the words of img with the data of each language of script apart (each word
// says its Language): a line of Chinese read with English data comes out as confident-
// looking Latin garbage when the languages are mixed in one reading, so perception takes,
// line by line, the reading its engine was surest of. The image is taken as a uniform
// block of lines (page segmentation mode 6): perception hands over its text lines stacked
// one under another.
func (t *Tesseract) Read(ctx context.Context, img *image.Gray, script perception.Script) ([]perception.Word, error) {
	langs := t.alphabetic
	if script == perception.Ideographic {
		langs = t.ideographic
	}
	if len(langs) == 0 {
		return nil, nil
	}
	var in bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&in, img); err != nil {
		return nil, fmt.Errorf("ocr: encode image: %w", err)
	}
	readings := make([][]perception.Word, len(langs))
	g, gctx := errgroup.WithContext(ctx)
	for i, lang := range langs {
		g.Go(func() error {
			ws, err := t.read(gctx, in.Bytes(), lang)
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
		words = append(words, perception.Word{Text: f[11], Box: image.Rect(v[0], v[1], v[0]+v[2], v[1]+v[3]), Confidence: conf})
	}
	return words, nil
}
