package sim

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The shell interpreter: enough of mksh (Android's /system/bin/sh) for the command lines
// ADB clients send. It splits words like a POSIX shell (single and double quotes,
// backslashes, $? and $VAR expansion), runs lists joined by ";", "&&", "||" and newlines,
// pipes ("|") and redirections (">", ">>", "<", "2>", "2>&1"). Globs, command substitution
// and control flow are not interpreted.

// errSyntax is a shell syntax error; the message is mksh's.
type errSyntax struct{ msg string }

func (e *errSyntax) Error() string { return e.msg }

type segment struct {
	lit     string
	varName string // non-empty: expand this variable
}

type word struct {
	segs   []segment
	quoted bool
}

const (
	tokWord = iota
	tokOp
	tokRedir
)

type token struct {
	kind int
	w    word
	op   string // operator or redirection ("<", ">", ">>", ">&")
	fd   int    // redirected descriptor
}

// lex splits a command line into tokens.
func lex(line string) ([]token, error) {
	var toks []token
	rs := []rune(line)
	var cur word
	inWord := false
	flush := func() {
		if inWord {
			toks = append(toks, token{kind: tokWord, w: cur})
		}
		cur = word{}
		inWord = false
	}
	addLit := func(s string) {
		inWord = true
		if n := len(cur.segs); n > 0 && cur.segs[n-1].varName == "" {
			cur.segs[n-1].lit += s
			return
		}
		cur.segs = append(cur.segs, segment{lit: s})
	}
	// readVar reads a $-expansion starting after the '$' at rs[i]; returns the new index.
	readVar := func(i int) int {
		inWord = true
		if i >= len(rs) {
			addLit("$")
			return i
		}
		c := rs[i]
		switch {
		case c == '?' || c == '$' || c == '#' || c == '!' || (c >= '0' && c <= '9'):
			cur.segs = append(cur.segs, segment{varName: string(c)})
			return i + 1
		case c == '{':
			j := i + 1
			for j < len(rs) && rs[j] != '}' {
				j++
			}
			if j >= len(rs) {
				addLit("${")
				return i + 1
			}
			cur.segs = append(cur.segs, segment{varName: string(rs[i+1 : j])})
			return j + 1
		case c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'):
			j := i
			for j < len(rs) && (rs[j] == '_' || (rs[j] >= 'a' && rs[j] <= 'z') || (rs[j] >= 'A' && rs[j] <= 'Z') || (rs[j] >= '0' && rs[j] <= '9')) {
				j++
			}
			cur.segs = append(cur.segs, segment{varName: string(rs[i:j])})
			return j
		}
		addLit("$")
		return i
	}
	for i := 0; i < len(rs); {
		c := rs[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			flush()
			i++
		case c == '\n':
			flush()
			toks = append(toks, token{kind: tokOp, op: ";"})
			i++
		case c == '#' && !inWord:
			for i < len(rs) && rs[i] != '\n' {
				i++
			}
		case c == '\'':
			end := strings.IndexRune(string(rs[i+1:]), '\'')
			if end < 0 {
				return nil, &errSyntax{"/system/bin/sh: no closing quote"}
			}
			s := string(rs[i+1:])[:end]
			addLit(s)
			cur.quoted = true
			i += 1 + len([]rune(s)) + 1
		case c == '"':
			cur.quoted = true
			inWord = true
			i++
			closed := false
			for i < len(rs) {
				d := rs[i]
				if d == '"' {
					closed = true
					i++
					break
				}
				if d == '\\' && i+1 < len(rs) && strings.ContainsRune("\"\\$`\n", rs[i+1]) {
					if rs[i+1] != '\n' {
						addLit(string(rs[i+1]))
					}
					i += 2
					continue
				}
				if d == '$' {
					i = readVar(i + 1)
					continue
				}
				addLit(string(d))
				i++
			}
			if !closed {
				return nil, &errSyntax{"/system/bin/sh: no closing quote"}
			}
		case c == '\\':
			if i+1 < len(rs) {
				if rs[i+1] != '\n' {
					addLit(string(rs[i+1]))
				}
				i += 2
			} else {
				i++
			}
		case c == '$':
			i = readVar(i + 1)
		case c == ';' || c == '&' || c == '|':
			flush()
			op := string(c)
			if i+1 < len(rs) && rs[i+1] == c && c != ';' {
				op += string(c)
				i++
			} else if c == ';' && i+1 < len(rs) && rs[i+1] == ';' {
				return nil, &errSyntax{"/system/bin/sh: syntax error: ';;' unexpected"}
			}
			toks = append(toks, token{kind: tokOp, op: op})
			i++
		case c == '<' || c == '>':
			fd := 1
			if c == '<' {
				fd = 0
			}
			// A word made only of one unquoted digit right before the operator is the fd.
			if inWord && !cur.quoted && len(cur.segs) == 1 && cur.segs[0].varName == "" && len(cur.segs[0].lit) == 1 && cur.segs[0].lit[0] >= '0' && cur.segs[0].lit[0] <= '9' {
				fd = int(cur.segs[0].lit[0] - '0')
				cur = word{}
				inWord = false
			}
			flush()
			op := string(c)
			i++
			if c == '>' && i < len(rs) && rs[i] == '>' {
				op = ">>"
				i++
			} else if i < len(rs) && rs[i] == '&' {
				op += "&"
				i++
			}
			toks = append(toks, token{kind: tokRedir, op: op, fd: fd})
		default:
			addLit(string(c))
			i++
		}
	}
	flush()
	return toks, nil
}

// simpleCmd is one command of a pipeline before expansion.
type simpleCmd struct {
	words  []word
	redirs []redir
}

type redir struct {
	fd     int
	op     string
	target word
}

type pipeline struct {
	cmds []simpleCmd
	op   string // how this pipeline joins the previous one: "", ";", "&&", "||"
	bg   bool   // ended by "&": run to its end here, but its status is 0, as a job's start
}

// parse groups tokens into pipelines joined by list operators.
func parse(toks []token) ([]pipeline, error) {
	var out []pipeline
	cur := pipeline{}
	var cmd simpleCmd
	pendingOp := ""
	endCmd := func() bool {
		if len(cmd.words) == 0 && len(cmd.redirs) == 0 {
			return false
		}
		cur.cmds = append(cur.cmds, cmd)
		cmd = simpleCmd{}
		return true
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch t.kind {
		case tokWord:
			cmd.words = append(cmd.words, t.w)
		case tokRedir:
			if i+1 >= len(toks) || toks[i+1].kind != tokWord {
				return nil, &errSyntax{"/system/bin/sh: syntax error: unexpected newline"}
			}
			cmd.redirs = append(cmd.redirs, redir{fd: t.fd, op: t.op, target: toks[i+1].w})
			i++
		case tokOp:
			switch t.op {
			case "|":
				if !endCmd() {
					return nil, &errSyntax{"/system/bin/sh: syntax error: '|' unexpected"}
				}
			case ";", "&", "&&", "||":
				had := endCmd()
				if !had && len(cur.cmds) == 0 {
					if t.op == ";" && pendingOp == "" || t.op == "&" {
						continue
					}
					if t.op == ";" && len(out) > 0 {
						continue
					}
					return nil, &errSyntax{fmt.Sprintf("/system/bin/sh: syntax error: '%s' unexpected", t.op)}
				}
				cur.op = pendingOp
				cur.bg = t.op == "&"
				out = append(out, cur)
				cur = pipeline{}
				pendingOp = t.op
				if t.op == "&" {
					pendingOp = ";"
				}
			}
		}
	}
	if endCmd() || len(cur.cmds) > 0 {
		cur.op = pendingOp
		out = append(out, cur)
	} else if pendingOp == "&&" || pendingOp == "||" || pendingOp == "|" {
		return nil, &errSyntax{"/system/bin/sh: syntax error: unexpected end of file"}
	}
	return out, nil
}

// shellEnv is the state of one command line being run.
type shellEnv struct {
	ctx    context.Context
	p      *Phone
	status int
	vars   map[string]string
	depth  int
	input  io.Reader // the client's input to the command line (nil: none)
}

func (e *shellEnv) expand(w word) string {
	var b strings.Builder
	for _, s := range w.segs {
		if s.varName == "" {
			b.WriteString(s.lit)
			continue
		}
		switch s.varName {
		case "?":
			b.WriteString(strconv.Itoa(e.status))
		case "$":
			b.WriteString("4242")
		case "#":
			b.WriteString("0")
		default:
			b.WriteString(e.vars[s.varName])
		}
	}
	return b.String()
}

// cmdIO is what a command sees: its arguments and streams.
type cmdIO struct {
	ctx    context.Context
	env    *shellEnv
	args   []string          // args[0] is the command name
	cmdEnv map[string]string // VAR=value words before the command
	stdin  []byte
	// stream is the client's input to the command line (wire.ShellInput), for a command
	// that reads its standard input as it arrives; nil when stdin comes from a pipe or a file.
	stream    io.Reader
	streamErr error // why the streamed input a command takes could not be read
	stdout    io.Writer
	stderr    io.Writer
}

func (c *cmdIO) printf(format string, a ...any) { fmt.Fprintf(c.stdout, format, a...) }
func (c *cmdIO) errorf(format string, a ...any) { fmt.Fprintf(c.stderr, format, a...) }

// runLine runs a whole command line and returns the status of its last command.
func (e *shellEnv) runLine(line string, stdin []byte, out io.Writer) (int, error) {
	toks, err := lex(line)
	if err == nil {
		var pls []pipeline
		pls, err = parse(toks)
		if err == nil {
			return e.runList(pls, stdin, out)
		}
	}
	var se *errSyntax
	if errors.As(err, &se) {
		fmt.Fprintln(out, se.msg)
		e.status = 1
		if strings.Contains(se.msg, "syntax error") {
			e.status = 2
		}
		return e.status, nil
	}
	return 1, err
}

func (e *shellEnv) runList(pls []pipeline, stdin []byte, out io.Writer) (int, error) {
	for _, pl := range pls {
		if err := e.ctx.Err(); err != nil {
			return e.status, fmt.Errorf("sim shell: %w", err)
		}
		switch pl.op {
		case "&&":
			if e.status != 0 {
				continue
			}
		case "||":
			if e.status == 0 {
				continue
			}
		}
		ctx := e.ctx
		if pl.bg {
			e.ctx = context.WithValue(ctx, bgJobKey{}, true)
		}
		st, err := e.runPipeline(pl, stdin, out)
		e.ctx = ctx
		if pl.bg {
			st = 0
		}
		e.status = st
		if err != nil {
			return st, err
		}
		if e.vars["__exit"] != "" {
			break
		}
	}
	return e.status, nil
}

func (e *shellEnv) runPipeline(pl pipeline, stdin []byte, out io.Writer) (int, error) {
	in := stdin
	st := 0
	for i, c := range pl.cmds {
		var stream io.Reader
		if i == 0 && stdin == nil {
			stream = e.input
		}
		var w io.Writer = out
		var buf *bytes.Buffer
		if i < len(pl.cmds)-1 {
			buf = &bytes.Buffer{}
			w = buf
		}
		var err error
		st, err = e.runSimple(c, in, stream, w)
		if err != nil {
			return st, err
		}
		if buf != nil {
			in = buf.Bytes()
		}
	}
	return st, nil
}

func (e *shellEnv) runSimple(c simpleCmd, stdin []byte, stream io.Reader, out io.Writer) (int, error) {
	args := make([]string, 0, len(c.words))
	for _, w := range c.words {
		args = append(args, e.expand(w))
	}
	stdout, stderr := out, out
	type pendingFile struct {
		path   string
		buf    *bytes.Buffer
		append bool
	}
	var files []pendingFile
	for _, r := range c.redirs {
		target := e.expand(r.target)
		switch r.op {
		case ">&":
			if target == "1" && r.fd == 2 {
				stderr = stdout
			} else if target == "2" && r.fd == 1 {
				stdout = stderr
			}
		case ">", ">>":
			var w io.Writer
			switch cleanPath(target) {
			case "/dev/null":
				w = io.Discard
			case "/dev/tty", "/dev/stdout":
				w = out
			default:
				buf := &bytes.Buffer{}
				files = append(files, pendingFile{path: target, buf: buf, append: r.op == ">>"})
				w = buf
			}
			if r.fd == 2 {
				stderr = w
			} else {
				stdout = w
			}
		case "<":
			data, err := e.p.readFileShell(target)
			if err != nil {
				fmt.Fprintf(out, "/system/bin/sh: can't open '%s': No such file or directory\n", target)
				return 1, nil
			}
			stdin, stream = data, nil
		}
	}
	if len(args) == 0 {
		return 0, nil
	}
	// VAR=value assignments without a command set shell variables.
	if k, v, ok := strings.Cut(args[0], "="); ok && len(args) == 1 && k != "" && !strings.ContainsAny(k, "/-.") {
		e.vars[k] = v
		return 0, nil
	}
	// VAR=value words before a command set its environment only (CLASSPATH=… app_process …).
	var cmdEnv map[string]string
	for len(args) > 1 {
		k, v, ok := strings.Cut(args[0], "=")
		if !ok || k == "" || strings.ContainsAny(k, "/-.") {
			break
		}
		if cmdEnv == nil {
			cmdEnv = map[string]string{}
		}
		cmdEnv[k] = v
		args = args[1:]
	}
	var st int
	var err error
	if readsFrame(args) {
		// screencap reads the screen and changes nothing: the frame is drawn and encoded
		// within the phone's latency, so the simulator's own drawing (the host's CPU time,
		// which grows with the host's load) is not added to the phone's time.
		var o, eo bytes.Buffer
		start := e.p.cfg.Clock()
		st, err = e.p.dispatch(&cmdIO{ctx: e.ctx, env: e, args: args, cmdEnv: cmdEnv, stdin: stdin, stdout: &o, stderr: &eo})
		delay := e.p.commandDelay(args) + e.p.linkTime(args, o.Len())
		if werr := e.p.sleepRest(e.ctx, delay, e.p.cfg.Clock().Sub(start)); werr != nil {
			return 130, fmt.Errorf("sim %s: %w", args[0], werr)
		}
		_, _ = stdout.Write(o.Bytes())
		_, _ = stderr.Write(eo.Bytes())
	} else {
		if err := e.p.waitProfile(e.ctx, args); err != nil {
			return 130, err
		}
		st, err = e.p.dispatch(&cmdIO{ctx: e.ctx, env: e, args: args, cmdEnv: cmdEnv, stdin: stdin, stream: stream,
			stdout: stdout, stderr: stderr})
	}
	for _, f := range files {
		if werr := e.p.writeRedirect(f.path, f.buf.Bytes(), f.append); werr != nil {
			fmt.Fprintf(out, "/system/bin/sh: can't create %s: No such file or directory\n", f.path)
			st = 1
		}
	}
	return st, err
}

// bgJobKey marks the context of a command started with "&" (a background job).
type bgJobKey struct{}
