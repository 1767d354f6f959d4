package adb

import (
	"context"
	"errors"
	"fmt"
	"image"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/adbtest"
	"github.com/fairy-go/fairy/sim/wire"
)

const shop = "com.fairy.shop"

// element finds the element whose resource id ends with id on the current screen.
func element(t testing.TB, d *Device, id string) perception.Element {
	t.Helper()
	xml, err := d.Dump(t.Context())
	if err != nil {
		t.Fatalf("Dump: %v", err)
	}
	s, err := perception.Parse(xml)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	for _, e := range s.Elements {
		if strings.HasSuffix(e.ResourceID, "/"+id) || e.ResourceID == id {
			return e
		}
	}
	t.Fatalf("no element %q on screen:\n%s", id, s.Text())
	return perception.Element{}
}

// openShopSearch launches the shop and focuses its search field.
func openShopSearch(t testing.TB, d *Device) perception.Element {
	t.Helper()
	ctx := t.Context()
	if err := d.Launch(ctx, shop); err != nil {
		t.Fatalf("Launch: %v", err)
	}
	e := element(t, d, "search_input")
	if err := d.Tap(ctx, e.Center.X, e.Center.Y); err != nil {
		t.Fatalf("Tap: %v", err)
	}
	return e
}

func TestOperations(t *testing.T) {
	for _, f := range faces {
		t.Run(f.name, func(t *testing.T) {
			ctx := t.Context()
			p := newPhone(t, sim.Config{})
			d := f.open(t, p, Config{})

			// Observe.
			o, err := d.Observe(ctx)
			if err != nil {
				t.Fatalf("Observe: %v", err)
			}
			if !strings.HasPrefix(string(o.XML), "<?xml") || !strings.HasSuffix(string(o.XML), "</hierarchy>") || o.Secure {
				t.Errorf("Observe: xml %q…%q secure %v", o.XML[:min(40, len(o.XML))], o.XML[max(0, len(o.XML)-40):], o.Secure)
			}
			if _, err := checkPNG(o.PNG); err != nil {
				t.Errorf("Observe png: %v", err)
			}
			si, err := d.Screen(ctx)
			if err != nil || si.Width != 1080 || si.Height != 2400 || si.Density != 420 || si.Landscape {
				t.Errorf("Screen = %+v, %v", si, err)
			}

			// Apps and launching.
			apps, err := d.Apps(ctx)
			if err != nil {
				t.Fatalf("Apps: %v", err)
			}
			var found bool
			for _, a := range apps {
				found = found || a.Package == shop && a.Activity == shop+"/.MainActivity"
			}
			if !found {
				t.Errorf("Apps = %+v, want %s", apps, shop)
			}
			field := openShopSearch(t, d)
			pkg, act, err := d.Foreground(ctx)
			if err != nil || pkg != shop || act != shop+".MainActivity" {
				t.Errorf("Foreground = %q %q %v", pkg, act, err)
			}
			if up, err := d.KeyboardShown(ctx); err != nil || !up {
				t.Errorf("KeyboardShown = %v, %v; want true", up, err)
			}

			// ASCII typing goes through input text; Chinese through ADB Keyboard.
			p.commands()
			if err := d.TypeText(ctx, "tea 100%s"); err != nil {
				t.Fatalf("TypeText ascii: %v", err)
			}
			if got := p.Var(shop, "q"); got != "tea 100%s" {
				t.Errorf("field = %q after ascii", got)
			}
			if err := d.ClearText(ctx, field.Center.X, field.Center.Y, 0); err != nil {
				t.Fatalf("ClearText: %v", err)
			}
			if got := p.Var(shop, "q"); got != "" {
				t.Errorf("field = %q after ClearText", got)
			}
			p.commands()
			if err := d.TypeText(ctx, "奶茶"); err != nil {
				t.Fatalf("TypeText chinese: %v", err)
			}
			if got := p.Var(shop, "q"); got != "奶茶" {
				t.Errorf("field = %q, want 奶茶", got)
			}
			for _, c := range p.commands() {
				if strings.Contains(c, "input text") || strings.Contains(c, "奶茶") {
					t.Errorf("Chinese text went through %q", c)
				}
			}
			if ime := p.State().IME; ime == adbKeyboardIME {
				t.Errorf("IME left at ADB Keyboard")
			}
			if err := d.ClearText(ctx, field.Center.X, field.Center.Y, 1); err != nil || p.Var(shop, "q") != "奶" {
				t.Errorf("ClearText 1: %v, field %q", err, p.Var(shop, "q"))
			}
			// An empty field reports its hint as its text: clearing it again is harmless.
			for i := range 2 {
				if err := d.ClearText(ctx, field.Center.X, field.Center.Y, 0); err != nil || p.Var(shop, "q") != "" {
					t.Errorf("ClearText 0 (#%d): %v, field %q", i+1, err, p.Var(shop, "q"))
				}
			}

			// Keys, gestures, stop.
			if err := d.Key(ctx, "back"); err != nil {
				t.Errorf("Key back: %v", err)
			}
			if err := d.Swipe(ctx, 500, 1500, 500, 600, 0); err != nil {
				t.Errorf("Swipe: %v", err)
			}
			if err := d.SwipeDir(ctx, up, image.Rectangle{}, 0); err != nil {
				t.Errorf("SwipeDir: %v", err)
			}
			if err := d.LongPress(ctx, 500, 1200, 0); err != nil {
				t.Errorf("LongPress: %v", err)
			}
			if err := d.Settle(ctx); err != nil {
				t.Errorf("Settle: %v", err)
			}
			if err := d.Stop(ctx, shop); err != nil {
				t.Errorf("Stop: %v", err)
			}
			if pkg, _ := p.Foreground(); pkg == shop {
				t.Errorf("shop still in front after Stop")
			}
			if err := d.Launch(ctx, "com.example.absent"); !errors.Is(err, ErrNoLauncher) {
				t.Errorf("Launch absent = %v, want ErrNoLauncher", err)
			}
			if err := d.Key(ctx, "rm -rf"); !errors.Is(err, ErrUnknownKey) {
				t.Errorf("Key bad = %v", err)
			}
		})
	}
}

