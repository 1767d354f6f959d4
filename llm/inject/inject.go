package inject

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/fairy-go/fairy/llm"
)

// Kind is one kind of model error.
type Kind string

// The kinds of error. Each applies to the roles where it means something; a call where
// the kind cannot apply (no tap to misplace, no text to mistype) is left alone.
const (
	// grounding sends a Tap or LongPress of the Action Decider to another element of
	// the same screen.
	grounding Kind = "grounding"
	// stale answers a Re-Planner or Action Decider call with that role's previous answer.
	stale Kind = "stale"
	// Format breaks the JSON of any role's answer: prose around it, truncated, or a key
	// missing.
	Format Kind = "format"
	// done is a false "done": the Re-Planner says the app task is Finished (verdict A)
	// when it did not, or the finish check passes a task it found not done.
	done Kind = "done"
	// reflect is a false A: the Re-Planner's verdict B, C or D on the last action
	// becomes A (success).
	reflect Kind = "reflect"
	// Typo changes one character of an Input action's text.
	Typo Kind = "typo"
	// index gives a targeted action an element number the screen does not have.
	index Kind = "index"
	// repeatKind makes the Action Decider answer its last action again.
	repeatKind Kind = "repeat"
	// Offset moves every point of a decider that answers in coordinates by N screen
	// pixels in a random direction (a quantized model's misclick); its value is N, not a
	// rate.
	Offset Kind = "offset"
	// frameKind writes a coordinate answer's points in a wrong frame (0–1000 for absolute
	// pixels, the screen's pixels for a relative frame).
	frameKind Kind = "frame"
)

// kinds lists every kind, in the order a call tries them.
func kinds() []Kind {
	return []Kind{grounding, index, Typo, repeatKind, frameKind, Offset, stale, reflect, done, Format}
}

// Rates are the chances, per applicable call, of each kind.
type Rates map[Kind]float64

// ErrSpec is returned for a --model-errors value that cannot be read.
var ErrSpec = errors.New("inject: bad model-errors spec")

// ParseRates reads "grounding=0.2,reflect=0.05" (a rate is a fraction in [0,1], or a
// percentage such as 20%). "" is no errors. offset takes pixels instead of a rate
// ("offset=30": every point 30 px off).
func ParseRates(spec string) (Rates, error) {
	r := Rates{}
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return r, nil
	}
	for _, part := range strings.Split(spec, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return nil, fmt.Errorf("%w: %q is not KIND=RATE (kinds: %s)", ErrSpec, part, kindList())
		}
		kind := Kind(strings.ToLower(strings.TrimSpace(k)))
		if !slices.Contains(kinds(), kind) {
			return nil, fmt.Errorf("%w: unknown kind %q (kinds: %s)", ErrSpec, k, kindList())
		}
		v = strings.TrimSpace(v)
		if kind == Offset {
			px, err := strconv.Atoi(strings.TrimSuffix(v, "px"))
			if err != nil || px < 0 || px > 2000 {
				return nil, fmt.Errorf("%w: offset %q is not a whole number of pixels between 0 and 2000 "+
					"(offset=30 moves every point 30 px)", ErrSpec, v)
			}
			if _, dup := r[kind]; dup {
				return nil, fmt.Errorf("%w: %s given twice", ErrSpec, kind)
			}
			r[kind] = float64(px)
			continue
		}
		scale := 1.0
		if p, ok := strings.CutSuffix(v, "%"); ok {
			v, scale = p, 0.01
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f*scale < 0 || f*scale > 1 {
			return nil, fmt.Errorf("%w: rate %q of %s is not a fraction between 0 and 1 (or a percentage)", ErrSpec, v, kind)
		}
		if _, dup := r[kind]; dup {
			return nil, fmt.Errorf("%w: %s given twice", ErrSpec, kind)
		}
		r[kind] = f * scale
	}
	return r, nil
}

func kindList() string {
	var ks []string
	for _, k := range kinds() {
		ks = append(ks, string(k))
	}
	return strings.Join(ks, ", ")
}

