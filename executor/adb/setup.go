package adb

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/electricbubble/gadb"
)

// InstallUIServer installs the resident UI server's APKs (the server and its
// instrumentation test, in any order) on the phone: each is pushed to /data/local/tmp,
// installed with `pm install -r -t -g`, and removed. A running server is stopped by the
// install; UIServerUp starts it again.
func (d *Device) InstallUIServer(ctx context.Context, apks []string) error {
	if len(apks) == 0 {
		return fmt.Errorf("adb install ui server: %w: no APK", ErrBadArgument)
	}
	ctx, cancel := d.callCtx(ctx)
	defer cancel()
	dev, err := d.gadbDevice(ctx)
	if err != nil {
		return fmt.Errorf("adb install ui server: %w", err)
	}
	for _, apk := range apks {
		data, err := os.ReadFile(apk)
		if err != nil {
			return fmt.Errorf("adb install ui server: %w", err)
		}
		remote := "/data/local/tmp/fairy-" + path.Base(strings.ReplaceAll(apk, `\`, "/"))
		if !strings.HasSuffix(remote, ".apk") {
			remote += ".apk"
		}
		err = d.gadb(ctx, func() error { return dev.Push(bytes.NewReader(data), remote, time.Now(), 0o644) })
		if err != nil {
			return fmt.Errorf("adb install ui server: push %s: %w", apk, err)
		}
		out, err := d.sh(ctx, "pm install -r -t -g "+quote(remote), false)
		_, _ = d.sh(ctx, "rm -f "+quote(remote), false)
		if err != nil || !strings.Contains(out, "Success") {
			return fmt.Errorf("adb install ui server: pm install %s: %s%w", apk, abbreviate(strings.TrimSpace(out), 200),
				errSuffix(err))
		}
	}
	d.ui.mu.Lock()
	d.ui.state = uiUnknown // what was probed before the install is stale
	d.ui.mu.Unlock()
	return nil
}

func errSuffix(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf(": %w", err)
}

// UIServerUp starts the installed server when it is not running and opens a session on it;
// an error says why the device would read the screen the classic way.
func (d *Device) UIServerUp(ctx context.Context) error {
	if d.cfg.NoUIServer {
		return fmt.Errorf("%w: switched off", errUIServer)
	}
	d.ui.mu.Lock()
	defer d.ui.mu.Unlock()
	if d.ui.state == uiUp {
		return nil
	}
	if err := d.uiConnectLocked(ctx); err != nil {
		return err
	}
	return nil
}

// ForwardUIServer asks the adb server to forward a free local port to the server's device
// port (`adb forward tcp:PORT tcp:6790`), checks that the server answers /status through
// it, and returns the port.
func (d *Device) ForwardUIServer(ctx context.Context) (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("adb forward: %w", err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	_ = l.Close()
	dev, err := d.gadbDevice(ctx)
	if err != nil {
		return 0, fmt.Errorf("adb forward: %w", err)
	}
	if err := d.gadb(ctx, func() error { return dev.Forward(port, UIServerPort) }); err != nil {
		return 0, fmt.Errorf("adb forward tcp:%d tcp:%d: %w", port, UIServerPort, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://127.0.0.1:"+strconv.Itoa(port)+"/status", nil)
	if err != nil {
		return 0, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return port, fmt.Errorf("%w: /status through tcp:%d: %v", errUIServer, port, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return port, fmt.Errorf("%w: /status through tcp:%d: %s", errUIServer, port, resp.Status)
	}
	return port, nil
}

// gadbDevice is gadb's handle of the chosen device.
func (d *Device) gadbDevice(ctx context.Context) (gadb.Device, error) {
	var dev gadb.Device
	err := d.gadb(ctx, func() error {
		list, err := d.client.DeviceList()
		if err != nil {
			return err
		}
		for _, x := range list {
			if x.Serial() == d.serial {
				dev = x
				return nil
			}
		}
		return fmt.Errorf("%w: %s", ErrDeviceNotFound, d.serial)
	})
	return dev, err
}
