package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/fairy-go/fairy/perception"
)

// fakeGrounder is a fake model endpoint (OpenAI-compatible, no model behind it) that
// answers "Tap the "X" icon." the way a grounding model of one family would: the point is
// the centre of X's box on the virtual phone's home screen (read from the phone's dump by
// the test), moved by Offset screen pixels, written in Frame's numbers and Family's syntax.
// Nonsense answers text with no tap; Percent writes the point in 0-100, a frame fairy
// does not know.
type fakeGrounder struct {
	Family            string
	Frame             frameKind
	Offset            float64
	Nonsense, Percent bool

	boxes            map[string]perception.Bounds
	screenW, screenH int

	mu     *sync.Mutex
	models map[string]string // role of the request (by its system prompt) → model named
	calls  int
}

// requests is how many requests the endpoint answered.
func (g *fakeGrounder) requests() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.calls
}

func newFakeGrounder(t *testing.T, g *fakeGrounder) *httptest.Server {
	t.Helper()
	screen, _, err := probeScreen(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	g.boxes, g.screenW, g.screenH = map[string]perception.Bounds{}, screen.Width, screen.Height
	for _, e := range screen.Elements {
		g.boxes[e.Label] = e.Bounds
	}
	g.models, g.mu = map[string]string{}, &sync.Mutex{}
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)
	return srv
}

var askedLabel = regexp.MustCompile(`Tap the "([^"]+)" icon`)

func (g *fakeGrounder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var text, picture string
	for _, m := range req.Messages {
		var s string
		if json.Unmarshal(m.Content, &s) == nil {
			text += s + "\n"
			continue
		}
		var parts []struct {
			Text     string `json:"text"`
			ImageURL struct {
				URL string `json:"url"`
			} `json:"image_url"`
		}
		_ = json.Unmarshal(m.Content, &parts)
		for _, p := range parts {
			text += p.Text + "\n"
			if p.ImageURL.URL != "" {
				picture = p.ImageURL.URL
			}
		}
	}
	g.mu.Lock()
	g.calls++
	role := "probe"
	if strings.Contains(text, "connectivity check") {
		role = "check"
	}
	g.models[role+":"+req.Model] = req.Model
	g.mu.Unlock()
	answer := `{"ok": true}`
	if m := askedLabel.FindStringSubmatch(text); m != nil {
		answer = g.answer(m[1], picture)
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id": "fake-1", "object": "chat.completion", "created": 0, "model": req.Model,
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": answer}}},
		"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
	})
}

// answer writes the tap on label as the family would.
func (g *fakeGrounder) answer(label, picture string) string {
	if g.Nonsense {
		return "I am sorry, I cannot see a phone screen in this conversation."
	}
	b, ok := g.boxes[label]
	if !ok {
		return "no such element"
	}
	c := b.Center()
	cx, cy := float64(c.X)+g.Offset, float64(c.Y)+g.Offset
	imgW, imgH := g.screenW, g.screenH
	if _, data, ok := strings.Cut(picture, "base64,"); ok {
		if raw, err := base64.StdEncoding.DecodeString(data); err == nil {
			if cfg, err := jpeg.DecodeConfig(bytes.NewReader(raw)); err == nil {
				imgW, imgH = cfg.Width, cfg.Height
			}
		}
	}
	fw, fh := g.Frame.extent(imgW, imgH, g.screenW, g.screenH)
	if g.Percent {
		fw, fh = 100, 100
	}
	x, y := cx*fw/float64(g.screenW), cy*fh/float64(g.screenH)
	num := func(v float64) string {
		if g.Frame == frameUnit {
			return fmt.Sprintf("%.3f", v)
		}
		return fmt.Sprintf("%d", int(math.Round(v)))
	}
	switch g.Family {
	case groundingUITARS:
		return fmt.Sprintf("Thought: The %s icon is on the home screen; I tap it.\nAction: click(start_box='<|box_start|>(%s,%s)<|box_end|>')", label, num(x), num(y))
	case groundingAutoGLM:
		return fmt.Sprintf("<think>I see %s on the home screen.</think><answer>do(action=\"Tap\", element=[%s,%s])</answer>", label, num(x), num(y))
	}
	return fmt.Sprintf("<tool_call>\n{\"name\": \"mobile_use\", \"arguments\": {\"action\": \"click\", \"coordinate\": [%s, %s]}}\n</tool_call>", num(x), num(y))
}

