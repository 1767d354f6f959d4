// Package grounding speaks the action syntaxes and coordinate frames of the grounding
// models people run on their own machines: UI-TARS (click(start_box='(x,y)')), AutoGLM-Phone
// (do(action="Tap", element=[x,y])), Qwen2.5-VL / Qwen3-VL and GUI-Owl (mobile_use tool
// calls in JSON), beside fairy's own numbered actions (Som, which this package leaves to
// the prompts' JSON schema).
//
// Three jobs, each a function: Parse reads a model's answer into Actions whose points are
// in the model's Frame; Frame.ToScreen maps such a point to screen pixels (an error, worded
// for the model, when it is off the frame); ElementAt finds the element of a Screen under a
// screen point. Format is Parse's inverse, for the scripted model that stands in for these
// models in tests and evaluations.
//
// The syntaxes follow the models' own prompts and parsers; testdata/examples.json holds
// answers as their model cards and public repositories show them, each with its source.
package grounding
