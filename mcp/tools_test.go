package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/executor/adb"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/rundir"
	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/adbtest"
	"github.com/fairy-go/fairy/sim/wire"
)

// Every tool the server offers, called through the SDK's client as an MCP client calls
// it: its input schema is a valid JSON schema that takes the calls the tool documents and
// turns away the ones of the wrong shape, and each way a call can go wrong (an argument
// missing or of the wrong type, a number off the screen, no device, no knowledge file,
// the phone held by a run, the guard's refusal) comes back as a tool error — a result
// with IsError and a sentence that says what to do — never as a transport error or a
// panic. The phone is the virtual phone behind its adb host face, reached through the
// device layer.

// toolRig is a server on a virtual phone (or on an adb server with none) and a client
// session with it.
type toolRig struct {
	phone   *sim.Phone // nil: the adb server has no device
	session *sdk.ClientSession
	asked   []string // what the person was asked (elicitation), when the client can ask

	// hold makes the run tool's run hold the phone until it is closed; held says it does.
	hold, held chan struct{}
}

type rigOptions struct {
	noDevice  bool   // the adb server (the real one: adb needed) lists no device
	adbDown   bool   // no adb server answers
	knowledge string // the knowledge file ("" : none yet)
	// elicit answers every consent question (nil: the client cannot ask).
	elicit func(msg string) (action, answer string)
}

// hostServer serves devices on the adb host protocol and returns its port.
func hostServer(t *testing.T, devices []wire.Device) int {
	t.Helper()
	hs, err := wire.NewHostServer(wire.HostConfig{Devices: devices})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ctx) }()
	t.Cleanup(func() { cancel(); hs.Close(); <-served })
	_, port, _ := net.SplitHostPort(hs.Addr().String())
	n, _ := strconv.Atoi(port)
	return n
}

// closedPort is a local port nothing listens on.
func closedPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return port
}

