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
// A sensitive action (pay, delete, send, …) is asked of the person through MCP
// elicitation; without a yes — the client cannot elicit, the person declines or cancels —
// it is refused. Because a run asks in the middle of a long tool call, the server speaks
// the protocol versions that allow a server to ask during a call (2025-06-18 and
// 2025-11-25); see [protocolVersions].
package mcp
