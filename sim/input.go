package sim

import (
	"strconv"
	"strings"
	"time"
)

// Touch and key input (callers hold p.mu).

const longPressTimeout = 500 * time.Millisecond

// tap touches the screen at (x,y).
func (p *Phone) tap(x, y int) {
	if p.faults.DeadTap > 0 && p.rng.Float64() < p.faults.DeadTap {
		return // the "dead tap" fault: the touch is lost
	}
	p.touch(x, y, false)
}

func (p *Phone) touch(x, y int, long bool) {
	f := p.frameLocked()
	n, key := f.hitTest(x, y)
	if key != nil {
		p.keyboardKey(key)
		return
	}
	if n == nil || n.act == nil {
		return
	}
	h := n.act
	p.toast = ""
	switch {
	case h.key != "":
		switch h.key {
		case "back":
			p.back()
		case "home":
			p.goHome()
		}
		p.bump()
	case h.pick != nil:
		h.pick(p)
		p.bump()
	case h.input != "":
		if h.inst.focus != h.input || !p.kbShown {
			h.inst.focus = h.input
			p.kbShown = true
			p.selectAll = false
		}
		if long {
			p.selectAll = true
		}
		p.bump()
	default:
		acts := h.tap
		if long && h.long != nil {
			acts = h.long
		}
		if acts == nil {
			return
		}
		p.runActions(h.inst.app, h.inst, h.item, acts)
		p.bump()
	}
}

func (p *Phone) keyboardKey(k *kbKey) {
	switch k.value {
	case "DEL":
		p.deleteChars(1)
	case "ENTER":
		p.submit()
	case "SHIFT", "SYM":
	default:
		p.typeText(k.value)
	}
}

// swipe drags from (x1,y1) to (x2,y2) in d; a drag that stays in place is a tap or a
// long press.
func (p *Phone) swipe(x1, y1, x2, y2 int, d time.Duration) {
	dx, dy := x2-x1, y2-y1
	slop := p.metrics().dp(8)
	if abs(dx) <= slop && abs(dy) <= slop {
		if d >= longPressTimeout {
			if p.faults.DeadTap > 0 && p.rng.Float64() < p.faults.DeadTap {
				return
			}
			p.touch(x1, y1, true)
		} else {
			p.tap(x1, y1)
		}
		return
	}
	if abs(dy) < abs(dx) {
		if n, _ := p.frameLocked().hitTest(x1, y1); n != nil && n.act != nil && n.act.end != nil {
			p.slide(n, x1, x2)
		}
		return // other horizontal swipes move nothing on these screens
	}
	f := p.frameLocked()
	n := f.scrollerAt(x1, y1)
	if n == nil {
		return
	}
	h := n.act
	cur := h.inst.scroll[h.scrollKey]
	next := clamp(cur-dy, 0, h.maxScroll)
	if next != cur {
		h.inst.scroll[h.scrollKey] = next
		p.bump()
	}
}

