package sim

import (
	"bytes"
	"encoding/base64"
	"regexp"
	"strconv"
	"strings"
)

// The toybox text commands: echo, and the filters grep, head, tail, wc and base64, which read
// their files or standard input.

func cmdEcho(_ *Phone, c *cmdIO) int {
	args := c.args[1:]
	nl := true
	if len(args) > 0 && args[0] == "-n" {
		nl = false
		args = args[1:]
	}
	c.printf("%s", strings.Join(args, " "))
	if nl {
		c.printf("\n")
	}
	return 0
}

func inputText(c *cmdIO, p *Phone, ops []string) ([]byte, bool) {
	if len(ops) == 0 {
		return c.stdin, true
	}
	var all []byte
	for _, f := range ops {
		data, err := p.fs.readFile(f)
		if err != nil {
			c.errorf("%s: %s: No such file or directory\n", c.args[0], f)
			return nil, false
		}
		all = append(all, data...)
	}
	return all, true
}

func splitLines(b []byte) []string {
	s := string(b)
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func cmdGrep(p *Phone, c *cmdIO) int {
	var pat string
	ignore, invert, count, fixed := false, false, false, false
	after := 0
	var files []string
	args := c.args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-A" && i+1 < len(args):
			after, _ = strconv.Atoi(args[i+1])
			i++
		case a == "-e" && i+1 < len(args):
			pat = args[i+1]
			i++
		case strings.HasPrefix(a, "-") && len(a) > 1 && pat == "":
			for _, f := range a[1:] {
				switch f {
				case 'i':
					ignore = true
				case 'v':
					invert = true
				case 'c':
					count = true
				case 'F':
					fixed = true
				}
			}
		case pat == "":
			pat = a
		default:
			files = append(files, a)
		}
	}
	if pat == "" {
		c.errorf("usage: grep [-ABcEFilnoqrsvwxZz] [-A NUM] [-m MAX] [-B NUM] [-C NUM] PATTERN [FILE...]\n")
		return 2
	}
	if fixed {
		pat = regexp.QuoteMeta(pat)
	}
	if ignore {
		pat = "(?i)" + pat
	}
	re, err := regexp.Compile(pat)
	if err != nil {
		c.errorf("grep: bad regex '%s'\n", pat)
		return 2
	}
	data, ok := inputText(c, p, files)
	if !ok {
		return 2
	}
	n, left := 0, 0
	for _, l := range splitLines(data) {
		m := re.MatchString(strings.TrimSuffix(l, "\n")) != invert
		if m {
			n++
			left = after
			if !count {
				c.printf("%s", l)
				if !strings.HasSuffix(l, "\n") {
					c.printf("\n")
				}
			}
			continue
		}
		if left > 0 && !count {
			c.printf("%s", l)
			left--
		}
	}
	if count {
		c.printf("%d\n", n)
	}
	if n == 0 {
		return 1
	}
	return 0
}

func headTailN(args []string) (int, []string) {
	n := 10
	var files []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-n" && i+1 < len(args):
			n, _ = strconv.Atoi(strings.TrimPrefix(args[i+1], "+"))
			i++
		case strings.HasPrefix(a, "-n"):
			n, _ = strconv.Atoi(a[2:])
		case strings.HasPrefix(a, "-") && len(a) > 1:
			n, _ = strconv.Atoi(a[1:])
		default:
			files = append(files, a)
		}
	}
	return n, files
}

func cmdHead(p *Phone, c *cmdIO) int {
	n, files := headTailN(c.args[1:])
	data, ok := inputText(c, p, files)
	if !ok {
		return 1
	}
	lines := splitLines(data)
	c.printf("%s", strings.Join(lines[:min(n, len(lines))], ""))
	return 0
}

func cmdTail(p *Phone, c *cmdIO) int {
	n, files := headTailN(c.args[1:])
	data, ok := inputText(c, p, files)
	if !ok {
		return 1
	}
	lines := splitLines(data)
	c.printf("%s", strings.Join(lines[max(0, len(lines)-n):], ""))
	return 0
}

func cmdWc(p *Phone, c *cmdIO) int {
	flags, files := operands(c.args[1:])
	data, ok := inputText(c, p, files)
	if !ok {
		return 1
	}
	lines := bytes.Count(data, []byte("\n"))
	switch {
	case strings.Contains(flags, "l"):
		c.printf("%d\n", lines)
	case strings.Contains(flags, "c"):
		c.printf("%d\n", len(data))
	default:
		c.printf("%7d %7d %7d\n", lines, len(strings.Fields(string(data))), len(data))
	}
	return 0
}

func cmdBase64(p *Phone, c *cmdIO) int {
	flags, files := operands(c.args[1:])
	data, ok := inputText(c, p, files)
	if !ok {
		return 1
	}
	if strings.Contains(flags, "d") {
		out, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(string(data)), ""))
		if err != nil {
			c.errorf("base64: bad input\n")
			return 1
		}
		_, _ = c.stdout.Write(out)
		return 0
	}
	enc := base64.StdEncoding.EncodeToString(data)
	for len(enc) > 76 {
		c.printf("%s\n", enc[:76])
		enc = enc[76:]
	}
	c.printf("%s\n", enc)
	return 0
}
