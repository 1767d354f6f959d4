package sim

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/template"
	"time"
)

// The app engine: an installed app's live data (variables and record collections) and the
// text/template expressions its screens and actions are written in.

// appState is an installed app's live data.
type appState struct {
	p       *Phone
	spec    *AppSpec
	vars    map[string]string
	records map[string][]Record
	running bool
	tmpl    map[string]*template.Template
	funcs   template.FuncMap
	nextRec int // numbers records added at run time
}

func newAppState(p *Phone, spec *AppSpec) *appState {
	a := &appState{p: p, spec: spec, vars: maps.Clone(spec.Vars), records: map[string][]Record{},
		tmpl: map[string]*template.Template{}}
	if a.vars == nil {
		a.vars = map[string]string{}
	}
	for name, recs := range spec.Records {
		for _, r := range recs {
			a.records[name] = append(a.records[name], maps.Clone(r))
		}
	}
	a.funcs = a.funcMap()
	return a
}

// maxSummary bounds the text of the summary function: a line of a screen, not a book.
const maxSummary = 16 << 10

// expandRecord writes format to b with each "{field}" of r replaced by its value, in one
// pass (a value holding "{other}" stays as it is); false, once b is over maxSummary.
func expandRecord(b *strings.Builder, format string, r Record) bool {
	for format != "" && b.Len() <= maxSummary {
		i := strings.IndexByte(format, '{')
		if i < 0 {
			b.WriteString(format)
			break
		}
		b.WriteString(format[:i])
		format = format[i:]
		if j := strings.IndexByte(format, '}'); j > 0 {
			if v, ok := r[format[1:j]]; ok {
				b.WriteString(v)
				format = format[j+1:]
				continue
			}
		}
		b.WriteByte('{')
		format = format[1:]
	}
	return b.Len() <= maxSummary
}

// tctx is what a template sees besides the app: the screen and the list record.
type tctx struct {
	inst *screenInst
	item Record
}

// eval renders a template. Plain strings are returned as they are.
func (a *appState) eval(src string, c tctx) string {
	if !strings.Contains(src, "{{") {
		return src
	}
	t, ok := a.tmpl[src]
	if !ok {
		var err error
		t, err = template.New("").Option("missingkey=zero").Funcs(a.funcs).Parse(src)
		if err == nil {
			err = boundedTemplate(t) // checked at load; a text made at run time is held to it too
		}
		if err != nil {
			a.p.log.Warn("sim: bad template", "app", a.spec.Package, "src", src, "err", err)
			t = template.Must(template.New("").Parse(""))
		}
		a.tmpl[src] = t
	}
	params := map[string]string{}
	if c.inst != nil && c.inst.params != nil {
		params = c.inst.params
	}
	item := c.item
	if item == nil {
		item = Record{}
	}
	data := map[string]any{
		"v": a.vars, "p": params, "item": item,
		"app": map[string]string{"package": a.spec.Package, "label": a.spec.Label},
	}
	b := &cappedText{}
	if err := t.Execute(b, data); err != nil {
		a.p.log.Warn("sim: template failed", "app", a.spec.Package, "src", src, "err", err)
		return ""
	}
	return b.String()
}

// maxTemplateText bounds what one template renders: set: {x: "{{.v.x}}{{.v.x}}"} on a
// button doubles x at each tap, a gigabyte after thirty taps.
const maxTemplateText = 1 << 20

// errTemplateText is a template's text over maxTemplateText.
var errTemplateText = fmt.Errorf("its text is over %d MiB", maxTemplateText>>20)

// cappedText is a template's output, refused past maxTemplateText.
type cappedText struct{ strings.Builder }

func (c *cappedText) Write(p []byte) (int, error) {
	if c.Len()+len(p) > maxTemplateText {
		return 0, errTemplateText
	}
	return c.Builder.Write(p)
}

// truth evaluates a condition template.
func (a *appState) truth(src string, c tctx) bool {
	if src == "" {
		return true
	}
	return truthy(a.eval(src, c))
}

func truthy(s string) bool {
	s = strings.TrimSpace(s)
	return s != "" && s != "false" && s != "0" && s != "<no value>"
}

func num(v any) float64 {
	switch x := v.(type) {
	case int:
		return float64(x)
	case float64:
		return x
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimLeft(x, "¥$€")), 64)
		if err != nil {
			return 0
		}
		return f
	case bool:
		if x {
			return 1
		}
	}
	return 0
}

func fmtNum(f float64) string {
	if f == math.Trunc(f) {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'f', 2, 64)
}

// collection resolves "name" (this app) or "pkg:name" (another app's); "@apps" lists the
// launchable apps.
func (a *appState) collection(name string) []Record {
	if name == "@apps" {
		var out []Record
		for _, pkg := range a.p.order {
			s := a.p.apps[pkg].spec
			if s.Home || s.Hidden {
				continue
			}
			out = append(out, Record{"id": pkg, "package": pkg, "label": s.Label})
		}
		return out
	}
	if pkg, coll, ok := strings.Cut(name, ":"); ok {
		if other := a.p.apps[pkg]; other != nil {
			return other.records[coll]
		}
		return nil
	}
	return a.records[name]
}

