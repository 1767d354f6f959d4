package explore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/learner"
	"github.com/fairy-go/fairy/perception"
)

// Why a crawl ends.
const (
	stopDone        = "done"
	stopBudget      = "budget"
	stopTime        = "time"
	stopInterrupted = "interrupted"
)

// errStop ends the crawl on a bound (budget, time, ctx); the reason is in crawler.stopped.
var errStop = errors.New("explore: stopped")

// elemID names an element again on another visit: resource id, label and class, never
// its index (the learner's identity of a target).
type elemID struct{ id, label, class string }

func idOf(el *perception.Element) elemID {
	return elemID{id: el.ResourceID, label: el.Name(), class: el.Class}
}

func (e elemID) String() string {
	if e.label != "" {
		return e.label
	}
	return e.id
}

// node is a page found, with the taps that reach it from the first page.
type node struct {
	key   string
	desc  string
	path  []elemID
	depth int
}

// crawler is one exploration.
type crawler struct {
	cfg      Config
	bus      *event.Bus
	sess     *learner.Session
	start    time.Time
	deadline time.Time

	step   int
	screen *perception.Screen // the screen on the phone, as last perceived
	here   *node              // the page it is on (nil: unknown, off the map's paths)

	nodes    map[string]*node
	queue    []*node
	known    map[string]bool // pages the map knew before
	leaves   map[elemID]bool // elements that brought another app up
	seen     map[string]bool // every page key perceived
	actions  int
	doing    string // the last action, for the progress line
	stopped  string
	sum      Summary
	pictured map[string]bool
	// effects are what taps in an app were once seen to do (the knowledge's deeds): such
	// an element is never tapped.
	effects func(app string) []event.LearnedEffect
}

func newCrawler(cfg Config, l *learner.Learner) *crawler {
	c := &crawler{cfg: cfg, bus: event.NewBus(cfg.Clock), nodes: map[string]*node{}, known: map[string]bool{},
		seen: map[string]bool{}, leaves: map[elemID]bool{}, pictured: map[string]bool{}, effects: l.Effects}
	c.sum = Summary{App: cfg.App, Skipped: map[string]int{}}
	if !cfg.DryRun {
		c.sess = l.Start("", "explore "+cfg.App)
		c.sess.Attach(c.bus)
	}
	return c
}

func (c *crawler) run(ctx context.Context) (Summary, error) {
	c.start = c.cfg.Clock()
	if c.cfg.Time > 0 {
		c.deadline = c.start.Add(c.cfg.Time)
	}
	if m, err := c.cfg.Store.Map(c.cfg.App); err == nil {
		for _, p := range m.Pages {
			c.known[p.Key] = true
		}
	}
	c.bus.Publish(event.RunStarted{Instruction: "explore " + c.cfg.App})
	c.bus.Publish(event.AppTaskStarted{Instruction: "explore " + c.cfg.App,
		Task: event.AppTask{App: c.cfg.App, Task: "explore the app's pages (model-free crawler)"}})
	err := c.crawl(ctx)
	c.bus.Publish(event.TaskFinished{Outcome: event.OutcomeStopped, Reason: "exploration", Steps: c.step})
	c.sum.Actions = c.actions
	pages, transitions := c.mapped()
	c.sum.Pages, c.sum.Transitions = len(pages), transitions
	c.sum.Elapsed = c.cfg.Clock().Sub(c.start)
	for key := range pages {
		if !c.known[key] {
			c.sum.NewPages++
		}
	}
	c.sum.Unreached = len(c.queue)
	switch {
	case errors.Is(err, errStop):
		c.sum.Stopped = c.stopped
		err = nil
	case err != nil:
		c.sum.Stopped = err.Error()
	default:
		c.sum.Stopped = stopDone
	}
	if c.sess != nil {
		if serr := c.sess.Err(); serr != nil {
			c.cfg.Logger.Warn("explore: some map writes failed", "err", serr)
		}
	}
	return c.sum, err
}