// String writes the rates back in ParseRates' form, kinds in Kinds order.
func (r Rates) String() string {
	var parts []string
	for _, k := range kinds() {
		if v, ok := r[k]; ok {
			parts = append(parts, fmt.Sprintf("%s=%g", k, v))
		}
	}
	return strings.Join(parts, ",")
}

// Any reports whether some rate is above zero.
func (r Rates) Any() bool {
	for _, v := range r {
		if v > 0 {
			return true
		}
	}
	return false
}

// Injection is one injected error: which role's answer, which kind, what changed.
type Injection struct {
	Role   string
	Kind   Kind
	Change string
}

// Model is what Wrap wraps (and returns): executor.Model, *openai.Client, llm.Replay.
type Model interface {
	Generate(ctx context.Context, req llm.Request) (llm.Response, error)
}

// Wrapper is a model whose answers err at the given rates.
type Wrapper struct {
	inner Model
	rates Rates
	note  func(Injection)

	mu   sync.Mutex
	rng  *rand.Rand
	last map[llm.Role]string // each role's previous answer as the model gave it
	// lastAct is the Action Decider's last action (as JSON) in the previous answer.
	lastAct json.RawMessage
}

// Seed derives a run's seed from an evaluation's seed and the names of the run (task id,
// phase, repeat), so each run draws its own errors and the same run draws the same ones.
func Seed(seed uint64, names ...string) uint64 {
	h := fnv.New64a()
	fmt.Fprint(h, seed)
	for _, n := range names {
		h.Write([]byte{0})
		h.Write([]byte(n))
	}
	return h.Sum64()
}

// Wrap returns m with errors injected at rates, drawn from seed; note (may be nil) hears
// of every injected error.
func Wrap(m Model, rates Rates, seed uint64, note func(Injection)) *Wrapper {
	return &Wrapper{inner: m, rates: rates, note: note, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		last: map[llm.Role]string{}}
}

