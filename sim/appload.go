package sim

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"text/template"
	tparse "text/template/parse"

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
	said := map[string]bool{} // an alias repeats its node's message at each use: say it once
	for _, m := range msgs {
		m = yamlTypes.Replace(m)
		if sub := yamlLine.FindStringSubmatch(m); sub != nil {
			if said[sub[2]] {
				continue
			}
			said[sub[2]] = true
		} else if said[m] {
			continue
		} else {
			said[m] = true
		}
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
// It then runs each one on the app's first state, with functions of the same signatures
// that answer zero values, so that what fails whatever the state holds (a function given
// the wrong number or kind of arguments, a field of a text) is a load error too: the
// phone would render it as nothing.
func (a *AppSpec) checkTemplates() error {
	funcs := (&appState{}).funcMap()
	dry := zeroFuncs(funcs)
	vars := map[string]string{}
	maps.Copy(vars, a.Vars)
	data := map[string]any{"v": vars, "p": map[string]string{}, "item": Record{},
		"app": map[string]string{"package": a.Package, "label": a.Label}}
	parse := func(line int, where, src string) error {
		if !strings.Contains(src, "{{") {
			return nil
		}
		pt, err := template.New("").Option("missingkey=zero").Funcs(funcs).Parse(src)
		if err != nil {
			msg := strings.TrimPrefix(err.Error(), "template: :1: ")
			return a.bad(line, "%s: %s: template %q: %s", a.Package, where, src, msg)
		}
		if err := boundedTemplate(pt); err != nil {
			return a.bad(line, "%s: %s: template %q: %v", a.Package, where, src, err)
		}
		t := template.Must(template.New("").Option("missingkey=zero").Funcs(dry).Parse(src))
		if err := t.Execute(io.Discard, data); err != nil {
			msg := strings.TrimPrefix(err.Error(), "template: :1:")
			return a.bad(line, "%s: %s: template %q fails: %s", a.Package, where, src, strings.TrimSpace(msg))
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
				fields = append(fields, []struct{ name, src string }{{"row.id", r.ID}, {"row.title", r.Title},
					{"row.subtitle", r.Subtitle},
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
			}{{"on_tap", e.OnTap}, {"on_long_press", e.OnLongPress}, {"on_submit", e.OnSubmit}, {"on_end", e.OnEnd},
				{"on_start", e.OnStart}} {
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

// missingDirError is an apps directory that is not there (fs.ErrNotExist), said as a
// sentence rather than as stat's error.
type missingDirError struct{ dir string }

func (e *missingDirError) Error() string {
	return fmt.Sprintf("no directory %s: give the directory that holds the app YAML files", e.dir)
}
func (e *missingDirError) Unwrap() error { return fs.ErrNotExist }

// LoadAppDir reads the app declarations (*.yaml, *.yml) under dir; an error names the
// file (under dir) and the line.
func LoadAppDir(dir string) ([]*AppSpec, error) {
	st, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &missingDirError{dir}
	}
	if err != nil {
		return nil, fmt.Errorf("apps %s: %w", dir, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("apps %s: not a directory (give the directory that holds the app YAML files)", dir)
	}
	// Opened as a root: a link that leads out of dir (to /etc/passwd, say) is refused
	// rather than read, and no line of such a file can reach an error message.
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("apps %s: %w", dir, err)
	}
	defer root.Close()
	apps, err := LoadApps(root.FS())
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			if st, lerr := os.Lstat(filepath.Join(dir, pe.Path)); lerr == nil && st.Mode()&fs.ModeSymlink != 0 {
				return nil, fmt.Errorf("apps %s: %s is a link that is not followed (%v): "+
					"a link may only lead to a file inside the apps directory; copy the app file into it",
					dir, filepath.Join(dir, pe.Path), pe.Err)
			}
		}
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
			return nil, a.bad(a.line, "package %s is a built-in app (%s): give your app another package, or add \"override: "+
				"true\" to replace the built-in one",
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
				return nil, a.bad(a.line, "package %s: home: true, but the phone has its launcher; "+
					"override the launcher's package (%s) to replace it",
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

// Limits of an app file: what a hand-written app needs many times over, so that a file
// given by mistake or on purpose cannot stall the phone.
const (
	// maxAppFileBytes bounds one app file. The largest built-in app is 17 KB; a 127 MB
	// file took minutes and gigabytes to load.
	maxAppFileBytes = 2 << 20
	// maxElementDepth bounds how deep an app's elements nest (children of an hbox): real
	// screens nest under 40 levels, and the UI dump, with the phone's own frames around
	// the app, must stay under the 512 levels a dump reader keeps.
	maxElementDepth = 128
)

// appPackage is an Android package name as the platform accepts it: at least two
// segments separated by dots, each a letter followed by letters, digits or underscores.
var appPackage = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$`)

// checkPackage checks the package name: it names files and directories of the phone and
// reaches a terminal, so it is what Android accepts and nothing else.
func (a *AppSpec) checkPackage() error {
	if !appPackage.MatchString(a.Package) {
		return a.bad(a.line, "package %q: give the Android package name, e.g. com.example.notes: "+
			"two or more parts separated by dots, each a letter followed by letters, digits or _", a.Package)
	}
	return nil
}

// tooLarge is the error of an app file of n bytes, over maxAppFileBytes.
func tooLarge(file string, n int64) *appError {
	return &appError{File: file, Msg: fmt.Sprintf("the file is %d bytes, over the %d MiB an app file may have: "+
		"an app is a few screens of YAML", n, maxAppFileBytes>>20)}
}

// checkOneDocument refuses a file whose root is not a mapping (it is not an app; its text
// is not quoted, for it may be any file) or that holds a second YAML document after the
// app, which would otherwise be ignored.
func checkOneDocument(data []byte, doc *yaml.Node) error {
	root := doc
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		return &appError{Line: root.Line, Msg: "not an app: an app file is a YAML mapping that starts with package: " +
			"(docs/apps.md)"}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var first, second yaml.Node
	if err := dec.Decode(&first); err != nil {
		return nil // the app's own decode says what is wrong
	}
	switch err := dec.Decode(&second); {
	case errors.Is(err, io.EOF):
		return nil
	case err != nil:
		return yamlError(err)
	}
	return &appError{Line: second.Line, Msg: "a second YAML document (after ---): " +
		"an app file holds one app; put each app in a file of its own"}
}

// checkIDs refuses what the phone would silently pick one of: two elements of a screen
// with one id (the UI dump's resource-id, what a tap by id finds) and two records of a
// collection with one id. Both are named.
func (a *AppSpec) checkIDs(doc *yaml.Node) error {
	for _, s := range a.Screens {
		seen := map[string]*ElementSpec{}
		var walk func(els []*ElementSpec, depth int) error
		walk = func(els []*ElementSpec, depth int) error {
			for _, e := range els {
				if depth > maxElementDepth {
					return a.bad(e.line, "%s/%s: elements nest deeper than %d levels: a screen nests under 40; flatten its layout",
						a.Package, s.ID, maxElementDepth)
				}
				if e.ID != "" {
					if prev := seen[e.ID]; prev != nil {
						return a.bad(e.line, "%s/%s: element id %q is declared twice, at lines %d and %d: "+
							"give each element of a screen its own id", a.Package, s.ID, e.ID, prev.line, e.line)
					}
					seen[e.ID] = e
				}
				if err := walk(e.Children, depth+1); err != nil {
					return err
				}
			}
			return nil
		}
		for _, els := range [][]*ElementSpec{s.Elements, s.Menu} {
			if err := walk(els, 1); err != nil {
				return err
			}
		}
	}
	root := doc
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	recNodes := mapValue(root, "records")
	for _, name := range sortedNames(a.Records) {
		line := func(i int) int {
			if n := mapValue(recNodes, name); n != nil && n.Kind == yaml.SequenceNode && i < len(n.Content) {
				return n.Content[i].Line
			}
			return 0
		}
		at := map[string]int{}
		for i, r := range a.Records[name] {
			id := r["id"]
			if prev, dup := at[id]; dup {
				return a.bad(line(i), "%s: records.%s: id %q is given to records %d (line %d) and %d (line %d): "+
					"a record's id is unique in its collection",
					a.Package, name, id, prev+1, line(prev), i+1, line(i))
			}
			at[id] = i
		}
	}
	return nil
}

func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// boundedTemplate refuses what makes a template run without end: {{range}} (over a
// number, {{range 100000}}{{range 100000}}{{end}}{{end}} is ten billion turns, run under
// the phone's lock and already when the file loads) and {{define}}/{{template}}/{{block}}
// (a template that calls itself twice doubles at each of 100,000 levels). An app's
// templates compute one value from the state; a list element repeats rows.
func boundedTemplate(t *template.Template) error {
	if len(t.Templates()) > 1 {
		return errors.New("{{define}} and {{block}} are not for app templates: write the text where it is used")
	}
	var walk func(n tparse.Node) error
	walk = func(n tparse.Node) error {
		switch n := n.(type) {
		case *tparse.ListNode:
			if n == nil {
				return nil
			}
			for _, c := range n.Nodes {
				if err := walk(c); err != nil {
					return err
				}
			}
		case *tparse.RangeNode:
			return errors.New("{{range}} is not for app templates (it could run without end): repeat rows with a list element")
		case *tparse.TemplateNode:
			return errors.New("{{template}} is not for app templates: write the text where it is used")
		case *tparse.IfNode:
			return walkBranch(walk, n.List, n.ElseList)
		case *tparse.WithNode:
			return walkBranch(walk, n.List, n.ElseList)
		}
		return nil
	}
	if t.Tree == nil {
		return nil
	}
	return walk(t.Tree.Root)
}

func walkBranch(walk func(tparse.Node) error, list, elseList *tparse.ListNode) error {
	if err := walk(list); err != nil {
		return err
	}
	return walk(elseList)
}

// zeroFuncs returns functions with the signatures of funcs that answer zero values: a
// template runs with them without a phone.
func zeroFuncs(funcs template.FuncMap) template.FuncMap {
	out := template.FuncMap{}
	for name, f := range funcs {
		ft := reflect.TypeOf(f)
		out[name] = reflect.MakeFunc(ft, func([]reflect.Value) []reflect.Value {
			res := make([]reflect.Value, ft.NumOut())
			for i := range res {
				res[i] = reflect.Zero(ft.Out(i))
			}
			return res
		}).Interface()
	}
	return out
}