// crawl launches the app and visits its pages breadth first.
func (c *crawler) crawl(ctx context.Context) error {
	if err := c.launch(ctx); err != nil {
		return err
	}
	if c.screen.Package != c.cfg.App {
		return fmt.Errorf("%w: %s is in front", ErrNotLaunched, c.screen.Package)
	}
	if err := c.toFirstPage(ctx); err != nil {
		return err
	}
	root := c.visit(c.screen, nil)
	c.here = root
	if c.cfg.DryRun {
		c.dryRun()
		return nil
	}
	for len(c.queue) > 0 {
		n := c.queue[0]
		c.queue = c.queue[1:]
		if err := c.goTo(ctx, n); err != nil {
			if errors.Is(err, errStop) || ctx.Err() != nil {
				c.queue = append([]*node{n}, c.queue...)
				return err
			}
			c.cfg.Logger.Info("explore: page not reached again", "page", n.desc, "err", err)
			continue
		}
		if err := c.explorePage(ctx, n); err != nil {
			return err
		}
	}
	return nil
}

// launcherActivity is a Device that names an app's launcher activity; *adb.Device is one.
type launcherActivity interface {
	LauncherActivity(ctx context.Context, pkg string) (string, error)
}

// toFirstPage brings the app back to its launcher activity when the launch resumed it on
// a deeper page (the app was left there): Back until the launcher activity shows, or the
// app leaves and is launched anew. A device that cannot name the launcher activity starts
// where the launch left it.
func (c *crawler) toFirstPage(ctx context.Context) error {
	la, ok := c.cfg.Device.(launcherActivity)
	if !ok {
		return nil
	}
	comp, err := la.LauncherActivity(ctx, c.cfg.App)
	if err != nil {
		return nil
	}
	pkg, act, found := strings.Cut(comp, "/")
	if !found {
		return nil
	}
	if strings.HasPrefix(act, ".") {
		act = pkg + act
	}
	for range maxBacks {
		if c.screen.Package != c.cfg.App || c.screen.Activity == act {
			break
		}
		if err := c.back(ctx); err != nil {
			return err
		}
	}
	if c.screen.Package != c.cfg.App {
		return c.launch(ctx)
	}
	return nil
}

// visit registers the page of s, reached by path; it returns its node, queued for
// exploring when it is new.
func (c *crawler) visit(s *perception.Screen, path []elemID) *node {
	key := knowledge.PageKey(s.Activity, s.Signature)
	if n, ok := c.nodes[key]; ok {
		return n
	}
	n := &node{key: key, desc: describe(s), path: append([]elemID(nil), path...), depth: len(path)}
	c.nodes[key] = n
	if n.depth <= c.cfg.Depth {
		c.queue = append(c.queue, n)
	}
	return n
}

// dryRun reports what the first page offers, without a tap.
func (c *crawler) dryRun() {
	c.queue = nil
	known := c.effects(c.cfg.App)
	for i := range c.screen.Elements {
		el := &c.screen.Elements[i]
		why := judge(c.cfg.Guard, el, c.screen, known)
		t := Tap{Page: c.here.desc, Element: idOf(el).String(), Role: el.Role, Reason: why}
		switch why {
		case "":
			c.sum.Taps = append(c.sum.Taps, t)
		case skipNotTapped:
		default:
			c.sum.Skipped[why]++
			c.sum.Left = append(c.sum.Left, t)
		}
	}
}

// explorePage taps, one by one, every safe element of page n (scrolling its list down for
// more), coming back to n after each tap that led elsewhere.
func (c *crawler) explorePage(ctx context.Context, n *node) error {
	tried := map[elemID]bool{}
	judged := map[elemID]bool{}
	scrolls := 0
	for {
		if c.here != n {
			if err := c.goTo(ctx, n); err != nil {
				if errors.Is(err, errStop) || ctx.Err() != nil {
					return err
				}
				c.cfg.Logger.Info("explore: page left unfinished", "page", n.desc, "err", err)
				return nil
			}
		}
		var next *perception.Element
		known := c.effects(c.cfg.App)
		for i := range c.screen.Elements {
			el := &c.screen.Elements[i]
			id := idOf(el)
			if tried[id] {
				continue
			}
			why := judge(c.cfg.Guard, el, c.screen, known)
			if why == "" && c.leaves[id] {
				why = skipLeaves
			}
			if why != "" {
				if !judged[id] && why != skipNotTapped {
					c.sum.Skipped[why]++
				}
				judged[id] = true
				continue
			}
			next = el
			break
		}
		if next == nil {
			if scrolls >= maxScrolls || c.scrollable() == nil {
				return nil
			}
			scrolls++
			moved, err := c.scroll(ctx, "up")
			if err != nil {
				return err
			}
			if !moved {
				return nil
			}
			continue
		}
		id := idOf(next)
		tried[id] = true
		if err := c.tapFrom(ctx, n, next); err != nil {
			return err
		}
	}
}

