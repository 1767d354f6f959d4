package sim

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// logcat: the phone's log. The system services log what a client can watch for (an
// activity started, a package installed, a process started or killed, an instrumentation
// run); `logcat -d` prints it, `-c` clears it, and plain `logcat` prints it and then
// follows new entries until the client closes the stream, as Appium's log capture does.

// logEntry is one line of the log.
type logEntry struct {
	at       time.Time
	pid, tid int
	level    byte // V D I W E F
	tag, msg string
	buffer   string // main, system, crash, events
	seq      uint64 // its place in the log since the phone was made
}

// maxLogEntries bounds the log (a phone's main buffer holds 256 KiB).
const maxLogEntries = 4000

// phoneLog is the log's entries and a channel closed when one is added; it lives under the
// phone's lock.
type phoneLog struct {
	entries []logEntry
	seq     uint64
	added   chan struct{}
}

// logf adds an entry; callers hold the phone's lock.
func (p *Phone) logf(buffer string, pid int, level byte, tag, format string, a ...any) {
	p.logs.seq++
	e := logEntry{seq: p.logs.seq, at: p.cfg.Clock(), pid: pid, tid: pid + 17, level: level, tag: tag,
		msg: fmt.Sprintf(format, a...), buffer: buffer}
	if len(p.logs.entries) >= maxLogEntries {
		p.logs.entries = append(p.logs.entries[:0], p.logs.entries[maxLogEntries/4:]...)
	}
	p.logs.entries = append(p.logs.entries, e)
	if p.logs.added != nil {
		close(p.logs.added)
	}
	p.logs.added = make(chan struct{})
}

// System processes' pids in the log.
const (
	pidSystemServer = 612
	pidShell        = 4242
)

// logcatOptions are the options the phone's logcat reads.
type logcatOptions struct {
	clear, dump, sizes bool
	tail               int // -t N / -T N: the last N entries (0: all)
	follow             bool
	format             string
	buffers            map[string]bool
	filters            []logFilter
	silent             bool // -s: every tag not named is silent
	max                int  // -m N: stop after N lines
	regex              *regexp.Regexp
}

type logFilter struct {
	tag   string
	level byte
}

var logLevels = "VDIWEFS"

func parseLogcat(args []string) (logcatOptions, error) {
	o := logcatOptions{follow: true, format: "threadtime", buffers: map[string]bool{}}
	for i := 0; i < len(args); i++ {
		a := args[i]
		value := func() (string, error) {
			if v, ok := strings.CutPrefix(a, "--"); ok && strings.Contains(v, "=") {
				_, after, _ := strings.Cut(v, "=")
				return after, nil
			}
			if len(a) > 2 && a[0] == '-' && a[1] != '-' {
				return a[2:], nil
			}
			if i+1 >= len(args) {
				return "", fmt.Errorf("logcat: option requires an argument -- '%s'", strings.TrimLeft(a, "-"))
			}
			i++
			return args[i], nil
		}
		switch {
		case a == "-c" || a == "--clear":
			o.clear = true
		case a == "-d":
			o.dump, o.follow = true, false
		case a == "-g" || a == "--buffer-size":
			o.sizes = true
		case a == "-s":
			o.silent = true
		case a == "-D" || a == "--dividers" || a == "-B" || a == "--binary" || a == "-L" || a == "--last":
		case strings.HasPrefix(a, "-t") || strings.HasPrefix(a, "-T"):
			v, err := value()
			if err != nil {
				return o, err
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return o, fmt.Errorf("logcat: -t/-T take a count of lines, not %q", v)
			}
			o.tail = n
			if a[1] == 't' {
				o.dump, o.follow = true, false
			}
		case strings.HasPrefix(a, "-v") || strings.HasPrefix(a, "--format"):
			v, err := value()
			if err != nil {
				return o, err
			}
			switch v {
			case "brief", "process", "tag", "thread", "raw", "time", "threadtime", "long":
				o.format = v
			case "color", "descriptive", "epoch", "monotonic", "printable", "uid", "usec", "UTC", "year", "zone", "nsec":
			default:
				return o, fmt.Errorf("logcat: Invalid parameter \"%s\" to -v", v)
			}
		case strings.HasPrefix(a, "-b") || strings.HasPrefix(a, "--buffer"):
			v, err := value()
			if err != nil {
				return o, err
			}
			for _, b := range strings.Split(v, ",") {
				switch b {
				case "all", "default":
					o.buffers["main"], o.buffers["system"], o.buffers["crash"] = true, true, true
					if b == "all" {
						o.buffers["events"] = true
					}
				case "main", "system", "crash", "events", "radio", "kernel", "security", "stats":
					o.buffers[b] = true
				default:
					return o, fmt.Errorf("logcat: unknown buffer '%s'", b)
				}
			}
		case strings.HasPrefix(a, "-m") || strings.HasPrefix(a, "--max-count"):
			v, err := value()
			if err != nil {
				return o, err
			}
			n, err := strconv.Atoi(v)
			if err != nil || n <= 0 {
				return o, fmt.Errorf("logcat: -m takes a positive count, not %q", v)
			}
			o.max = n
		case strings.HasPrefix(a, "-e") || strings.HasPrefix(a, "--regex"):
			v, err := value()
			if err != nil {
				return o, err
			}
			re, err := regexp.Compile(v)
			if err != nil {
				return o, fmt.Errorf("logcat: invalid regex %q: %v", v, err)
			}
			o.regex = re
		case strings.HasPrefix(a, "--pid") || strings.HasPrefix(a, "-f") || strings.HasPrefix(a, "--file"):
			if _, err := value(); err != nil {
				return o, err
			}
		case strings.HasPrefix(a, "-"):
			return o, fmt.Errorf("logcat: invalid option -- '%s'", strings.TrimLeft(a, "-"))
		default:
			tag, lvl, ok := strings.Cut(a, ":")
			if !ok || len(lvl) != 1 || !strings.Contains(logLevels, strings.ToUpper(lvl)) {
				return o, fmt.Errorf("logcat: Invalid filter expression '%s'", a)
			}
			o.filters = append(o.filters, logFilter{tag: tag, level: strings.ToUpper(lvl)[0]})
		}
	}
	if len(o.buffers) == 0 {
		o.buffers["main"], o.buffers["system"], o.buffers["crash"] = true, true, true
	}
	return o, nil
}

