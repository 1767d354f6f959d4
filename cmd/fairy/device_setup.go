package main

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fairy-go/fairy/executor/adb"
	"github.com/google/renameio/v2"
)

// uiServerVersion is the appium-uiautomator2-server release `fairy device setup` fetches.
const uiServerVersion = "10.6.6"

// newDeviceCmd builds `fairy device` (setup).
func newDeviceCmd(target func() deviceTarget) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "device",
		Short: "Prepare the phone for fairy",
	}
	cmd.AddCommand(newDeviceSetupCmd(target))
	return cmd
}

// newDeviceSetupCmd builds `fairy device setup`.
func newDeviceSetupCmd(target func() deviceTarget) *cobra.Command {
	var apks []string
	var version, cache string
	cmd := &cobra.Command{
		Use:   "setup [--apk FILE --apk FILE]",
		Short: "Install and start the resident UI server (Appium's UiAutomator2 server) on the phone",
		Long: `Installs Appium's UiAutomator2 server (npm appium-uiautomator2-server, Apache-2.0) on the
phone and starts it: fairy then reads the screen through it in one request instead of a
new uiautomator process for every dump. Without --apk the two APKs are fetched once with
npm (npm pack) into the cache directory. The server survives fairy; fairy starts it again
when it is installed and not running, and reads the screen with uiautomator dump when it
is absent.`,
		Example: `  fairy device setup
  fairy device setup --apk appium-uiautomator2-server-v10.6.6.apk --apk appium-uiautomator2-server-debug-androidTest.apk`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			out := cmd.OutOrStdout()
			switch len(apks) {
			case 0:
				dir := cache
				if dir == "" {
					base, err := os.UserCacheDir()
					if err != nil {
						return withExit(exitUsage, fmt.Errorf("no cache directory (%v): name one with --cache or the "+
							"APKs with --apk", err))
					}
					dir = filepath.Join(base, "fairy", "appium-uiautomator2-server", version)
				}
				got, fetched, err := uiServerAPKs(ctx, version, dir)
				if err != nil {
					return err
				}
				if fetched {
					fmt.Fprintf(out, "fetched appium-uiautomator2-server %s with npm into %s\n", version, dir)
				}
				apks = got
			case 2:
			default:
				return withExit(exitUsage, fmt.Errorf("--apk names %d files: name both the server APK and its "+
					"androidTest APK", len(apks)))
			}
			d, err := openDevice(ctx, target)
			if err != nil {
				return err
			}
			defer d.Close(context.WithoutCancel(ctx))
			if err := d.InstallUIServer(ctx, apks); err != nil {
				return err
			}
			fmt.Fprintf(out, "installed %s and %s on %s\n", adb.UIServerPackage, adb.UIServerTestPackage, d.Serial())
			if err := d.UIServerUp(ctx); err != nil {
				return fmt.Errorf("start the UI server: %w", err)
			}
			port, err := d.ForwardUIServer(ctx)
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "started: %s (adb forward tcp:%d tcp:%d answers /status)\n", adb.UIServerStartCommand, port,
				adb.UIServerPort)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&apks, "apk", nil, "an APK of the server to install instead of fetching them (give both: "+
		"the server and its androidTest APK)")
	f.StringVar(&version, "version", uiServerVersion, "the appium-uiautomator2-server release to fetch with npm")
	f.StringVar(&cache, "cache", "", "where fetched APKs are kept (default: "+
		"the user cache directory, fairy/appium-uiautomator2-server/VERSION)")
	return cmd
}

// uiServerAPKs returns the server's two APKs from dir, fetching the npm package into it
// first when they are not there (fetched reports that).
func uiServerAPKs(ctx context.Context, version, dir string) (apks []string, fetched bool, err error) {
	want := []string{"appium-uiautomator2-server-v" + version + ".apk", "appium-uiautomator2-server-debug-androidTest.apk"}
	have := func() []string {
		var out []string
		for _, n := range want {
			if st, err := os.Stat(filepath.Join(dir, n)); err == nil && st.Size() > 0 {
				out = append(out, filepath.Join(dir, n))
			}
		}
		return out
	}
	if got := have(); len(got) == len(want) {
		return got, false, nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return nil, false, withExit(exitUsage, errors.New("npm not found: install Node.js and npm, "+
			"or get the two APKs of appium-uiautomator2-server and name them with --apk"))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, false, fmt.Errorf("device setup: %w", err)
	}
	tmp, err := os.MkdirTemp(dir, "pack-")
	if err != nil {
		return nil, false, fmt.Errorf("device setup: %w", err)
	}
	defer os.RemoveAll(tmp)
	c := exec.CommandContext(ctx, npm, "pack", "--silent", "--pack-destination", tmp,
		"appium-uiautomator2-server@"+version)
	c.Dir = tmp
	if b, err := c.CombinedOutput(); err != nil {
		return nil, false, fmt.Errorf("npm pack appium-uiautomator2-server@%s: %w: %s", version, err,
			strings.TrimSpace(string(b)))
	}
	tgz := filepath.Join(tmp, "appium-uiautomator2-server-"+version+".tgz")
	keep := map[string]string{"package/LICENSE": "LICENSE"}
	for _, n := range want {
		keep["package/apks/"+n] = n
	}
	if err := extractFiles(tgz, dir, keep); err != nil {
		return nil, false, fmt.Errorf("device setup: %s: %w", tgz, err)
	}
	got := have()
	if len(got) != len(want) {
		return nil, false, fmt.Errorf("device setup: the npm package appium-uiautomator2-server@%s holds no %s", version,
			strings.Join(want, " and "))
	}
	return got, true, nil
}

// extractFiles writes the tar.gz members named in keep (member → file name) into dir.
func extractFiles(tgz, dir string, keep map[string]string) error {
	f, err := os.Open(tgz)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		name, ok := keep[h.Name]
		if !ok || h.Typeflag != tar.TypeReg {
			continue
		}
		data, err := io.ReadAll(io.LimitReader(tr, 256<<20))
		if err != nil {
			return err
		}
		if err := renameio.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
}