// tapFrom taps el on page n and deals with where it led: a new page is registered and
// left with Back; another app is left at once.
func (c *crawler) tapFrom(ctx context.Context, n *node, el *perception.Element) error {
	id := idOf(el)
	c.sum.Taps = append(c.sum.Taps, Tap{Page: n.desc, Element: id.String(), Role: el.Role})
	ev := c.actionEvent(event.Action{Type: event.Tap, Index: el.Index}, el)
	if err := c.act(ctx, "tap "+id.String(), func() error { return c.cfg.Device.Tap(ctx, el.Center.X, el.Center.Y) }); err != nil {
		return err
	}
	s, err := c.look(ctx)
	if err != nil {
		return err
	}
	if s.Package != c.cfg.App {
		c.leaves[id] = true
		c.sum.Skipped[skipLeaves]++
		return c.comeBack(ctx, n)
	}
	c.bus.Publish(ev)
	c.perceived(ctx, s)
	key := knowledge.PageKey(s.Activity, s.Signature)
	if key == n.key {
		return nil // stayed: the tap did nothing visible, or changed the page in place
	}
	c.here = c.visit(s, append(append([]elemID(nil), n.path...), id))
	return c.comeBack(ctx, n)
}

// comeBack returns to page n: Back, or a relaunch and n's path when Back does not return.
func (c *crawler) comeBack(ctx context.Context, n *node) error {
	for range maxBacks {
		if c.atPage(n) {
			return nil
		}
		if err := c.back(ctx); err != nil {
			return err
		}
		if c.screen.Package != c.cfg.App {
			break
		}
	}
	if c.atPage(n) {
		return nil
	}
	return c.goTo(ctx, n)
}

// atPage reports whether the screen shows page n (of the app).
func (c *crawler) atPage(n *node) bool {
	return c.screen != nil && c.screen.Package == c.cfg.App && knowledge.PageKey(c.screen.Activity, c.screen.Signature) == n.key
}

// goTo brings page n to the screen: Back until the screen shows n or a page of n's path,
// then the rest of the path; failing that, a relaunch and the whole path.
func (c *crawler) goTo(ctx context.Context, n *node) error {
	if c.atPage(n) {
		c.here = n
		return nil
	}
	// Back towards the first page, stopping on a page of n's path.
	onPath := func() int {
		if c.screen.Package != c.cfg.App {
			return -1
		}
		key := knowledge.PageKey(c.screen.Activity, c.screen.Signature)
		for i := len(n.path); i >= 0; i-- {
			if p := c.pathNode(n, i); p != nil && p.key == key {
				return i
			}
		}
		return -1
	}
	at := onPath()
	for b := 0; at < 0 && b < maxBacks && c.screen.Package == c.cfg.App; b++ {
		if err := c.back(ctx); err != nil {
			return err
		}
		at = onPath()
	}
	if at < 0 {
		if err := c.launch(ctx); err != nil {
			return err
		}
		if at = onPath(); at < 0 {
			return fmt.Errorf("explore: the app opened on another page than the first")
		}
	}
	for i := at; i < len(n.path); i++ {
		if err := c.replayTap(ctx, n.path[i]); err != nil {
			return err
		}
	}
	if !c.atPage(n) {
		return fmt.Errorf("explore: the path to %q led elsewhere", n.desc)
	}
	c.here = n
	return nil
}

// pathNode returns the node at step i of n's path (0: the first page), when known.
func (c *crawler) pathNode(n *node, i int) *node {
	if i == len(n.path) {
		return n
	}
	for _, o := range c.nodes {
		if len(o.path) == i && prefix(o.path, n.path) {
			return o
		}
	}
	return nil
}

func prefix(p, of []elemID) bool {
	if len(p) > len(of) {
		return false
	}
	for i := range p {
		if p[i] != of[i] {
			return false
		}
	}
	return true
}

