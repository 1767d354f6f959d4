package ocr

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"

	"github.com/fairy-go/fairy/perception"
)

// A tesseract run spends most of a small read loading its language data (about 80 ms of
// 150 for eng, measured on the 2-core machine; LoadUniversal's ambiguity table alone is a
// quarter of it, whatever the options). So each language's program is started once and
// kept: with stream_filelist it reads image paths from its standard input one line at a
// time and writes each page's TSV as soon as the page is read. A worker is one such
// program; after each image it is sent a blank one, whose page line says the image's
// words are all out.

// maxIdle is how many idle programs a language keeps (more run while reads overlap).
const maxIdle = 2

// blankPNG is the page sent after each image: 8×8 white.
var blankPNG = func() []byte {
	img := image.NewGray(image.Rect(0, 0, 8, 8))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err) // encoding an in-memory 8×8 image cannot fail
	}
	return b.Bytes()
}()

// worker is one tesseract program reading one language's pages from a list on its stdin.
type worker struct {
	lang  string
	cmd   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Reader
	errs  *tailBuffer
	pages int // pages sent so far
	// answered says the program wrote something for the current read: a failure before
	// that may be a program that died while idle.
	answered bool
}

func (w *worker) started() bool { return w.answered }

// startWorker starts the program for lang.
func (t *Tesseract) startWorker(lang string) (*worker, error) {
	// Not CommandContext: the program outlives the read that starts it.
	cmd := exec.Command(t.program, "-", "stdout", "-l", lang, "--psm", "6",
		// The lines come dark on white at a known height: no inverted second reading, no
		// resolution guess.
		"-c", "tessedit_do_invert=0", "--dpi", "300",
		"-c", "stream_filelist=1", "tsv")
	// One thread: the images are small, and the machine runs the agent beside it.
	cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("ocr: tesseract: %w", err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("ocr: tesseract: %w", err)
	}
	w := &worker{lang: lang, cmd: cmd, in: in, out: bufio.NewReaderSize(out, 64<<10), errs: &tailBuffer{max: 2048}}
	cmd.Stderr = w.errs
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("ocr: start tesseract: %w", err)
	}
	// The TSV header comes first.
	if _, err := w.out.ReadString('\n'); err != nil {
		return nil, w.fail(err)
	}
	return w, nil
}

// read reads one PNG image and returns its words.
func (w *worker) read(ctx context.Context, img []byte) ([]perception.Word, error) {
	f, err := os.CreateTemp("", "fairy-ocr-*.png")
	if err != nil {
		return nil, fmt.Errorf("ocr: %w", err)
	}
	defer os.Remove(f.Name())
	b, err := os.CreateTemp("", "fairy-ocr-end-*.png")
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("ocr: %w", err)
	}
	defer os.Remove(b.Name())
	_, err1 := f.Write(img)
	_, err2 := b.Write(blankPNG)
	if err := errors.Join(err1, err2, f.Close(), b.Close()); err != nil {
		return nil, fmt.Errorf("ocr: write image: %w", err)
	}
	if strings.ContainsAny(f.Name()+b.Name(), "\r\n") {
		return nil, fmt.Errorf("ocr: temporary path %q holds a line break", f.Name())
	}
	// A read cancelled mid-page ends the program: it cannot be stopped otherwise.
	stop := context.AfterFunc(ctx, func() { w.cmd.Process.Kill() })
	defer stop()
	w.answered = false
	page, end := w.pages+1, w.pages+2
	w.pages += 2
	if _, err := io.WriteString(w.in, f.Name()+"\n"+b.Name()+"\n"); err != nil {
		return nil, w.failCtx(ctx, err)
	}
	var tsv bytes.Buffer
	for {
		line, err := w.out.ReadString('\n')
		if err != nil {
			return nil, w.failCtx(ctx, err)
		}
		w.answered = true
		f := strings.SplitN(line, "\t", 3)
		if len(f) < 3 {
			return nil, w.failCtx(ctx, fmt.Errorf("TSV line %q", strings.TrimSpace(line)))
		}
		n, err := strconv.Atoi(f[1])
		if err != nil {
			return nil, w.failCtx(ctx, fmt.Errorf("TSV line %q: %w", strings.TrimSpace(line), err))
		}
		if n == end && f[0] == "1" {
			break // the blank page's line: the image's words are all out
		}
		if n == page {
			tsv.WriteString(line)
		}
	}
	return parseTSV(tsv.Bytes(), false)
}

// failCtx is fail, or the context's error when the context ended the program.
func (w *worker) failCtx(ctx context.Context, err error) error {
	err = w.fail(err)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// fail ends the program after an error and describes it with what it wrote on stderr.
func (w *worker) fail(err error) error {
	w.close()
	return fmt.Errorf("ocr: tesseract -l %s: %w: %s", w.lang, err, strings.TrimSpace(w.errs.String()))
}

// close ends the program: its list ends, or it is killed when it does not stop reading.
func (w *worker) close() {
	w.in.Close()
	w.cmd.Process.Kill() // a page in progress is of no use any more
	w.cmd.Wait()
}

// take gives an idle worker for lang (kept), or starts one.
func (t *Tesseract) take(lang string) (w *worker, kept bool, err error) {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil, false, ErrClosed
	}
	if ws := t.idle[lang]; len(ws) > 0 {
		w := ws[len(ws)-1]
		t.idle[lang] = ws[:len(ws)-1]
		t.mu.Unlock()
		return w, true, nil
	}
	t.mu.Unlock()
	w, err = t.startWorker(lang)
	return w, false, err
}

// give returns a worker after a read that went well.
func (t *Tesseract) give(w *worker) {
	t.mu.Lock()
	if !t.closed && len(t.idle[w.lang]) < maxIdle {
		t.idle[w.lang] = append(t.idle[w.lang], w)
		t.mu.Unlock()
		return
	}
	t.mu.Unlock()
	w.close()
}

// Close ends the tesseract programs kept between reads; a read after Close fails with
// ErrClosed. Without Close they end when fairy does (their list of images ends).
func (t *Tesseract) Close() error {
	t.mu.Lock()
	t.closed = true
	idle := t.idle
	t.idle = nil
	t.mu.Unlock()
	for _, ws := range idle {
		for _, w := range ws {
			w.close()
		}
	}
	return nil
}

// tailBuffer keeps the last max bytes written to it (a program's stderr, for errors).
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.b = append(b.b, p...)
	if len(b.b) > b.max {
		b.b = append(b.b[:0], b.b[len(b.b)-b.max:]...)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.b)
}
