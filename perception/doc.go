// Package perception turns what a phone shows into what a model reads.
//
// It is pure: bytes in, values out. [Parse] reads a UI Automator dump (the
// stock `uiautomator dump` format or the uiautomator2/Appium page source),
// tolerating what real devices send, and returns a [Screen]: the foreground
// package, the actionable elements indexed 1..N in reading order, keyboard
// state, a page signature and the informative static text. [Screen.Text]
// renders the compact nested text form the models read (non-visual mode), a
// [Marker] draws the set-of-mark image (visual mode), [Diff] compares two
// screens for reflection and an [IconDescriber] fills in descriptions of
// text-less icons through a caption function supplied by the caller.
//
// Where the tree does not describe the screen ([Screen.Uncovered]: a childless
// WebView, SurfaceView or canvas), a [PixelReader] reads the screenshot there
// with an [OCR] engine the caller supplies (executor/ocr runs Tesseract) and
// adds each line read as an element marked FromPicture, and each icon drawn
// there with no text (a toolbar's pictogram, a map's pin) as an element marked
// Drawn.
//
// What every part says about an element lives on the screen, so an action, a consent and
// a check name it alike: [Element.Name] and [Element.FieldName] name it,
// [Screen.ElementAt] is the element under a point (where a tap by coordinates lands), and
// [SwipePath] is the path a swipe on an element takes.
//
// Caveats: an element's Index is only good for the screen it came from: the next dump
// numbers its elements anew, so a caller keeps the Screen an index was read on (the
// executor re-reads before acting on an answer). Screen.Signature names the page, not its
// content: the same page with other rows, amounts or typed text keeps it, which is what the
// App Map needs and what a check of the page's content must not rely on. Parse never
// panics on what a phone sends — noise around the XML, an `ERROR: could not get idle
// state.` line, a tree cut short — and says what went wrong with a typed error
// (*SyntaxError, *NotXMLError, *DumperError) whose message tells the caller to dump again
// where that is the fix. The package reads no device and calls no model: OCR and
// captions come in through the interfaces above.
package perception