// replayTap taps the element named id on the screen, scrolling down (then up) the page's
// list to find it.
func (c *crawler) replayTap(ctx context.Context, id elemID) error {
	for _, dir := range []string{"up", "down"} {
		for range maxScrolls + 1 {
			if el := c.find(id); el != nil {
				ev := c.actionEvent(event.Action{Type: event.Tap, Index: el.Index}, el)
				if err := c.act(ctx, "tap "+id.String(), func() error { return c.cfg.Device.Tap(ctx, el.Center.X, el.Center.Y) }); err != nil {
					return err
				}
				s, err := c.look(ctx)
				if err != nil {
					return err
				}
				if s.Package != c.cfg.App {
					return fmt.Errorf("explore: %q brought another app up", id)
				}
				c.bus.Publish(ev)
				c.perceived(ctx, s)
				c.here = c.nodes[knowledge.PageKey(s.Activity, s.Signature)]
				return nil
			}
			moved, err := c.scroll(ctx, dir)
			if err != nil {
				return err
			}
			if !moved {
				break
			}
		}
	}
	return fmt.Errorf("explore: %q is no longer on its page", id)
}

// find returns the element named id on the screen, or nil.
func (c *crawler) find(id elemID) *perception.Element {
	for i := range c.screen.Elements {
		if idOf(&c.screen.Elements[i]) == id {
			return &c.screen.Elements[i]
		}
	}
	return nil
}

// scrollable returns the largest vertically scrollable element of the screen, or nil.
func (c *crawler) scrollable() *perception.Element {
	var best *perception.Element
	for i := range c.screen.Elements {
		el := &c.screen.Elements[i]
		if el.Scrollable && el.ScrollDir != perception.ScrollHorizontal && (best == nil || el.Bounds.Area() > best.Bounds.Area()) {
			best = el
		}
	}
	return best
}

// scroll swipes the page's list (finger "up": the list moves on) and reports whether the
// screen changed.
func (c *crawler) scroll(ctx context.Context, dir string) (bool, error) {
	el := c.scrollable()
	if el == nil {
		return false, nil
	}
	a := event.Action{Type: event.Swipe, Index: el.Index, Direction: dir}
	if _, held := c.cfg.Guard.Check(a, el, c.screen); held {
		return false, nil // a slider that pays or confirms, not a list
	}
	before := c.screen.Text()
	x1, y1, x2, y2 := perception.SwipePath(el.Bounds, dir)
	ev := c.actionEvent(a, el)
	if err := c.act(ctx, "scroll", func() error { return c.cfg.Device.Swipe(ctx, x1, y1, x2, y2, swipeDuration) }); err != nil {
		return false, err
	}
	s, err := c.look(ctx)
	if err != nil {
		return false, err
	}
	if s.Package != c.cfg.App {
		return false, c.comeBack(ctx, c.here)
	}
	c.bus.Publish(ev)
	c.perceived(ctx, s)
	c.here = c.nodes[knowledge.PageKey(s.Activity, s.Signature)]
	return s.Text() != before, nil
}

// back presses Back and perceives the screen; another app's screen is not published.
func (c *crawler) back(ctx context.Context) error {
	ev := c.actionEvent(event.Action{Type: event.Back}, nil)
	if err := c.act(ctx, "back", func() error { return c.cfg.Device.Key(ctx, "back") }); err != nil {
		return err
	}
	s, err := c.look(ctx)
	if err != nil {
		return err
	}
	c.here = nil
	if s.Package == c.cfg.App {
		c.bus.Publish(ev)
		c.perceived(ctx, s)
		c.here = c.nodes[knowledge.PageKey(s.Activity, s.Signature)]
	}
	return nil
}

// launch starts the app (or brings it to the front) and perceives its screen.
func (c *crawler) launch(ctx context.Context) error {
	if err := c.act(ctx, "launch", func() error { return c.cfg.Device.Launch(ctx, c.cfg.App) }); err != nil {
		return err
	}
	s, err := c.look(ctx)
	if err != nil {
		return err
	}
	c.here = nil
	if s.Package == c.cfg.App {
		if !c.cfg.DryRun {
			// A launch starts anew: no transition links it to the screen before.
			c.bus.Publish(event.AppTaskStarted{Instruction: "explore " + c.cfg.App,
				Task: event.AppTask{App: c.cfg.App, Task: "explore the app's pages (model-free crawler)"}})
		}
		c.perceived(ctx, s)
		c.here = c.nodes[knowledge.PageKey(s.Activity, s.Signature)]
	}
	return nil
}