// Generate implements Model: the inner model answers, then at most one error is injected
// into the answer. A repair request (the caller asking again after a bad answer) is
// passed through untouched, so a format error costs one call more, as with a real model.
func (w *Wrapper) Generate(ctx context.Context, req llm.Request) (llm.Response, error) {
	resp, err := w.inner.Generate(ctx, req)
	if err != nil {
		return resp, err
	}
	if len(req.Messages) > 1 {
		return resp, nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	text := resp.Text
	prev, hadPrev := w.last[req.Role]
	w.last[req.Role] = text
	var lastAct json.RawMessage
	if req.Role == llm.RoleDecider {
		lastAct = w.lastAct
		w.lastAct = lastAction(text)
	}
	for _, k := range kinds() {
		rate := w.rates[k]
		if rate <= 0 {
			continue
		}
		var changed, what string
		var ok bool
		report := k // the kind the injection is reported as
		switch k {
		case grounding, index, Typo:
			if req.Role == llm.RoleDecider {
				changed, what, ok = w.retarget(k, text, prompt(req))
			}
		case Offset, frameKind:
			if req.Role == llm.RoleDecider {
				changed, what, ok, report = w.misplace(k, text, prompt(req))
			}
		case repeatKind:
			if req.Role == llm.RoleDecider && lastAct != nil {
				changed, what, ok = repeat(text, lastAct)
			}
		case stale:
			if (req.Role == llm.RoleDecider || req.Role == llm.RoleReplanner) && hadPrev && prev != text {
				changed, what, ok = prev, "the previous "+string(req.Role)+" answer again", true
			}
		case reflect, done:
			switch {
			case req.Role == llm.RoleReplanner:
				changed, what, ok = verdict(k, text)
			case req.Role == roleChecker && k == done:
				changed, what, ok = passed(text)
			}
		case Format:
			changed, what, ok = w.format(text)
		}
		if !ok {
			continue
		}
		// The draw happens only where the kind applies, so a rate is per applicable call;
		// an offset applies every time.
		if k != Offset && w.rng.Float64() >= rate {
			continue
		}
		resp.Text = changed
		if k == grounding || k == index || k == repeatKind || k == stale {
			if req.Role == llm.RoleDecider {
				w.lastAct = lastAction(changed)
			}
		}
		if w.note != nil {
			w.note(Injection{Role: string(req.Role), Kind: report, Change: what})
		}
		return resp, nil
	}
	return resp, nil
}

func prompt(req llm.Request) string {
	var b strings.Builder
	for _, m := range req.Messages {
		b.WriteString(m.Text)
		b.WriteString("\n\n")
	}
	return b.String()
}

// element is one numbered element line of perception's text form.
type element = llm.ScreenElement

// screenOf reads the last screen in a prompt (llm.ScreenOf).
func screenOf(text string) []element { return llm.ScreenOf(text) }

func label(els []element, i int) string {
	for _, e := range els {
		if e.Index == i {
			return fmt.Sprintf("%d %q", i, e.Label)
		}
	}
	return strconv.Itoa(i)
}

// answer is a decoded JSON answer that keeps every key as the model wrote it.
type answer map[string]json.RawMessage

func decode(text string) (answer, bool) {
	js, err := llm.ExtractJSON(text)
	if err != nil {
		return nil, false
	}
	var a answer
	if json.Unmarshal([]byte(js), &a) != nil {
		return nil, false
	}
	return a, true
}

func (a answer) encode() string {
	b, _ := json.Marshal(map[string]json.RawMessage(a))
	return string(b)
}

func (a answer) actions() []map[string]any {
	var acts []map[string]any
	if json.Unmarshal(a["actions"], &acts) != nil {
		return nil
	}
	return acts
}

func (a answer) setActions(acts []map[string]any) {
	b, _ := json.Marshal(acts)
	a["actions"] = b
}

func actType(act map[string]any) string {
	s, _ := act["type"].(string)
	return strings.ToLower(s)
}

func actIndex(act map[string]any) (int, bool) {
	f, ok := act["index"].(float64)
	return int(f), ok && f > 0
}

func lastAction(text string) json.RawMessage {
	a, ok := decode(text)
	if !ok {
		return nil
	}
	acts := a.actions()
	if len(acts) == 0 {
		return nil
	}
	b, _ := json.Marshal(acts[len(acts)-1])
	return b
}

// retarget applies grounding, index or typo to the first action of a decider answer it
// can apply to.
func (w *Wrapper) retarget(k Kind, text, prompt string) (string, string, bool) {
	a, ok := decode(text)
	if !ok {
		return "", "", false
	}
	acts := a.actions()
	els := screenOf(prompt)
	for i, act := range acts {
		t := actType(act)
		idx, has := actIndex(act)
		switch k {
		case grounding:
			if (t != "tap" && t != "longpress" && t != "long_press") || !has || len(els) < 2 {
				continue
			}
			var others []int
			for _, e := range els {
				if e.Index != idx {
					others = append(others, e.Index)
				}
			}
			to := others[w.rng.IntN(len(others))]
			act["index"] = to
			a.setActions(acts)
			return a.encode(), fmt.Sprintf("%s(%s) → %s(%s)", act["type"], label(els, idx), act["type"], label(els, to)), true
		case index:
			if !has {
				continue
			}
			top := 0
			for _, e := range els {
				top = max(top, e.Index)
			}
			to := top + 1 + w.rng.IntN(5)
			act["index"] = to
			a.setActions(acts)
			return a.encode(), fmt.Sprintf("%s(%s) → %s(%d), not on the screen (%d elements)", act["type"], label(els, idx),
				act["type"], to, len(els)), true
		case Typo:
			s, _ := act["text"].(string)
			if t != "input" || utf8.RuneCountInString(s) == 0 {
				continue
			}
			typed := w.typo(s)
			act["text"] = typed
			acts[i] = act
			a.setActions(acts)
			return a.encode(), fmt.Sprintf("input %q → %q", s, typed), true
		}
	}
	return "", "", false
}

// typo changes one letter or digit of s to a neighbour (another character when s has
// none).
func (w *Wrapper) typo(s string) string {
	rs := []rune(s)
	var at []int
	for i, r := range rs {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			at = append(at, i)
		}
	}
	if len(at) == 0 {
		at = []int{w.rng.IntN(len(rs))}
	}
	i := at[w.rng.IntN(len(at))]
	r := rs[i]
	switch {
	case r >= 'a' && r < 'z', r >= 'A' && r < 'Z', r >= '0' && r < '9':
		rs[i] = r + 1
	case r == 'z' || r == 'Z' || r == '9':
		rs[i] = r - 1
	default:
		rs[i] = 'x'
		if r == 'x' {
			rs[i] = 'y'
		}
	}
	return string(rs)
}

