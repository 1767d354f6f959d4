package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"log/slog"
	"math"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/fairy-go/fairy/agent"
	"github.com/fairy-go/fairy/executor"
	"github.com/fairy-go/fairy/internal/table"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/llm/openai"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/prompts"
	"github.com/fairy-go/fairy/sim"
	"github.com/spf13/cobra"
)

// probeModel is the model the probe asks; *openai.Client and executor.Model satisfy it.
type probeModel interface {
	Generate(ctx context.Context, req llm.Request) (llm.Response, error)
}

// probeTargets is how many elements the probe asks the model to tap.
const probeTargets = 5

// probeOptions is one probe.
type probeOptions struct {
	Model     probeModel
	ModelName string // the model as configured for Role
	Endpoint  string
	Role      llm.Role
	Grounding string // a coordinate family, or auto
	Logger    *slog.Logger
}

// probeRow is one tap asked for and what the model answered.
type probeRow struct {
	Label  string
	Box    perception.Bounds
	Answer string
	X, Y   float64 // the point in the model's numbers
	Err    error   // the answer held no tap in the family's syntax
}

// probeResult is what a probe found.
type probeResult struct {
	Family           familySpec
	Rows             []probeRow
	Inference        frameInference
	ImageW, ImageH   int
	ScreenW, ScreenH int
}

// record is the probe's answer as remembered.
func (r probeResult) record(o probeOptions, now time.Time) probeRecord {
	return probeRecord{Model: o.ModelName, Endpoint: o.Endpoint, Family: r.Family.Name, Frame: r.Inference.Best.Frame,
		ImageW: r.ImageW, ImageH: r.ImageH, Hits: r.Inference.Best.Hits, Taps: len(r.Rows), When: now.UTC()}
}

// errProbeRefused says a model's answers fit no family's syntax or no frame.
var errProbeRefused = errors.New("model probe: the model's taps cannot be used")

// runProbe shows the model the virtual phone's home screen, whose elements' boxes the
// dump gives, asks it to tap named elements, and infers the frame of its answers. The
// result is returned with an error wrapping errProbeRefused when the answers fit no frame.
func runProbe(ctx context.Context, o probeOptions) (probeResult, error) {
	var res probeResult
	log := cmp.Or(o.Logger, slog.New(slog.DiscardHandler))
	families := coordinateFamilies()
	size := probeAutoImage
	if o.Grounding != groundingAuto {
		f, ok := familyByName(o.Grounding)
		if !ok {
			return res, fmt.Errorf("model probe: grounding %q answers with set-of-mark numbers, not coordinates: "+
				"there is no frame to probe (set model.grounding to one of %s)",
				o.Grounding, strings.Join(groundingChoices[1:], ", "))
		}
		families, size = []familySpec{f}, f.Image
	}
	screen, png, err := probeScreen(ctx, log)
	if err != nil {
		return res, err
	}
	res.ScreenW, res.ScreenH = screen.Width, screen.Height
	res.ImageW, res.ImageH = size.Fit(screen.Width, screen.Height)
	pic, err := perception.ResizePicture(png, res.ImageW, res.ImageH)
	if err != nil {
		return res, fmt.Errorf("model probe: %w", err)
	}
	targets := pickTargets(screen, probeTargets)
	if len(targets) < 3 {
		return res, fmt.Errorf("model probe: the virtual phone's home screen shows %d named elements, 3 needed", len(targets))
	}
	set, err := prompts.Load()
	if err != nil {
		return res, fmt.Errorf("model probe: %w", err)
	}
	family := families[0].Name
	if len(families) > 1 {
		family = groundingAuto
	}
	answers := make([]string, len(targets))
	for i, e := range targets {
		p, err := set.Probe(prompts.ProbeData{Family: family, W: res.ImageW, H: res.ImageH, Target: e.Label})
		if err != nil {
			return res, fmt.Errorf("model probe: %w", err)
		}
		resp, err := o.Model.Generate(ctx, llm.Request{Role: o.Role, System: p.System, MaxTokens: 300,
			Messages: []llm.Message{{Role: "user", Text: p.User,
				Images: []llm.Image{{MIME: "image/jpeg", Data: pic}}}}})
		if err != nil {
			return res, fmt.Errorf("model probe: asking %s to tap %q: %w", o.ModelName, e.Label, err)
		}
		answers[i] = resp.Text
	}
	// The family is the one whose syntax reads the most answers (auto tries each).
	bestRead := -1
	for _, f := range families {
		rows, read := readTaps(f, targets, answers)
		if read > bestRead {
			res.Family, res.Rows, bestRead = f, rows, read
		}
	}
	var taps []probeTap
	for _, r := range res.Rows {
		if r.Err == nil {
			taps = append(taps, probeTap{Box: rect(r.Box), X: r.X, Y: r.Y})
		}
	}
	need := len(res.Rows)
	if need >= 4 {
		need--
	}
	if len(taps) < need {
		syntax := "any family's syntax (" + strings.Join(groundingChoices[1:len(groundingChoices)-1], ", ") + ")"
		if len(families) == 1 {
			syntax = res.Family.Name + "'s syntax"
		}
		return res, fmt.Errorf("%w: %d of %d answers hold no tap in %s; the first answer was %q: "+
			"check model.grounding names the model's family, or set it to auto",
			errProbeRefused, len(res.Rows)-len(taps), len(res.Rows), syntax, clip(answers[0], 120))
	}
	res.Inference, err = inferFrame(taps, res.ImageW, res.ImageH, res.ScreenW, res.ScreenH, res.Family.Frame)
	if err != nil {
		return res, fmt.Errorf("%w: %w; fairy does not start a run with a model whose points it cannot place: "+
			"check the model and its server (a resized picture, another family), then probe again",
			errProbeRefused, err)
	}
	return res, nil
}

