// Package live serves a run's live page: the phone's screen as it changes, the
// instruction, the plan and its current sub-goal, each step as it happens (seen, decided,
// guarded, done), the App Map path followed, and the model calls and their cost so far —
// with the questions and consent requests of the run, answerable on the page, and a Stop
// button.
//
// A Server listens on loopback (another address only with a token the person chose),
// prints its address with a random token in it, and refuses a request that names another
// host (DNS rebinding), comes from another origin, or lacks the token (Access, which
// `fairy mcp --http` uses too). The page is one self-contained HTML file embedded in the
// binary: no build step, no framework, no network beyond its own server; it is fed by
// server-sent events.
//
// A Panel is one phone's part of the page: its Handle subscribes to the run's event bus,
// and it is an interaction.Dialoger whose questions the page answers; First races it
// with the terminal, so whichever the person answers first counts. As an
// interaction.Hander it says "your turn" when the run hands the phone over: given its
// Phone (SetPhone), the page shows the screen as it is now, forwards taps on that picture
// to the phone during the hand-over only, and its "give it back" ends the hand-over
// (raced with the terminal's Enter, as questions are). A phone with a live stream (the
// resident UI server's MJPEG frames) is shown from it while its screen holds no secret.
package live
