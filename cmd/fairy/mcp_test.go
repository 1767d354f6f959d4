package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fairy-go/fairy/internal/testenv"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/adbtest"
	"github.com/fairy-go/fairy/sim/wire"
)

// runMainEnv, set in a child's environment, makes the test binary run fairy's main
// instead of the tests: the child is the fairy command, on its real stdin and stdout.
const runMainEnv = "FAIRY_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		os.Exit(run())
	}
	os.Exit(m.Run())
}

// mcpRig is a virtual phone behind the real adb server, the scripted model behind `fairy
// model serve`, and a `fairy mcp` process on a stdio pipe with the Go SDK's client.
type mcpRig struct {
	phone     *sim.Phone
	session   *sdk.ClientSession
	knowledge string
	stderr    *syncBuffer

	mu       sync.Mutex
	asked    []string // elicitation messages, in order
	progress []string // progress notification messages
}

// answerFunc answers one elicitation: the action (accept, decline, cancel) and the answer.
type answerFunc func(message string, schema any) (action, answer string)

// startMCP starts the rig with the test binary as the fairy command; answer nil makes a
// client without elicitation.
func startMCP(t *testing.T, answer answerFunc) *mcpRig {
	t.Helper()
	return startMCPWith(t, "", answer)
}

// buildFairy builds the fairy command into a temporary directory.
func buildFairy(t *testing.T) string {
	t.Helper()
	testenv.MustHaveFullTier(t, "runs go build")
	goBin := testenv.MustHaveProgram(t, "go")
	bin := filepath.Join(t.TempDir(), "fairy")
	if out, err := exec.Command(goBin, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// startMCPWith starts the rig with bin as the fairy command ("": the test binary, which
// runs fairy's main when runMainEnv is set).
func startMCPWith(t *testing.T, bin string, answer answerFunc) *mcpRig {
	t.Helper()
	phone, err := sim.New(sim.Config{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	return startMCPOn(t, phone, bin, answer)
}

// startMCPOn starts the rig on phone; extra are more arguments of fairy mcp.
func startMCPOn(t *testing.T, phone *sim.Phone, bin string, answer answerFunc, extra ...string) *mcpRig {
	t.Helper()
	adb := adbtest.Start(t)
	serial := servePhone(t, adb, phone)

	url := serveModel(t, demoRules)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte("model:\n  default: fairy-scripted\nagent:\n  max-steps: 25\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := &mcpRig{phone: phone, knowledge: filepath.Join(dir, "knowledge.db"), stderr: &syncBuffer{}}
	if bin == "" {
		self, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		bin = self
	}
	cmd := exec.Command(bin, "mcp", "--config", cfg, "--runs", filepath.Join(dir, "runs"), "--knowledge", r.knowledge,
		"--adb-port", strconv.Itoa(adb.Port), "-s", serial)
	cmd.Args = append(cmd.Args, extra...)
	cmd.Env = append(os.Environ(), runMainEnv+"=1", "HOME="+dir, "XDG_CONFIG_HOME="+dir, "XDG_DATA_HOME="+dir,
		"OPENAI_BASE_URL="+url, "OPENAI_API_KEY=sk-test-secret-123", "ANDROID_SERIAL=")
	cmd.Stderr = r.stderr

	opts := &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			r.mu.Lock()
			r.progress = append(r.progress, req.Params.Message)
			r.mu.Unlock()
		},
	}
	if answer != nil {
		opts.ElicitationHandler = func(_ context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			r.mu.Lock()
			r.asked = append(r.asked, req.Params.Message)
			r.mu.Unlock()
			action, a := answer(req.Params.Message, req.Params.RequestedSchema)
			res := &sdk.ElicitResult{Action: action}
			if action == "accept" {
				res.Content = map[string]any{"answer": a}
			}
			return res, nil
		}
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "fairy-test", Version: "0"}, opts)
	cs, err := client.Connect(t.Context(), &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect to fairy mcp: %v\n%s", err, r.stderr.String())
	}
	r.session = cs
	t.Cleanup(func() {
		if err := cs.Close(); err != nil {
			t.Logf("close session: %v", err)
		}
	})
	return r
}

// call calls a tool and returns its text; wantErr says whether the result must be an error.
func (r *mcpRig) call(t *testing.T, tool string, args map[string]any, wantErr bool) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	res, err := r.session.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", tool, args, err, r.stderr.String())
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	if res.IsError != wantErr {
		t.Fatalf("%s %v: error %v, want %v: %s\n%s", tool, args, res.IsError, wantErr, b.String(), r.stderr.String())
	}
	return b.String()
}

// element finds the number of the element whose line in a screen text holds want.
func element(t *testing.T, screen, want string) int {
	t.Helper()
	re := regexp.MustCompile(`\[(\d+)\] [^\n]*` + regexp.QuoteMeta(want))
	m := re.FindStringSubmatch(screen)
	if m == nil {
		t.Fatalf("no element %q on the screen:\n%s", want, screen)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// TestMCPPhoneTools drives a built fairy binary's `fairy mcp` over its stdio with the
// SDK's client: the tools are listed with their schemas, the screen is read, an element
// tapped by number changes the next screen, and bad arguments get a tool error that says
// what to do.
func TestMCPPhoneTools(t *testing.T) {
	r := startMCPWith(t, buildFairy(t), nil)
	// The server speaks the newest version in which it may ask during a call.
	if v := r.session.InitializeResult().ProtocolVersion; v != "2025-11-25" {
		t.Errorf("negotiated protocol %s, want 2025-11-25", v)
	}
	tools, err := r.session.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
		if tl.InputSchema == nil || tl.Description == "" {
			t.Errorf("tool %s has no input schema or description", tl.Name)
		}
		// The tools that take a verb (act, map, tricks) all name it action.
		var sch struct {
			Properties map[string]struct {
				Enum []string `json:"enum"`
			} `json:"properties"`
		}
		raw, _ := json.Marshal(tl.InputSchema)
		if err := json.Unmarshal(raw, &sch); err != nil {
			t.Fatal(err)
		}
		if verb, ok := sch.Properties["action"]; (tl.Name == "act" || tl.Name == "map" || tl.Name == "tricks") && (!ok || len(verb.Enum) == 0) {
			t.Errorf("tool %s names its verb otherwise: %s", tl.Name, raw)
		}
	}
	if want := "act apps devices map run screen tricks"; strings.Join(slices.Sorted(slices.Values(names)), " ") != want {
		t.Errorf("tools %v, want %s", names, want)
	}

	if out := r.call(t, "devices", nil, false); !strings.Contains(out, `"state":"device"`) {
		t.Errorf("devices: %s", out)
	}
	if out := r.call(t, "apps", nil, false); !strings.Contains(out, "com.fairy.shop") {
		t.Errorf("apps: %s", out)
	}
	if out := r.call(t, "act", map[string]any{"action": "launch", "package": "com.fairy.shop"}, false); !strings.Contains(out, "launched com.fairy.shop") {
		t.Errorf("launch: %s", out)
	}
	screen := r.call(t, "screen", nil, false)
	if !strings.HasPrefix(screen, "app: com.fairy.shop\n") {
		t.Errorf("screen does not name the app:\n%s", screen)
	}
	n := element(t, screen, "珍珠奶茶 Bubble tea")
	next := r.call(t, "act", map[string]any{"action": "tap", "element": n}, false)
	if !strings.Contains(next, fmt.Sprintf("tapped [%d]", n)) || !strings.Contains(next, `"加入购物车"`) {
		t.Errorf("tap [%d] did not open the bubble tea page:\n%s", n, next)
	}
	if pkg, act := r.phone.Foreground(); pkg != "com.fairy.shop" || !strings.HasSuffix(act, "ItemActivity") {
		t.Errorf("after the tap the phone shows %s/%s", pkg, act)
	}

	// The set-of-mark image comes as image content.
	res, err := r.session.CallTool(t.Context(), &sdk.CallToolParams{Name: "screen", Arguments: map[string]any{"image": true}})
	if err != nil || res.IsError || len(res.Content) != 2 {
		t.Fatalf("screen with image: %v %+v", err, res)
	}
	if img, ok := res.Content[1].(*sdk.ImageContent); !ok || img.MIMEType != "image/jpeg" || len(img.Data) < 1000 {
		t.Errorf("second content is not a JPEG: %T", res.Content[1])
	}

	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"action": "tap", "element": 999}, "element 999 is not on the screen"},
		{map[string]any{"action": "tap"}, "needs an element number or x and y"},
		{map[string]any{"action": "fly"}, "action"},
		{map[string]any{"action": "swipe", "direction": "sideways"}, "direction"},
		{map[string]any{"action": "tap", "x": 5000, "y": 10}, "off the"},
		{map[string]any{"action": "key", "key": "back; reboot"}, "give a key name"},
		{map[string]any{"action": "launch"}, "launch needs package"},
	} {
		if out := r.call(t, "act", tc.args, true); !strings.Contains(out, tc.want) {
			t.Errorf("act %v: %q, want it to say %q", tc.args, out, tc.want)
		}
	}
	if out := r.call(t, "map", map[string]any{"action": "list"}, false); out != "No apps learned yet." {
		t.Errorf("map list on a new knowledge file: %s", out)
	}
	// command, the verb's old name in map and tricks, is still accepted.
	if out := r.call(t, "map", map[string]any{"command": "list"}, false); out != "No apps learned yet." {
		t.Errorf("map list by the old name command: %s", out)
	}
}