// probeCmd runs `fairy <args>` against the fake endpoint with model.grounding set to
// grounding (none when ""), in a home of its own; it returns the output, the error and
// the config directory.
func probeCmd(t *testing.T, url, grounding, config string, args ...string) (string, error, string) {
	t.Helper()
	return probeCmdIn(t, t.TempDir(), url, grounding, config, args...)
}

// probeCmdIn is probeCmd in the home given.
func probeCmdIn(t *testing.T, home, url, grounding, config string, args ...string) (string, error, string) {
	t.Helper()
	env := map[string]string{"HOME": home, "OPENAI_BASE_URL": url + "/v1", "OPENAI_API_KEY": "sk-probe-test"}
	if config == "" {
		env["FAIRY_MODEL_DEFAULT"] = "fake-grounder"
	} else {
		p := filepath.Join(home, "config.yaml")
		if err := os.WriteFile(p, []byte(config), 0o600); err != nil {
			t.Fatal(err)
		}
		args = append(args, "--config", p)
	}
	if grounding != "" {
		env["FAIRY_MODEL_GROUNDING"] = grounding
	}
	var out, errOut bytes.Buffer
	root := newRootCmd(strings.NewReader(""), &out, &errOut, envMap(env))
	root.SetArgs(args)
	err := root.ExecuteContext(t.Context())
	return out.String() + errOut.String(), err, filepath.Join(home, ".config", "fairy")
}

// TestModelProbeIdentifiesFrames: `fairy model probe` finds each family's frame from a
// fake endpoint answering in that family's syntax and frame, through the real go-openai
// client, and remembers it per model and endpoint.
func TestModelProbeIdentifiesFrames(t *testing.T) {
	tests := []struct {
		name      string
		grounding string
		fake      fakeGrounder
		wantFam   string
		wantFrame frameKind
		wantSent  string
	}{
		{"UI-TARS-1.5: pixels of the smart-resized picture", groundingUITARS, fakeGrounder{Family: groundingUITARS, Frame: frameImage}, groundingUITARS, frameImage, "picture sent 1092x2408"},
		{"UI-TARS quantised: 25 px off", groundingUITARS, fakeGrounder{Family: groundingUITARS, Frame: frameImage, Offset: 25}, groundingUITARS, frameImage, "1092x2408"},
		{"Doubao / UI-TARS-2: 0-1000", groundingUITARS, fakeGrounder{Family: groundingUITARS, Frame: frame1000}, groundingUITARS, frame1000, "1092x2408"},
		{"AutoGLM-Phone: 0-999", groundingAutoGLM, fakeGrounder{Family: groundingAutoGLM, Frame: frame999}, groundingAutoGLM, frame999, "picture sent 576x1280"},
		{"Qwen2.5-VL: pixels of the resized picture", groundingQwenVL, fakeGrounder{Family: groundingQwenVL, Frame: frameImage}, groundingQwenVL, frameImage, "1092x2408"},
		{"Qwen3-VL: 0-1000", groundingQwenVL, fakeGrounder{Family: groundingQwenVL, Frame: frame1000}, groundingQwenVL, frame1000, "1092x2408"},
		{"GUI-Owl: 0-1000", groundingGUIOwl, fakeGrounder{Family: groundingGUIOwl, Frame: frame1000}, groundingGUIOwl, frame1000, "1092x2408"},
		{"auto: UI-TARS syntax, picture pixels", groundingAuto, fakeGrounder{Family: groundingUITARS, Frame: frameImage}, groundingUITARS, frameImage, "picture sent 672x1484"},
		{"auto: UI-TARS syntax, screen pixels", groundingAuto, fakeGrounder{Family: groundingUITARS, Frame: frameScreen}, groundingUITARS, frameScreen, "672x1484"},
		{"auto: AutoGLM syntax", groundingAuto, fakeGrounder{Family: groundingAutoGLM, Frame: frame999}, groundingAutoGLM, frame999, "672x1484"},
		{"auto: tool calls in 0-1", groundingAuto, fakeGrounder{Family: groundingQwenVL, Frame: frameUnit}, groundingQwenVL, frameUnit, "672x1484"},
		{"som set: probed as auto", "", fakeGrounder{Family: groundingGUIOwl, Frame: frame1000}, groundingQwenVL, frame1000, "672x1484"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fake := tc.fake
			srv := newFakeGrounder(t, &fake)
			out, err, dir := probeCmd(t, srv.URL, tc.grounding, "", "model", "probe")
			if err != nil {
				t.Fatalf("fairy model probe: %v\n%s", err, out)
			}
			if fake.requests() != probeTargets {
				t.Errorf("%d requests, want %d", fake.requests(), probeTargets)
			}
			for _, want := range []string{"family: " + tc.wantFam + "\n", "frame: " + string(tc.wantFrame) + " (", tc.wantSent, "5 of 5 taps inside", "remembered for fake-grounder @ " + srv.URL + "/v1"} {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
			rec, ok, err := probeStore{path: filepath.Join(dir, probesFile)}.get("fake-grounder", srv.URL+"/v1/")
			if err != nil || !ok || rec.Family != tc.wantFam || rec.Frame != tc.wantFrame {
				t.Errorf("remembered %+v (found %v, %v), want %s in %s", rec, ok, err, tc.wantFam, tc.wantFrame)
			}
		})
	}
}

