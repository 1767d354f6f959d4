package sim

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

//go:embed apps/*.yaml
var embeddedApps embed.FS

// Record is one row of app data (a contact, a message, an order…). Every record has an
// "id" field; values are strings.
type Record map[string]string

// AppSpec declares one app as data: its screens, their elements and what tapping them does.
// Apps live as YAML files under sim/apps; the phone's generic engine interprets them.
//
// Strings marked "template" are Go text/template texts evaluated against
// {.v: app variables, .p: screen parameters, .item: the list record, .app: {package,label}}
// with the functions documented in doc.go (eq, ne, not, and, or, contains, add, sub, count,
// sum, summary, field, setting, now, money, nextid, …).
type AppSpec struct {
	Package  string `yaml:"package"`
	Label    string `yaml:"label"`
	Activity string `yaml:"activity"` // the launcher activity, e.g. ".MainActivity"
	System   bool   `yaml:"system"`   // preinstalled (not listed by `pm list packages -3`)
	Home     bool   `yaml:"home"`     // this app is the launcher (HOME)
	Hidden   bool   `yaml:"hidden"`   // no launcher icon
	Version  string `yaml:"version"`
	Start    string `yaml:"start"` // id of the root screen
	// Vars are the app's variables with their initial values.
	Vars map[string]string `yaml:"vars"`
	// Persist names the variables that survive `am force-stop` (like SharedPreferences);
	// the others return to their initial values when the process dies.
	Persist []string `yaml:"persist"`
	// Records are the app's initial data collections.
	Records map[string][]Record `yaml:"records"`
	// OnLaunch runs when the app starts a fresh task (e.g. a first-launch permission dialog).
	OnLaunch []Action      `yaml:"on_launch"`
	Screens  []*ScreenSpec `yaml:"screens"`
	// Override lets an app loaded next to the built-in ones (MergeApps) replace the
	// built-in app with the same package; without it such a collision is an error.
	Override bool `yaml:"override"`

	screens map[string]*ScreenSpec
	source  string // the file it was read from, for error messages
	line    int
}

// ScreenSpec is one screen (an activity, or a dialog on top of one).
type ScreenSpec struct {
	ID       string `yaml:"id"`
	Activity string `yaml:"activity"`
	Title    string `yaml:"title"` // template; shown in the toolbar
	Up       bool   `yaml:"up"`    // toolbar has a "Navigate up" button
	Dialog   bool   `yaml:"dialog"`
	Secure   bool   `yaml:"secure"`  // FLAG_SECURE: screenshots are black
	Package  string `yaml:"package"` // package shown in the dump (default: the app's)
	// Menu are toolbar action icons.
	Menu     []*ElementSpec `yaml:"menu"`
	Elements []*ElementSpec `yaml:"elements"`
	OnEnter  []Action       `yaml:"on_enter"`
	OnBack   []Action       `yaml:"on_back"` // replaces the default Back behaviour when set

	line int
}

// ElementSpec is one element on a screen.
//
// Types: text, title, button, input, switch, checkbox, icon, image, hbox (children side by
// side), list (rows from records; scrolls), grid (cells from records; scrolls), fab,
// slider (a "slide to confirm" control: OnEnd runs when a swipe drags its thumb from the
// start to the end; a shorter swipe snaps back and does nothing; with OnStart it is a
// level slider: a swipe across it to either end runs OnEnd or OnStart), canvas (one
// childless node that draws its content; see DrawSpec), and datepicker and timepicker
// (Android's DatePicker and TimePicker bound to a variable, "2006-01-02" or "15:04": a
// month grid; a dial of hours then minutes, or hour and minute fields; see sim/pickers.go).
type ElementSpec struct {
	Type    string `yaml:"type"`
	ID      string `yaml:"id"`      // resource-id suffix (pkg:id/ID)
	Text    string `yaml:"text"`    // template
	Desc    string `yaml:"desc"`    // template: content-desc
	Hint    string `yaml:"hint"`    // template: input hint
	Bind    string `yaml:"bind"`    // input: the variable holding its text
	Checked string `yaml:"checked"` // template: "true" when checked
	Visible string `yaml:"visible"` // template: shown when not "", "false" or "0"
	Enabled string `yaml:"enabled"` // template: enabled unless "false"
	// Password marks an input as a password field.
	Password bool `yaml:"password"`
	// Multiline marks an input that takes line breaks (a note's text): Enter there
	// starts a new line instead of submitting.
	Multiline bool `yaml:"multiline"`
	// Bottom pins the element to the bottom of the screen (compose bars, checkout bars).
	Bottom bool `yaml:"bottom"`
	// Height overrides the default height, in dp.
	Height int `yaml:"height"`
	// Class overrides the Android class name.
	Class       string   `yaml:"class"`
	OnTap       []Action `yaml:"on_tap"`
	OnLongPress []Action `yaml:"on_long_press"`
	OnSubmit    []Action `yaml:"on_submit"` // input: Enter / IME action
	OnEnd       []Action `yaml:"on_end"`    // slider: swiped to its end
	OnStart     []Action `yaml:"on_start"`  // level slider: swiped to its start

	Children []*ElementSpec `yaml:"children"` // hbox
	// Draw is what a canvas draws (a childless WebView, a SurfaceView, a custom view):
	// on the screenshot only, reached by taps at its place (sim/canvas.go).
	Draw []*DrawSpec `yaml:"draw"`

	// Lists and grids.
	From      string   `yaml:"from"`     // collection name, "pkg:collection" of another app, or "@apps"
	Items     []Record `yaml:"items"`    // static rows
	Where     string   `yaml:"where"`    // template per record: keep when true
	Sort      string   `yaml:"sort"`     // field to sort by (numbers sort numerically); "-field" descending
	Distinct  string   `yaml:"distinct"` // keep the first record of each value of this field
	Row       *RowSpec `yaml:"row"`
	Columns   int      `yaml:"columns"`    // grid
	RowHeight int      `yaml:"row_height"` // dp
	Empty     string   `yaml:"empty"`      // text shown when the list has no rows

	line int
	// parts are a time picker's text input fields; pickOf is the picker of such a field.
	parts  []*ElementSpec
	pickOf *ElementSpec
}

