package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // screenshots some devices send; image.DecodeConfig of a .jpg set-of-mark image
	_ "image/png"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fairy-go/fairy/internal/table"
	"github.com/fairy-go/fairy/perception"
)

// newPerceiveCmd builds `fairy perceive`: read a UI dump (and optionally a
// screenshot) from files and print what the model would see.
func newPerceiveCmd() *cobra.Command {
	var (
		pngPath  string
		format   string
		somPath  string
		longEdge int
		maxText  int
		locale   string
	)
	cmd := &cobra.Command{
		Use:   "perceive DUMP.xml",
		Short: "Show a UI Automator dump as the agent perceives it",
		Long: `Parse a UI Automator dump (adb shell uiautomator dump, uiautomator2 or Appium page
source) and print the screen: the compact text form (--format text) or JSON (--format json)
with package, keyboard, signature, text and elements. With --png and --som, also write the
set-of-mark image (numbered boxes over the screenshot); a .jpg/.jpeg name gives a JPEG.
With --png, the regions the tree does not describe (a WebView with no nodes, a canvas) are
read from the screenshot with Tesseract, as the agent reads them: each line read is an
element marked "(read from the picture)".`,
		Example: `  fairy perceive window_dump.xml
  fairy perceive window_dump.xml --format json
  fairy perceive window_dump.xml --png shot.png --som marked.jpg
  fairy perceive window_dump.xml --png shot.png --locale th-TH`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "text" && format != "json" {
				return withExit(exitUsage, fmt.Errorf("unknown --format %q: use text or json", format))
			}
			if somPath != "" && pngPath == "" {
				return withExit(exitUsage, errors.New("--som needs the screenshot: pass --png SHOT.png"))
			}
			dump, err := os.ReadFile(args[0])
			if err != nil {
				return withExit(exitUsage, fmt.Errorf("read dump: %w", err))
			}
			s, err := perception.Parse(dump)
			if err != nil {
				return withExit(exitUsage, parseError(args[0], err))
			}
			if pngPath != "" {
				if err := readPicture(cmd, s, pngPath, locale); err != nil {
					return err
				}
			}
			if somPath != "" {
				size, err := writeSetOfMark(s, pngPath, somPath, longEdge)
				if err != nil {
					return err
				}
				// On stderr: stdout is the screen, text or JSON, and stays that alone.
				fmt.Fprintf(cmd.ErrOrStderr(), "wrote the set-of-mark image %s (%d×%d, %s)\n", somPath, size.X, size.Y,
					table.Count(len(s.Elements), "numbered box", "numbered boxes"))
			}
			out := cmd.OutOrStdout()
			if format == "json" {
				j := s.JSON()
				j.Text = s.TextWith(perception.TextOptions{MaxText: maxText})
				enc := json.NewEncoder(out)
				enc.SetEscapeHTML(false)
				return enc.Encode(j)
			}
			_, err = fmt.Fprint(out, table.EscapeLines(s.TextWith(perception.TextOptions{MaxText: maxText})))
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&pngPath, "png", "", "screenshot `SHOT.png` taken with the dump (needed for --som)")
	f.StringVar(&format, "format", "text", "output format: text or json")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"text", "json"},
		cobra.ShellCompDirectiveNoFileComp))
	f.StringVar(&somPath, "som", "", "write the set-of-mark image to `OUT.png` (or .jpg)")
	f.IntVar(&longEdge, "long-edge", perception.DefaultLongEdge, "downscale the set-of-mark image to this long side in "+
		"pixels (-1: keep size)")
	f.StringVar(&locale, "locale", "", "the phone's language (`ja-JP`, as getprop persist.sys.locale says): "+
		"the picture is read with its script's data too")
	f.IntVar(&maxText, "max-text", perception.DefaultMaxText, "cut texts longer than this many characters (-1: never)")
	return cmd
}

// parseError says what is wrong with the dump file and what to do. Its text never holds
// the file's bytes beyond a short quoted (escaped) head.
func parseError(path string, err error) error {
	var (
		de *perception.DumperError
		ne *perception.NotXMLError
		se *perception.SyntaxError
	)
	switch {
	case errors.As(err, &de):
		return fmt.Errorf("%s holds a dumper message, not a UI hierarchy (%q): dump again once the screen is idle",
			path, de.Message)
	case errors.As(err, &ne):
		return fmt.Errorf("%s is not a UI dump: %s; give the XML that 'adb shell uiautomator dump' writes "+
			"(a screenshot goes to --png)",
			path, strings.TrimPrefix(ne.Error(), "perception: "))
	case errors.As(err, &se):
		return fmt.Errorf("%s is a broken UI dump: %s; dump the screen again", path, strings.TrimPrefix(se.Error(),
			"perception: "))
	}
	return fmt.Errorf("%s: %w", path, err)
}

// writeSetOfMark writes the set-of-mark image of s over the screenshot pngPath to somPath
// and returns its size.
func writeSetOfMark(s *perception.Screen, pngPath, somPath string, longEdge int) (image.Point, error) {
	shot, err := os.ReadFile(pngPath)
	if err != nil {
		return image.Point{}, fmt.Errorf("read screenshot: %w", err)
	}
	format := perception.FormatPNG
	switch strings.ToLower(filepath.Ext(somPath)) {
	case ".jpg", ".jpeg":
		format = perception.FormatJPEG
	}
	if longEdge == 0 {
		longEdge = -1
	}
	m, err := perception.NewMarker(perception.MarkOptions{LongEdge: longEdge, Format: format})
	if err != nil {
		return image.Point{}, err
	}
	img, _, err := m.Render(shot, s)
	if err != nil {
		return image.Point{}, fmt.Errorf("%s: %w", pngPath, err)
	}
	if err := os.WriteFile(somPath, img, 0o644); err != nil {
		return image.Point{}, fmt.Errorf("write set-of-mark image: %w", err)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(img))
	if err != nil {
		return image.Point{}, fmt.Errorf("read back the set-of-mark image: %w", err)
	}
	return image.Pt(cfg.Width, cfg.Height), nil
}

// readPicture reads the regions of s the tree does not describe from the screenshot at
// pngPath, as the agent reads them (see pixelReader); without Tesseract, the note says
// what to install and the screen is the tree's.
func readPicture(cmd *cobra.Command, s *perception.Screen, pngPath, locale string) error {
	if len(s.Uncovered) == 0 {
		return nil
	}
	shot, err := os.ReadFile(pngPath)
	if err != nil {
		return withExit(exitUsage, fmt.Errorf("read screenshot: %w", err))
	}
	img, _, err := image.Decode(bytes.NewReader(shot))
	if err != nil {
		return withExit(exitUsage, fmt.Errorf("%s is not a PNG or JPEG screenshot: %w", pngPath, err))
	}
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	r := pixelReader(ctx, cmd.ErrOrStderr(), nil)
	if r == nil {
		return nil
	}
	s.Locale = locale
	if err := r.Read(ctx, s, img); err != nil {
		return fmt.Errorf("read %s: %w", pngPath, err)
	}
	return nil
}