func TestExitStatus(t *testing.T) {
	for _, f := range faces {
		t.Run(f.name, func(t *testing.T) {
			d := f.open(t, newPhone(t, sim.Config{}), Config{})
			out, st, err := d.RawShell(t.Context(), "echo -n partial; false")
			if err != nil || st != 1 || out != "partial" {
				t.Errorf("RawShell = %q %d %v", out, st, err)
			}
			_, err = d.sh(t.Context(), "cat /nonexistent", false)
			var ee *exitError
			if !errors.As(err, &ee) || ee.Status != 1 || !errors.Is(err, errCommandFailed) {
				t.Errorf("sh = %v, want *ExitError status 1", err)
			}
		})
	}
}

func TestTechnicianShell(t *testing.T) {
	p := newPhone(t, sim.Config{})
	d := faces[0].open(t, p, Config{ShellAllow: []string{"getprop", "settings get", "echo"}})
	ctx := t.Context()
	if out, err := d.Shell(ctx, "getprop ro.build.version.release"); err != nil || strings.TrimSpace(out) != "14" {
		t.Errorf("allowed = %q, %v", out, err)
	}
	if out, err := d.Shell(ctx, `echo "a;b" '$(id)'`); err != nil || out != "a;b $(id)\n" {
		t.Errorf("quoted = %q, %v", out, err)
	}
	for _, cmd := range []string{"settings put global x 1", "rm -rf /sdcard", "getprop; rm -rf /", "echo $(id)", "echo `id`", "getprop | sh", "echo a\nrm x", "", "getprop > /sdcard/x"} {
		p.commands()
		if _, err := d.Shell(ctx, cmd); !errors.Is(err, errDenied) {
			t.Errorf("Shell(%q) = %v, want ErrDenied", cmd, err)
		}
		if c := p.commands(); len(c) != 0 {
			t.Errorf("Shell(%q) ran %q", cmd, c)
		}
	}
}