// act runs one device action within the bounds and settles the screen.
func (c *crawler) act(ctx context.Context, what string, do func() error) error {
	switch {
	case ctx.Err() != nil:
		c.stopped = stopInterrupted
		return errStop
	case c.actions >= c.cfg.Budget:
		c.stopped = stopBudget
		return errStop
	case !c.deadline.IsZero() && !c.cfg.Clock().Before(c.deadline):
		c.stopped = stopTime
		return errStop
	}
	c.actions++
	if err := do(); err != nil {
		if ctx.Err() != nil {
			c.stopped = stopInterrupted
			return errStop
		}
		return fmt.Errorf("explore: %s: %w", what, err)
	}
	if err := c.cfg.Device.Settle(ctx); err != nil && ctx.Err() != nil {
		c.stopped = stopInterrupted
		return errStop
	}
	c.doing = what
	return nil
}

// look reads the screen (dump and foreground activity) without publishing it.
func (c *crawler) look(ctx context.Context) (*perception.Screen, error) {
	var lastErr error
	for range 3 {
		xml, err := c.cfg.Device.Dump(ctx)
		if err != nil {
			if ctx.Err() != nil {
				c.stopped = stopInterrupted
				return nil, errStop
			}
			lastErr = err
			_ = c.cfg.Device.Settle(ctx)
			continue
		}
		s, err := perception.Parse(xml)
		if err != nil {
			lastErr = err
			_ = c.cfg.Device.Settle(ctx)
			continue
		}
		if pkg, act, err := c.cfg.Device.Foreground(ctx); err == nil {
			s.Activity = act
			if s.Package == "" {
				s.Package = pkg
			}
		}
		c.screen = s
		return s, nil
	}
	return nil, fmt.Errorf("explore: read the screen: %w", lastErr)
}

// perceived publishes the screen on the bus, as the executor does at each step, and marks
// its page explored.
func (c *crawler) perceived(ctx context.Context, s *perception.Screen) {
	if c.cfg.DryRun {
		return
	}
	key := knowledge.PageKey(s.Activity, s.Signature)
	found := ""
	if !c.seen[key] {
		found = describe(s)
	}
	c.seen[key] = true
	c.step++
	ev := event.ScreenPerceived{Step: c.step, Package: s.Package, Activity: s.Activity, Signature: s.Signature,
		Elements: len(s.Elements), Keyboard: s.Keyboard, Text: s.Text()}
	if c.cfg.Pictures && !c.pictured[key] {
		c.pictured[key] = true
		if png, err := c.cfg.Device.Screenshot(ctx); err == nil && len(png) > 0 {
			ev.Marked, ev.MarkedMIME = png, "image/png"
		}
	}
	c.bus.Publish(ev)
	if err := c.cfg.Store.Update(func(tx *knowledge.Tx) error { return tx.PageExplored(s.Package, key) }); err != nil {
		c.cfg.Logger.Debug("explore: page not marked explored", "page", key, "err", err)
	}
	c.report(s, found)
}

// actionEvent is the ActionExecuted the executor would publish for a on el.
func (c *crawler) actionEvent(a event.Action, el *perception.Element) event.ActionExecuted {
	ev := event.ActionExecuted{Step: c.step, Action: a, Signature: c.screen.Signature}
	if el != nil {
		ev.Element = &event.ElementRef{Label: el.Name(), ResourceID: el.ResourceID, Class: el.Class, X: el.Center.X, Y: el.Center.Y}
	}
	return ev
}

// mapped returns the pages (key → map ID) and the number of transitions the exploration
// wrote into the map — what `fairy map list` counts, for a map explored from empty; a dry
// run, which writes nothing, counts the pages it saw.
func (c *crawler) mapped() (map[string]string, int) {
	if c.sess == nil {
		pages := make(map[string]string, len(c.seen))
		for key := range c.seen {
			pages[key] = ""
		}
		return pages, 0
	}
	m := c.sess.Mapped(c.cfg.App)
	return m.Pages, m.Transitions
}

// report calls the progress hook.
func (c *crawler) report(s *perception.Screen, found string) {
	if c.cfg.Progress == nil {
		return
	}
	pages, transitions := c.mapped()
	c.cfg.Progress(Progress{Pages: len(pages), Transitions: transitions, Actions: c.actions,
		Left: max(0, c.cfg.Budget-c.actions), Page: describe(s), PageID: pages[knowledge.PageKey(s.Activity, s.Signature)],
		Found: found, Doing: c.doing})
}
