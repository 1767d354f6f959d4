package suite

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/fairy-go/fairy/sim"
)

// loadApps reads the suite's Apps directory and merges it with the built-in apps. The
// directory is the suite's own: a path relative to the suite file that stays inside the
// suite file's directory, also through symbolic links, and holds at most maxAppFiles app
// files (maxAppBytes in all) among maxAppEntries files and directories — a suite from
// elsewhere cannot make fairy walk /usr or read a system file as an app.
func (s *Suite) loadApps() error {
	if strings.HasPrefix(s.Source, BuiltinPrefix) {
		return errors.New("a built-in suite cannot name a directory")
	}
	dir, err := s.appsDir()
	if err != nil {
		return err
	}
	if err := checkAppTree(dir, filepath.Dir(s.Source)); err != nil {
		return err
	}
	extra, err := sim.LoadAppDir(dir)
	if err != nil {
		return err
	}
	base, err := sim.DefaultApps()
	if err != nil {
		return err
	}
	s.simApps, err = sim.MergeApps(base, extra)
	return err
}

// appsDir is the suite's Apps as a path, once it is known to stay inside the suite file's
// directory.
func (s *Suite) appsDir() (string, error) {
	rel := s.Apps
	const where = "give a directory beside the suite file, relative to it (apps: apps)"
	if filepath.IsAbs(rel) || strings.HasPrefix(rel, "/") || strings.HasPrefix(rel, `\`) {
		return "", fmt.Errorf("%q is an absolute path: %s", rel, where)
	}
	if !filepath.IsLocal(rel) {
		return "", fmt.Errorf("%q leaves the suite file's directory: %s", rel, where)
	}
	base := filepath.Dir(s.Source)
	dir := filepath.Join(base, rel)
	if err := inside(dir, base); err != nil {
		return "", fmt.Errorf("%q %w: %s", rel, err, where)
	}
	return dir, nil
}

// inside reports (nil) that path, its symbolic links resolved, is within base, resolved
// too; a path that does not exist is left to the loader to report.
func inside(path, base string) error {
	realBase, err := filepath.EvalSymlinks(base)
	if err != nil {
		return nil
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			if _, lerr := os.Lstat(path); lerr == nil {
				return errors.New("is a symbolic link to nothing")
			}
		}
		return nil
	}
	rel, err := filepath.Rel(realBase, real)
	if err != nil || !filepath.IsLocal(rel) && rel != "." {
		return errors.New("leads out of the suite file's directory through a symbolic link")
	}
	return nil
}

// checkAppTree walks dir as sim.LoadAppDir will, and refuses it before the loader reads
// anything when it is larger than a suite's apps are (maxAppEntries, maxAppFiles,
// maxAppBytes), or when an app file in it is a symbolic link out of base. A directory is
// listed a bounded number of entries at a time, so a huge one costs no more than the cap.
func checkAppTree(dir, base string) error {
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return nil // the loader says what is wrong
	}
	t := appTree{root: dir, base: base}
	return t.walk(dir)
}

// appTree counts what checkAppTree has seen.
type appTree struct {
	root, base     string
	entries, files int
	size           int64
}

func (t *appTree) walk(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	for {
		ents, err := f.ReadDir(maxAppEntries + 1 - t.entries)
		for _, d := range ents {
			if err := t.visit(filepath.Join(dir, d.Name()), d); err != nil {
				return err
			}
		}
		if errors.Is(err, io.EOF) || (err == nil && len(ents) == 0) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func (t *appTree) visit(p string, d fs.DirEntry) error {
	if t.entries++; t.entries > maxAppEntries {
		return fmt.Errorf("%s holds more than %d files and directories: give a directory that holds only the suite's app files", t.root, maxAppEntries)
	}
	if d.IsDir() {
		return t.walk(p)
	}
	if ext := filepath.Ext(p); ext != ".yaml" && ext != ".yml" {
		return nil
	}
	if d.Type()&fs.ModeSymlink != 0 {
		if err := inside(p, t.base); err != nil {
			return fmt.Errorf("%s %w: copy the file into the suite's directory instead", p, err)
		}
	}
	if t.files++; t.files > maxAppFiles {
		return fmt.Errorf("%s holds more than %d app files: a suite installs at most %d apps", t.root, maxAppFiles, maxAppFiles)
	}
	fi, err := os.Stat(p)
	if err != nil {
		return nil // the loader says what is wrong
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file: an app file is YAML text", p)
	}
	if t.size += fi.Size(); t.size > maxAppBytes {
		return fmt.Errorf("the app files in %s are larger than %d MiB in all, the most a suite's apps may be", t.root, maxAppBytes>>20)
	}
	return nil
}
