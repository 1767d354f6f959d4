package mcp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	_ "image/png" // screenshots
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fairy-go/fairy/executor/adb"
	"github.com/fairy-go/fairy/perception"
)

// deviceRow is one device in the devices tool's answer.
type deviceRow struct {
	Serial string `json:"serial"`
	State  string `json:"state" jsonschema:"device, offline, unauthorized, …: only a device in state device can be used"`
	Model  string `json:"model,omitempty"`
}

type devicesOutput struct {
	Devices []deviceRow `json:"devices"`
}

type appRow struct {
	Package  string `json:"package"`
	Activity string `json:"activity,omitempty"`
	Label    string `json:"label,omitempty"`
}

type appsOutput struct {
	Apps []appRow `json:"apps"`
}

type screenInput struct {
	Image bool `json:"image,omitempty" jsonschema:"also return the set-of-mark screenshot: the numbered boxes drawn over the screen"`
}

// addPhoneTools adds devices, apps, screen and act.
func (s *Server) addPhoneTools() {
	sdk.AddTool(s.server, &sdk.Tool{
		Name:        "devices",
		Description: "List the Android devices the adb server knows, in any state.",
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)},
	}, func(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, devicesOutput, error) {
		list, err := s.cfg.Devices(ctx)
		if err != nil {
			return nil, devicesOutput{}, err
		}
		out := devicesOutput{Devices: []deviceRow{}}
		for _, d := range list {
			out.Devices = append(out.Devices, deviceRow{Serial: d.Serial, State: d.State, Model: d.Model})
		}
		return nil, out, nil
	})

	sdk.AddTool(s.server, &sdk.Tool{
		Name:        "apps",
		Description: "List the phone's launchable apps (package names for act's launch).",
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)},
	}, func(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, appsOutput, error) {
		out := appsOutput{Apps: []appRow{}}
		err := s.withPhone(ctx, func(p Phone) error {
			apps, err := p.Apps(ctx)
			for _, a := range apps {
				out.Apps = append(out.Apps, appRow{Package: a.Package, Activity: a.Activity, Label: a.Label})
			}
			return err
		})
		return nil, out, err
	})

	sdk.AddTool(s.server, &sdk.Tool{
		Name: "screen",
		Description: "Read the phone's screen as fairy's agent sees it: the foreground app and a nested list of the elements, " +
			"each actionable one numbered [N] for act. With image=true, also the screenshot with the numbers drawn on it.",
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)},
	}, func(ctx context.Context, _ *sdk.CallToolRequest, in screenInput) (*sdk.CallToolResult, any, error) {
		var res *sdk.CallToolResult
		err := s.withPhone(ctx, func(p Phone) error {
			scr, err := s.readScreen(ctx, p)
			if err != nil {
				return err
			}
			res = text(screenText(scr))
			if !in.Image {
				return nil
			}
			img, mime, err := s.markedShot(ctx, p, scr)
			if err != nil {
				return err
			}
			res.Content = append(res.Content, &sdk.ImageContent{Data: img, MIMEType: mime})
			return nil
		})
		return res, nil, err
	})

	sdk.AddTool(s.server, &sdk.Tool{
		Name: "act",
		Description: "Do one action on the phone and return the screen after it. tap/long_press: an element number from the latest screen, or x and y. " +
			"type: text into the focused field. swipe: a direction (the finger's motion) on an element or the whole screen, or x,y to x2,y2. " +
			"key: back, home, enter, delete, tab, menu, app_switch or a key code. launch: a package. " +
			"A sensitive action (pay, delete, send, order, grant a permission) is asked of the person first and refused without their yes.",
		InputSchema: actSchema(),
		Annotations: &sdk.ToolAnnotations{DestructiveHint: ptr(true), OpenWorldHint: ptr(true)},
	}, func(ctx context.Context, req *sdk.CallToolRequest, in actInput) (*sdk.CallToolResult, any, error) {
		if err := s.busy(); err != nil {
			return nil, nil, err
		}
		var res *sdk.CallToolResult
		err := s.withPhone(ctx, func(p Phone) error {
			done, err := s.act(ctx, p, elicitor{session: req.Session, log: s.log}, in)
			if err != nil {
				return err
			}
			if err := p.Settle(ctx); err != nil {
				return fmt.Errorf("%s, then the screen did not settle: %w", done, err)
			}
			scr, err := s.readScreen(ctx, p)
			if err != nil {
				return fmt.Errorf("%s, then the screen could not be read: %w", done, err)
			}
			res = text(done + "\n\nThe screen now:\n" + screenText(scr))
			return nil
		})
		return res, nil, err
	})
}