func repeat(text string, last json.RawMessage) (string, string, bool) {
	a, ok := decode(text)
	if !ok {
		return "", "", false
	}
	var act map[string]any
	if json.Unmarshal(last, &act) != nil {
		return "", "", false
	}
	acts := a.actions()
	was, _ := json.Marshal(acts)
	a.setActions([]map[string]any{act})
	if string(a["actions"]) == string(was) {
		return "", "", false
	}
	return a.encode(), fmt.Sprintf("actions %s → the last action again: %s", was, last), true
}

// roleChecker is the finish check's role (the executor's RoleChecker): a false "done" there
// is a false pass.
const roleChecker llm.Role = "checker"

// passed makes a finish check's "not done" a pass: the checker's false success.
func passed(text string) (string, string, bool) {
	a, ok := decode(text)
	if !ok {
		return "", "", false
	}
	var p bool
	if err := json.Unmarshal(a["passed"], &p); err != nil || p {
		return "", "", false
	}
	a["passed"] = json.RawMessage(`true`)
	return a.encode(), "finish check passed false → true", true
}

// verdict makes a Re-Planner answer a false A (reflect) or a false Finished (done).
func verdict(k Kind, text string) (string, string, bool) {
	a, ok := decode(text)
	if !ok {
		return "", "", false
	}
	var res, sub string
	_ = json.Unmarshal(a["result"], &res)
	_ = json.Unmarshal(a["subgoal"], &sub)
	switch k {
	case reflect:
		r := strings.ToUpper(strings.TrimSpace(res))
		if r != "B" && r != "C" && r != "D" {
			return "", "", false
		}
		a["result"] = json.RawMessage(`"A"`)
		return a.encode(), fmt.Sprintf("result %s → A", r), true
	case done:
		if strings.EqualFold(strings.TrimSpace(sub), "Finished") {
			return "", "", false
		}
		a["result"] = json.RawMessage(`"A"`)
		a["subgoal"] = json.RawMessage(`"Finished"`)
		delete(a, "routine")
		return a.encode(), fmt.Sprintf("subgoal %q (result %q) → Finished (A)", sub, res), true
	}
	return "", "", false
}

// format breaks an answer's JSON one of three ways.
func (w *Wrapper) format(text string) (string, string, bool) {
	a, ok := decode(text)
	if !ok || len(a) == 0 {
		return "", "", false
	}
	switch w.rng.IntN(3) {
	case 0:
		return "Sure! Here is my answer:\n```json\n" + text + "\n```\nLet me know if you need anything else.",
			"prose around the JSON", true
	case 1:
		n := max(1, len(text)/2)
		for n > 1 && !utf8.RuneStart(text[n]) {
			n--
		}
		return text[:n], fmt.Sprintf("truncated JSON (%d of %d bytes)", n, len(text)), true
	default:
		keys := make([]string, 0, len(a))
		for k := range a {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		// The key that carries the answer: actions, subgoal, facts… the first of those
		// the answer has, else any.
		drop := keys[w.rng.IntN(len(keys))]
		for _, k := range []string{"actions", "subgoal", "status", "facts", "passed", "question"} {
			if _, ok := a[k]; ok {
				drop = k
				break
			}
		}
		delete(a, drop)
		return a.encode(), fmt.Sprintf("key %q missing", drop), true
	}
}
