package adb

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
)

// markerPrefix starts the status line appended to every command line; a per-call nonce
// follows, so output (screen text, file content) cannot forge it.
const markerPrefix = "#fairy-status:"

// quote returns s as one word for the device shell (mksh): single-quoted, with each ' as
// '\”. Every byte of s reaches the command as given.
func quote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.,/:=@+%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// join quotes each argument and joins them into a command line.
func join(args ...string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = quote(a)
	}
	return strings.Join(q, " ")
}

// result is one command's output and exit status.
type result struct {
	out    []byte
	status int
}

// run runs one command line on the device through service kind ("shell" or "exec") and
// returns its output without the status marker. The marker is echoed on a line of its
// own after the command; if it does not arrive the call fails with ErrConnLost, so a
// device vanishing mid-command is never an empty success. idempotent commands are retried
// once after a lost connection.
func (d *Device) run(ctx context.Context, kind, cmdline string, idempotent bool) (result, error) {
	if d.isClosed() {
		return result{}, errClosed
	}
	defer d.begin(ctx, shellOp(cmdline))()
	ctx, cancel := d.callCtx(ctx)
	defer cancel()
	attempts := 1
	if idempotent {
		attempts = 2
	} else {
		// A command that may change the screen makes any settled dump stale, from its start
		// to its end.
		d.changes.Add(1)
		defer d.changes.Add(1)
	}
	var err error
	for i := range attempts {
		var r result
		r, err = d.runOnce(ctx, kind, cmdline)
		if err == nil {
			return r, nil
		}
		if ctx.Err() != nil || !errors.Is(err, errConnLost) || i+1 == attempts {
			// No retry follows: a non-idempotent command line (typed text among them) is
			// not logged.
			break
		}
		d.log.Debug("adb: retrying after lost connection", slog.String(keyCmd, abbreviate(cmdline, 80)),
			slog.Int(keyAttempt, i+1), slog.Any(keyErr, err))
	}
	return result{}, err
}

func (d *Device) runOnce(ctx context.Context, kind, cmdline string) (result, error) {
	marker := markerPrefix + d.cfg.Nonce() + ":"
	// A newline (not ";") so a trailing comment or "&" in cmdline cannot swallow the echo.
	line := cmdline + "\necho " + quote(marker) + "$?"
	out, err := deviceService(ctx, d.addr, d.cfg.DialTimeout, d.serial, kind+":"+line)
	if err != nil {
		return result{}, fmt.Errorf("adb %s %q: %w", d.serial, abbreviate(cmdline, 60), err)
	}
	i := bytes.LastIndex(out, []byte(marker))
	if i < 0 {
		return result{}, fmt.Errorf("adb %s %q: %w (no status after %d bytes of output)", d.serial, abbreviate(cmdline, 60),
			errConnLost, len(out))
	}
	tail := strings.TrimRight(string(out[i+len(marker):]), "\r\n")
	status, perr := strconv.Atoi(tail)
	if perr != nil {
		return result{}, fmt.Errorf("adb %s %q: %w: status %q", d.serial, abbreviate(cmdline, 60), errProtocol, tail)
	}
	return result{out: out[:i], status: status}, nil
}

func (d *Device) isClosed() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.closed
}

// sh runs a command line and returns its output; a non-zero exit status is an *ExitError.
func (d *Device) sh(ctx context.Context, cmdline string, idempotent bool) (string, error) {
	r, err := d.run(ctx, "shell", cmdline, idempotent)
	if err != nil {
		return "", err
	}
	if r.status != 0 {
		return string(r.out), &exitError{Serial: d.serial, Command: cmdline, Status: r.status, Output: string(r.out)}
	}
	return string(r.out), nil
}

// shArgs quotes args into one command line and runs it.
func (d *Device) shArgs(ctx context.Context, idempotent bool, args ...string) (string, error) {
	return d.sh(ctx, join(args...), idempotent)
}

// RawShell runs a command line as given (no allow-list) and returns its output and exit
// status; for this package's tools and tests. Model-produced text must not reach it.
func (d *Device) RawShell(ctx context.Context, cmdline string) (string, int, error) {
	r, err := d.run(ctx, "shell", cmdline, false)
	return string(r.out), r.status, err
}

// Shell is the technician channel: cmd is split into words (single and double quotes
// group, no expansions, no operators) and runs only if its words start with an entry of
// Config.ShellAllow. Each word is quoted again before it reaches the device, so nothing
// but the allowed command runs. Denied commands wrap ErrDenied; a non-zero exit status is
// an *ExitError.
func (d *Device) Shell(ctx context.Context, cmd string) (string, error) {
	words, err := splitWords(cmd)
	if err != nil {
		return "", fmt.Errorf("adb shell %q: %w: %v", abbreviate(cmd, 60), errDenied, err)
	}
	if !allowed(d.cfg.ShellAllow, words) {
		return "", fmt.Errorf("adb shell %q: %w: not in the allow-list (%s)", abbreviate(cmd, 60), errDenied,
			strings.Join(d.cfg.ShellAllow, "; "))
	}
	out, err := d.shArgs(ctx, false, words...)
	if err != nil {
		return out, fmt.Errorf("adb shell: %w", err)
	}
	return out, nil
}

func allowed(allow []string, words []string) bool {
	for _, a := range allow {
		prefix := strings.Fields(a)
		if len(prefix) == 0 || len(prefix) > len(words) {
			continue
		}
		ok := true
		for i, w := range prefix {
			if words[i] != w {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// splitWords splits a technician command into words. Quotes group; shell operators,
// expansions and control characters outside quotes are refused.
func splitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	in := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
				continue
			}
			if r < 0x20 || r == 0x7f {
				return nil, errors.New("control character in a word")
			}
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ' || r == '\t':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		case strings.ContainsRune(";&|<>()$`\\*?[]{}~#!\n\r", r) || r < 0x20 || r == 0x7f:
			return nil, fmt.Errorf("shell operator %q", r)
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if quote != 0 {
		return nil, errors.New("unclosed quote")
	}
	if in {
		words = append(words, cur.String())
	}
	if len(words) == 0 {
		return nil, errors.New("empty command")
	}
	return words, nil
}