// TestModelProbeRefuses: a model answering nonsense, or in a frame fairy does not know
// (0-100), is refused with exit 2 and a sentence that says what to do; nothing is
// remembered.
func TestModelProbeRefuses(t *testing.T) {
	tests := []struct {
		name      string
		grounding string
		fake      fakeGrounder
		want      []string
	}{
		{"nonsense", groundingUITARS, fakeGrounder{Family: groundingUITARS, Nonsense: true}, []string{"5 of 5 answers hold no tap in uitars's syntax", "I am sorry", "set it to auto"}},
		{"nonsense, auto", groundingAuto, fakeGrounder{Family: groundingUITARS, Nonsense: true}, []string{"hold no tap in any family's syntax"}},
		{"another family's syntax", groundingAutoGLM, fakeGrounder{Family: groundingUITARS, Frame: frameImage}, []string{"hold no tap in autoglm's syntax"}},
		{"0-100: fits no frame", groundingQwenVL, fakeGrounder{Family: groundingQwenVL, Frame: frame1000, Percent: true}, []string{"fit no frame", "they run to 10", "in its own numbers", "probe again"}},
		{"misses by 200 px", groundingUITARS, fakeGrounder{Family: groundingUITARS, Frame: frameImage, Offset: 200}, []string{"fit no frame"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fake := tc.fake
			srv := newFakeGrounder(t, &fake)
			out, err, dir := probeCmd(t, srv.URL, tc.grounding, "", "model", "probe")
			var ee *exitError
			if !errors.As(err, &ee) || ee.code != 2 {
				t.Fatalf("err = %v, want exit 2\n%s", err, out)
			}
			all := out + err.Error()
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("lacks %q:\n%s", w, all)
				}
			}
			if _, statErr := os.Stat(filepath.Join(dir, probesFile)); statErr == nil {
				t.Error("a refused probe was remembered")
			}
		})
	}
}

// TestModelGroundingConfig: model.grounding takes the families' names; anything else, in
// the config file or the environment, is an error naming the choices.
func TestModelGroundingConfig(t *testing.T) {
	srv := newFakeGrounder(t, &fakeGrounder{Family: groundingUITARS, Frame: frameImage})
	out, err, _ := probeCmd(t, srv.URL, "", "model:\n  default: fake-grounder\n  grounding: uitar\n", "model", "probe")
	if err == nil || !strings.Contains(err.Error(), "model.grounding") || !strings.Contains(err.Error(), "uitars") {
		t.Errorf("a misspelt family in the config file: err = %v\n%s", err, out)
	}
	out, err, _ = probeCmd(t, srv.URL, "ui-tars", "", "model", "probe")
	if err == nil || !strings.Contains(err.Error(), "FAIRY_MODEL_GROUNDING") || !strings.Contains(err.Error(), "qwen-vl") {
		t.Errorf("an unknown family in the environment: err = %v\n%s", err, out)
	}
	out, err, _ = probeCmd(t, srv.URL, "", "model:\n  default: fake-grounder\n  grounding: UITARS\n", "model", "probe")
	if err != nil || !strings.Contains(out, "family: uitars") {
		t.Errorf("grounding UITARS (any case): err = %v\n%s", err, out)
	}
}

