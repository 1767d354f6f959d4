package guard

import (
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/perception"
)

// shellSeparators split a command line into its commands.
var shellSeparators = regexp.MustCompile(`;|&&|\|\|?|\n`)

// shellWrappers run the command that follows them.
var shellWrappers = map[string]bool{"busybox": true, "toybox": true, "nohup": true, "env": true, "sudo": true, "exec": true, "time": true, "nice": true}

// inputSources are the words `input` takes before its command.
var inputSources = map[string]bool{"touchscreen": true, "touch": true, "keyboard": true, "stylus": true, "mouse": true, "touchpad": true,
	"dpad": true, "gamepad": true, "joystick": true, "trackball": true, "rotaryencoder": true, "touchnavigation": true}

// enterKeys are key codes that confirm: Enter, the numeric pad's Enter, the D-pad centre.
var enterKeys = map[string]bool{"66": true, "160": true, "23": true, "ENTER": true, "KEYCODE_ENTER": true,
	"NUMPAD_ENTER": true, "KEYCODE_NUMPAD_ENTER": true, "DPAD_CENTER": true, "KEYCODE_DPAD_CENTER": true}

// shell judges a Shell command: by the rules' command patterns (read with the shell's
// quotes removed, so `"rm"` is rm), and an `input` command (also through `cmd input`) by
// what it would touch on s. A command made of several commands (`;`, `&&`, a pipe) is
// judged part by part; the device's allow-list refuses such lines anyway.
func (g *Guard) shell(cmd string, s *perception.Screen) (Verdict, bool) {
	for _, part := range shellSeparators.Split(cmd, -1) {
		words, _ := shellWords(part)
		if len(words) == 0 {
			continue
		}
		for len(words) > 1 && shellWrappers[words[0]] {
			words = words[1:]
			words[0] = path.Base(words[0])
		}
		plain := strings.Join(words, " ") + " "
		for _, r := range g.rules {
			for _, re := range r.cmds {
				// The command is its first word: `echo 'rm -rf /'` only prints.
				if loc := re.FindStringIndex(plain); loc != nil && loc[0] == 0 {
					return Verdict{Category: r.Category, Type: r.Type, Subject: "run " + strconv.QuoteToGraphic(cmd), Target: cmd, Action: "shell " + cmd}, true
				}
			}
		}
		if words[0] == "cmd" && len(words) > 1 && words[1] == "input" {
			words = words[1:]
		}
		if words[0] != "input" {
			continue
		}
		args := words[1:]
		for len(args) > 0 && (inputSources[strings.ToLower(args[0])] || args[0] == "-d") {
			if args[0] == "-d" && len(args) > 1 {
				args = args[1:]
			}
			args = args[1:]
		}
		if len(args) == 0 {
			continue
		}
		if v, ok := g.inputCommand(strings.ToLower(args[0]), args[1:], s); ok {
			v.Subject = "run " + strconv.QuoteToGraphic(cmd) + " (" + v.Subject + ")"
			v.Target = cmd
			return v, true
		}
	}
	return Verdict{}, false
}

// inputCommand judges one `input` command by the element or key it reaches.
func (g *Guard) inputCommand(verb string, args []string, s *perception.Screen) (Verdict, bool) {
	switch verb {
	case "keyevent", "press", "keycombination":
		for _, k := range args {
			if enterKeys[strings.ToUpper(k)] {
				return g.Check(event.Action{Type: event.Enter}, s.Focused(), s)
			}
		}
	case "tap", "swipe", "draganddrop", "motionevent":
		if verb == "motionevent" && len(args) > 0 {
			args = args[1:] // DOWN, MOVE, UP
		}
		if len(args) < 2 || s == nil {
			return Verdict{}, false
		}
		x, okX := leadingNumber(args[0])
		y, okY := leadingNumber(args[1])
		if !okX || !okY {
			return Verdict{}, false
		}
		if inDeep(s, x, y) {
			return g.unplaced("tap", x, y, s) // guard_deep.go
		}
		if el := s.ElementAt(x, y); el != nil {
			return g.element("tap", el, s)
		}
	}
	return Verdict{}, false
}

// leadingNumber reads the number a word starts with ("540", "540.5", "540f").
func leadingNumber(w string) (int, bool) {
	end := 0
	for end < len(w) && (w[end] >= '0' && w[end] <= '9' || w[end] == '.' || (end == 0 && w[end] == '-')) {
		end++
	}
	f, err := strconv.ParseFloat(w[:end], 64)
	if err != nil {
		return 0, false
	}
	return int(f), true
}
