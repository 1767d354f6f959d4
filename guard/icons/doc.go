// Package icons recognises an icon by its picture: a bin, a paper plane, a cart, a card, a
// share glyph drawn with no text and no description, which only its pixels say is a
// delete, a send, an order, a payment or a share.
//
// A [Matcher] compares the crop of a screenshot where an element is drawn with a reference
// set of Material Icons — the icon font Android apps draw from — rendered at the crop's
// own scale from outlines embedded in the binary (glyphs_gen.go, generated from Debian's
// fonts-material-design-icons-iconfont by `go generate`; Apache License 2.0, see NOTICE),
// so it works on a host with no font. The crop is made black and white by contrast with
// its background, either polarity and any colour, and both pictures are compared on a
// fixed grid by the distance of each one's edges to the other's, which tolerates small
// differences of drawing. Ordinary icons (back, menu, search, settings, …) are in the set
// too: a picture not clearly nearer to a sensitive icon than to all of them is not taken
// for one.
package icons

//go:generate go run ./internal/gen -out glyphs_gen.go