// TestPlannerAndGrounderModels: a capable planner and a separate grounding model for the
// Action Decider are configuration: model.roles names each role's model, and the requests
// reach the endpoint with those names through the real go-openai client — the check's as
// well as the probe's (which asks the decider's model).
func TestPlannerAndGrounderModels(t *testing.T) {
	fake := fakeGrounder{Family: groundingUITARS, Frame: frameImage}
	srv := newFakeGrounder(t, &fake)
	config := "model:\n  default: small-model\n  grounding: uitars\n  roles:\n    planner: big-planner\n    decider: ui-tars-1.5-7b\n"
	out, err, _ := probeCmd(t, srv.URL, "", config, "model", "check", "--role", "planner,decider")
	if err != nil {
		t.Fatalf("fairy model check: %v\n%s", err, out)
	}
	out, err, dir := probeCmd(t, srv.URL, "", config, "model", "probe")
	if err != nil {
		t.Fatalf("fairy model probe: %v\n%s", err, out)
	}
	want := map[string]string{"check:big-planner": "big-planner", "check:ui-tars-1.5-7b": "ui-tars-1.5-7b", "probe:ui-tars-1.5-7b": "ui-tars-1.5-7b"}
	if fmt.Sprint(fake.models) != fmt.Sprint(want) {
		t.Errorf("models the endpoint was asked for = %v, want %v", fake.models, want)
	}
	if _, ok, _ := (probeStore{path: filepath.Join(dir, probesFile)}).get("ui-tars-1.5-7b", srv.URL+"/v1"); !ok {
		t.Error("the decider's model was not remembered")
	}
}

// TestRunProbesANewModelFirst: `fairy run` with a coordinate grounding probes a model it
// has not probed before it opens the phone, remembers the answer and does not probe it
// again; a model whose answers fit no frame stops the run (exit 2) before the phone is
// touched.
func TestRunProbesANewModelFirst(t *testing.T) {
	fake := fakeGrounder{Family: groundingAutoGLM, Frame: frame999}
	srv := newFakeGrounder(t, &fake)
	home := t.TempDir()
	// No phone answers at port 1: the run stops at opening it, after the probe.
	args := []string{"run", "--adb-port", "1", "--serial", "emulator-5554", "open the settings"}
	out, err, dir := probeCmdIn(t, home, srv.URL, groundingAutoGLM, "", args...)
	if err == nil || !strings.Contains(err.Error(), "emulator-5554") {
		t.Fatalf("err = %v, want the phone that is not there\n%s", err, out)
	}
	if fake.requests() != probeTargets || !strings.Contains(out, "was not probed: probing its frame first") || !strings.Contains(out, "frame: 0-999 (") {
		t.Errorf("the run did not probe first (%d requests):\n%s", fake.requests(), out)
	}
	if rec, ok, _ := (probeStore{path: filepath.Join(dir, probesFile)}).get("fake-grounder", srv.URL+"/v1"); !ok || rec.Frame != frame999 {
		t.Errorf("remembered %+v, %v", rec, ok)
	}
	out, _, _ = probeCmdIn(t, home, srv.URL, groundingAutoGLM, "", args...)
	if fake.requests() != probeTargets || strings.Contains(out, "probing") {
		t.Errorf("a probed model was probed again (%d requests):\n%s", fake.requests(), out)
	}

	bad := fakeGrounder{Family: groundingAutoGLM, Frame: frame999, Percent: true}
	badSrv := newFakeGrounder(t, &bad)
	out, err, _ = probeCmdIn(t, t.TempDir(), badSrv.URL, groundingAutoGLM, "", args...)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(err.Error(), "fit no frame") || strings.Contains(err.Error(), "emulator-5554") {
		t.Errorf("err = %v, want exit 2 from the probe, before the phone\n%s", err, out)
	}
}