func TestOpenErrors(t *testing.T) {
	ctx := t.Context()
	one := newPhone(t, sim.Config{Serial: "emulator-5554"})
	two := newPhone(t, sim.Config{Serial: "emulator-5556"})
	off := newPhone(t, sim.Config{Serial: "emulator-5558"})
	off.state = "offline"
	unauth := newPhone(t, sim.Config{Serial: "emulator-5560"})
	unauth.state = "unauthorized"
	host, port := hostFace(t, one, two, off, unauth)
	single, singlePort := hostFace(t, newPhone(t, sim.Config{Serial: "solo"}))

	// A port nobody listens on.
	_, downPort := splitAddr(t, "127.0.0.1:1")

	tests := []struct {
		name string
		cfg  Config
		want error
	}{
		{"server down", Config{Host: "127.0.0.1", Port: downPort}, ErrServerDown},
		{"several, none chosen", Config{Host: host, Port: port}, ErrMultipleDevices},
		{"not found", Config{Host: host, Port: port, Serial: "nope"}, ErrDeviceNotFound},
		{"offline", Config{Host: host, Port: port, Serial: "emulator-5558"}, ErrOffline},
		{"unauthorized", Config{Host: host, Port: port, Serial: "emulator-5560"}, ErrUnauthorized},
		{"chosen", Config{Host: host, Port: port, Serial: "emulator-5556"}, nil},
		{"only device", Config{Host: single, Port: singlePort}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Open(ctx, tt.cfg)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Open = %v, want %v", err, tt.want)
			}
			if tt.want == ErrServerDown && !strings.Contains(err.Error(), fmt.Sprintf("`adb -P %d start-server`", tt.cfg.Port)) {
				t.Errorf("Open = %v, want the hint to start the server on port %d", err, tt.cfg.Port)
			}
			if d != nil {
				defer d.Close(ctx)
				if tt.cfg.Serial != "" && d.Serial() != tt.cfg.Serial {
					t.Errorf("Serial = %q", d.Serial())
				}
			}
		})
	}

	list, err := Devices(ctx, Config{Host: host, Port: port})
	if err != nil {
		t.Fatal(err)
	}
	var states []string
	for _, d := range list {
		states = append(states, d.Serial+"="+d.State)
	}
	if got := strings.Join(states, " "); got != "emulator-5554=device emulator-5556=device emulator-5558=offline emulator-5560=unauthorized" {
		t.Errorf("Devices = %s", got)
	}
	// The device going offline after Open: calls fail with ErrOffline.
	d, err := Open(ctx, Config{Host: host, Port: port, Serial: "emulator-5554"})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close(ctx)
	one.mu.Lock()
	one.state = "offline"
	one.mu.Unlock()
	if err := d.Tap(ctx, 1, 1); !errors.Is(err, ErrOffline) {
		t.Errorf("Tap on offline = %v", err)
	}
}

func TestRealADBStates(t *testing.T) {
	checkRealADBStates(t, adbtest.Start(t))
}

// TestRealADBBesideEmulatorPorts runs the state checks while adbd-speaking virtual phones
// listen on the emulator ports (5555, 5557, … 5585, where an adb server looks for emulators
// by itself), as `fairy sim serve` did by default: the tests' private adb server must not
// pick them up, so that no test depends on what else listens on the machine.
func TestRealADBBesideEmulatorPorts(t *testing.T) {
	var accepted atomic.Int32
	var held []int
	for port := 5555; port <= 5585; port += 2 {
		ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err != nil {
			continue // something else has it: that is the case under test too
		}
		face, err := wire.NewDeviceServer(wire.DeviceConfig{Device: newPhone(t, sim.Config{}), Listener: countingListener{ln, &accepted}})
		if err != nil {
			ln.Close()
			t.Fatalf("NewDeviceServer on %d: %v", port, err)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			_ = face.Serve(context.Background())
		}()
		t.Cleanup(func() {
			_ = face.Close()
			<-done
		})
		held = append(held, port)
	}
	t.Logf("virtual phones on emulator ports %v", held)
	srv := adbtest.Start(t)
	checkRealADBStates(t, srv)
	// An adb server scans the emulator ports when it starts and then every second.
	time.Sleep(1500 * time.Millisecond)
	if n := accepted.Load(); n != 0 {
		t.Errorf("the private adb server connected %d time(s) to the emulator ports %v", n, held)
	}
	list, err := srv.Query("host:devices")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(list, "emulator-") {
		t.Errorf("the private adb server lists emulators:\n%s", list)
	}
}

