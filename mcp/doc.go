// Package mcp is fairy's face for AI clients: a Model Context Protocol server (over stdio or
// streamable HTTP) whose tools read the phone's screen, act on it through the same guard
// the agent uses, list devices and apps, carry out whole instructions with the configured
// model, and read what fairy learned (App Maps and App Tricks).
//
// It is the only package that imports the official Go SDK
// (github.com/modelcontextprotocol/go-sdk). It reads no flags, files or environment:
// cmd/fairy hands it a [Config] of functions that open the phone, run the agent and open
// the knowledge file.
//
// The tools are devices, apps, screen, act (one action, judged by the guard first), run
// (a whole instruction, through the Run function cmd/fairy gives it: the same agent as
// `fairy run`), map and tricks. The types to know: Config
// (the functions and values the tools need: the guard, the phone opener, the run
// function, the knowledge opener), New, and Server.ServeIO (stdio) or Server.HTTPHandler
// (streamable HTTP, its sessions bounded by HTTPOptions). HTTPHandler checks no token,
// Origin or Host: the caller (cmd/fairy, with package live's checks) puts it behind them.
// The phone is one: a call that acts on it is refused while a run holds it. On stdio,
// nothing but the protocol may reach stdout, so the Logger never writes there.
//
// A sensitive action (pay, delete, send, …) is asked of the person through MCP
// elicitation; without a yes — the client cannot elicit, the person declines or cancels —
// it is refused. Because a run asks in the middle of a long tool call, the server speaks
// the protocol versions that allow a server to ask during a call (2025-06-18 and
// 2025-11-25); see [protocolVersions].
package mcp