func newToolRig(t *testing.T, o rigOptions) *toolRig {
	t.Helper()
	r := &toolRig{hold: make(chan struct{}), held: make(chan struct{}, 1)}
	var devices []wire.Device
	if !o.noDevice && !o.adbDown {
		phone, err := sim.New(sim.Config{Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		r.phone = phone
		devices = []wire.Device{phone}
	}
	var port int
	switch {
	case o.adbDown:
		port = closedPort(t)
	case o.noDevice:
		port = adbtest.Start(t).Port // the real adb server, with no device connected
	default:
		port = hostServer(t, devices)
	}
	acfg := adb.Config{Host: "127.0.0.1", Port: port, SettleInterval: time.Millisecond, DialTimeout: 2 * time.Second}
	srv, err := New(Config{
		Version: "test",
		Devices: func(ctx context.Context) ([]adb.DeviceInfo, error) { return adb.Devices(ctx, acfg) },
		OpenPhone: func(ctx context.Context) (Phone, error) {
			d, err := adb.Open(ctx, acfg)
			if err != nil {
				return nil, err
			}
			return d, nil
		},
		Run: func(ctx context.Context, req RunRequest) (RunResult, error) {
			switch req.Instruction {
			case "hold the phone":
				r.held <- struct{}{}
				select {
				case <-r.hold:
				case <-ctx.Done():
				}
				return RunResult{Summary: rundir.Summary{Outcome: event.OutcomeDone}}, nil
			case "pay the bill":
				return RunResult{Summary: rundir.Summary{Outcome: event.OutcomeRefused, Reason: "the person declined the payment"},
					Err: errors.New("task refused: the person declined the payment")}, nil
			}
			return RunResult{}, errors.New("no model configured: set model.default in the config file or pass --model")
		},
		OpenKnowledge: func(context.Context) (Knowledge, error) {
			if o.knowledge == "" {
				return nil, fmt.Errorf("%w: no knowledge file at knowledge.db: run a task first", ErrNoKnowledge)
			}
			return knowledge.Open(o.knowledge, knowledge.Options{})
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	opts := &sdk.ClientOptions{}
	if o.elicit != nil {
		var mu sync.Mutex
		opts.ElicitationHandler = func(_ context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			mu.Lock()
			r.asked = append(r.asked, req.Params.Message)
			mu.Unlock()
			action, a := o.elicit(req.Params.Message)
			res := &sdk.ElicitResult{Action: action}
			if action == "accept" {
				res.Content = args{answerField: a}
			}
			return res, nil
		}
	}
	ct, st := sdk.NewInMemoryTransports()
	ss, err := srv.server.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "tools-test", Version: "0"}, opts).Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	r.session = cs
	return r
}

// call calls tool with args; the call itself must not fail (a transport or protocol
// error). It returns the result's text and whether it is a tool error.
func (r *toolRig) call(t *testing.T, tool string, in any) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	res, err := r.session.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: in})
	if err != nil {
		t.Fatalf("%s %v: the call failed (a protocol error, not a tool error): %v", tool, in, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

// mustFail calls tool and wants a tool error whose text holds every one of want.
func (r *toolRig) mustFail(t *testing.T, tool string, in any, want ...string) string {
	t.Helper()
	out, isErr := r.call(t, tool, in)
	if !isErr {
		t.Errorf("%s %v: no tool error: %s", tool, in, out)
		return out
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("%s %v: the error %q does not say %q", tool, in, out, w)
		}
	}
	return out
}

// mustDo calls tool and wants a result that is no error.
func (r *toolRig) mustDo(t *testing.T, tool string, in any) string {
	t.Helper()
	out, isErr := r.call(t, tool, in)
	if isErr {
		t.Fatalf("%s %v: %s", tool, in, out)
	}
	return out
}

// args are a tool call's arguments.
type args = map[string]any

// toolCalls are, for every tool, calls its input schema must take and calls of the wrong
// shape it must turn away (a missing required argument, a wrong type, a word outside an
// enum, an argument the tool does not have).
var toolCalls = map[string]struct{ valid, invalid []args }{
	"devices": {valid: []args{{}}, invalid: []args{{"serial": "emulator-5554"}}},
	"apps":    {valid: []args{{}}, invalid: []args{{"all": true}}},
	"screen": {valid: []args{{}, {"image": true}},
		invalid: []args{{"image": "yes"}, {"element": 3}}},
	"act": {
		valid: []args{{"action": "tap", "element": 3}, {"action": "tap", "x": 10, "y": 20},
			{"action": "swipe", "direction": "up"}, {"action": "swipe", "x": 1, "y": 2, "x2": 3, "y2": 4},
			{"action": "type", "text": "hello"}, {"action": "key", "key": "back"},
			{"action": "launch", "package": "com.fairy.shop"},
			{"action": "long_press", "element": 1}},
		invalid: []args{{}, {"action": "fly"}, {"action": "tap", "element": "three"}, {"action": "tap", "element": 1.5},
			{"action": "swipe", "direction": "diagonal"}, {"action": "tap", "x": "10", "y": 20}, {"action": "tap", "target": 3}},
	},
	"run": {valid: []args{{"instruction": "open the shop"}, {"instruction": "open the shop", "max_steps": 5}},
		invalid: []args{{}, {"instruction": 7}, {"instruction": "x", "max_steps": "ten"}, {"task": "open the shop"}}},
	"map": {valid: []args{{"action": "list"}, {"command": "show", "package": "com.fairy.shop"},
		{"action": "path", "package": "p", "from": "p1", "to": "p2"}},
		invalid: []args{{"action": "draw"}, {"command": "draw"}, {"action": "show", "package": 3}}},
	"tricks": {valid: []args{{"action": "list"}, {"action": "search", "query": "pay", "limit": 3},
		{"command": "list", "kind": "planning"}},
		invalid: []args{{"action": "delete"}, {"action": "list", "limit": "many"}, {"action": "list", "limit": 2.5}}},
}

// resolved is a tool's schema (as the client received it) resolved by the JSON-schema
// library: a schema that does not resolve is not a valid schema.
func resolved(t *testing.T, name string, schema any) *jsonschema.Resolved {
	t.Helper()
	b, err := json.Marshal(schema)
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("%s: the schema does not decode as a JSON schema: %v\n%s", name, err, b)
	}
	res, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("%s: the schema does not resolve: %v\n%s", name, err, b)
	}
	return res
}

