package sim_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/fairy-go/fairy/sim"
)

func Example() {
	clock := func() time.Time { return time.Date(2025, 6, 11, 9, 41, 0, 0, time.UTC) }
	p, err := sim.New(sim.Config{Serial: "emulator-5554", Seed: 1, Clock: clock})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	p.Shell(ctx, "wm size; monkey -p com.android.settings -c android.intent.category.LAUNCHER 1 >/dev/null", os.Stdout)
	pkg, act := p.Foreground()
	fmt.Println(pkg, act, p.Setting("global/wifi_on"))
	p.Shell(ctx, `nosuchcmd; echo "exit=$?"`, os.Stdout)
	// Output:
	// Physical size: 1080x2400
	// com.android.settings .Settings 1
	// /system/bin/sh: nosuchcmd: not found
	// exit=127
}
