// Package scripted is fairy's scripted model: a deterministic OpenAI-compatible
// chat-completions server that answers from a rules file. It stands in for a real model in
// tests, in the demo and in offline evaluation, and it goes through the same client code
// (llm/openai) as a real one. It is not a model: every answer says so (model
// "fairy-scripted", system_fingerprint "fairy-scripted").
//
// # Rules file
//
// A YAML document with a top-level "rules" list. Rules are tried in order; the first that
// matches answers.
//
//	rules:
//	  - name: open the chat          # for logs and errors (default "rule N")
//	    role: decider                # the request's role; "" or "*" = any role
//	    match: ['Send a message to (\w+)', 'Chats']   # regexps; all must match the prompt
//	    not: ['Type a message']      # regexps; none may match the prompt
//	    times: 1                     # fire at most once (0 or absent = unlimited)
//	    answer: |
//	      {"action": "tap", "index": {{index "Chats"}}, "why": "open chats for {{match 1}}"}
//
// Role. The role is the name of the JSON schema in response_format (json_schema mode; fairy
// always names the schema after the role). In json_object and text modes, or without a
// schema, the adapter appends a line "fairy-role: ROLE" (llm.RoleMarker) to the system prompt
// and the server reads the role from it.
//
// Prompt. Patterns ("match", "not") are Go regexps matched against the prompt: the text of
// every non-system message, joined by blank lines (use (?s), (?i), (?m) flags as needed).
// The system prompt is not matched.
//
// Answer. A Go text/template. Its dot is a Data value (.Role, .System, .Prompt, .Times — how
// many times this rule has fired, this time included — and .Call). Functions:
//
//	{{index "Send"}}  the index N of the element on the screen labelled Send
//	{{has "Send"}}    whether such an element is on the screen
//	{{label 3}}       the label of element 3
//	{{match 1}}       capture group 1; groups are numbered across the rule's "match"
//	                  patterns in order, {{match 0}} is the first pattern's whole match
//	{{json .Prompt}}  a value encoded as JSON (quotes and escapes a string)
//
// The screen is read from perception's text form in the prompt, whose element lines are
// `- [N] ROLE "LABEL" id=ID state…`. When the prompt holds several screens the last one
// counts (an index that does not increase starts a new screen). An element is looked up by
// exact label, then exact id, then case-insensitive label, then case-insensitive substring of
// the label, then of the id; the lowest index wins. So a script says what to do and the
// screen says where: it stays right when the numbering changes.
//
// # Errors
//
// A request no rule matches is answered with HTTP 400 and an OpenAI-style error (code
// "no_rule_matched") whose message names the role and quotes the first 300 bytes of the
// prompt; a planner's starts "scripted: no rule for this instruction" (the script does not
// know the instruction, and the run stops before it touches an app). A template that fails
// (e.g. index of an element not on the screen) gets HTTP 400 (code "template_failed")
// naming the rule and the screen's elements. Requests whose system prompt holds
// llm.CheckMarker (`fairy model check`) get {"ok": true} when no rule matches.
//
// # Usage
//
// Token counts are deterministic: prompt = ceil(bytes of system and prompt / 4) + 85 per
// image, completion = ceil(bytes of the answer / 4), so cost accounting can be tested.
// Every request is logged (slog, level Info) with its role and the rule that answered.
package scripted
