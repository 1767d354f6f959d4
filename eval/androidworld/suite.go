package androidworld

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/eval/walkthrough"
	"github.com/fairy-go/fairy/sim"
)

// prefix names the suite in `fairy eval`: "androidworld:sim".
const prefix = "androidworld:"

// clock is the benchmark's device time (device_constants.DT).
var clock = time.Date(2023, 10, 15, 15, 34, 0, 0, time.UTC)

// Options choose the instances.
type Options struct {
	Seed      int64  // the run's seed
	Instances int    // instances per family (default 1)
	Family    string // globs on family names, comma-separated (default: every family built)
	// ApproveAll: the simulated person approves every consent, as AndroidWorld's agents
	// are never asked (the figure without a judging person). By default the person judges
	// each consent by what the task's checks say they asked for (intent.go).
	ApproveAll bool
}

// Tags every task of the suite carries, read by the report (package awreport): the
// suite's tag, then prefixes followed by the task's family, app, difficulty and step
// budget.
const (
	TagSuite      = "androidworld"
	TagApp        = "app:"
	TagDifficulty = "difficulty:"
	TagFamily     = "family:"
	TagBudget     = "budget:"
)

// TagValue is the value of a task's tag with prefix (one of the Tag prefixes), "" if
// it has none.
func TagValue(tags []string, prefix string) string {
	for _, t := range tags {
		if v, ok := strings.CutPrefix(t, prefix); ok {
			return v
		}
	}
	return ""
}

// Is reports whether ref names this suite.
func Is(ref string) bool { return strings.HasPrefix(ref, prefix) }

// Load builds the suite ref ("androidworld:sim") for o.
func Load(ref string, o Options) (*suite.Suite, error) {
	if ref != prefix+"sim" {
		return nil, fmt.Errorf("%w: no suite %q (known: %ssim)", suite.ErrSuite, ref, prefix)
	}
	if o.Instances <= 0 {
		o.Instances = 1
	}
	if o.Family == "" {
		o.Family = "*"
	}
	globs := strings.Split(o.Family, ",")
	for _, g := range globs {
		if _, err := path.Match(strings.TrimSpace(g), ""); err != nil {
			return nil, fmt.Errorf("%w: --family %q: %v", suite.ErrSuite, g, err)
		}
	}
	d, err := loadData()
	if err != nil {
		return nil, err
	}
	base, err := suite.Load("builtin:sim") // its recovery rules and shared model rules
	if err != nil {
		return nil, err
	}
	s := &suite.Suite{
		Name:        "androidworld-sim",
		Description: fmt.Sprintf("AndroidWorld families mirrored on the virtual phone (seed %d, %d instance(s) a family); not AndroidWorld itself", o.Seed, o.Instances),
		Recover:     base.Recover,
		Model:       base.Model,
		Source:      ref,
	}
	for _, f := range builders {
		if !slices.ContainsFunc(globs, func(g string) bool { ok, _ := path.Match(strings.TrimSpace(g), f.name); return ok }) {
			continue
		}
		meta, ok := d.Families[f.name]
		if !ok {
			return nil, fmt.Errorf("androidworld: family %s is not in the benchmark's metadata", f.name)
		}
		for i := range o.Instances {
			t, err := f.task(d, meta, o.Seed, i, !o.ApproveAll)
			if err != nil {
				return nil, fmt.Errorf("androidworld: %s instance %d: %w", f.name, i, err)
			}
			s.Tasks = append(s.Tasks, t)
		}
	}
	if len(s.Tasks) == 0 {
		return nil, fmt.Errorf("%w: --family %q matches none of the %d families built (%s)", suite.ErrSuite, o.Family, len(builders), strings.Join(BuiltFamilies(), ", "))
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	apps, err := apps()
	if err != nil {
		return nil, err
	}
	if err := s.SetSimApps(apps); err != nil {
		return nil, err
	}
	return s, nil
}

// apps are the records apps the mirror adds to the virtual phone (apps/*.yaml): apps
// the benchmark has and the phone lacks, declared as data.
func apps() ([]*sim.AppSpec, error) {
	sub, err := fs.Sub(appFS, "apps")
	if err != nil {
		return nil, err
	}
	return sim.LoadApps(sub)
}

//go:embed apps/*.yaml
var appFS embed.FS

// BuiltFamilies names the families the mirror builds, sorted.
func BuiltFamilies() []string {
	var out []string
	for _, f := range builders {
		out = append(out, f.name)
	}
	slices.Sort(out)
	return out
}

// appNames maps the benchmark's app names in templates to the virtual phone's.
var appNames = strings.NewReplacer(
	"Simple SMS Messenger", "Messages",
	"Simple Calendar Pro", "Calendar",
	"Markor", "Notes",
	"the OsmAnd maps app", "the Maps app",
	"the arduia pro expense", "the Expenses app",
	"arduia pro expense", "the Expenses app",
	"pro expense", "the Expenses app",
	"the Broccoli app", "the Recipes app",
	"Broccoli app", "the Recipes app",
	"the Broccoli recipe app", "the Recipes app",
)

// fill writes a template's {name} parameters.
func fill(template string, params map[string]string) (string, error) {
	var b strings.Builder
	rest := template
	for {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			b.WriteString(rest)
			break
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return "", fmt.Errorf("template %q: unclosed {", template)
		}
		name := rest[i+1 : i+j]
		v, ok := params[name]
		if !ok {
			return "", fmt.Errorf("template %q: no parameter %q", template, name)
		}
		b.WriteString(rest[:i])
		b.WriteString(v)
		rest = rest[i+j+1:]
	}
	return appNames.Replace(b.String()), nil
}