// countingListener counts the connections it accepts.
type countingListener struct {
	net.Listener
	n *atomic.Int32
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.n.Add(1)
	}
	return c, err
}

// checkRealADBStates checks the states a real adb server reports: no device, a wireless
// device, an unauthorized one beside it.
func checkRealADBStates(t *testing.T, srv *adbtest.Server) {
	t.Helper()
	ctx := t.Context()
	// No device at all.
	if _, err := Open(ctx, Config{Port: srv.Port}); !errors.Is(err, ErrNoDevice) {
		t.Errorf("Open with no device = %v, want ErrNoDevice", err)
	}
	// Wireless connect through the server's host:connect.
	p := newPhone(t, sim.Config{})
	addr := deviceFace(t, p)
	d, err := Open(ctx, Config{Port: srv.Port, Connect: addr})
	if err != nil {
		t.Fatalf("Open Connect: %v", err)
	}
	defer d.Close(ctx)
	if d.Serial() != addr {
		t.Errorf("Serial = %q, want %q", d.Serial(), addr)
	}
	// An unauthorized device listed alongside (gadb's DeviceList would drop it).
	u := newPhone(t, sim.Config{Serial: "locked"})
	u.state = "unauthorized"
	uaddr := srv.ConnectState(t, deviceFace(t, u), "unauthorized")
	list, err := Devices(ctx, Config{Port: srv.Port})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, i := range list {
		got[i.Serial] = i.State
	}
	if got[addr] != "device" || got[uaddr] != "unauthorized" {
		t.Errorf("Devices = %+v", list)
	}
	if _, err := Open(ctx, Config{Port: srv.Port}); !errors.Is(err, ErrMultipleDevices) {
		t.Errorf("Open with two = %v", err)
	}
	if _, err := Open(ctx, Config{Port: srv.Port, Serial: uaddr}); !errors.Is(err, ErrUnauthorized) {
		t.Errorf("Open unauthorized = %v", err)
	}
}

func TestFaults(t *testing.T) {
	for _, f := range faces {
		t.Run(f.name, func(t *testing.T) {
			ctx := t.Context()
			p := newPhone(t, sim.Config{})
			d := f.open(t, p, Config{NoUIServer: true}) // the classic dumper's faults

			// Idle-state errors (exit status 0) are retried until the dump comes.
			p.SetFaults(sim.Faults{Idle: 1, IdleRun: 2})
			p.commands()
			if _, err := d.Dump(ctx); err != nil {
				t.Errorf("Dump with 2 idle errors: %v", err)
			}
			if n := len(p.commands()); n != 3 {
				t.Errorf("dump took %d commands, want 3", n)
			}
			// Always idle: a typed error after the retries, never an empty success.
			p.SetFaults(sim.Faults{Idle: 1, IdleRun: 100})
			_, err := d.Dump(ctx)
			var de *dumpError
			if !errors.As(err, &de) || !de.Idle || !errors.Is(err, errIdle) || de.Attempts != 4 {
				t.Errorf("Dump always idle = %v", err)
			}
			if _, err := d.Observe(ctx); !errors.Is(err, errIdle) {
				t.Errorf("Observe always idle = %v", err)
			}

			// Slow responses: the deadline holds.
			p.SetFaults(sim.Faults{Slow: 2 * time.Second})
			dctx, cancel := context.WithTimeout(ctx, 150*time.Millisecond)
			start := time.Now()
			_, err = d.Dump(dctx)
			cancel()
			if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > time.Second {
				t.Errorf("slow Dump = %v after %v", err, time.Since(start))
			}
			cctx, cancel := context.WithCancel(ctx)
			time.AfterFunc(100*time.Millisecond, cancel)
			start = time.Now()
			if err := d.Tap(cctx, 1, 1); !errors.Is(err, context.Canceled) || time.Since(start) > time.Second {
				t.Errorf("cancelled Tap = %v after %v", err, time.Since(start))
			}
			// Dropped connections: never a success.
			p.SetFaults(sim.Faults{Drop: 1})
			if err := d.Tap(ctx, 10, 10); !errors.Is(err, errConnLost) {
				t.Errorf("Tap dropped = %v, want ErrConnLost", err)
			}
			// Through the real adb server a dropped device connection leaves the device
			// offline until it is connected again: ErrOffline, never a success.
			if _, err := d.Screenshot(ctx); !errors.Is(err, errConnLost) && !errors.Is(err, ErrOffline) {
				t.Errorf("Screenshot dropped = %v, want ErrConnLost or ErrOffline", err)
			}
			if _, err := d.Dump(ctx); !errors.Is(err, errConnLost) && !errors.Is(err, ErrOffline) {
				t.Errorf("Dump dropped = %v, want ErrConnLost or ErrOffline", err)
			}

			p.SetFaults(sim.Faults{})
		})
	}
}