// TestInferFrame: the frame inference on plain numbers — ties between frames a phone
// screen cannot tell apart go to the documented frame, a missed tap of five is allowed, two
// are not.
func TestInferFrame(t *testing.T) {
	boxes := []image.Rectangle{image.Rect(0, 168, 270, 441), image.Rect(810, 441, 1080, 714), image.Rect(0, 714, 270, 987), image.Rect(540, 168, 810, 441)}
	taps := func(fw, fh, off float64, miss int) []probeTap {
		var out []probeTap
		for i, b := range boxes {
			c := b.Min.Add(b.Max).Div(2)
			x, y := (float64(c.X)+off)*fw/1080, (float64(c.Y)+off)*fh/2400
			if i < miss {
				x, y = 0.99*fw, 0.99*fh
			}
			out = append(out, probeTap{Box: b, X: math.Round(x), Y: math.Round(y)})
		}
		return out
	}
	tests := []struct {
		name       string
		taps       []probeTap
		documented frameKind
		want       frameKind
		also       int
		wantErr    bool
	}{
		{"1000, documented 999: tie to 999", taps(1000, 1000, 0, 0), frame999, frame999, 1, false},
		{"1000, documented 1000", taps(1000, 1000, 0, 0), frame1000, frame1000, 1, false},
		{"picture 672x1484", taps(672, 1484, 0, 0), frameImage, frameImage, 0, false},
		{"screen, documented picture", taps(1080, 2400, 0, 0), frameImage, frameScreen, 0, false},
		{"30 px off", taps(1000, 1000, 30, 0), frame1000, frame1000, 1, false},
		{"one missed", taps(1000, 1000, 0, 1), frame1000, frame1000, 1, false},
		{"two missed", taps(1000, 1000, 0, 2), frame1000, "", 0, true},
		{"0-100", taps(100, 100, 0, 0), frame1000, "", 0, true},
	}
	for _, tc := range tests {
		inf, err := inferFrame(tc.taps, 672, 1484, 1080, 2400, tc.documented)
		if (err != nil) != tc.wantErr {
			t.Errorf("%s: err = %v", tc.name, err)
			continue
		}
		if err == nil && (inf.Best.Frame != tc.want || len(inf.Also) != tc.also) {
			t.Errorf("%s: %s also %v, want %s and %d more", tc.name, inf.Best.Frame, inf.Also, tc.want, tc.also)
		}
	}
}

// TestPrepareGroundingFromMemory: a run with a probed model asks it nothing, sends the
// pictures at its family's size and without set-of-mark; set-of-mark grounding leaves the
// run as it was.
func TestPrepareGroundingFromMemory(t *testing.T) {
	store := probeStore{path: filepath.Join(t.TempDir(), probesFile)}
	if err := store.put(probeRecord{Model: "qwen2.5vl:7b", Endpoint: "http://localhost:11434/v1", Family: groundingQwenVL, Frame: frameImage}); err != nil {
		t.Fatal(err)
	}
	cfg := runConfig{Grounding: groundingSetup{Family: groundingAuto, Model: "qwen2.5vl:7b", Endpoint: "http://localhost:11434/v1/", Store: store}}
	var out bytes.Buffer
	if err := prepareGrounding(t.Context(), &cfg, &out); err != nil { // cfg.Model is nil: a call would panic
		t.Fatal(err)
	}
	if !cfg.Agent.NoMarks || cfg.Agent.ModelImage == nil || cfg.Grounding.Record.Frame != frameImage || out.Len() != 0 {
		t.Fatalf("prepared %+v, printed %q", cfg.Agent, out.String())
	}
	if w, h := cfg.Agent.ModelImage(1080, 2400); w != 1092 || h != 2408 {
		t.Errorf("Qwen2.5-VL pictures at %dx%d, want 1092x2408 (smart_resize)", w, h)
	}
	som := runConfig{Grounding: groundingSetup{Family: groundingSoM, Store: store}}
	if err := prepareGrounding(t.Context(), &som, &out); err != nil || som.Agent.NoMarks || som.Agent.ModelImage != nil {
		t.Errorf("set-of-mark grounding changed the run: %v %+v", err, som.Agent)
	}
}
