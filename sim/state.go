package sim

import (
	"bytes"
	"fmt"
	"image/png"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// State is a snapshot of everything an evaluation may check.
type State struct {
	// Apps maps a package to its variables and collections.
	Apps map[string]AppData `json:"apps"`
	// Settings are the settings provider's namespaces (system, secure, global).
	Settings map[string]map[string]string `json:"settings"`
	// Foreground is "package/activity" of the screen in front.
	Foreground string `json:"foreground"`
	// Screen is the id of the screen in front (from the app declaration).
	Screen string `json:"screen"`
	// Keyboard tells whether the soft keyboard is shown.
	Keyboard bool `json:"keyboard"`
	// IME is the current input method id.
	IME string `json:"ime"`
}

// AppData is one app's state.
type AppData struct {
	Vars    map[string]string   `json:"vars"`
	Records map[string][]Record `json:"records"`
	Running bool                `json:"running"`
}

// state returns a deep copy of the phone's state.
func (p *Phone) State() State {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stateLocked()
}

func (p *Phone) stateLocked() State {
	st := State{Apps: map[string]AppData{}, Settings: map[string]map[string]string{}}
	for pkg, a := range p.apps {
		d := AppData{Vars: maps.Clone(a.vars), Records: map[string][]Record{}, Running: a.running}
		for k, recs := range a.records {
			for _, r := range recs {
				d.Records[k] = append(d.Records[k], maps.Clone(r))
			}
		}
		st.Apps[pkg] = d
	}
	for ns, m := range p.settings {
		st.Settings[ns] = maps.Clone(m)
	}
	_, inst := p.frontActivity()
	st.Foreground = inst.app.spec.shortComponent(inst.spec.Activity)
	st.Screen = p.top().spec.ID
	st.Keyboard = p.kbShown && p.top().focus != ""
	st.IME = p.currentIME
	return st
}

// Records returns a copy of a collection: "name" (the first app that has it, in install
// order) or "package:name". Unknown collections are an error wrapping ErrNotFound.
func (p *Phone) Records(collection string) ([]Record, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.recordsLocked(collection)
}

func (p *Phone) recordsLocked(collection string) ([]Record, error) {
	var src []Record
	found := false
	if pkg, name, ok := strings.Cut(collection, ":"); ok {
		if a := p.apps[pkg]; a != nil {
			src, found = a.records[name]
			found = found || hasDeclared(a, name)
		}
	} else {
		for _, pkg := range p.order {
			a := p.apps[pkg]
			if recs, ok := a.records[collection]; ok || hasDeclared(a, collection) {
				src, found = recs, true
				break
			}
		}
	}
	if !found {
		return nil, fmt.Errorf("records %q: %w", collection, errNotFound)
	}
	out := make([]Record, 0, len(src))
	for _, r := range src {
		out = append(out, maps.Clone(r))
	}
	return out, nil
}

// hasDeclared tells whether an app knows a collection even when it is empty now.
func hasDeclared(a *appState, name string) bool {
	if _, ok := a.spec.Records[name]; ok {
		return true
	}
	for _, s := range a.spec.Screens {
		if declaresIn(s.Elements, name) {
			return true
		}
	}
	return false
}

func declaresIn(els []*ElementSpec, name string) bool {
	for _, e := range els {
		for _, acts := range [][]Action{e.OnTap, e.OnLongPress, e.OnSubmit} {
			for _, ac := range acts {
				if (ac.Add != nil && ac.Add.To == name) || (ac.Copy != nil && ac.Copy.To == name) || ac.Clear == name {
					return true
				}
			}
		}
		if e.From == name || declaresIn(e.Children, name) {
			return true
		}
	}
	return false
}

// Var returns an app variable ("" when unset).
func (p *Phone) Var(pkg, name string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if a := p.apps[pkg]; a != nil {
		return a.vars[name]
	}
	return ""
}

// Setting returns a setting as `settings get` prints it ("null" when unset). name is
// "namespace/key" (e.g. "global/wifi_on") or a key looked up in global, secure, system.
func (p *Phone) Setting(name string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if ns, key, ok := strings.Cut(name, "/"); ok {
		if v, ok := p.settings[ns][key]; ok {
			return v
		}
		return "null"
	}
	for _, ns := range []string{"global", "secure", "system"} {
		if v, ok := p.settings[ns][name]; ok {
			return v
		}
	}
	return "null"
}

// Foreground returns the package and the activity (short form, ".Main") in front.
func (p *Phone) Foreground() (pkg, activity string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, inst := p.frontActivity()
	comp := inst.app.spec.shortComponent(inst.spec.Activity)
	pkg, activity, _ = strings.Cut(comp, "/")
	return pkg, activity
}

// ScreenID returns the id of the screen in front, as declared in its app.
func (p *Phone) ScreenID() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.top().spec.ID
}

