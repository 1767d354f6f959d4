package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/executor"
	"github.com/fairy-go/fairy/executor/adb"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/internal/table"
	"github.com/fairy-go/fairy/live"
)

// Environment variables of the live page and of `fairy mcp --http`: a token the person
// chose (needed to serve on an address other machines reach; otherwise a random one is
// made and printed).
const (
	envWatchToken = "FAIRY_WATCH_TOKEN"
	envMCPToken   = "FAIRY_MCP_TOKEN"
)

// msgStopped is what stderr says when the live page's Stop is pressed: the same finish as
// the first Ctrl-C.
const msgStopped = "fairy: stopped from the live page: finishing up without new model calls " +
	"(what was learned so far is kept)"

// errStopped is the cause of a command's context ended by the live page's Stop: like the
// first Ctrl-C (errInterrupt), it is context.Canceled to errors.Is, and the command exits
// 130.
var errStopped error = stopError{}

type stopError struct{}

func (stopError) Error() string { return "stopped from the live page" }

func (stopError) Is(target error) bool { return target == context.Canceled }

// watchFlags are a command's --watch flags.
type watchFlags struct {
	on   bool
	addr string
}

func (w *watchFlags) add(cmd *cobra.Command, what string) {
	cmd.Flags().BoolVar(&w.on, "watch", false, "serve a live page of "+what+" on loopback and print its address: "+
		"the screen, each step, the questions (answer them there or here), a Stop button")
	cmd.Flags().StringVar(&w.addr, "watch-addr", "", "where the live page listens (`host:port`, "+
		"default 127.0.0.1 on a free port); another address than loopback needs "+envWatchToken)
}

// watching is a command's live page: its server, and the context its Stop ends.
type watching struct {
	srv    *live.Server
	cancel context.CancelCauseFunc
	once   sync.Once
	stderr io.Writer
	// onStop, when set, is what Stop does instead of ending the command (fairy mcp: the
	// run under way ends, the server goes on).
	onStop func()
}

// startWatch opens the live page (nil, ctx when w is off) and prints its address on out.
// The returned context ends, as the first Ctrl-C ends the command's, when Stop is pressed
// on the page.
func startWatch(ctx context.Context, w watchFlags, title, token string, out, stderr io.Writer,
	log *slog.Logger) (*watching, context.Context, error) {
	if !w.on {
		if w.addr != "" {
			return nil, ctx, withExit(exitUsage, errors.New("--watch-addr without --watch: add --watch to serve the live page"))
		}
		return nil, ctx, nil
	}
	ctx, cancel := context.WithCancelCause(ctx)
	wt := &watching{cancel: cancel, stderr: stderr}
	srv, err := live.Listen(live.Config{Addr: w.addr, Token: token, Title: title, Stop: wt.stop, Logger: log})
	if err != nil {
		cancel(nil)
		if errors.Is(err, live.ErrNotLoopback) {
			err = fmt.Errorf("%w (set %s)", err, envWatchToken)
		}
		return nil, ctx, withExit(exitUsage, err)
	}
	wt.srv = srv
	fmt.Fprintf(out, "live page: %s\n", srv.URL())
	return wt, ctx, nil
}

func (w *watching) stop() {
	if w.onStop != nil {
		w.onStop()
		return
	}
	w.once.Do(func() {
		fmt.Fprintln(w.stderr, msgStopped)
		w.cancel(errStopped)
	})
}

// panel adds a phone's panel; nil without a live page.
func (w *watching) panel(name string) *live.Panel {
	if w == nil {
		return nil
	}
	return w.srv.Panel(name)
}

// close ends the page (its stream says the run is over) and maps an error of a command
// stopped from the page to exit 130, as Ctrl-C.
func (w *watching) close(ctx context.Context, err error) error {
	if w == nil {
		return err
	}
	shut, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
	defer cancel()
	_ = w.srv.Close(shut)
	if errors.Is(context.Cause(ctx), errStopped) && err != nil {
		if errors.Is(err, context.Canceled) {
			return withExit(exitInterrupted, fmt.Errorf("%w: the run directory and the knowledge file are kept", errStopped))
		}
		return withExit(exitInterrupted, fmt.Errorf("%w: %w", errStopped, err))
	}
	w.cancel(nil)
	return err
}

// watched is the person as the run asks them: on the terminal and, with a live page, on
// the page too — the first answer counts, and one given on the page is echoed here.
func watched(person interaction.Dialoger, panel *live.Panel, out io.Writer) interaction.Dialoger {
	if panel == nil {
		return person
	}
	return live.First{person, pageAnswers{panel: panel, out: out}}
}

// pageAnswers says on the terminal what was answered on the page.
type pageAnswers struct {
	panel *live.Panel
	out   io.Writer
}

func (p pageAnswers) Ask(ctx context.Context, q interaction.Question) (string, error) {
	a, err := p.panel.Ask(ctx, q)
	if err == nil {
		fmt.Fprintf(p.out, "%s\n", table.EscapeLines("(answered on the live page: "+a+")"))
	}
	return a, err
}

// HandOver implements interaction.Hander: the page says it is the person's turn, and its
// "give it back" ends the hand-over (said here too).
func (p pageAnswers) HandOver(ctx context.Context, h interaction.HandOver) error {
	err := p.panel.HandOver(ctx, h)
	if err == nil {
		fmt.Fprintln(p.out, "(given back on the live page)")
	}
	return err
}

// handPhone is a phone as the live page's hand-over reaches it: taps on the picture, and
// the screen as it is now with its secret fields painted over.
type handPhone struct{ dev *adb.Device }

func (h handPhone) Tap(ctx context.Context, x, y int) error { return h.dev.Tap(ctx, x, y) }

func (h handPhone) Size(ctx context.Context) (int, int, error) {
	si, err := h.dev.Screen(ctx)
	if err != nil {
		return 0, 0, err
	}
	if si.Width <= 0 || si.Height <= 0 {
		return 0, 0, errors.New("the phone did not say its screen size")
	}
	if si.Landscape && si.Width < si.Height {
		return si.Height, si.Width, nil // wm size says the portrait size
	}
	return si.Width, si.Height, nil
}

func (h handPhone) Look(ctx context.Context) ([]byte, string, error) {
	b, err := executor.Look(ctx, h.dev)
	if err != nil {
		return nil, "", err
	}
	return b, http.DetectContentType(b), nil
}

// Frames follows the phone's live stream where it has one (the resident UI server's).
func (h handPhone) Frames(ctx context.Context, each func(jpg []byte) error) error {
	return h.dev.Frames(ctx, each)
}

// panelPhone gives the panel its phone for hand-overs (nothing without a panel).
func panelPhone(p *live.Panel, dev *adb.Device) {
	if p != nil && dev != nil {
		p.SetPhone(handPhone{dev})
	}
}

// panelHandler is the panel's event handler; nil without a panel.
func panelHandler(p *live.Panel) event.Handler {
	if p == nil {
		return nil
	}
	return p.Handle
}

// phonePanels gives each phone of an evaluation its panel, named by the phone and the task
// it runs; nil without a live page.
func (w *watching) phonePanels() func(serial, task string) event.Handler {
	if w == nil {
		return nil
	}
	var mu sync.Mutex
	panels := map[string]*live.Panel{}
	return func(serial, task string) event.Handler {
		mu.Lock()
		defer mu.Unlock()
		name := serial + " · " + task
		p := panels[serial]
		if p == nil {
			p = w.srv.Panel(name)
			panels[serial] = p
		} else {
			p.Rename(name)
		}
		return p.Handle
	}
}