// readTaps reads each answer's tap with f's syntax and counts those read.
func readTaps(f familySpec, targets []perception.Element, answers []string) ([]probeRow, int) {
	rows := make([]probeRow, len(targets))
	read := 0
	for i, e := range targets {
		rows[i] = probeRow{Label: e.Label, Box: e.Bounds, Answer: answers[i]}
		rows[i].X, rows[i].Y, rows[i].Err = f.Parse(answers[i])
		if rows[i].Err == nil {
			read++
		}
	}
	return rows, read
}

// probeScreen is the virtual phone's home screen: its parsed tree (the elements' boxes)
// and its screenshot, read over the ADB host protocol as from any phone.
func probeScreen(ctx context.Context, log *slog.Logger) (*perception.Screen, []byte, error) {
	p, err := sim.New(sim.Config{Seed: 1, Logger: log})
	if err != nil {
		return nil, nil, fmt.Errorf("model probe: virtual phone: %w", err)
	}
	phones, err := agent.ServePhones(log, p)
	if err != nil {
		return nil, nil, fmt.Errorf("model probe: %w", err)
	}
	defer phones.Close()
	dev, err := agent.OpenDevice(ctx, phones.Device(p.Serial(), log))
	if err != nil {
		return nil, nil, fmt.Errorf("model probe: virtual phone: %w", err)
	}
	defer dev.Close(context.WithoutCancel(ctx))
	xml, err := dev.Dump(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("model probe: virtual phone: %w", err)
	}
	screen, err := perception.Parse(xml)
	if err != nil {
		return nil, nil, fmt.Errorf("model probe: virtual phone: %w", err)
	}
	png, err := dev.Screenshot(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("model probe: virtual phone: %w", err)
	}
	return screen, png, nil
}

// pickTargets chooses up to n clickable elements with a Latin label no other element
// has, spread over the screen: each next one the farthest from those chosen.
func pickTargets(s *perception.Screen, n int) []perception.Element {
	count := map[string]int{}
	for _, e := range s.Elements {
		count[e.Label]++
	}
	var pool []perception.Element
	for _, e := range s.Elements {
		if e.Clickable && e.Label != "" && count[e.Label] == 1 && latin(e.Label) && !e.Bounds.Empty() {
			pool = append(pool, e)
		}
	}
	if len(pool) == 0 {
		return nil
	}
	chosen := []perception.Element{pool[0]}
	used := map[int]bool{0: true}
	for len(chosen) < n && len(chosen) < len(pool) {
		far, farD := -1, -1.0
		for i, e := range pool {
			if used[i] {
				continue
			}
			d := math.Inf(1)
			for _, c := range chosen {
				d = min(d, math.Hypot(float64(e.Center.X-c.Center.X), float64(e.Center.Y-c.Center.Y)))
			}
			if d > farD {
				far, farD = i, d
			}
		}
		used[far] = true
		chosen = append(chosen, pool[far])
	}
	return chosen
}

