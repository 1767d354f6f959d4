// Package androidworld mirrors AndroidWorld (google-research/android_world, Apache-2.0,
// arXiv 2405.14573) on fairy's virtual phone: the benchmark's task families, set up and
// checked on the phone the way the benchmark checks them.
//
// Each family has its templates, parameter lists, target and noise rows, step budget (10 ×
// complexity) and difficulty; an instance is drawn from sha256(seed, family, instance), set
// up on the phone (records, incoming texts, a clock fixed at 2023-10-15 15:34 UTC) and
// checked on the phone's state. The simulated person knows what each task asks for from its
// checks (intent.go) and judges the agent's consent questions by it. It builds a suite and
// knows only the suite format (package suite), not the runner; package awreport reports a
// run as the benchmark reports it, from the tags every task carries (TagSuite, …).
// `fairy eval androidworld:sim` runs it.
//
// What to know:
//
//   - builders (family_list.go) lists the families, and the family_*.go files hold their
//     draw functions, one app a file: a builder names the family and the app, and its draw
//     function returns the instance: instruction, setup records, checks and the
//     walkthrough the scripted model follows (package walkthrough);
//   - the benchmark's own metadata (templates, complexity, difficulty, parameter lists)
//     is read from testdata/families.json and testdata/params.json, so a family's budget
//     and difficulty are AndroidWorld's, not chosen here;
//   - a check (check_*.go) reads the phone's state after the run and must reject what the
//     benchmark rejects (a note with the right text and the wrong name, a message to the
//     wrong number).
//
// Caveats: it is a mirror on a virtual phone, not AndroidWorld itself: the apps are fairy's
// sim apps (Simple SMS Messenger → Messages, Simple Calendar Pro → Calendar, Markor →
// Notes, …), and only the families whose app and features the phone has are built. A
// walkthrough reads what it types from the instruction or the screen, never from the
// drawn parameters, so the scripted model cannot pass a task it was not told.
package androidworld