func (a *appState) funcMap() template.FuncMap {
	return template.FuncMap{
		"contains": func(s, sub any) bool {
			return strings.Contains(strings.ToLower(fmt.Sprint(s)), strings.ToLower(strings.TrimSpace(fmt.Sprint(sub))))
		},
		"add":   func(x, y any) string { return fmtNum(num(x) + num(y)) },
		"sub":   func(x, y any) string { return fmtNum(num(x) - num(y)) },
		"mul":   func(x, y any) string { return fmtNum(num(x) * num(y)) },
		"gtn":   func(x, y any) bool { return num(x) > num(y) },
		"ltn":   func(x, y any) bool { return num(x) < num(y) },
		"lower": strings.ToLower,
		"upper": strings.ToUpper,
		"trim":  strings.TrimSpace,
		"default": func(def string, v any) string {
			s := fmt.Sprint(v)
			if strings.TrimSpace(s) == "" {
				return def
			}
			return s
		},
		"count": func(coll string) int { return len(a.collection(coll)) },
		// initial is the first letter of s, upper-cased (avatar and icon glyphs).
		"initial": func(s string) string {
			for _, r := range s {
				return strings.ToUpper(string(r))
			}
			return ""
		},
		// matches is a search: true when the query is empty or any of its words (3+ letters,
		// a plural "s" dropped; any CJK word) occurs in one of the fields.
		"matches": func(query string, fields ...string) bool {
			hay := strings.ToLower(strings.Join(fields, " "))
			q := strings.ToLower(strings.TrimSpace(query))
			if q == "" {
				return true
			}
			if strings.Contains(hay, q) {
				return true
			}
			for _, w := range strings.Fields(q) {
				w = strings.TrimSuffix(w, "s")
				if (len(w) >= 3 || w != "" && w[0] >= 0x80) && strings.Contains(hay, w) {
					return true
				}
			}
			return false
		},
		// sum adds field (times qty when a second field is given) over a collection.
		"sum": func(coll, field string, qty ...string) string {
			t := 0.0
			for _, r := range a.collection(coll) {
				v := num(r[field])
				if len(qty) > 0 {
					v *= num(r[qty[0]])
				}
				t += v
			}
			return fmtNum(t)
		},
		// summary renders each record with a "{field}" format and joins them with ", ".
		// Its text is at most maxSummary bytes, ended by "…" when cut: summaries of
		// summaries would otherwise grow as the records' count to the power of the nesting.
		"summary": func(coll, format string) string {
			var b strings.Builder
			for i, r := range a.collection(coll) {
				if i > 0 {
					b.WriteString(", ")
				}
				if !expandRecord(&b, format, r) {
					return b.String()[:maxSummary] + "…"
				}
			}
			return b.String()
		},
		"field": func(coll, id, field string) string {
			for _, r := range a.collection(coll) {
				if r["id"] == id {
					return r[field]
				}
			}
			return ""
		},
		"setting": func(ns, key string) string { return a.p.settings[ns][key] },
		"now":     func(layout string) string { return a.p.cfg.Clock().Format(layout) },
		"money":   func(v any) string { return strconv.FormatFloat(num(v), 'f', 2, 64) },
		// span is the minutes from one date and time ("2006-01-02", "15:04") to another;
		// laterdate and latertime are the date and the time n minutes after one.
		"span": func(d1, t1, d2, t2 string) int {
			a, okA := dayTime(d1, t1)
			b, okB := dayTime(d2, t2)
			if !okA || !okB {
				return 0
			}
			return int(b.Sub(a) / time.Minute)
		},
		"laterdate": func(d, t string, n any) string {
			at, ok := dayTime(d, t)
			if !ok {
				return d
			}
			return at.Add(time.Duration(num(n)) * time.Minute).Format("2006-01-02")
		},
		"latertime": func(d, t string, n any) string {
			at, ok := dayTime(d, t)
			if !ok {
				return t
			}
			return at.Add(time.Duration(num(n)) * time.Minute).Format("15:04")
		},
		"nextid": func(coll string) string {
			maxID := 1000
			for _, r := range a.collection(coll) {
				if n, err := strconv.Atoi(r["id"]); err == nil && n > maxID {
					maxID = n
				}
			}
			return strconv.Itoa(maxID + 1)
		},
	}
}

// rows returns the records a list shows: sorted, then filtered and de-duplicated (so
// "sort: -time, distinct: to" keeps the newest record of each value).
func (a *appState) rows(e *ElementSpec, inst *screenInst) []Record {
	var src []Record
	if e.From != "" {
		src = slices.Clone(a.collection(e.From))
	} else {
		src = slices.Clone(e.Items)
	}
	if e.Sort != "" {
		field, desc := strings.TrimPrefix(e.Sort, "-"), strings.HasPrefix(e.Sort, "-")
		sort.SliceStable(src, func(i, j int) bool {
			x, y := src[i][field], src[j][field]
			fx, errx := strconv.ParseFloat(x, 64)
			fy, erry := strconv.ParseFloat(y, 64)
			if errx == nil && erry == nil {
				if desc {
					return fx > fy
				}
				return fx < fy
			}
			if desc {
				return x > y
			}
			return x < y
		})
	}
	out := make([]Record, 0, len(src))
	seen := map[string]bool{}
	for _, r := range src {
		if e.Where != "" && !a.truth(e.Where, tctx{inst: inst, item: r}) {
			continue
		}
		if e.Distinct != "" {
			if seen[r[e.Distinct]] {
				continue
			}
			seen[r[e.Distinct]] = true
		}
		out = append(out, r)
	}
	return out
}

// dayTime reads a date "2006-01-02" and a time of day "15:04" as one moment (UTC).
func dayTime(d, t string) (time.Time, bool) {
	day, err := time.Parse("2006-01-02", strings.TrimSpace(d))
	h, m, ok := parseClock(t)
	if err != nil || !ok {
		return time.Time{}, false
	}
	return day.Add(time.Duration(h*60+m) * time.Minute), true
}
