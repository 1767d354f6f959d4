package sim

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fairy-go/fairy/sim/wire"
)

func TestParseFaults(t *testing.T) {
	tests := []struct {
		spec    string
		want    Faults
		wantErr bool
	}{
		{"", Faults{}, false},
		{"idle=0.3,slow=200ms,drop=0.05,deadtap=0.1,dialog=0.1,nonascii", Faults{Idle: 0.3, Slow: 200 * time.Millisecond, Drop: 0.05, DeadTap: 0.1, Dialog: 0.1, NonASCIISilent: true}, false},
		{"idle=1,idlerun=3", Faults{Idle: 1, IdleRun: 3}, false},
		{"uiserverdie=6", Faults{UIServerDie: 6}, false},
		{"uiserverdie=0", Faults{}, true},
		{"idle=2", Faults{}, true},
		{"slow=fast", Faults{}, true},
		{"bogus=1", Faults{}, true},
		{"drop", Faults{}, true},
	}
	for _, tc := range tests {
		got, err := ParseFaults(tc.spec)
		if (err != nil) != tc.wantErr {
			t.Errorf("%q: err %v", tc.spec, err)
			continue
		}
		if err != nil {
			if !errors.Is(err, ErrFaultSpec) {
				t.Errorf("%q: error does not wrap ErrFaultSpec", tc.spec)
			}
			continue
		}
		if got != tc.want {
			t.Errorf("%q: got %+v want %+v", tc.spec, got, tc.want)
		}
		if again, _ := ParseFaults(got.String()); again != got {
			t.Errorf("%q: String round trip %q", tc.spec, got.String())
		}
	}
}

func TestFaultIdleThenOK(t *testing.T) {
	p := newPhone(t, func(c *Config) { c.Faults = Faults{Idle: 1, IdleRun: 2} })
	var got []string
	for i := 0; i < 3; i++ {
		out, st := sh(t, p, `uiautomator dump /dev/tty; echo "__FAIRY_EXIT:$?"`)
		if st != 0 {
			t.Fatalf("status %d", st)
		}
		got = append(got, out[:min(20, len(out))])
		if !strings.HasSuffix(out, "__FAIRY_EXIT:0\n") {
			t.Fatalf("exit marker missing: %q", out)
		}
	}
	if got[0] != "ERROR: could not get" || got[1] != "ERROR: could not get" || !strings.HasPrefix(got[2], "<?xml") {
		t.Fatalf("sequence %q", got)
	}
}

func TestFaultDrop(t *testing.T) {
	p := newPhone(t, func(c *Config) { c.Faults = Faults{Drop: 1} })
	var b bytes.Buffer
	_, err := p.Shell(t.Context(), "uiautomator dump /dev/tty", &b)
	if !errors.Is(err, wire.ErrDropConnection) || !errors.Is(err, errDropped) {
		t.Fatalf("err %v", err)
	}
	if b.Len() == 0 || strings.HasSuffix(b.String(), "</hierarchy>") {
		t.Fatalf("expected partial output, got %d bytes", b.Len())
	}
}

