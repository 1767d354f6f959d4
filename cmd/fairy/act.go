package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/executor/adb"
	"github.com/fairy-go/fairy/guard"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/perception"
)

// actDeps is what `fairy act` needs: the device, the guard that judges each gesture, the
// pixel reader for what the tree does not describe, and the person's terminal.
type actDeps struct {
	Target func() deviceTarget
	// Guard is the configured guard (nil: the default policy).
	Guard func() (*guard.Guard, error)
	// Pixels builds the reader of the picture (nil, or a nil reader: the tree alone). It is
	// built only when the screen has regions the tree does not describe.
	Pixels func(ctx context.Context, stderr io.Writer) *perception.PixelReader
}

// newActCmd builds `fairy act`. A gesture goes through the guard like the agent's and the
// MCP server's: a tap, swipe, key or typed line break that would pay, send or delete is
// asked of the person on the terminal first, and nothing is done without a yes.
func newActCmd(deps actDeps) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "act",
		Short: "Perform one action on the phone (a sensitive one is asked first)",
		Example: `  fairy act tap 540 1200
  fairy act swipe 540 1800 540 600
  fairy act text "珍珠奶茶"
  fairy act key back
  fairy act launch com.android.settings`,
	}
	// do runs f on the device; judged, when set, is the action the guard judges first.
	do := func(judged func(args []string) (event.Action, error),
		f func(ctx context.Context, d *adb.Device, args []string) error) func(*cobra.Command, []string) error {
		return func(cmd *cobra.Command, args []string) error {
			var a event.Action
			if judged != nil {
				var err error
				if a, err = judged(args); err != nil {
					return err
				}
			}
			ctx := cmd.Context()
			d, err := openDevice(ctx, deps.Target)
			if err != nil {
				return err
			}
			defer d.Close(context.WithoutCancel(ctx))
			if judged != nil {
				if err := askFirst(cmd, deps, d, a); err != nil {
					return err
				}
			}
			err = f(ctx, d, args)
			if errors.Is(err, adb.ErrUnknownKey) || errors.Is(err, adb.ErrBadArgument) {
				return withExit(exitUsage, err) // the argument is wrong, not the phone
			}
			return err
		}
	}
	ints := func(args []string) ([]int, error) {
		v := make([]int, len(args))
		for i, a := range args {
			n, err := strconv.Atoi(a)
			if err != nil || n < 0 {
				return nil, withExit(exitUsage, fmt.Errorf("%q is not a pixel coordinate", a))
			}
			v[i] = n
		}
		return v, nil
	}
	// Gestures by coordinates are judged as the `input` command that does the same: the
	// guard finds what is drawn at the point.
	shell := func(verb string) func(args []string) (event.Action, error) {
		return func(args []string) (event.Action, error) {
			v, err := ints(args)
			if err != nil {
				return event.Action{}, err
			}
			line := "input " + verb
			for _, n := range v {
				line += " " + strconv.Itoa(n)
			}
			return event.Action{Type: event.Shell, Command: line}, nil
		}
	}
	cmd.AddCommand(
		&cobra.Command{Use: "tap X Y", Short: "Tap a point", Args: cobra.ExactArgs(2),
			RunE: do(shell("tap"), func(ctx context.Context, d *adb.Device, args []string) error {
				v, err := ints(args)
				if err != nil {
					return err
				}
				return d.Tap(ctx, v[0], v[1])
			})},
		&cobra.Command{Use: "swipe X1 Y1 X2 Y2", Short: "Swipe from one point to another", Args: cobra.ExactArgs(4),
			RunE: do(shell("swipe"), func(ctx context.Context, d *adb.Device, args []string) error {
				v, err := ints(args)
				if err != nil {
					return err
				}
				return d.Swipe(ctx, v[0], v[1], v[2], v[3], 0)
			})},
		&cobra.Command{Use: "text TEXT", Short: "Type text into the focused field (non-ASCII needs ADB Keyboard)",
			Args: cobra.ExactArgs(1),
			RunE: do(func(args []string) (event.Action, error) { return event.Action{Type: event.Input, Text: args[0]}, nil },
				func(ctx context.Context, d *adb.Device, args []string) error {
					err := d.TypeText(ctx, args[0])
					var te *adb.TextError
					switch {
					case errors.As(err, &te):
						return fmt.Errorf("%w: focus a text field first (tap it)", err)
					case errors.Is(err, adb.ErrTextRefused):
						return withExit(exitUsage, err) // the argument itself cannot be typed
					}
					return err
				})},
		&cobra.Command{Use: "key KEY", Short: "Press a key: back, home, enter, delete, tab, menu, app_switch, " +
			"… or a key code", Args: cobra.ExactArgs(1),
			ValidArgsFunction: completeKeys,
			RunE: do(func(args []string) (event.Action, error) {
				return event.Action{Type: event.Shell, Command: "input keyevent " + args[0]}, nil
			}, func(ctx context.Context, d *adb.Device, args []string) error { return d.Key(ctx, args[0]) })},
		&cobra.Command{Use: "launch PACKAGE", Short: "Start an app by package name", Args: cobra.ExactArgs(1),
			ValidArgsFunction: completeLaunchable(deps.Target),
			RunE:              do(nil, func(ctx context.Context, d *adb.Device, args []string) error { return d.Launch(ctx, args[0]) })},
	)
	return cmd
}

