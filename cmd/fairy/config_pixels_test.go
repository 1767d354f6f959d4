package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/fairy-go/fairy/executor/ocr/ocrtest"
)

// TestPixelReaderWithoutTesseract: with no tesseract on the PATH, fairy says once what to
// install and works from the tree alone (no reader).
func TestPixelReaderWithoutTesseract(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	var errOut bytes.Buffer
	if r := pixelReader(context.Background(), &errOut, nil); r != nil {
		t.Fatalf("a reader without tesseract: %v", r)
	}
	msg := errOut.String()
	if strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "tesseract is not installed") || !strings.Contains(msg, "apt-get install tesseract-ocr") {
		t.Errorf("the note = %q, want one line saying what to install", msg)
	}
}

// TestPixelsLanguagesConfig: pixels.languages in the config names the languages the
// pixel reader reads with: each reaches Tesseract (one not installed is noted once with its
// package), a name that cannot be a Tesseract language is refused naming the key, and a
// misspelt key is caught by the strict check.
func TestPixelsLanguagesConfig(t *testing.T) {
	ocrtest.Start(t)
	dir := t.TempDir()
	load := func(body string) (runConfig, string, error) {
		path := filepath.Join(dir, "config.yaml")
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		var errOut bytes.Buffer
		s := newSettings(strings.NewReader(""), &bytes.Buffer{}, &errOut, envMap(map[string]string{"HOME": dir}))
		root := s.rootCmd()
		var rc runConfig
		var err error
		root.RunE = func(cmd *cobra.Command, _ []string) error { rc, err = s.runConfig(cmd); return nil }
		root.SetArgs([]string{"--config", path})
		if e := root.Execute(); e != nil {
			t.Fatal(e)
		}
		return rc, errOut.String(), err
	}
	rc, stderr, err := load("pixels:\n  languages: [eng, tlh]\n")
	if err != nil || rc.Agent.Pixels == nil {
		t.Fatalf("pixels.languages [eng, tlh]: %v (reader %v)\n%s", err, rc.Agent.Pixels, stderr)
	}
	if strings.Count(stderr, "no data for tlh") != 1 || !strings.Contains(stderr, "apt-get install tesseract-ocr-tlh)") {
		t.Errorf("the note on a configured language that is not installed = %q, want it once with its package", stderr)
	}
	if _, _, err := load("pixels:\n  languages: [eng, \"-c tessedit_write_images=1\"]\n"); err == nil || !strings.Contains(err.Error(), "pixels.languages") {
		t.Errorf("an option as a language: %v, want an error naming pixels.languages", err)
	}
	path := filepath.Join(dir, "typo.yaml")
	if err := os.WriteFile(path, []byte("pixels:\n  langauges: [Thai]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := checkConfigFile(path); err == nil || !strings.Contains(err.Error(), `did you mean "languages"?`) {
		t.Errorf("a misspelt pixels key: %v", err)
	}
}