func TestFaultSlowHonoursContext(t *testing.T) {
	p := newPhone(t, func(c *Config) { c.Faults = Faults{Slow: time.Hour} })
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	_, err := p.Shell(ctx, "echo hi", &bytes.Buffer{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v", err)
	}
	// an injected sleep sees the delay
	var slept time.Duration
	q := newPhone(t, func(c *Config) {
		c.Faults = Faults{Slow: 200 * time.Millisecond}
		c.Sleep = func(_ context.Context, d time.Duration) error { slept += d; return nil }
	})
	sh(t, q, "echo hi")
	if slept != 200*time.Millisecond {
		t.Fatalf("slept %v", slept)
	}
}

func TestFaultDeadTap(t *testing.T) {
	p := newPhone(t, func(c *Config) { c.Faults = Faults{DeadTap: 1} })
	tap(t, p, "Settings")
	if p.ScreenID() != "workspace" {
		t.Fatal("a dead tap opened an app")
	}
	p.SetFaults(Faults{})
	tap(t, p, "Settings")
	if p.ScreenID() != "settings_main" {
		t.Fatal("tap after clearing faults")
	}
}

func TestFaultDialog(t *testing.T) {
	p := newPhone(t, func(c *Config) { c.Faults = Faults{Dialog: 1} })
	launch(t, p, "com.fairy.notes")
	if !has(t, p, "Rate this app: tell others what you think.") {
		t.Fatalf("no dialog: %s", labels(t, p))
	}
	if pkg, act := p.Foreground(); pkg != "com.fairy.notes" || act != ".MainActivity" {
		t.Fatalf("foreground under dialog %s %s", pkg, act)
	}
	tap(t, p, "Not now")
	if p.ScreenID() != "notes_list" {
		t.Fatalf("after Not now: %s", p.ScreenID())
	}
}

func TestFaultNonASCIISilent(t *testing.T) {
	p := newPhone(t, func(c *Config) { c.Faults = Faults{NonASCIISilent: true} })
	launch(t, p, "com.fairy.shop")
	tap(t, p, "搜索商品")
	out, st := sh(t, p, "input text 'tea奶茶'")
	if st != 0 || out != "" {
		t.Fatalf("%d %q", st, out)
	}
	if got := p.Var("com.fairy.shop", "q"); got != "tea" {
		t.Fatalf("typed %q", got)
	}
}

// The same seed gives the same run, fault draws included.
func TestDeterministicFromSeed(t *testing.T) {
	run := func(seed uint64) string {
		p := newPhone(t, func(c *Config) { c.Seed = seed; c.Faults = Faults{Idle: 0.5, DeadTap: 0.3, Dialog: 0.3} })
		var log strings.Builder
		for i := 0; i < 6; i++ {
			out, _ := sh(t, p, "uiautomator dump /dev/tty")
			fmt.Fprintf(&log, "%d:%s|", i, out[:10])
			sh(t, p, "input tap 135 300")
			fmt.Fprintf(&log, "%s|", p.ScreenID())
			sh(t, p, "input keyevent HOME")
		}
		return log.String()
	}
	a, b := run(7), run(7)
	if a != b {
		t.Fatalf("same seed, different runs:\n%s\n%s", a, b)
	}
	if c := run(8); c == a {
		t.Log("seeds 7 and 8 happened to agree")
	}
	p1, p2 := newPhone(t), newPhone(t)
	if !bytes.Equal(p1.Dump(), p2.Dump()) {
		t.Fatal("dumps differ")
	}
	s1, _ := p1.Screenshot()
	s2, _ := p2.Screenshot()
	if !bytes.Equal(s1, s2) {
		t.Fatal("screenshots differ")
	}
}

// TestReseed: a phone reseeded after a reset draws its faults as a phone made with that
// seed does.
func TestReseed(t *testing.T) {
	draws := func(p *Phone) string {
		var log strings.Builder
		for i := 0; i < 12; i++ {
			out, _ := sh(t, p, "uiautomator dump /dev/tty")
			log.WriteString(out[:5])
		}
		return log.String()
	}
	faults := func(c *Config) { c.Faults = Faults{Idle: 0.5, IdleRun: 12} }
	want := draws(newPhone(t, faults, func(c *Config) { c.Seed = 42 }))
	p := newPhone(t, faults, func(c *Config) { c.Seed = 1 })
	if got := draws(p); got == want {
		t.Fatalf("seeds 1 and 42 drew the same: %s", got)
	}
	if err := p.Reset(); err != nil {
		t.Fatal(err)
	}
	p.Reseed(42)
	if got := draws(p); got != want {
		t.Errorf("reseeded phone drew %s, a phone with seed 42 draws %s", got, want)
	}
}

func TestConcurrentClients(t *testing.T) {
	p := newPhone(t)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 10; j++ {
				var b bytes.Buffer
				cmd := []string{"uiautomator dump /dev/tty", "input tap 135 300", "input keyevent 4", "screencap -p", "dumpsys window"}[(i+j)%5]
				if st, err := p.Shell(context.Background(), cmd, &b); err != nil || st != 0 {
					errs <- fmt.Errorf("%s: %d %v", cmd, st, err)
					return
				}
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestFarm(t *testing.T) {
	f, err := NewFarm(FarmConfig{Phones: 3, Base: Config{Seed: 10, Clock: (&testClock{now: fixedNow}).Now}})
	if err != nil {
		t.Fatal(err)
	}
	var serials []string
	for _, p := range f.Phones() {
		serials = append(serials, p.Serial())
	}
	if strings.Join(serials, ",") != "emulator-5554,emulator-5556,emulator-5558" {
		t.Fatalf("serials %v", serials)
	}
	p, err := f.Phone("emulator-5556")
	if err != nil {
		t.Fatal(err)
	}
	sh(t, p, "settings put global wifi_on 0")
	other, _ := f.Phone("emulator-5554")
	if other.Setting("global/wifi_on") != "1" {
		t.Fatal("phones share state")
	}
	if _, err := f.Phone("nope"); !errors.Is(err, errUnknownSerial) {
		t.Fatal(err)
	}
	if err := f.Reset(); err != nil || p.Setting("global/wifi_on") != "1" {
		t.Fatal("farm reset")
	}
}

func TestBadConfigAndApps(t *testing.T) {
	if _, err := New(Config{Width: 10, Height: 10}); !errors.Is(err, errConfig) {
		t.Fatalf("tiny screen: %v", err)
	}
	bad := []string{
		"package: nodot\nscreens: [{id: a}]",
		"package: a.b\nscreens: [{id: a, elements: [{type: bogus}]}]",
		"package: a.b\nscreens: [{id: a, elements: [{type: button, on_tap: [{go: nowhere}]}]}]",
		"package: a.b\nscreens: [{id: a, elements: [{type: input, id: x}]}]",
		"package: a.b\nunknown_field: 1\nscreens: [{id: a}]",
		"package: a.b\nscreens: []",
	}
	for _, b := range bad {
		if _, err := ParseApp([]byte(b)); !errors.Is(err, ErrAppSpec) {
			t.Errorf("%q: %v", b, err)
		}
	}
	apps, _ := DefaultApps()
	if _, err := New(Config{Apps: apps[1:]}); !errors.Is(err, errConfig) {
		t.Fatalf("no launcher: %v", err)
	}
}

func TestFileSystemForSync(t *testing.T) {
	p := newPhone(t)
	mt := fixedNow.Add(-time.Hour)
	if err := p.WriteFile("/sdcard/Download/a.bin", []byte{0, 1, 2}, 0o644, mt); err != nil {
		t.Fatal(err)
	}
	fi, err := p.Stat("/storage/emulated/0/Download/a.bin")
	if err != nil || fi.Size != 3 || !fi.ModTime.Equal(mt) || fi.Mode.Perm() != 0o644 {
		t.Fatalf("stat %+v %v", fi, err)
	}
	list, err := p.ReadDir("/sdcard/Download")
	if err != nil || len(list) != 1 || list[0].Name != "a.bin" {
		t.Fatalf("readdir %+v %v", list, err)
	}
	if _, err := p.Stat("/nope"); err == nil {
		t.Fatal("stat of a missing file")
	}
	out, _ := sh(t, p, "uiautomator dump; cat /sdcard/window_dump.xml | head -c 5; ls /sdcard")
	if !strings.Contains(out, "UI hierchary dumped to: /sdcard/window_dump.xml\n") || !strings.Contains(out, "window_dump.xml\n") {
		t.Fatalf("%q", out)
	}
}