// shopToCheckout taps through the shop to the checkout with 18:00 chosen, by element
// numbers read from each next screen.
func shopToCheckout(t *testing.T, r *mcpRig) string {
	t.Helper()
	r.call(t, "act", map[string]any{"action": "launch", "package": "com.fairy.shop"}, false)
	screen := r.call(t, "screen", nil, false)
	for _, label := range []string{"珍珠奶茶 Bubble tea", "加入购物车", "id=cart_button", "去结算", `"18:00"`} {
		screen = r.call(t, "act", map[string]any{"action": "tap", "element": element(t, screen, label)}, false)
	}
	return screen
}

// TestMCPActAsksBeforeSensitiveActions: submitting the order is asked of the person through
// elicitation and done on their yes; paying is asked, declined, and refused — the order
// stays unpaid. A client that cannot elicit gets no sensitive action at all.
func TestMCPActAsksBeforeSensitiveActions(t *testing.T) {
	r := startMCP(t, func(msg string, _ any) (string, string) {
		if strings.Contains(msg, "提交订单") {
			return "accept", "yes"
		}
		return "decline", ""
	})
	screen := shopToCheckout(t, r)
	screen = r.call(t, "act", map[string]any{"action": "tap", "element": element(t, screen, `"提交订单"`)}, false)
	if !strings.Contains(screen, "支付") {
		t.Fatalf("no payment page after the consented order:\n%s", screen)
	}
	out := r.call(t, "act", map[string]any{"action": "tap", "element": element(t, screen, "id=pay_button")}, true)
	if !strings.Contains(out, "refused") || !strings.Contains(out, "declined") {
		t.Errorf("the declined payment says %q", out)
	}
	if len(r.asked) != 2 || !strings.Contains(r.asked[0], "提交订单") || !strings.Contains(r.asked[1], "支付") {
		t.Errorf("asked %q, want the order then the payment", r.asked)
	}
	// The same tap by coordinates is the same payment.
	center := payCenter(t, r)
	r.call(t, "act", map[string]any{"action": "tap", "x": center[0], "y": center[1]}, true)
	orders := r.phone.Orders()
	if len(orders) != 1 || orders[0].Paid || orders[0].DeliveryTime != "18:00" {
		t.Errorf("orders = %+v, want one unpaid order for 18:00", orders)
	}

	mute := startMCP(t, nil) // a client without elicitation
	screen = shopToCheckout(t, mute)
	out = mute.call(t, "act", map[string]any{"action": "tap", "element": element(t, screen, `"提交订单"`)}, true)
	if !strings.Contains(out, "refused") || !strings.Contains(out, "cannot ask") {
		t.Errorf("without elicitation the order says %q", out)
	}
	if orders := mute.phone.Orders(); len(orders) != 0 {
		t.Errorf("without consent an order was placed: %+v", orders)
	}
}

