package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/eval/androidworld"
	"github.com/fairy-go/fairy/internal/table"
	"github.com/spf13/cobra"
)

// awFlags choose the instances of androidworld:sim.
type awFlags struct {
	seed      int64
	instances int
	family    string
}

// addAndroidWorldFlags adds --instances and --family to `fairy eval` (its --seed is the run's, set in newEvalCmd).
func addAndroidWorldFlags(cmd *cobra.Command, f *awFlags) {
	fl := cmd.Flags()
	fl.IntVar(&f.instances, "instances", 1, "androidworld:sim: instances of each family")
	fl.StringVar(&f.family, "family", "*", "androidworld:sim: run the families whose name matches one of these globs, comma-separated (e.g. 'SimpleSms*,Markor*')")
}

// builtinSuite reports whether ref names a suite built into fairy (builtin:NAME or
// androidworld:sim): it runs on a virtual phone with its scripted model by default.
func builtinSuite(ref string) bool {
	return strings.HasPrefix(ref, eval.BuiltinPrefix) || androidworld.Is(ref)
}

// loadSuite reads a suite file, a built-in suite or builds androidworld:sim.
func loadSuite(ref string, f awFlags) (*eval.Suite, error) {
	if androidworld.Is(ref) {
		if f.instances < 1 {
			return nil, fmt.Errorf("--instances must be at least 1")
		}
		return androidworld.Load(ref, androidworld.Options{Seed: f.seed, Instances: f.instances, Family: f.family})
	}
	return eval.Load(ref)
}

// writeAndroidWorld prints and writes (androidworld.md, androidworld.json in dir) the
// benchmark-style summary of an androidworld:sim report.
func writeAndroidWorld(out io.Writer, ref string, f awFlags, rep *eval.Report, dir string) error {
	if !androidworld.Is(ref) || rep == nil {
		return nil
	}
	s := androidworld.Summarize(rep, f.seed)
	md := s.Markdown()
	fmt.Fprint(out, table.EscapeLines(md)) // task names and reasons from files and models
	if err := os.WriteFile(filepath.Join(dir, "androidworld.md"), []byte(md), 0o644); err != nil {
		return err
	}
	b, err := s.JSON()
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "androidworld.json"), b, 0o644)
}