// instance is what a family's builder draws for one instance.
type instance struct {
	params map[string]string
	// instruction overrides the template (for families whose template the phone words
	// differently); "" uses the template.
	instruction string
	setup       []string
	checks      []suite.CustomCheck
	walk        []walkthrough.Task
}

type builder struct {
	name string
	app  string // the virtual phone's app, for the report
	draw func(g *gen) (*instance, error)
}

func (f builder) task(d *data, meta Family, seed int64, i int, judged bool) (*suite.Task, error) {
	g := &gen{r: instanceRand(seed, f.name, i), d: d}
	in, err := f.draw(g)
	if err != nil {
		return nil, err
	}
	instr := in.instruction
	if instr == "" {
		if instr, err = fill(meta.Template, in.params); err != nil {
			return nil, err
		}
	}
	if len(in.checks) == 0 {
		return nil, errors.New("no checks")
	}
	t := &suite.Task{
		ID:          fmt.Sprintf("%s-%d", f.name, i),
		Instruction: instr,
		Tags: []string{TagSuite, TagFamily + f.name, TagApp + f.app, TagDifficulty + meta.Difficulty,
			fmt.Sprintf("%s%d", TagBudget, meta.StepBudget())},
		Phone:  suite.Phone{Sim: &suite.SimPhone{Setup: append([]string{"fairy-sim clock " + clock.Format(time.RFC3339)}, in.setup...)}},
		Limits: suite.Limits{Steps: meta.StepBudget(), Actions: meta.StepBudget(), Time: 3 * time.Minute},
		User:   suite.UserSpec{Scripted: &suite.RuleUserSpec{Default: "I don't mind, you choose.", Consent: "approve"}},
		Walk:   in.walk,
	}
	for _, c := range in.checks {
		t.Checks = append(t.Checks, suite.Check{Custom: c})
	}
	if judged {
		t.Intent = intentOf(in)
	}
	// What else changed, where the benchmark does not score it: reported apart.
	for _, c := range in.checks {
		if h, ok := c.(collateralHolder); ok {
			if cc := h.collateral(); cc != nil {
				t.Checks = append(t.Checks, suite.Check{Custom: cc})
			}
		}
	}
	return t, nil
}