// TestToolSchemas: every tool the server lists has a case here (a new tool without one
// fails), a description, and an input schema of type object that resolves, takes the
// calls its description documents and turns away the wrong ones; a tool's output schema,
// when it has one, resolves too. The server applies the same schema: a call of the wrong
// shape is a tool error that names the argument.
func TestToolSchemas(t *testing.T) {
	r := newToolRig(t, rigOptions{})
	list, err := r.session.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		calls, ok := toolCalls[tool.Name]
		if !ok {
			t.Errorf("tool %s has no case in toolCalls: list the calls its schema takes and the ones it turns away", tool.Name)
			continue
		}
		if tool.Description == "" {
			t.Errorf("%s has no description", tool.Name)
		}
		in := resolved(t, tool.Name, tool.InputSchema)
		if in.Schema().Type != "object" {
			t.Errorf("%s: input schema of type %q, want object", tool.Name, in.Schema().Type)
		}
		if tool.OutputSchema != nil {
			resolved(t, tool.Name+" output", tool.OutputSchema)
		}
		for _, args := range calls.valid {
			if err := in.Validate(args); err != nil {
				t.Errorf("%s: the schema turns away %v: %v", tool.Name, args, err)
			}
		}
		for _, args := range calls.invalid {
			if err := in.Validate(args); err == nil {
				t.Errorf("%s: the schema takes %v", tool.Name, args)
			}
			out, isErr := r.call(t, tool.Name, args)
			if !isErr {
				t.Errorf("%s %v: the server took it: %s", tool.Name, args, out)
			} else if !strings.Contains(out, "argument") {
				t.Errorf("%s %v: the error %q does not say the arguments are wrong", tool.Name, args, out)
			}
		}
	}
	for name := range toolCalls {
		if !slices.Contains(names, name) {
			t.Errorf("toolCalls has a case for %s, which the server does not offer (it offers %v)", name, names)
		}
	}
}

// TestToolErrorsWithoutADevice: with the real adb server listing no device (adb needed:
// the full tier), every tool that
// needs the phone says so; with no adb server at all, devices says that; the knowledge
// tools answer without a knowledge file where there is nothing to list, and say what to
// do where something was asked for.
func TestToolErrorsWithoutADevice(t *testing.T) {
	r := newToolRig(t, rigOptions{noDevice: true})
	if out := r.mustDo(t, "devices", nil); !strings.Contains(out, `"devices":[]`) {
		t.Errorf("devices with none connected: %s", out)
	}
	for _, c := range []struct {
		tool string
		args args
	}{
		{"apps", nil},
		{"screen", nil},
		{"screen", args{"image": true}},
		{"act", args{"action": "tap", "element": 1}},
		{"act", args{"action": "launch", "package": "com.fairy.shop"}},
		{"act", args{"action": "key", "key": "back"}},
	} {
		r.mustFail(t, c.tool, c.args, "no device")
	}

	down := newToolRig(t, rigOptions{adbDown: true})
	down.mustFail(t, "devices", nil, "adb")

	// No knowledge file yet: the lists are empty, the rest says what is missing.
	if out := r.mustDo(t, "map", args{"action": "list"}); !strings.Contains(out, "No apps learned yet") {
		t.Errorf("map list without a knowledge file: %s", out)
	}
	if out := r.mustDo(t, "tricks", args{"action": "search", "query": "pay"}); !strings.Contains(out, "No tricks") {
		t.Errorf("tricks search without a knowledge file: %s", out)
	}
	r.mustFail(t, "map", args{"action": "show", "package": "com.fairy.shop"}, "nothing learned yet", "run a task first")
}

