package sim

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"text/template"

	"gopkg.in/yaml.v3"
)

// appError is an app declaration that cannot be loaded: the file, the line (0 when
// unknown) and what is wrong. errors.Is(err, ErrAppSpec) holds for it.
type appError struct {
	File string
	Line int
	Msg  string
}

func (e *appError) Error() string {
	switch {
	case e.File != "" && e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	case e.File != "":
		return e.File + ": " + e.Msg
	case e.Line > 0:
		return fmt.Sprintf("%v: line %d: %s", ErrAppSpec, e.Line, e.Msg)
	}
	return fmt.Sprintf("%v: %s", ErrAppSpec, e.Msg)
}

// Is makes errors.Is(err, ErrAppSpec) true.
func (e *appError) Is(target error) bool { return target == ErrAppSpec }

func (a *AppSpec) bad(line int, format string, args ...any) error {
	return &appError{File: a.source, Line: line, Msg: fmt.Sprintf(format, args...)}
}

var yamlLine = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)

// yamlTypes turns the Go type names yaml.v3 puts in its messages into the YAML's words.
var yamlTypes = strings.NewReplacer("in type sim.AppSpec", "in an app", "in type sim.ScreenSpec", "in a screen",
	"in type sim.ElementSpec", "in an element", "in type sim.Action", "in an action", "in type sim.RowSpec", "in a row",
	"in type sim.OpenAction", "in open:", "in type sim.AddAction", "in add:", "in type sim.UpdateAction", "in update:",
	"in type sim.DeleteAction", "in delete:", "in type sim.CopyAction", "in copy:", "into sim.", "into ", "!!", "")

// yamlError turns a yaml.v3 decode error into an *AppError at its first line.
func yamlError(err error) error {
	msgs := []string{err.Error()}
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs = te.Errors
	}
	ae := &appError{}
	var rest []string
	for _, m := range msgs {
		m = yamlTypes.Replace(m)
		if sub := yamlLine.FindStringSubmatch(m); sub != nil {
			if ae.Line == 0 {
				ae.Line, _ = strconv.Atoi(sub[1])
				rest = append(rest, sub[2])
				continue
			}
			rest = append(rest, m)
			continue
		}
		rest = append(rest, strings.TrimPrefix(m, "yaml: "))
	}
	ae.Msg = strings.Join(rest, "; ")
	return ae
}

// attachLines records where each screen, element and action was declared, for errors.
func (a *AppSpec) attachLines(doc *yaml.Node) {
	root := doc
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		return
	}
	a.line = root.Line
	acts := func(n *yaml.Node, acts []Action) {
		if n == nil || n.Kind != yaml.SequenceNode {
			return
		}
		for i, c := range n.Content {
			if i < len(acts) {
				acts[i].line = c.Line
			}
		}
	}
	var elems func(n *yaml.Node, els []*ElementSpec)
	elems = func(n *yaml.Node, els []*ElementSpec) {
		if n == nil || n.Kind != yaml.SequenceNode {
			return
		}
		for i, c := range n.Content {
			if i >= len(els) || els[i] == nil {
				continue
			}
			e := els[i]
			e.line = c.Line
			acts(mapValue(c, "on_tap"), e.OnTap)
			acts(mapValue(c, "on_long_press"), e.OnLongPress)
			acts(mapValue(c, "on_submit"), e.OnSubmit)
			acts(mapValue(c, "on_end"), e.OnEnd)
			acts(mapValue(c, "on_start"), e.OnStart)
			elems(mapValue(c, "children"), e.Children)
		}
	}
	acts(mapValue(root, "on_launch"), a.OnLaunch)
	if n := mapValue(root, "screens"); n != nil && n.Kind == yaml.SequenceNode {
		for i, c := range n.Content {
			if i >= len(a.Screens) || a.Screens[i] == nil {
				continue
			}
			s := a.Screens[i]
			s.line = c.Line
			elems(mapValue(c, "elements"), s.Elements)
			elems(mapValue(c, "menu"), s.Menu)
			acts(mapValue(c, "on_enter"), s.OnEnter)
			acts(mapValue(c, "on_back"), s.OnBack)
		}
	}
}