// payCenter is where the pay button is drawn, read off the phone's own dump.
func payCenter(t *testing.T, r *mcpRig) [2]int {
	t.Helper()
	scr, err := perception.Parse(r.phone.Dump())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range scr.Elements {
		if strings.HasSuffix(e.ResourceID, "pay_button") {
			return [2]int{e.Center.X, e.Center.Y}
		}
	}
	t.Fatalf("no pay button on the phone")
	return [2]int{}
}

// TestMCPRun carries out the demo task through the run tool with the scripted model: the
// delivery time and both consents are answered through elicitation, progress arrives as
// notifications, the summary comes back, and the map and tricks tools read what the run
// learned.
func TestMCPRun(t *testing.T) {
	var r *mcpRig
	var during string // what act said while the run waited for the person
	r = startMCP(t, func(msg string, schema any) (string, string) {
		if strings.Contains(msg, "When should") {
			res, err := r.session.CallTool(t.Context(), &sdk.CallToolParams{Name: "act", Arguments: map[string]any{"action": "key", "key": "home"}})
			if err == nil && res.IsError {
				r.mu.Lock()
				during = res.Content[0].(*sdk.TextContent).Text
				r.mu.Unlock()
			}
			return "accept", "18:00"
		}
		return "accept", "yes"
	})
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	params := &sdk.CallToolParams{Name: "run", Arguments: map[string]any{"instruction": demoInstruction}}
	params.SetProgressToken("run-1")
	res, err := r.session.CallTool(ctx, params)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, r.stderr.String())
	}
	text := res.Content[0].(*sdk.TextContent).Text
	if res.IsError || !strings.HasPrefix(text, "done") {
		t.Fatalf("run: %s\n%s", text, r.stderr.String())
	}
	out, _ := res.StructuredContent.(map[string]any)
	if out["outcome"] != "done" || out["run_dir"] == "" {
		t.Errorf("structured result %v", out)
	}
	if _, err := os.Stat(filepath.Join(fmt.Sprint(out["run_dir"]), "summary.json")); err != nil {
		t.Errorf("the run directory has no summary: %v", err)
	}
	orders := r.phone.Orders()
	if len(orders) != 1 || !orders[0].Paid || orders[0].DeliveryTime != "18:00" {
		t.Errorf("orders = %+v", orders)
	}
	r.mu.Lock()
	asked, progress, during := r.asked, r.progress, during
	r.mu.Unlock()
	if len(asked) != 3 || !strings.Contains(asked[0], "When should the bubble tea arrive?") {
		t.Errorf("asked %q, want the delivery time and two consents", asked)
	}
	if len(progress) < 5 || !strings.Contains(strings.Join(progress, "\n"), "run directory:") {
		t.Errorf("progress notifications: %q", progress)
	}
	if !strings.Contains(during, "busy") || !strings.Contains(during, "bubble tea") {
		t.Errorf("act during the run said %q, want that a run holds the phone", during)
	}
	if out := r.call(t, "map", map[string]any{"action": "list"}, false); !strings.Contains(out, "com.fairy.shop") {
		t.Errorf("map list after the run: %s", out)
	}
	if out := r.call(t, "map", map[string]any{"action": "show", "package": "com.fairy.shop"}, false); !strings.Contains(out, "App com.fairy.shop:") {
		t.Errorf("map show: %s", out)
	}
	if out := r.call(t, "map", map[string]any{"action": "path", "package": "com.fairy.shop", "from": "p1", "to": "p1"}, false); !strings.HasPrefix(out, "Already there") {
		t.Errorf("map path to the same page: %s", out)
	}
	if out := r.call(t, "map", map[string]any{"action": "path", "package": "com.fairy.shop"}, true); !strings.Contains(out, "needs from and to") {
		t.Errorf("map path without pages: %s", out)
	}
	if out := r.call(t, "tricks", map[string]any{"action": "search", "query": "check out the cart and pay"}, false); !strings.Contains(out, "com.fairy.shop") {
		t.Errorf("tricks search: %s", out)
	}
	if out := r.call(t, "tricks", map[string]any{"action": "list", "kind": "sideways"}, true); !strings.Contains(out, "sideways") {
		t.Errorf("tricks with a bad kind: %s", out)
	}
}

