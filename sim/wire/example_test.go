package wire

import (
	"context"
	"fmt"
	"net"

	"github.com/electricbubble/gadb"
)

// A host face serves devices to gadb as an adb server on port 5037 would.
func ExampleHostServer() {
	killed := make(chan struct{})
	srv, err := NewHostServer(HostConfig{
		Devices: []Device{newTestDoubleDevice("emulator-5554")},
		OnKill:  func() { close(killed) }, // e.g. stop serving, as an adb server exits
	})
	if err != nil {
		panic(err)
	}
	go srv.Serve(context.Background())
	defer srv.Close()

	addr := srv.Addr().(*net.TCPAddr)
	client, _ := gadb.NewClientWith(addr.IP.String(), addr.Port)
	devices, _ := client.DeviceList()
	model, _ := devices[0].Model()
	out, _ := devices[0].RunShellCommand("echo", "hello")
	fmt.Println(devices[0].Serial(), model)
	fmt.Print(out)
	_ = client.KillServer()
	<-killed
	fmt.Println("host:kill received")
	// Output:
	// emulator-5554 Fairy_Phone_1
	// hello
	// host:kill received
}

// A device face is what `adb connect 127.0.0.1:PORT` talks to; a group puts several phones
// on consecutive ports.
func ExampleNewDeviceGroup() {
	g, err := NewDeviceGroup(DeviceGroupConfig{
		Devices: []Device{newTestDoubleDevice("a"), newTestDoubleDevice("b")},
		Addr:    "127.0.0.1:0", // port 0: any free ports; "127.0.0.1:5555" gives 5555, 5556
	})
	if err != nil {
		panic(err)
	}
	go g.Serve(context.Background())
	defer g.Close()
	fmt.Println(len(g.Servers()), deviceBanner(g.Servers()[0].Device().Props()))
	// Output:
	// 2 device::ro.product.name=sdk_fairy;ro.product.model=Fairy Phone 1;ro.product.device=fairy;features=shell_v2,cmd
}
