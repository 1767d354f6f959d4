package executor

import (
	"context"
	"fmt"
	"html"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/memory"
	"github.com/fairy-go/fairy/prompts"
)

// fakeNode is one widget of a fake screen.
type fakeNode struct {
	kind string // button, edit, password (an edit), text
	text string
	id   string
	to   string // screen a tap leads to
	app  string // the app the screen it leads to belongs to ("": the same)
}

// fakePhone is a recording fake device: screens as widget lists, taps move between them.
type fakePhone struct {
	mu      sync.Mutex
	pkg     string
	screens map[string][]fakeNode
	cur     string
	taps    []string // labels tapped
	typed   []string
	keys    []string
	shots   int // screenshots taken
	// launch is the screen an app launch shows, and launches counts them ("": launching
	// only moves the package).
	launch   string
	launches []string
	keyTo    map[string]string // screen → where Back leads from it (absent: Back does nothing)
	// swipeTo is where a swipe leads from a screen (a list scrolled on; absent: a swipe does
	// nothing), and swipes counts them.
	swipeTo map[string]string
	swipes  int
}

func (p *fakePhone) node(x, y int) (fakeNode, bool) {
	for i, n := range p.screens[p.cur] {
		top := 200 + i*120
		if y >= top && y < top+100 && x >= 0 && x < 1080 {
			return n, true
		}
	}
	return fakeNode{}, false
}

func (p *fakePhone) Dump(context.Context) ([]byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var b strings.Builder
	b.WriteString(`<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">`)
	fmt.Fprintf(&b, `<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="%s" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]">`, p.pkg)
	for i, n := range p.screens[p.cur] {
		class, click, password := "android.widget.TextView", "false", "false"
		switch n.kind {
		case "button":
			class, click = "android.widget.Button", "true"
		case "edit":
			class, click = "android.widget.EditText", "true"
		case "password":
			class, click, password = "android.widget.EditText", "true", "true"
		}
		top := 200 + i*120
		fmt.Fprintf(&b, `<node index="%d" text="%s" resource-id="%s" class="%s" package="%s" content-desc="" checkable="false" checked="false" clickable="%s" enabled="true" focusable="%s" focused="false" scrollable="false" long-clickable="false" password="%s" selected="false" bounds="[0,%d][1080,%d]" />`,
			i, html.EscapeString(n.text), n.id, class, p.pkg, click, click, password, top, top+100)
	}
	b.WriteString(`</node></hierarchy>`)
	return []byte(b.String()), nil
}

func (p *fakePhone) Screenshot(context.Context) ([]byte, error) {
	p.mu.Lock()
	p.shots++
	p.mu.Unlock()
	return nil, nil
}
func (p *fakePhone) Tap(_ context.Context, x, y int) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	n, ok := p.node(x, y)
	if !ok {
		return nil
	}
	p.taps = append(p.taps, n.text)
	if n.to != "" {
		p.cur = n.to
	}
	if n.app != "" {
		p.pkg = n.app
	}
	return nil
}
func (p *fakePhone) LongPress(ctx context.Context, x, y int, _ time.Duration) error {
	return p.Tap(ctx, x, y)
}
func (p *fakePhone) Swipe(context.Context, int, int, int, int, time.Duration) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.swipes++
	if to, ok := p.swipeTo[p.cur]; ok {
		p.cur = to
	}
	return nil
}
func (p *fakePhone) Key(_ context.Context, k string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.keys = append(p.keys, k)
	if to, ok := p.keyTo[p.cur]; ok && k == "back" {
		p.cur = to
	}
	return nil
}
func (p *fakePhone) TypeText(_ context.Context, s string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.typed = append(p.typed, s)
	return nil
}
func (p *fakePhone) ClearText(context.Context, int, int, int) error { return nil }
func (p *fakePhone) Launch(_ context.Context, pkg string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pkg = pkg
	p.launches = append(p.launches, pkg)
	if p.launch != "" {
		p.cur = p.launch
	}
	return nil
}
func (p *fakePhone) Foreground(context.Context) (string, string, error) {
	return p.pkg, ".Main", nil
}
func (p *fakePhone) Shell(context.Context, string) (string, error) { return "", nil }
func (p *fakePhone) Settle(context.Context) error                  { return nil }

func (p *fakePhone) tapped(label string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, t := range p.taps {
		if t == label {
			n++
		}
	}
	return n
}

// fakeModel answers each role with a function of the prompt; it counts calls by role.
type fakeModel struct {
	mu    sync.Mutex
	fn    map[llm.Role]func(n int, user string) string
	calls map[llm.Role]int
}