// readScreen dumps and parses the screen.
func (s *Server) readScreen(ctx context.Context, p Phone) (*perception.Screen, error) {
	xml, err := p.Dump(ctx)
	if err != nil {
		return nil, err
	}
	scr, err := perception.Parse(xml)
	if err != nil {
		return nil, fmt.Errorf("read the screen: %w", err)
	}
	if s.cfg.Pixels != nil && len(scr.Uncovered) > 0 {
		// What only the picture shows is read, so the screen lists it and the guard
		// judges a tap there (by element or by x,y) by what is drawn.
		if err := s.readPixels(ctx, p, scr); err != nil {
			s.log.Warn("reading the picture failed; the screen is the tree's", "err", err)
		}
	}
	return scr, nil
}

// PixelReader reads the regions of a screen that its tree does not describe from the
// screenshot and adds the text it reads as elements (FromPicture), as the agent's reader
// does; *perception.PixelReader satisfies it.
type PixelReader interface {
	Read(ctx context.Context, s *perception.Screen, shot image.Image) error
}

// readPixels reads the screen's uncovered regions from a screenshot.
func (s *Server) readPixels(ctx context.Context, p Phone, scr *perception.Screen) error {
	shot, err := p.Screenshot(ctx)
	if err != nil {
		return err
	}
	img, _, err := image.Decode(bytes.NewReader(shot))
	if err != nil {
		return fmt.Errorf("decode the screenshot: %w", err)
	}
	// An icon drawn there with no text (a mark) is judged by its picture.
	s.cfg.Guard.SeePicture(scr, func() image.Image { return img })
	// The phone's language: the picture is read with its script's data too. A phone
	// that cannot say (or fails to) leaves the choice to script detection.
	if lr, ok := p.(interface {
		Locale(ctx context.Context) (string, error)
	}); ok {
		if loc, err := lr.Locale(ctx); err == nil {
			scr.Locale = loc
		}
	}
	return s.cfg.Pixels.Read(ctx, scr, img)
}

// screenText is the screen tool's text: a header line with the app, then the text form.
func screenText(s *perception.Screen) string {
	var b strings.Builder
	fmt.Fprintf(&b, "app: %s", orNone(s.Package))
	if s.Keyboard {
		b.WriteString(" · keyboard shown")
	}
	b.WriteString("\n")
	if len(s.Elements) == 0 && len(s.Context) == 0 {
		b.WriteString("(the screen has no readable elements: ask for image=true and act on coordinates)\n")
		return b.String()
	}
	b.WriteString(s.Text())
	return b.String()
}

func orNone(s string) string {
	if s == "" {
		return "(unknown)"
	}
	return s
}

// markedShot takes a screenshot and draws the element numbers on it.
func (s *Server) markedShot(ctx context.Context, p Phone, scr *perception.Screen) ([]byte, string, error) {
	shot, err := p.Screenshot(ctx)
	if err != nil {
		return nil, "", err
	}
	m, err := perception.NewMarker(perception.MarkOptions{})
	if err != nil {
		return nil, "", err
	}
	img, mime, err := m.Render(shot, scr)
	if err != nil {
		return nil, "", fmt.Errorf("draw the set-of-mark image: %w", err)
	}
	return img, mime, nil
}

// textError adds what to do to a typing error of the device layer.
func textError(err error) error {
	var te *adb.TextError
	if errors.As(err, &te) {
		return fmt.Errorf("%w: focus a text field first (tap it)", err)
	}
	return err
}

// actSchema is act's input schema: the inferred one with the action and direction
// restricted to their words.
func actSchema() *jsonschema.Schema {
	sch := withEnum[actInput]("action", "tap", "long_press", "type", "swipe", "key", "launch")
	sch.Properties["direction"].Enum = []any{"up", "down", "left", "right"}
	return sch
}

// withVerb is the schema of a knowledge tool: its verb, action (or command, its old name),
// one of words.
func withVerb[In any](words ...any) *jsonschema.Schema {
	sch := withEnum[In]("action", words...)
	sch.Properties["command"].Enum = words
	return sch
}

// withEnum is the schema inferred from In with one string property restricted to words.
func withEnum[In any](prop string, words ...any) *jsonschema.Schema {
	sch, err := jsonschema.For[In](nil)
	if err != nil {
		// In is one of this package's plain structs: inference cannot fail (the tests
		// build every tool).
		panic("mcp: input schema: " + err.Error())
	}
	sch.Properties[prop].Enum = words
	return sch
}