func TestNonASCII(t *testing.T) {
	ctx := t.Context()
	t.Run("no ADB Keyboard", func(t *testing.T) {
		p := newPhone(t, sim.Config{NoADBKeyboard: true})
		d := faces[0].open(t, p, Config{})
		openShopSearch(t, d)
		p.commands()
		if err := d.TypeText(ctx, "奶茶"); !errors.Is(err, errNoADBKeyboard) {
			t.Errorf("TypeText = %v, want ErrNoADBKeyboard", err)
		}
		for _, c := range p.commands() {
			if strings.Contains(c, "input text") {
				t.Errorf("ran %q", c)
			}
		}
		if err := d.TypeText(ctx, "ok then"); err != nil || p.Var(shop, "q") != "ok then" {
			t.Errorf("ascii = %v, field %q", err, p.Var(shop, "q"))
		}
	})
	t.Run("read-back mismatch", func(t *testing.T) {
		p := newPhone(t, sim.Config{})
		d := faces[0].open(t, p, Config{})
		// Nothing focused: the home screen has no field, so the text lands nowhere.
		if err := d.TypeText(ctx, "lost"); !errors.Is(err, errTextMismatch) {
			t.Errorf("TypeText unfocused = %v, want ErrTextMismatch", err)
		}
	})
	t.Run("refused", func(t *testing.T) {
		for _, s := range []string{"a\x00b", "\xff", "bell\a", strings.Repeat("x", maxTextBytes+1)} {
			if _, err := checkText(s); !errors.Is(err, ErrTextRefused) {
				t.Errorf("CheckText(%q) = %v", abbreviate(s, 20), err)
			}
		}
	})
}

// TestAppsReused: a run asks for the app list to plan and to learn, then launches one:
// the package manager is asked once, and the launch takes its activity from that list;
// after anything that may change the phone, or once the list is old, it is asked again.
func TestAppsReused(t *testing.T) {
	ctx := t.Context()
	p := newPhone(t, sim.Config{})
	clock := &testClock{now: time.Unix(1_700_000_000, 0)}
	d := faces[1].open(t, p, Config{Now: clock.Now})
	count := func(what string) int {
		n := 0
		for _, c := range p.commands() {
			n += strings.Count(c, what)
		}
		return n
	}
	first, err := d.Apps(ctx)
	if err != nil || len(first) == 0 {
		t.Fatalf("Apps: %v, %d apps", err, len(first))
	}
	again, err := d.Apps(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(first, again) {
		t.Errorf("the second list differs from the first")
	}
	const settings = "com.android.settings"
	if err := d.Launch(ctx, settings); err != nil {
		t.Fatal(err)
	}
	cmds := p.commands()
	queries, resolves := 0, 0
	for _, c := range cmds {
		queries += strings.Count(c, "query-activities")
		resolves += strings.Count(c, "resolve-activity")
	}
	if queries != 1 || resolves != 0 {
		t.Errorf("two lists and a launch asked query-activities %d times and resolve-activity %d times, want 1 and 0 (%q)", queries, resolves, cmds)
	}
	if pkg, _ := p.Foreground(); pkg != settings {
		t.Errorf("the launch from the listed activity left %q in front", pkg)
	}
	if _, err := d.Apps(ctx); err != nil {
		t.Fatal(err)
	}
	if n := count("query-activities"); n != 1 {
		t.Errorf("Apps after a launch asked %d times, want 1 (the launch may change the phone)", n)
	}
	clock.add(appsReuse + time.Second)
	if _, err := d.Apps(ctx); err != nil {
		t.Fatal(err)
	}
	if n := count("query-activities"); n != 1 {
		t.Errorf("Apps after %s asked %d times, want 1", appsReuse, n)
	}
}