// TestMCPRunPaymentRefused: the person chooses the time and allows the order, but declines
// the payment's elicitation: the run does not pay and does not report done.
func TestMCPRunPaymentRefused(t *testing.T) {
	r := startMCP(t, func(msg string, _ any) (string, string) {
		switch {
		case strings.Contains(msg, "When should"):
			return "accept", "18:00"
		case strings.Contains(msg, "Pay"), strings.Contains(msg, "支付"):
			return "decline", ""
		}
		return "accept", "yes"
	})
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	res, err := r.session.CallTool(ctx, &sdk.CallToolParams{Name: "run", Arguments: map[string]any{"instruction": demoInstruction}})
	if err != nil {
		t.Fatalf("run: %v\n%s", err, r.stderr.String())
	}
	text := res.Content[0].(*sdk.TextContent).Text
	if !res.IsError || !strings.HasPrefix(text, "refused") || !strings.Contains(text, "支付") {
		t.Errorf("a run whose payment was refused says: %s", text)
	}
	orders := r.phone.Orders()
	if len(orders) != 1 || orders[0].Paid {
		t.Errorf("orders = %+v, want one unpaid order", orders)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.asked) < 3 || !strings.Contains(r.asked[2], "Pay") {
		t.Errorf("asked %q, want the payment asked third", r.asked)
	}
}