// shows is whether an entry passes the filters.
func (o logcatOptions) shows(e logEntry) bool {
	if !o.buffers[e.buffer] {
		return false
	}
	min := byte('V')
	if o.silent {
		min = 'S'
	}
	for _, f := range o.filters {
		if f.tag == "*" {
			min = f.level
		}
	}
	for _, f := range o.filters {
		if f.tag == e.tag {
			min = f.level
		}
	}
	if strings.IndexByte(logLevels, e.level) < strings.IndexByte(logLevels, min) {
		return false
	}
	return o.regex == nil || o.regex.MatchString(e.msg)
}

func (o logcatOptions) format1(e logEntry) string {
	ts := e.at.Format("01-02 15:04:05.000")
	switch o.format {
	case "brief":
		return fmt.Sprintf("%c/%-8s(%5d): %s\n", e.level, e.tag, e.pid, e.msg)
	case "process":
		return fmt.Sprintf("%c(%5d) %s  (%s)\n", e.level, e.pid, e.msg, e.tag)
	case "tag":
		return fmt.Sprintf("%c/%-8s: %s\n", e.level, e.tag, e.msg)
	case "thread":
		return fmt.Sprintf("%c(%5d:%5d) %s\n", e.level, e.pid, e.tid, e.msg)
	case "raw":
		return e.msg + "\n"
	case "time":
		return fmt.Sprintf("%s %c/%-8s(%5d): %s\n", ts, e.level, e.tag, e.pid, e.msg)
	case "long":
		return fmt.Sprintf("[ %s %5d:%5d %c/%s ]\n%s\n\n", ts, e.pid, e.tid, e.level, e.tag, e.msg)
	}
	return fmt.Sprintf("%s %5d %5d %c %s: %s\n", ts, e.pid, e.tid, e.level, e.tag, e.msg)
}

// cmdLogcat runs logcat. It runs without the phone's lock (it may follow the log for as
// long as the client reads): it takes the lock for each look at the log.
func cmdLogcat(p *Phone, c *cmdIO) int {
	o, err := parseLogcat(c.args[1:])
	if err != nil {
		c.errorf("%v\nUsage: logcat [options] [filterspecs]\n", err)
		return 1
	}
	if o.clear || o.sizes {
		p.mu.Lock()
		if o.clear {
			p.logs.entries = nil
		}
		p.mu.Unlock()
		if o.sizes {
			for _, b := range []string{"main", "system", "crash"} {
				if o.buffers[b] {
					c.printf("%s: ring buffer is 256 KiB (%d B consumed), max entry is 5120 B, max payload is 4068 B\n", b, 0)
				}
			}
		}
		return 0
	}
	printed := 0
	seen := map[string]bool{}
	emit := func(list []logEntry) bool {
		for _, e := range list {
			if !o.shows(e) {
				continue
			}
			if !seen[e.buffer] {
				seen[e.buffer] = true
				c.printf("--------- beginning of %s\n", e.buffer)
			}
			c.printf("%s", o.format1(e))
			printed++
			if o.max > 0 && printed >= o.max {
				return false
			}
		}
		return true
	}
	p.mu.Lock()
	var first []logEntry
	for _, e := range p.logs.entries {
		if o.shows(e) {
			first = append(first, e)
		}
	}
	if o.tail > 0 && len(first) > o.tail {
		first = first[len(first)-o.tail:]
	}
	last := p.logs.seq
	if p.logs.added == nil {
		p.logs.added = make(chan struct{})
	}
	added := p.logs.added
	p.mu.Unlock()
	if !emit(first) || !o.follow {
		return 0
	}
	for {
		select {
		case <-c.ctx.Done():
			return 130
		case <-added:
		}
		p.mu.Lock()
		// The log may have been cleared or trimmed: new entries are those after last.
		var fresh []logEntry
		for _, e := range p.logs.entries {
			if e.seq > last {
				fresh = append(fresh, e)
			}
		}
		last = p.logs.seq
		added = p.logs.added
		p.mu.Unlock()
		if !emit(fresh) {
			return 0
		}
	}
}