// RowSpec is how a list row (or grid cell) looks; all fields are templates.
type RowSpec struct {
	ID       string `yaml:"id"`
	Title    string `yaml:"title"`
	Subtitle string `yaml:"subtitle"`
	Trailing string `yaml:"trailing"`
	Desc     string `yaml:"desc"`
	Icon     string `yaml:"icon"` // letter or short text drawn in a round icon
	// Switch, Radio and Checkbox, when set and not evaluating to "" for the row, add that
	// widget with the checked state they evaluate to ("true"); a row whose template gives ""
	// has none, so one list can mix switch rows with plain rows as Android's settings do.
	Switch   string `yaml:"switch"`
	Radio    string `yaml:"radio"`
	Checkbox string `yaml:"checkbox"`
}

// Action is one step of what an element does. Exactly one verb is set per step; If guards it.
type Action struct {
	If string `yaml:"if"` // template: run only when true

	Go      string            `yaml:"go"`      // push this screen
	Replace string            `yaml:"replace"` // replace the top screen with this one
	Reset   string            `yaml:"reset"`   // clear the task's stack down to its root, then push this one unless it is the root
	With    map[string]string `yaml:"with"`    // parameters of the new screen (templates)
	Finish  bool              `yaml:"finish"`  // pop the top screen
	Back    bool              `yaml:"back"`    // like the Back key
	Home    bool              `yaml:"home"`    // like the Home key
	Launch  string            `yaml:"launch"`  // template: start an app by package
	Open    *OpenAction       `yaml:"open"`    // open another app's screen

	Set           map[string]string `yaml:"set"`            // app variables (templates)
	Toggle        string            `yaml:"toggle"`         // flip a "true"/"false" variable
	ToggleSetting string            `yaml:"toggle_setting"` // "namespace/key": flip 0/1
	PutSetting    map[string]string `yaml:"put_setting"`    // "namespace/key" (template): value (template)

	Add    *AddAction    `yaml:"add"`
	Update *UpdateAction `yaml:"update"`
	Delete *DeleteAction `yaml:"delete"`
	Copy   *CopyAction   `yaml:"copy"`
	Clear  string        `yaml:"clear"` // empty a collection
	Toast  string        `yaml:"toast"` // template: a transient message (shown until the next action)

	line int
}

// OpenAction opens a screen of another app in that app's task.
type OpenAction struct {
	Package string            `yaml:"package"`
	Screen  string            `yaml:"screen"`
	With    map[string]string `yaml:"with"`
}

// AddAction appends a record (or replaces the one with the same Key).
type AddAction struct {
	To     string            `yaml:"to"`
	Key    string            `yaml:"key"` // template: the id; an existing record with it is replaced
	Record map[string]string `yaml:"record"`
}

// UpdateAction sets fields on the records that match Where (templates with .item).
type UpdateAction struct {
	In    string            `yaml:"in"`
	Where string            `yaml:"where"`
	Set   map[string]string `yaml:"set"`
}