// TestToolErrorsOfArguments: each argument that does not say what to do gets an error
// that says what to give instead, and changes nothing on the phone.
func TestToolErrorsOfArguments(t *testing.T) {
	r := newToolRig(t, rigOptions{knowledge: filepath.Join(t.TempDir(), "knowledge.db")})
	r.mustDo(t, "act", args{"action": "launch", "package": "com.fairy.shop"})
	screen := r.mustDo(t, "screen", nil)
	n := len(regexp.MustCompile(`\[\d+\]`).FindAllString(screen, -1))
	if n == 0 {
		t.Fatalf("the shop shows no numbered element:\n%s", screen)
	}
	for _, c := range []struct {
		tool string
		args args
		want []string
	}{
		{"act", args{"action": "tap", "element": n + 1},
			[]string{fmt.Sprintf("element %d is not on the screen (it has %d", n+1, n), "read the screen again"}},
		{"act", args{"action": "tap", "element": -2}, []string{"numbers start at 1"}},
		{"act", args{"action": "long_press", "element": 1000000}, []string{"not on the screen"}},
		{"act", args{"action": "swipe", "element": n + 5, "direction": "up"}, []string{"not on the screen"}},
		{"act", args{"action": "tap"}, []string{"needs an element number or x and y"}},
		{"act", args{"action": "tap", "x": 5}, []string{"needs an element number or x and y"}},
		{"act", args{"action": "tap", "x": 100000, "y": 10}, []string{"off the"}},
		{"act", args{"action": "tap", "x": -1, "y": 10}, []string{"off the"}},
		{"act", args{"action": "swipe", "x": 1, "y": 1, "x2": 5}, []string{"needs x, y, x2 and y2"}},
		{"act", args{"action": "swipe", "x": 1, "y": 1, "x2": 5, "y2": 100000}, []string{"leaves the"}},
		{"act", args{"action": "swipe"}, []string{"direction up, down, left or right"}},
		{"act", args{"action": "type"}, []string{"type needs text"}},
		{"act", args{"action": "key", "key": "back; reboot"}, []string{"give a key name"}},
		{"act", args{"action": "type", "text": "hello"}, []string{"no focused text field", "focus a text field first"}},
		{"act", args{"action": "key", "key": "FOO_BAR"}, []string{"unknown key", "or a key code"}},
		{"act", args{"action": "launch"}, []string{"launch needs package", "apps"}},
		{"act", args{"action": "launch", "package": "com.fairy.shop; reboot"},
			[]string{`package name "com.fairy.shop; reboot"`}},
		{"act", args{"action": "launch", "package": "com.example.nowhere"}, []string{"com.example.nowhere"}},
		{"act", args{"action": ""}, []string{"action", "tap long_press type swipe key launch"}},
		{"run", args{"instruction": "   "}, []string{"instruction is empty", "say what to do"}},
		{"run", args{"instruction": "open the shop", "max_steps": -1}, []string{"max_steps -1", "positive"}},
		{"run", args{"instruction": "open the shop"}, []string{"no model configured", "set model.default"}},
		{"map", args{}, []string{`map action ""`, "list, show or path"}},
		{"map", args{"action": "show"}, []string{"map show needs package", "map list"}},
		{"map", args{"action": "path", "package": "com.fairy.shop"},
			[]string{"no map learned for com.fairy.shop", "map list"}},
		{"map", args{"action": "show", "package": "com.fairy.shop"}, []string{"no map learned for com.fairy.shop"}},
		{"tricks", args{}, []string{`tricks action ""`, "list or search"}},
		{"tricks", args{"action": "search"}, []string{"needs query"}},
		{"tricks", args{"action": "search", "query": "  "}, []string{"needs query"}},
		{"tricks", args{"action": "list", "kind": "gossip"}, []string{"gossip"}},
	} {
		r.mustFail(t, c.tool, c.args, c.want...)
	}
	if after := r.mustDo(t, "screen", nil); after != screen {
		t.Errorf("the refused calls changed the screen:\n%s\nwas\n%s", after, screen)
	}
	if out := r.mustDo(t, "tricks", args{"action": "list", "limit": -3}); !strings.Contains(out, "No tricks") {
		t.Errorf("tricks list with a negative limit (the default): %s", out)
	}
	// A run that did not end done is an error result that says why, with its summary.
	r.mustFail(t, "run", args{"instruction": "pay the bill"}, "refused", "the person declined the payment")
}