// latin reports whether a label is in Latin letters, which every model reads.
func latin(s string) bool {
	for _, r := range s {
		if r > unicode.MaxLatin1 {
			return false
		}
	}
	return true
}

// clip cuts s to n runes on one line.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// clipTail keeps the last n runes of s on one line: where an answer's action is, after
// the model's thought.
func clipTail(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return "…" + string(r[len(r)-n+1:])
	}
	return s
}

// printProbe writes what the probe asked, what the model answered and the frame found.
func printProbe(out io.Writer, o probeOptions, res probeResult) {
	fmt.Fprintf(out, "probe: model %q at %s, role %s, grounding %s\n", o.ModelName, o.Endpoint, o.Role, o.Grounding)
	fmt.Fprintf(out, "screen: the virtual phone's home screen, %dx%d; picture sent %dx%d, without set-of-mark\n",
		res.ScreenW, res.ScreenH, res.ImageW, res.ImageH)
	best := res.Inference.Best.Frame
	fw, fh := best.extent(res.ImageW, res.ImageH, res.ScreenW, res.ScreenH)
	tw := table.NewWriter(out)
	fmt.Fprintln(tw, "ELEMENT\tBOX\tANSWER\tON SCREEN")
	for _, r := range res.Rows {
		where := "no tap: " + errText(r.Err)
		if r.Err == nil && best != "" {
			sx, sy := r.X*float64(res.ScreenW)/fw, r.Y*float64(res.ScreenH)/fh
			verdict := "inside"
			if !inside(rect(r.Box), sx, sy, probeTolerance(res.ScreenW)) {
				verdict = "MISSED"
			}
			where = fmt.Sprintf("(%.0f,%.0f) %s", sx, sy, verdict)
		} else if r.Err == nil {
			where = fmt.Sprintf("(%g,%g) in its own numbers", r.X, r.Y)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", table.Escape(r.Label), r.Box, table.Escape(clipTail(r.Answer, 64)), where)
	}
	_ = tw.Flush()
	if best == "" {
		return
	}
	inf := res.Inference
	fmt.Fprintf(out, "family: %s\n", res.Family.Name)
	fmt.Fprintf(out, "frame: %s: %d of %d taps inside their element, %.0f px from its centre on average\n",
		best.describe(res.ImageW, res.ImageH, res.ScreenW, res.ScreenH), inf.Best.Hits, len(res.Rows), inf.Best.MeanErr)
	for _, f := range inf.Also {
		fmt.Fprintf(out, "also fits: %s, which this screen cannot tell apart\n", f.Frame)
	}
	fmt.Fprintf(out, "scale read from the taps alone: %s x %s\n", scaleWord(inf.ScaleX), scaleWord(inf.ScaleY))
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// newModelProbeCmd builds `fairy model probe`.
func newModelProbeCmd(d modelDeps) *cobra.Command {
	var role string
	cmd := &cobra.Command{
		Use:   "probe [--role R]",
		Short: "Find the coordinate frame of a grounding model: it taps named elements of a known screen",
		Long: `Show the role's model (the decider's by default) the virtual phone's home screen, whose
elements' boxes are known, ask it to tap five named elements, and infer the frame of its
answers: absolute pixels of the picture sent or of the screen, 0-999, 0-1000 or 0-1. The answer
is remembered per model and endpoint (probes.json in the config directory); a run with a
coordinate grounding (model.grounding) probes a model it has not probed before it starts.
A model whose answers fit no frame is refused (exit 2). With model.grounding som (or unset)
the probe tries every family's syntax, as auto does.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if d.Grounding == nil || d.Probes == nil {
				return withExit(2, errors.New("model probe: not configured"))
			}
			cfg, err := d.Config(cmd)
			if err != nil {
				return withExit(2, err)
			}
			family, err := d.Grounding(cmd)
			if err != nil {
				return withExit(2, err)
			}
			if family == groundingSoM {
				family = groundingAuto // probing is asking which frame: a set-of-mark setting has none
			}
			if cfg.Logger == nil {
				cfg.Logger = d.logger()
			}
			c, err := openai.New(cfg)
			if err != nil {
				return withExit(2, err)
			}
			store, err := d.Probes()
			if err != nil {
				return withExit(2, err)
			}
			_, err = probeAndRemember(cmd.Context(), probeOptions{Model: c, ModelName: c.ModelFor(llm.Role(role)),
				Endpoint: cfg.BaseURL,
				Role:     llm.Role(role), Grounding: family, Logger: d.logger()}, store, cmd.OutOrStdout())
			return err
		},
	}
	cmd.Flags().StringVar(&role, "role", string(llm.RoleDecider), "the role whose model is probed")
	_ = cmd.RegisterFlagCompletionFunc("role", completeRoles)
	return cmd
}

// probeAndRemember probes, prints the result, and remembers a probe that found a frame.
// A refused model is an exit 2 error.
func probeAndRemember(ctx context.Context, o probeOptions, store probeStore, out io.Writer) (probeRecord, error) {
	res, err := runProbe(ctx, o)
	if len(res.Rows) > 0 {
		printProbe(out, o, res)
	}
	if err != nil {
		return probeRecord{}, withExit(2, err)
	}
	rec := res.record(o, time.Now())
	if store.path == "" {
		return rec, nil
	}
	if err := store.put(rec); err != nil {
		return rec, withExit(2, err)
	}
	fmt.Fprintf(out, "remembered for %s in %s\n", probeKey(rec.Model, rec.Endpoint), store.path)
	return rec, nil
}

// Compile-time check: the probe asks the agent's model.
var _ probeModel = executor.Model(nil)

// frameNames lists the frames the probe knows.
func frameNames() string {
	var ns []string
	for _, k := range frameOrder {
		ns = append(ns, string(k))
	}
	return strings.Join(ns, ", ")
}

// rect is a box as an image.Rectangle, for the frame inference on plain numbers.
func rect(b perception.Bounds) image.Rectangle { return image.Rect(b.X1, b.Y1, b.X2, b.Y2) }

// groundingSetup is model.grounding for a run: the family, the decider's model and
// endpoint, where probes are remembered, and the probe's answer once prepared.
type groundingSetup struct {
	Family   string // som, a coordinate family, or auto ("" is som)
	Model    string // the decider's model
	Endpoint string
	Store    probeStore // path "": nothing is remembered
	// Record is the probe's answer for Model at Endpoint (prepareGrounding): the family
	// and frame the decider's points are read in.
	Record probeRecord
}

// prepareGrounding readies a run whose decider answers in coordinates: a model not yet
// probed at its endpoint is probed first (a refusal stops the run with exit 2), and the
// pictures go at the family's size, without set-of-mark. Set-of-mark grounding needs none
// of it.
func prepareGrounding(ctx context.Context, cfg *runConfig, out io.Writer) error {
	g := &cfg.Grounding
	if g.Family == "" || g.Family == groundingSoM {
		return nil
	}
	rec, ok := probeRecord{}, false
	if g.Store.path != "" {
		var err error
		if rec, ok, err = g.Store.get(g.Model, g.Endpoint); err != nil {
			return withExit(2, err)
		}
		if ok && g.Family != groundingAuto && rec.Family != g.Family {
			ok = false // the family was changed since: its syntax is probed again
		}
	}
	if !ok {
		fmt.Fprintf(out, "model %q at %s answers in coordinates (model.grounding %s) and was not probed: "+
			"probing its frame first\n", g.Model, g.Endpoint, g.Family)
		var err error
		rec, err = probeAndRemember(ctx, probeOptions{Model: cfg.Model, ModelName: g.Model, Endpoint: g.Endpoint,
			Role:      llm.RoleDecider,
			Grounding: g.Family, Logger: cfg.Agent.Logger}, g.Store, out)
		if err != nil {
			return err
		}
	}
	f, ok := familyByName(rec.Family)
	if !ok {
		return withExit(2, fmt.Errorf("the remembered probe of %s names family %q, which fairy does not know: "+
			"delete %s and probe again", g.Model, rec.Family, g.Store.path))
	}
	if !slices.Contains(frameOrder, rec.Frame) {
		// Read as absolute pixels, a 0-1000 model's every point lands in the top left.
		return withExit(2, fmt.Errorf("the remembered probe of %s names frame %q, which fairy does not know (%s): "+
			"delete %s and probe again with 'fairy model probe'",
			g.Model, rec.Frame, frameNames(), g.Store.path))
	}
	g.Record = rec
	cfg.Agent.NoMarks = true
	cfg.Agent.ModelImage = f.Image.Fit
	if rec.Frame == frameScreen {
		cfg.Agent.ModelImage = nil // the screen as it is: its pixels are the picture's
	}
	cfg.Agent.Grounding = rec.Family
	cfg.Agent.GroundingFrame = rec.Frame.grounding()
	return nil
}
