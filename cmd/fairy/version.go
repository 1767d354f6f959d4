package main

import (
	"runtime/debug"
	"strings"
)

// version says which fairy this is, from the build information the Go toolchain embeds:
// the module version ("(devel)" for a build from a checkout) and the VCS commit, its time
// and whether the tree had changes, when the build recorded them.
func version(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "fairy (unknown version: built without module information)"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var commit, at string
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			commit = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	var b strings.Builder
	b.WriteString("fairy " + v)
	if commit != "" {
		b.WriteString(" (commit " + commit)
		if at != "" {
			b.WriteString(", " + at)
		}
		if modified {
			b.WriteString(", modified")
		}
		b.WriteString(")")
	}
	b.WriteString(" " + info.GoVersion)
	return b.String()
}

// buildVersion is version for this binary.
func buildVersion() string { return version(debug.ReadBuildInfo()) }