// TestToolErrorsWhileARunHoldsThePhone: while the run tool's run holds the phone, act
// and a second run are refused with a tool error that names the run; the read-only
// tools still answer; once it ends, act works again.
func TestToolErrorsWhileARunHoldsThePhone(t *testing.T) {
	r := newToolRig(t, rigOptions{})
	done := make(chan string, 1)
	go func() {
		call := &sdk.CallToolParams{Name: "run", Arguments: args{"instruction": "hold the phone"}}
		res, err := r.session.CallTool(t.Context(), call)
		switch {
		case err != nil:
			done <- "error: " + err.Error()
		case res.IsError:
			done <- "tool error"
		default:
			done <- "ok"
		}
	}()
	select {
	case <-r.held:
	case <-time.After(30 * time.Second):
		t.Fatal("the run never started")
	}
	r.mustFail(t, "act", args{"action": "key", "key": "back"}, "busy", `"hold the phone"`, "wait for it to end")
	r.mustFail(t, "run", args{"instruction": "open the shop"}, "busy", `"hold the phone"`)
	r.mustDo(t, "screen", nil)
	r.mustDo(t, "devices", nil)
	close(r.hold)
	if got := <-done; got != "ok" {
		t.Fatalf("the holding run ended with %s", got)
	}
	r.mustDo(t, "act", args{"action": "key", "key": "back"})
}

// answering is a person who answers every question the same way.
func answering(action, answer string) func(string) (string, string) {
	return func(string) (string, string) { return action, answer }
}

// TestToolErrorsOfTheGuard: tapping the shop's submit-order button is held by the guard:
// a client that cannot ask the person, and a person who declines, get a tool error that
// says it was refused and why, and no order is placed; a yes places it.
func TestToolErrorsOfTheGuard(t *testing.T) {
	toCheckout := func(r *toolRig) int {
		t.Helper()
		r.mustDo(t, "act", args{"action": "launch", "package": "com.fairy.shop"})
		screen := r.mustDo(t, "screen", nil)
		for _, label := range []string{"珍珠奶茶 Bubble tea", "加入购物车", "id=cart_button", "去结算", `"18:00"`, `"提交订单"`} {
			m := regexp.MustCompile(`\[(\d+)\] [^\n]*` + regexp.QuoteMeta(label)).FindStringSubmatch(screen)
			if m == nil {
				t.Fatalf("no %s on the screen:\n%s", label, screen)
			}
			n, _ := strconv.Atoi(m[1])
			if label == `"提交订单"` {
				return n
			}
			screen = r.mustDo(t, "act", args{"action": "tap", "element": n})
		}
		return 0
	}
	for _, c := range []struct {
		name   string
		elicit func(string) (string, string)
		want   []string
	}{
		{"a client that cannot ask", nil, []string{"refused", "cannot ask the person", "nothing was done"}},
		{"a person who declines", answering("decline", ""), []string{"refused", "the person declined", "nothing was done"}},
		{"a person who says no", answering("accept", "no"), []string{"refused", "the person said no"}},
		{"a person who dismisses it", answering("cancel", ""), []string{"refused", "dismissed"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newToolRig(t, rigOptions{elicit: c.elicit})
			submit := toCheckout(r)
			r.mustFail(t, "act", args{"action": "tap", "element": submit}, c.want...)
			if orders := r.phone.Orders(); len(orders) != 0 {
				t.Errorf("refused, yet an order was placed: %+v", orders)
			}
			if c.elicit != nil && len(r.asked) != 1 {
				t.Errorf("asked %q, want the order once", r.asked)
			}
		})
	}
	r := newToolRig(t, rigOptions{elicit: answering("accept", "yes")})
	r.mustDo(t, "act", args{"action": "tap", "element": toCheckout(r)})
	if orders := r.phone.Orders(); len(orders) != 1 {
		t.Errorf("with a yes, orders = %+v, want one", orders)
	}
}