func (m *fakeModel) Generate(_ context.Context, req llm.Request) (llm.Response, error) {
	if req.Schema == nil || req.Schema.Name != string(req.Role) {
		return llm.Response{}, fmt.Errorf("schema %v does not name role %s", req.Schema, req.Role)
	}
	m.mu.Lock()
	if m.calls == nil {
		m.calls = map[llm.Role]int{}
	}
	n := m.calls[req.Role]
	m.calls[req.Role]++
	f := m.fn[req.Role]
	m.mu.Unlock()
	if f == nil {
		switch req.Role {
		case llm.RoleExtractor:
			return llm.Response{Text: `{"facts":[]}`, Usage: llm.Usage{PromptTokens: 10, CompletionTokens: 2}}, nil
		case RoleChecker:
			return llm.Response{Text: `{"passed":true,"reason":"done"}`, Usage: llm.Usage{PromptTokens: 10, CompletionTokens: 2}}, nil
		}
		return llm.Response{}, fmt.Errorf("fake model: no answer for role %s", req.Role)
	}
	return llm.Response{Text: f(n, req.Messages[0].Text), Usage: llm.Usage{PromptTokens: 100, CompletionTokens: 20}}, nil
}

func (m *fakeModel) count(r llm.Role) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.calls[r]
}

var elemRE = regexp.MustCompile(`(?m)^\s*- \[(\d+)\] \S+ "((?:[^"\\]|\\.)*)"`)

// index finds the element index of label on the screen in a prompt, or 0.
func index(prompt, label string) int {
	for _, m := range elemRE.FindAllStringSubmatch(prompt, -1) {
		if m[2] == label {
			var n int
			fmt.Sscan(m[1], &n)
			return n
		}
	}
	return 0
}

func plan(result, subgoal string, inter int, reason string, steps ...string) string {
	if len(steps) == 0 {
		steps = []string{subgoal}
	}
	q := make([]string, len(steps))
	for i, s := range steps {
		q[i] = fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf(`{"result":%q,"reflection":"","progress":%q,"plan":[%s],"subgoal":%q,"facts":[],"routine":{"name":"","args":[]},"interaction":%d,"reason":%q}`,
		result, subgoal, strings.Join(q, ","), subgoal, inter, reason)
}

func tap(i int) string {
	return fmt.Sprintf(`{"thought":"","actions":[{"type":"Tap","index":%d}],"expect":""}`, i)
}

// harness wires an executor to a fake phone, a fake model and a scripted person.
type harness struct {
	phone  *fakePhone
	model  *fakeModel
	person *interaction.Canned
	bus    *event.Bus
	mem    *memory.Stacks
	events []event.Event
	exec   *Executor
	meter  *llm.Meter
}

func newHarness(t testing.TB, phone *fakePhone, model *fakeModel, replies []interaction.Rule, tweak func(*Config)) *harness {
	t.Helper()
	ps, err := prompts.Load()
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{phone: phone, model: model, bus: event.NewBus(nil), mem: memory.NewStacks(), meter: &llm.Meter{}}
	h.mem.Attach(h.bus)
	var mu sync.Mutex
	h.bus.Subscribe(func(r event.Record) { mu.Lock(); h.events = append(h.events, r.Event); mu.Unlock() })
	h.person, err = interaction.NewCanned(replies, "")
	if err != nil {
		t.Fatal(err)
	}
	metered := Metered{Model: model, Meter: h.meter, Bus: h.bus}
	it, err := interaction.New(interaction.Config{Model: metered, Dialoger: h.person, Memory: h.mem, Prompts: ps, Bus: h.bus})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Device: phone, Model: metered, Interactor: it, Memory: h.mem, Prompts: ps, Bus: h.bus, Meter: h.meter, TextOnly: true,
		Sleep: func(context.Context, time.Duration) error { return nil }}
	if tweak != nil {
		tweak(&cfg)
	}
	h.exec, err = New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func (h *harness) run(t testing.TB, task string) Result {
	t.Helper()
	res, err := h.exec.Run(context.Background(), Assignment{Instruction: task, Task: event.AppTask{App: h.phone.pkg, Task: task}})
	if err != nil {
		t.Fatalf("run: %v (result %+v)", err, res)
	}
	return res
}

// find returns the events of type T.
func find[T event.Event](h *harness) []T {
	var out []T
	for _, e := range h.events {
		if x, ok := e.(T); ok {
			out = append(out, x)
		}
	}
	return out
}