func mapValue(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// checkTemplates parses every template of the app with the phone's functions, so a typo
// ({{.v.count}, an unknown function) is a load error at its line, not an empty text later.
func (a *AppSpec) checkTemplates() error {
	funcs := (&appState{}).funcMap()
	parse := func(line int, where, src string) error {
		if !strings.Contains(src, "{{") {
			return nil
		}
		if _, err := template.New("").Option("missingkey=zero").Funcs(funcs).Parse(src); err != nil {
			msg := strings.TrimPrefix(err.Error(), "template: :1: ")
			return a.bad(line, "%s: %s: template %q: %s", a.Package, where, src, msg)
		}
		return nil
	}
	each := func(line int, where string, m map[string]string) error {
		for k, v := range m {
			if err := parse(line, where+" "+k, v); err != nil {
				return err
			}
		}
		return nil
	}
	checkActs := func(where string, acts []Action) error {
		for _, ac := range acts {
			for _, f := range []struct{ name, src string }{{"if", ac.If}, {"launch", ac.Launch}, {"toast", ac.Toast}} {
				if err := parse(ac.line, where+" "+f.name, f.src); err != nil {
					return err
				}
			}
			for _, m := range []struct {
				name string
				m    map[string]string
			}{{"with", ac.With}, {"set", ac.Set}, {"put_setting", ac.PutSetting}} {
				if err := each(ac.line, where+" "+m.name, m.m); err != nil {
					return err
				}
			}
			for k := range ac.PutSetting {
				if err := parse(ac.line, where+" put_setting key", k); err != nil {
					return err
				}
			}
			if o := ac.Open; o != nil {
				if err := each(ac.line, where+" open.with", o.With); err != nil {
					return err
				}
			}
			if ad := ac.Add; ad != nil {
				if err := parse(ac.line, where+" add.key", ad.Key); err != nil {
					return err
				}
				if err := each(ac.line, where+" add.record", ad.Record); err != nil {
					return err
				}
			}
			if u := ac.Update; u != nil {
				if err := parse(ac.line, where+" update.where", u.Where); err != nil {
					return err
				}
				if err := each(ac.line, where+" update.set", u.Set); err != nil {
					return err
				}
			}
			if d := ac.Delete; d != nil {
				if err := parse(ac.line, where+" delete.where", d.Where); err != nil {
					return err
				}
			}
			if c := ac.Copy; c != nil {
				if err := each(ac.line, where+" copy.set", c.Set); err != nil {
					return err
				}
			}
		}
		return nil
	}
	var checkEls func(screen string, els []*ElementSpec) error
	checkEls = func(screen string, els []*ElementSpec) error {
		for _, e := range els {
			where := screen + "/" + e.ID
			if e.ID == "" {
				where = screen + "/" + e.Type
			}
			fields := []struct{ name, src string }{{"text", e.Text}, {"desc", e.Desc}, {"hint", e.Hint}, {"checked", e.Checked},
				{"visible", e.Visible}, {"enabled", e.Enabled}, {"where", e.Where}, {"empty", e.Empty}}
			if r := e.Row; r != nil {
				fields = append(fields, []struct{ name, src string }{{"row.id", r.ID}, {"row.title", r.Title}, {"row.subtitle", r.Subtitle},
					{"row.trailing", r.Trailing}, {"row.desc", r.Desc}, {"row.icon", r.Icon}, {"row.switch", r.Switch},
					{"row.radio", r.Radio}, {"row.checkbox", r.Checkbox}}...)
			}
			for _, f := range fields {
				if err := parse(e.line, where+" "+f.name, f.src); err != nil {
					return err
				}
			}
			for _, acts := range []struct {
				name string
				acts []Action
			}{{"on_tap", e.OnTap}, {"on_long_press", e.OnLongPress}, {"on_submit", e.OnSubmit}, {"on_end", e.OnEnd}, {"on_start", e.OnStart}} {
				if err := checkActs(where+" "+acts.name, acts.acts); err != nil {
					return err
				}
			}
			if err := checkEls(screen, e.Children); err != nil {
				return err
			}
		}
		return nil
	}
	for _, s := range a.Screens {
		if err := parse(s.line, s.ID+" title", s.Title); err != nil {
			return err
		}
		for _, els := range [][]*ElementSpec{s.Elements, s.Menu} {
			if err := checkEls(s.ID, els); err != nil {
				return err
			}
		}
		if err := checkActs(s.ID+" on_enter", s.OnEnter); err != nil {
			return err
		}
		if err := checkActs(s.ID+" on_back", s.OnBack); err != nil {
			return err
		}
	}
	return checkActs("on_launch", a.OnLaunch)
}

// LoadAppDir reads the app declarations (*.yaml, *.yml) under dir; an error names the
// file (under dir) and the line.
func LoadAppDir(dir string) ([]*AppSpec, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("apps %s: %w", dir, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("apps %s: not a directory (give the directory that holds the app YAML files)", dir)
	}
	apps, err := LoadApps(os.DirFS(dir))
	if err != nil {
		var ae *appError
		if errors.As(err, &ae) && ae.File != "" {
			ae.File = filepath.Join(dir, ae.File)
		}
		return nil, err
	}
	for _, a := range apps {
		a.source = filepath.Join(dir, a.source)
	}
	if len(apps) == 0 {
		return nil, fmt.Errorf("apps %s: no app files (*.yaml) in it", dir)
	}
	return apps, nil
}

// MergeApps installs extra apps next to base (usually DefaultApps): an extra app with a
// base app's package replaces it only when it says "override: true", and otherwise is an
// error naming both files; two extra apps with one package are an error too. The order is
// base's, replaced apps in place, new apps after it.
func MergeApps(base, extra []*AppSpec) ([]*AppSpec, error) {
	out := append([]*AppSpec(nil), base...)
	at := map[string]int{}
	for i, a := range out {
		at[a.Package] = i
	}
	seen := map[string]*AppSpec{}
	for _, a := range extra {
		if prev := seen[a.Package]; prev != nil {
			return nil, a.bad(a.line, "package %s is declared twice (also in %s)", a.Package, prev.source)
		}
		seen[a.Package] = a
		i, builtin := at[a.Package]
		switch {
		case builtin && !a.Override:
			return nil, a.bad(a.line, "package %s is a built-in app (%s): give your app another package, or add \"override: true\" to replace the built-in one",
				a.Package, out[i].source)
		case builtin:
			if out[i].Home && !a.Home {
				return nil, a.bad(a.line, "package %s replaces the launcher: it needs home: true", a.Package)
			}
			out[i] = a
		default:
			if a.Override {
				return nil, a.bad(a.line, "package %s: override: true, but no built-in app has this package", a.Package)
			}
			if a.Home {
				return nil, a.bad(a.line, "package %s: home: true, but the phone has its launcher; override the launcher's package (%s) to replace it",
					a.Package, homePackage(base))
			}
			out = append(out, a)
		}
	}
	return out, nil
}

func homePackage(apps []*AppSpec) string {
	for _, a := range apps {
		if a.Home {
			return a.Package
		}
	}
	return ""
}