// DeleteAction removes the records that match Where.
type DeleteAction struct {
	From  string `yaml:"from"`
	Where string `yaml:"where"`
}

// CopyAction copies every record of From into To, adding the Set fields (templates with .item).
type CopyAction struct {
	From string            `yaml:"from"`
	To   string            `yaml:"to"`
	Set  map[string]string `yaml:"set"`
}

// LoadApps reads every *.yaml file of fsys (recursively) as an AppSpec. An error names
// the file and line (an *AppError).
func LoadApps(fsys fs.FS) ([]*AppSpec, error) {
	var names []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && (path.Ext(p) == ".yaml" || path.Ext(p) == ".yml") {
			names = append(names, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load apps: %w", err)
	}
	sort.Strings(names)
	var apps []*AppSpec
	for _, n := range names {
		st, err := fs.Stat(fsys, n)
		if err != nil {
			return nil, fmt.Errorf("load apps: %w", err)
		}
		if !st.Mode().IsRegular() {
			// A FIFO or a device named x.yaml would block the load, or never end.
			return nil, fmt.Errorf("load apps: %s is not a regular file: an app file is a YAML file", n)
		}
		if st.Size() > maxAppFileBytes {
			return nil, tooLarge(n, st.Size()) // refused before it is read
		}
		data, err := fs.ReadFile(fsys, n)
		if err != nil {
			return nil, fmt.Errorf("load apps: %w", err)
		}
		a, err := ParseApp(data)
		if err != nil {
			var ae *appError
			if errors.As(err, &ae) {
				ae.File = n
				return nil, ae
			}
			return nil, fmt.Errorf("load apps: %s: %w", n, err)
		}
		a.source = n
		apps = append(apps, a)
	}
	return apps, nil
}

// DefaultApps returns the embedded app catalogue (a fresh copy each call).
func DefaultApps() ([]*AppSpec, error) {
	sub, err := fs.Sub(embeddedApps, "apps")
	if err != nil {
		return nil, fmt.Errorf("default apps: %w", err)
	}
	apps, err := LoadApps(sub)
	for _, a := range apps {
		a.source = "sim/apps/" + a.source
	}
	return apps, err
}

// ParseApp decodes and checks one app declaration: unknown keys, unknown element types,
// navigation to undeclared screens and templates that do not parse or run are errors (an
// *AppError with the line), and so are what appload.go's checks refuse: a file over
// maxAppFileBytes, a second document, duplicate ids, a package name Android refuses,
// elements nested past maxElementDepth.
func ParseApp(data []byte) (*AppSpec, error) {
	if len(data) > maxAppFileBytes {
		return nil, tooLarge("", int64(len(data)))
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err == nil && doc.Kind != 0 {
		if err := checkOneDocument(data, &doc); err != nil {
			return nil, err
		}
	}
	var a AppSpec
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&a); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &appError{Msg: "empty document (an app needs package: and screens:)"}
		}
		return nil, yamlError(err)
	}
	a.attachLines(&doc)
	if err := a.check(); err != nil {
		return nil, err
	}
	if err := a.checkIDs(&doc); err != nil {
		return nil, err
	}
	if err := a.checkTemplates(); err != nil {
		return nil, err
	}
	return &a, nil
}

