// Package deptest holds fairy's layout as tests, the way tailscale's tstest/deptest does:
// which package may import which (the design's layers), that each third-party dependency
// stays in its one adapter package, that every package says what it is in a doc comment, and
// how many exported names no other package uses. It has no code of its own; `go test
// ./internal/deptest` is the check, and its failure messages say which rule a change broke.
package deptest
