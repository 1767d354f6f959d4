package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/fairy-go/fairy/executor/adb"
	"github.com/fairy-go/fairy/internal/table"
	"github.com/fairy-go/fairy/perception"
)

// adbConfig turns the device flags into the device layer's Config.
func adbConfig(t deviceTarget) adb.Config {
	return adb.Config{Host: t.Host, Port: t.Port, Serial: t.Serial}
}

// openDevice opens the device the flags, config and ANDROID_SERIAL choose.
func openDevice(ctx context.Context, target func() deviceTarget) (*adb.Device, error) {
	return adb.Open(ctx, adbConfig(target()))
}

// newDevicesCmd builds `fairy devices`.
func newDevicesCmd(target func() deviceTarget) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "devices [--format table|json]",
		Short: "List the devices the adb server knows, in any state",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkFormat(format); err != nil {
				return err
			}
			list, err := adb.Devices(cmd.Context(), adbConfig(target()))
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if isJSON(format) {
				rows := make([]deviceJSON, len(list))
				for i, d := range list {
					rows[i] = deviceJSON{Serial: d.Serial, State: d.State, Model: d.Model, Product: d.Product}
				}
				return writeJSON(out, rows)
			}
			if len(list) == 0 {
				_, err := fmt.Fprintln(out, "No devices: connect one with USB debugging on, or `adb connect HOST:PORT`.")
				return err
			}
			tw := table.NewWriter(out)
			fmt.Fprintln(tw, "SERIAL\tSTATE\tMODEL")
			for _, d := range list {
				fmt.Fprintf(tw, "%s\t%s\t%s\n", table.Escape(d.Serial), table.Escape(d.State), table.Escape(d.Model))
			}
			return tw.Flush()
		},
	}
	addFormatFlag(cmd, &format)
	return cmd
}

// newScreenCmd builds `fairy screen`.
func newScreenCmd(target func() deviceTarget) *cobra.Command {
	var xmlPath, pngPath, format string
	cmd := &cobra.Command{
		Use:   "screen",
		Short: "Look at the phone's screen: print it as the agent sees it, save the dump and screenshot",
		Example: `  fairy screen
  fairy screen --xml window.xml --png shot.png --format json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if format != "text" && format != "json" {
				return withExit(exitUsage, fmt.Errorf("unknown --format %q: use text or json", format))
			}
			ctx := cmd.Context()
			d, err := openDevice(ctx, target)
			if err != nil {
				return err
			}
			defer d.Close(context.WithoutCancel(ctx))
			var xml []byte
			if pngPath != "" {
				o, err := d.Observe(ctx)
				if err != nil {
					return err
				}
				if err := os.WriteFile(pngPath, o.PNG, 0o644); err != nil {
					return fmt.Errorf("save screenshot: %w", err)
				}
				if o.Secure {
					fmt.Fprintln(cmd.ErrOrStderr(), "note: the screenshot is all black (a secure screen)")
				}
				xml = o.XML
			} else if xml, err = d.Dump(ctx); err != nil {
				return err
			}
			if xmlPath != "" {
				if err := os.WriteFile(xmlPath, xml, 0o644); err != nil {
					return fmt.Errorf("save dump: %w", err)
				}
			}
			s, err := perception.Parse(xml)
			if err != nil {
				return fmt.Errorf("read the dump: %w", err)
			}
			out := cmd.OutOrStdout()
			if format == "json" {
				enc := json.NewEncoder(out)
				enc.SetEscapeHTML(false)
				return enc.Encode(s.JSON())
			}
			_, err = fmt.Fprint(out, table.EscapeLines(s.Text()))
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&xmlPath, "xml", "", "save the raw UI dump to `FILE`")
	f.StringVar(&pngPath, "png", "", "save the screenshot to `FILE`")
	f.StringVar(&format, "format", "text", "output format: text or json")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"text", "json"},
		cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// newAppsCmd builds `fairy apps`.
func newAppsCmd(target func() deviceTarget) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "apps [--format table|json]",
		Short: "List the phone's launchable apps",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkFormat(format); err != nil {
				return err
			}
			ctx := cmd.Context()
			d, err := openDevice(ctx, target)
			if err != nil {
				return err
			}
			defer d.Close(context.WithoutCancel(ctx))
			apps, err := d.Apps(ctx)
			if err != nil {
				return err
			}
			if isJSON(format) {
				rows := make([]appJSON, len(apps))
				for i, a := range apps {
					rows[i] = appJSON{Package: a.Package, Activity: a.Activity, Label: a.Label}
				}
				return writeJSON(cmd.OutOrStdout(), rows)
			}
			tw := table.NewWriter(cmd.OutOrStdout())
			fmt.Fprintln(tw, "PACKAGE\tACTIVITY\tLABEL")
			for _, a := range apps {
				fmt.Fprintf(tw, "%s\t%s\t%s\n", table.Escape(a.Package), table.Escape(a.Activity),
					table.Escape(a.Label)) // a cell each: a tab or newline in a label adds no row
			}
			return tw.Flush()
		},
	}
	addFormatFlag(cmd, &format)
	return cmd
}