func (a *AppSpec) check() error {
	if err := a.checkPackage(); err != nil {
		return err
	}
	if a.Label == "" {
		a.Label = a.Package
	}
	if a.Activity == "" {
		a.Activity = ".MainActivity"
	}
	a.screens = map[string]*ScreenSpec{}
	for i, s := range a.Screens {
		if s == nil {
			return a.bad(a.line, "%s: screen %d is empty", a.Package, i+1)
		}
		if s.ID == "" {
			return a.bad(s.line, "%s: a screen without id", a.Package)
		}
		if _, dup := a.screens[s.ID]; dup {
			return a.bad(s.line, "%s: duplicate screen %q", a.Package, s.ID)
		}
		if s.Activity == "" {
			s.Activity = a.Activity
		}
		a.screens[s.ID] = s
	}
	if a.Start == "" && len(a.Screens) > 0 {
		a.Start = a.Screens[0].ID
	}
	if a.screens[a.Start] == nil {
		if len(a.Screens) == 0 {
			return a.bad(a.line, "%s: no screens (an app needs at least one under screens:)", a.Package)
		}
		return a.bad(a.line, "%s: start screen %q not declared", a.Package, a.Start)
	}
	// Every navigation target must exist.
	var checkActs func(where string, acts []Action) error
	checkActs = func(where string, acts []Action) error {
		for _, ac := range acts {
			for _, target := range []string{ac.Go, ac.Replace, ac.Reset} {
				if target != "" && a.screens[target] == nil {
					return a.bad(ac.line, "%s: %s: unknown screen %q", a.Package, where, target)
				}
			}
		}
		return nil
	}
	var checkEls func(s *ScreenSpec, els []*ElementSpec) error
	checkEls = func(s *ScreenSpec, els []*ElementSpec) error {
		for _, e := range els {
			if e == nil {
				return a.bad(s.line, "%s/%s: an empty element", a.Package, s.ID)
			}
			switch e.Type {
			case "text", "title", "button", "input", "switch", "checkbox", "icon", "image", "hbox", "list", "grid", "fab", "slider", "canvas", "datepicker", "timepicker":
			default:
				return a.bad(e.line, "%s/%s: element %q has unknown type %q (want text, title, button, input, switch, checkbox, "+
					"icon, image, hbox, list, grid, fab, slider, canvas, datepicker or timepicker)",
					a.Package, s.ID, e.ID, e.Type)
			}
			if e.Type == "input" && (e.ID == "" || e.Bind == "") {
				return a.bad(e.line, "%s/%s: an input needs id and bind", a.Package, s.ID)
			}
			if (e.Type == "datepicker" || e.Type == "timepicker") && (e.ID == "" || e.Bind == "") {
				return a.bad(e.line, "%s/%s: a %s needs id and bind (the variable that holds its value)", a.Package, s.ID, e.Type)
			}
			if e.Type == "timepicker" {
				timeParts(e)
			}
			if (e.Type == "list" || e.Type == "grid") && e.Row == nil {
				return a.bad(e.line, "%s/%s: list %q needs a row", a.Package, s.ID, e.ID)
			}
			if e.Type == "slider" && len(e.OnEnd) == 0 {
				return a.bad(e.line, "%s/%s: slider %q needs on_end (what swiping it to the end does)", a.Package, s.ID, e.ID)
			}
			if e.Type != "slider" && len(e.OnEnd)+len(e.OnStart) > 0 {
				return a.bad(e.line, "%s/%s: on_end and on_start belong to a slider, not a %s", a.Package, s.ID, e.Type)
			}
			for _, acts := range [][]Action{e.OnTap, e.OnLongPress, e.OnSubmit, e.OnEnd, e.OnStart} {
				if err := checkActs(s.ID+"/"+e.ID, acts); err != nil {
					return err
				}
			}
			for _, d := range e.Draw {
				if !validDrawKind(d.Kind) {
					return fmt.Errorf("%w: %s/%s: canvas %q draws an unknown kind %q", ErrAppSpec, a.Package, s.ID, e.ID, d.Kind)
				}
				if (d.Kind == "icon") != (d.Glyph != "") || (d.Glyph != "" && !validGlyph(d.Glyph)) {
					return fmt.Errorf("%w: %s/%s: canvas %q: an icon needs a glyph (%s), and only an icon has one; "+
						"got kind %q glyph %q", ErrAppSpec, a.Package, s.ID, e.ID, strings.Join(glyphNames, ", "), d.Kind, d.Glyph)
				}
				if err := checkActs(s.ID+"/"+e.ID, d.OnTap); err != nil {
					return err
				}
			}
			if err := checkEls(s, e.Children); err != nil {
				return err
			}
		}
		return nil
	}
	for _, s := range a.Screens {
		if err := checkEls(s, s.Elements); err != nil {
			return err
		}
		if err := checkEls(s, s.Menu); err != nil {
			return err
		}
		if err := checkActs(s.ID, s.OnEnter); err != nil {
			return err
		}
		if err := checkActs(s.ID, s.OnBack); err != nil {
			return err
		}
	}
	if err := checkActs("on_launch", a.OnLaunch); err != nil {
		return err
	}
	for name, recs := range a.Records {
		for i, r := range recs {
			if r["id"] == "" {
				r["id"] = fmt.Sprintf("%s-%d", name, i+1)
			}
		}
	}
	return nil
}

// component returns the full class name of an activity of this app.
func (a *AppSpec) component(act string) string {
	if strings.HasPrefix(act, ".") {
		return a.Package + act
	}
	return act
}

// shortComponent returns "pkg/.Act" or "pkg/full.Class" as Android prints it.
func (a *AppSpec) shortComponent(act string) string {
	full := a.component(act)
	if strings.HasPrefix(full, a.Package+".") {
		return a.Package + "/" + strings.TrimPrefix(full, a.Package)
	}
	return a.Package + "/" + full
}
