package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fairy-go/fairy/internal/mapview"
	"github.com/fairy-go/fairy/internal/table"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/spf13/cobra"
)

// newMapViewCmd builds `fairy map view PKG [--out FILE]`.
func newMapViewCmd(knowledgePath knowledgeRef) *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "view PKG [--out FILE]",
		Short: "Write an app's map as one HTML page with a picture of every page (open it in a browser)",
		Long: `Writes the App Map of PKG as one self-contained HTML page: every page a card with a
picture of its screen (taken by the learner while tasks ran), the transitions as labelled
arrows, laid out top-down from where the app opens. Click a page to see its elements and
the ways in and out, search by page or element name, and pick two pages to see the route
fairy would take between them. The page needs no network: pictures, script and fonts are
inside it. FILE defaults to PKG.map.html in the current directory; - writes to stdout.`,
		Example: `  fairy map view com.android.settings
  fairy map view com.android.settings --out /tmp/settings.html`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeMapApps(knowledgePath),
		RunE: func(c *cobra.Command, args []string) error {
			app := args[0]
			var page bytes.Buffer
			var pages, pictures int
			err := withKnowledge(knowledgePath, false, func(s *knowledge.Store) error {
				m, err := appMap(s, app)
				if err != nil {
					return err
				}
				thumbs, err := s.Thumbs(app)
				if err != nil {
					return err
				}
				label := ""
				if a, err := s.GetApp(app); err == nil {
					label = a.Label
				} else if !errors.Is(err, knowledge.ErrNotFound) {
					return err
				}
				pages = len(m.Pages)
				for _, p := range m.Pages {
					if len(thumbs[p.Key].JPEG) > 0 {
						pictures++
					}
				}
				return mapview.Write(&page, m, thumbs, mapview.Options{Label: label, Generated: time.Now()})
			})
			if err != nil {
				return err
			}
			if out == "-" {
				_, err := c.OutOrStdout().Write(page.Bytes())
				return err
			}
			if out == "" {
				out = safeFileName(app) + ".map.html"
			}
			if err := writeFileAtomic(out, page.Bytes()); err != nil {
				return fmt.Errorf("write the map view: %w", err)
			}
			abs, err := filepath.Abs(out)
			if err != nil {
				abs = out
			}
			fmt.Fprintf(c.OutOrStdout(), "Wrote %s: %s, %s. Open it in a browser: file://%s\n", out,
				table.Count(pages, "page", "pages"), table.Count(pictures, "picture", "pictures"), filepath.ToSlash(abs))
			if pictures < pages {
				fmt.Fprintln(c.OutOrStdout(), "Pages without a picture get one the next time a task "+
					"(with screenshots) passes them.")
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "the HTML file to write (default PKG.map.html; - for stdout)")
	return cmd
}

// safeFileName keeps a package name's letters, digits, dots, dashes and underscores.
func safeFileName(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			return r
		}
		return '_'
	}, s)
}

// writeFileAtomic writes data to a temporary file beside path and renames it into place,
// so a page being read is never half written.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(name)
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(name)
		return err
	}
	if err := os.Chmod(name, 0o644); err != nil {
		os.Remove(name)
		return err
	}
	if err := os.Rename(name, path); err != nil {
		os.Remove(name)
		return err
	}
	return nil
}