// Dump returns the UI dump of the current screen (faults do not apply).
func (p *Phone) Dump() []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.dumpLocked())
}

// Screenshot returns the PNG of the current screen.
func (p *Phone) Screenshot() ([]byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	b, err := p.screenshotLocked()
	return slices.Clone(b), err
}

// Message is a text message in the Messages app.
type Message struct {
	To, Phone, Text, Time string
	Outgoing              bool
}

// Messages returns every message of the Messages app, oldest first.
func (p *Phone) Messages() []Message {
	recs, _ := p.Records("messages")
	out := make([]Message, 0, len(recs))
	for _, r := range recs {
		out = append(out, Message{To: r["to"], Phone: r["phone"], Text: r["text"], Time: r["time"],
			Outgoing: r["dir"] == "out"})
	}
	return out
}

// Event is a Calendar event: it starts on Date at Time and ends at End ("15:04").
type Event struct {
	ID, Title, Date, Time, End, Location string
}

// Events returns the Calendar's events.
func (p *Phone) Events() []Event {
	recs, _ := p.Records("events")
	out := make([]Event, 0, len(recs))
	for _, r := range recs {
		out = append(out, Event{ID: r["id"], Title: r["title"], Date: r["date"], Time: r["time"], End: r["end"],
			Location: r["location"]})
	}
	return out
}

// Note is a note of the Notes app.
type Note struct {
	ID, Title, Body string
}

// Notes returns the notes.
func (p *Phone) Notes() []Note {
	recs, _ := p.Records("notes")
	out := make([]Note, 0, len(recs))
	for _, r := range recs {
		out = append(out, Note{ID: r["id"], Title: r["title"], Body: r["body"]})
	}
	return out
}

// OrderItem is one line of a shop order.
type OrderItem struct {
	Name     string
	Quantity int
	Price    float64
}

// Order is a food order of the shop app.
type Order struct {
	ID           string
	Items        []OrderItem
	Total        float64
	DeliveryTime string
	Paid         bool
}

// Orders returns the shop's orders with their items.
func (p *Phone) Orders() []Order {
	orders, _ := p.Records("orders")
	items, _ := p.Records("order_items")
	out := make([]Order, 0, len(orders))
	for _, r := range orders {
		o := Order{ID: r["id"], DeliveryTime: r["delivery_time"], Paid: r["paid"] == "true"}
		o.Total, _ = strconv.ParseFloat(r["total"], 64)
		for _, it := range items {
			if it["order"] != o.ID {
				continue
			}
			q, _ := strconv.Atoi(it["qty"])
			pr, _ := strconv.ParseFloat(it["price"], 64)
			o.Items = append(o.Items, OrderItem{Name: it["name"], Quantity: q, Price: pr})
		}
		out = append(out, o)
	}
	return out
}

// isBlackPNG reports whether a PNG is entirely black (what a FLAG_SECURE screen gives).
func isBlackPNG(b []byte) bool {
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return false
	}
	bd := img.Bounds()
	for y := bd.Min.Y; y < bd.Max.Y; y += 7 {
		for x := bd.Min.X; x < bd.Max.X; x += 7 {
			r, g, bb, _ := img.At(x, y).RGBA()
			if r|g|bb != 0 {
				return false
			}
		}
	}
	return true
}