// slide drags a slider's thumb, a square at the track's start that follows the finger: a
// drag that grabs the thumb and carries it to the end of the track (its far edge within
// the last 10 %) runs the slider's on_end; any other drag lets it snap back.
//
// A level slider (one with on_start, as a brightness slider) moves wherever it is grabbed:
// a drag that ends in the last 10 % of the track runs on_end, one that ends in the first
// 10 % runs on_start.
func (p *Phone) slide(n *node, x1, x2 int) {
	b := n.b
	h := n.act
	if len(h.start) > 0 {
		acts := h.end
		switch {
		case x2 >= b.Max.X-b.Dx()/10:
		case x2 <= b.Min.X+b.Dx()/10:
			acts = h.start
		default:
			return
		}
		p.toast = ""
		p.runActions(h.inst.app, h.inst, h.item, acts)
		p.bump()
		return
	}
	thumb := b.Dy()
	if x1 < b.Min.X || x1 > b.Min.X+thumb || thumb+(x2-x1) < b.Dx()*9/10 {
		return
	}
	p.toast = ""
	p.runActions(h.inst.app, h.inst, h.item, h.end)
	p.bump()
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// keyCodes maps KEYCODE_ names (without the prefix) to numbers, for the keys the phone knows.
var keyCodes = map[string]int{
	"HOME": 3, "BACK": 4, "CALL": 5, "ENDCALL": 6, "0": 7, "1": 8, "2": 9, "3": 10, "4": 11, "5": 12, "6": 13,
	"7": 14, "8": 15, "9": 16, "STAR": 17, "POUND": 18, "DPAD_UP": 19, "DPAD_DOWN": 20, "DPAD_LEFT": 21,
	"DPAD_RIGHT": 22, "DPAD_CENTER": 23, "VOLUME_UP": 24, "VOLUME_DOWN": 25, "POWER": 26, "CAMERA": 27,
	"A": 29, "B": 30, "C": 31, "D": 32, "E": 33, "F": 34, "G": 35, "H": 36, "I": 37, "J": 38, "K": 39, "L": 40,
	"M": 41, "N": 42, "O": 43, "P": 44, "Q": 45, "R": 46, "S": 47, "T": 48, "U": 49, "V": 50, "W": 51, "X": 52,
	"Y": 53, "Z": 54, "COMMA": 55, "PERIOD": 56, "TAB": 61, "SPACE": 62, "ENTER": 66, "DEL": 67, "MINUS": 69,
	"EQUALS": 70, "AT": 77, "MENU": 82, "SEARCH": 84, "PAGE_UP": 92, "PAGE_DOWN": 93, "ESCAPE": 111,
	"FORWARD_DEL": 112, "CTRL_LEFT": 113, "CTRL_RIGHT": 114, "MOVE_HOME": 122, "MOVE_END": 123,
	"APP_SWITCH": 187, "WAKEUP": 224, "SLEEP": 223,
}

// parseKey turns "KEYCODE_BACK", "BACK" or "4" into a key code; ok is false for unknown names.
func parseKey(s string) (int, bool) {
	if n, err := strconv.Atoi(s); err == nil {
		return n, n >= 0 && n < 400
	}
	n, ok := keyCodes[strings.TrimPrefix(strings.ToUpper(s), "KEYCODE_")]
	return n, ok
}

// key presses one key.
func (p *Phone) key(code int, long bool) {
	switch {
	case code == 4 || code == 111:
		p.back()
	case code == 3:
		p.goHome()
	case code == 66 || code == 160:
		p.submit()
	case code == 67:
		p.deleteChars(1)
	case code == 112:
		if p.selectAll {
			p.clearField()
		}
	case code == 62:
		p.typeText(" ")
	case code >= 7 && code <= 16:
		p.typeText(strconv.Itoa(code - 7))
	case code >= 29 && code <= 54:
		p.typeText(string(rune('a' + code - 29)))
	case code == 55:
		p.typeText(",")
	case code == 56:
		p.typeText(".")
	case code == 69:
		p.typeText("-")
	case code == 77:
		p.typeText("@")
	case code == 92 || code == 93:
		inst := p.top()
		for k := range inst.scroll {
			delta := p.cfg.Height / 2
			if code == 92 {
				delta = -delta
			}
			inst.scroll[k] = max(0, inst.scroll[k]+delta)
		}
		p.bump()
	}
}

// keyCombination handles `input keycombination`: CTRL+A selects all in the focused field.
func (p *Phone) keyCombination(codes []int) {
	ctrl, a := false, false
	for _, c := range codes {
		ctrl = ctrl || c == 113 || c == 114
		a = a || c == 29
	}
	if ctrl && a {
		if _, e := p.focusedInput(); e != nil {
			p.selectAll = true
			p.bump()
		}
		return
	}
	for _, c := range codes {
		p.key(c, false)
	}
}

// androidText applies `input text`'s escape rule: "%s" is a space (InputShellCommand).
func androidText(s string) string {
	buf := []rune(s)
	esc := false
	for i := 0; i < len(buf); i++ {
		if esc {
			esc = false
			if buf[i] == 's' {
				buf[i] = ' '
				buf = append(buf[:i-1], buf[i:]...)
				i--
			}
		}
		if buf[i] == '%' {
			esc = true
		}
	}
	return string(buf)
}

// typable reports whether the virtual keyboard's key map can produce r.
func typable(r rune) bool {
	return (r >= 0x20 && r < 0x7F) || r == '\n' || r == '\t'
}
