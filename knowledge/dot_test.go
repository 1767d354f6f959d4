package knowledge

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairy-go/fairy/internal/testenv"
)

// graphviz returns the dot binary; without it the test fails under CI and is skipped
// elsewhere.
func graphviz(t *testing.T) string {
	t.Helper()
	testenv.MustHaveFullTier(t, "starts graphviz dot")
	return testenv.MustHaveProgram(t, "dot")
}

// settingsLike is a settings app's map: a main page with n entries, each with a Back to
// the main page and a switch that stays on its page; a third of the labels Chinese.
func settingsLike(t *testing.T, n int) *Map {
	s, _ := openTemp(t, Options{})
	const app = "com.example.settings"
	main := PageKey(".Settings", "main")
	if _, err := s.RecordPage(app, Page{Activity: ".Settings", Signature: "main", Description: "Settings: Network & internet, Connected devices, Apps"}); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		name := fmt.Sprintf("Entry number %d", i)
		if i%3 == 0 {
			name = fmt.Sprintf("显示与亮度 %d", i)
		}
		key := PageKey(".Entry", strconv.Itoa(i))
		if _, err := s.RecordPage(app, Page{Activity: ".Entry", Signature: strconv.Itoa(i), Description: name + ": Navigate up, a switch"}); err != nil {
			t.Fatal(err)
		}
		for _, tr := range []Transition{
			{From: main, To: key, Action: Action{Kind: ActionTap, Target: Element{Text: name}}},
			{From: key, To: main, Action: Action{Kind: ActionBack}},
			{From: key, To: key, Effect: EffectSamePage, Action: Action{Kind: ActionTap, Target: Element{ResourceID: "android:id/switch_widget", Text: name},
				Args: map[string]string{ArgSideEffect: "toggles"}}},
		} {
			if _, err := s.RecordTransition(app, tr, true); err != nil {
				t.Fatal(err)
			}
		}
	}
	m, err := s.Map(app)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestDOTRendersAsAMap renders a settings map of twenty entries with Graphviz: the
// entries wrap into a block, so the picture is at most 3.5 times as wide as tall (one
// rank of twenty was about 13 times), and it keeps the Chinese labels.
func TestDOTRendersAsAMap(t *testing.T) {
	bin := graphviz(t)
	m := settingsLike(t, 20)
	var src bytes.Buffer
	if err := m.WriteDOT(&src); err != nil {
		t.Fatal(err)
	}
	render := func(dot string) (w, h float64, svg string) {
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, "-Tsvg")
		cmd.Stdin = strings.NewReader(dot)
		var out, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("dot: %v\n%s", err, stderr.String())
		}
		mm := regexp.MustCompile(`<svg width="([0-9.]+)pt" height="([0-9.]+)pt"`).FindStringSubmatch(out.String())
		if mm == nil {
			t.Fatalf("dot wrote no SVG size:\n%.500s", out.String())
		}
		w, _ = strconv.ParseFloat(mm[1], 64)
		h, _ = strconv.ParseFloat(mm[2], 64)
		return w, h, out.String()
	}
	w, h, svg := render(src.String())
	lw, lh, _ := render(strings.Replace(src.String(), "rankdir=TB;", "rankdir=LR;", 1))
	t.Logf("top-down %.0f×%.0f pt (%.2f); left to right %.0f×%.0f pt (%.2f)", w, h, w/h, lw, lh, lw/lh)
	if w/h > 3.5 || h < 250 {
		t.Errorf("the map renders %.0f×%.0f pt: a strip, want at most 3.5× as wide as tall", w, h)
	}
	if !strings.Contains(svg, "显示与亮度") {
		t.Error("the rendered map lost its Chinese labels")
	}
}