// TestMCPOverHTTP serves `fairy mcp --http` and drives it with the SDK's streamable HTTP
// client: the tools, the screen, and an order that the person allows through elicitation
// over the HTTP stream.
func TestMCPOverHTTP(t *testing.T) {
	phone, err := sim.New(sim.Config{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	hs, err := wire.NewHostServer(wire.HostConfig{Devices: []wire.Device{phone}})
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = hs.Serve(context.Background()) }()
	t.Cleanup(func() { _ = hs.Close() })
	host, port, _ := strings.Cut(hs.Addr().String(), ":")

	dir := t.TempDir()
	ctx, cancel := context.WithCancel(t.Context())
	stderr := &syncBuffer{}
	root := newRootCmd(strings.NewReader(""), &syncBuffer{}, stderr, envMap(map[string]string{"HOME": dir, envMCPToken: "a-token-of-the-tests"}))
	root.SetArgs([]string{"mcp", "--http", "127.0.0.1:0", "--adb-host", host, "--adb-port", port, "--knowledge", filepath.Join(dir, "k.db")})
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("fairy mcp --http: %v", err)
		}
	})
	re := regexp.MustCompile(`http://\S+/`)
	var endpoint string
	for deadline := time.Now().Add(5 * time.Second); endpoint == ""; time.Sleep(10 * time.Millisecond) {
		endpoint = re.FindString(stderr.String())
		if time.Now().After(deadline) {
			t.Fatalf("fairy mcp --http did not start: %s", stderr.String())
		}
	}
	r := &mcpRig{phone: phone, stderr: stderr}
	client := sdk.NewClient(&sdk.Implementation{Name: "fairy-test", Version: "0"}, &sdk.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			r.mu.Lock()
			r.asked = append(r.asked, req.Params.Message)
			r.mu.Unlock()
			return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"answer": "yes"}}, nil
		},
	})
	cs, err := client.Connect(t.Context(), &sdk.StreamableClientTransport{Endpoint: endpoint, HTTPClient: bearerClient("a-token-of-the-tests")}, nil)
	if err != nil {
		t.Fatalf("connect to %s: %v", endpoint, err)
	}
	defer cs.Close()
	r.session = cs
	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil || len(tools.Tools) != 7 {
		t.Fatalf("tools over HTTP: %v %v", err, tools)
	}
	if out := r.call(t, "run", map[string]any{"instruction": "open the shop"}, true); !strings.Contains(out, "no model configured") {
		t.Errorf("run without a model: %s", out)
	}
	screen := shopToCheckout(t, r)
	screen = r.call(t, "act", map[string]any{"action": "tap", "element": element(t, screen, `"提交订单"`)}, false)
	if len(r.asked) != 1 || !strings.Contains(r.asked[0], "提交订单") || !strings.Contains(screen, "支付") {
		t.Errorf("asked %q; the screen after the order:\n%s", r.asked, screen)
	}
	if orders := phone.Orders(); len(orders) != 1 || orders[0].Paid {
		t.Errorf("orders = %+v, want one, unpaid", orders)
	}
}