// errActRefused is a gesture the person did not allow.
var errActRefused = errors.New("not allowed")

// askFirst judges a on the phone's screen and, when the guard holds it, asks the person on
// the terminal (the question on stderr, the answer from stdin). Only a clear yes lets it
// run; a no, no answer (stdin closed) or a screen that cannot be read to judge a gesture
// by coordinates stops it with nothing done.
func askFirst(cmd *cobra.Command, deps actDeps, d *adb.Device, a event.Action) error {
	ctx := cmd.Context()
	g, err := actGuard(deps)
	if err != nil {
		return err
	}
	what := ""
	scr, err := actScreen(ctx, cmd.ErrOrStderr(), deps, d)
	if err != nil {
		// What cannot be seen cannot be judged: the gesture may land on anything.
		what = fmt.Sprintf("%s on a screen fairy cannot read (%v)", a.Command, err)
		if a.Type == event.Input {
			what = fmt.Sprintf("type text into a screen fairy cannot read (%v)", err)
		}
	} else {
		el := (*perception.Element)(nil)
		if a.Type == event.Input {
			el = scr.Focused()
		}
		v, held := g.Check(a, el, scr)
		if !held {
			return nil
		}
		what = fmt.Sprintf("%s (%s)", v.Subject, v.Category)
		if v.Blocked {
			return fmt.Errorf("%w: %s is refused by your rule %q; nothing was done", errActRefused, what, v.Rule)
		}
	}
	q := interaction.Question{Type: 1, Kind: interaction.YesNo, Text: fmt.Sprintf("fairy act would %s on the phone. "+
		"Allow it, this once?", what)}
	reply, err := interaction.NewTerminal(cmd.InOrStdin(), cmd.ErrOrStderr()).Ask(ctx, q)
	if err != nil {
		if errors.Is(err, interaction.ErrNoAnswer) {
			return fmt.Errorf("%w: %s needs a yes on the terminal, and none came; nothing was done", errActRefused, what)
		}
		return err
	}
	if yes, clear := interaction.ReadYesNo(reply); !yes || !clear {
		return fmt.Errorf("%w: %s was refused (%q); nothing was done", errActRefused, what, reply)
	}
	return nil
}

// actGuard is the configured guard, or the default policy's.
func actGuard(deps actDeps) (*guard.Guard, error) {
	if deps.Guard != nil {
		g, err := deps.Guard()
		if err != nil || g != nil {
			return g, err
		}
	}
	return guard.New(guard.DefaultPolicy())
}

// actScreen reads the screen the gesture lands on: the tree, and the picture where the
// tree does not describe it.
func actScreen(ctx context.Context, stderr io.Writer, deps actDeps, d *adb.Device) (*perception.Screen, error) {
	xml, err := d.Dump(ctx)
	if err != nil {
		return nil, err
	}
	scr, err := perception.Parse(xml)
	if err != nil {
		return nil, fmt.Errorf("read the screen: %w", err)
	}
	if len(scr.Uncovered) == 0 || deps.Pixels == nil {
		return scr, nil
	}
	r := deps.Pixels(ctx, stderr)
	if r == nil {
		return scr, nil
	}
	shot, err := d.Screenshot(ctx)
	if err != nil {
		return nil, err
	}
	img, _, err := image.Decode(bytes.NewReader(shot))
	if err != nil {
		return nil, fmt.Errorf("decode the screenshot: %w", err)
	}
	if loc, err := d.Locale(ctx); err == nil {
		scr.Locale = loc
	}
	if err := r.Read(ctx, scr, img); err != nil {
		return nil, fmt.Errorf("read the picture: %w", err)
	}
	return scr, nil
}

// actPixels is the pixel reader of the config's languages; nil when the config names a
// bad language or Tesseract is missing (the guard then judges by the tree, and holds what
// it cannot place).
func (s *settings) actPixels(ctx context.Context, stderr io.Writer) *perception.PixelReader {
	langs := s.v.GetStringSlice(keyPixelsLanguages)
	if checkPixelLanguages(langs) != nil {
		return nil
	}
	return pixelReader(ctx, stderr, langs)
}
