// Package mcpserver serves the memory service (v2) as a Model Context
// Protocol server: the tools remember, recall, forget, relate,
// merge_entities, reflect, profile, timeline and context, with typed inputs
// (JSON schemas inferred from the argument types) and structured outputs
// that mirror the REST answers.
//
// The tools act through a Backend: in process over the memory API (the
// platform API's /mcp route, Handler) or as an HTTP client of the REST
// routes (the stdio server, ServeStdio). A session remembers into and
// recalls from its own namespace, session:<session id>, unless the call
// names a namespace or allows other namespaces. Errors of a call, bad
// input among them, are tool errors (isError results whose text names the
// field and the rule), never protocol errors.
package mcpserver

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/strata-platform/strata/domain/kernel"
	readmemory "github.com/strata-platform/strata/readapi/memory"
)

// Name and Version identify the server to MCP clients.
const (
	Name    = "strata-memory"
	Version = "2.0.0"
)

// Binder picks the backend a tool call acts through and the context it
// acts in. scope is the OAuth scope the tool needs (memory:read or
// memory:write); a binder refuses a caller without it with an error the
// client sees as a tool error.
type Binder func(ctx context.Context, req *mcp.CallToolRequest, scope string) (context.Context, Backend, error)

// Static is the Binder of a server that always acts through b (the stdio
// server: the credential's scopes are checked by the API b calls).
func Static(b Backend) Binder {
	return func(ctx context.Context, _ *mcp.CallToolRequest, _ string) (context.Context, Backend, error) {
		return ctx, b, nil
	}
}

// Options configure NewServer.
type Options struct {
	// Bind picks each call's backend (required).
	Bind Binder
	// SessionID names the calling session; its namespace is
	// session:<id>. Nil means the MCP session's id (Mcp-Session-Id over
	// streamable HTTP). An empty id leaves the REST defaults (global, every
	// namespace) in place.
	SessionID func(req *mcp.CallToolRequest) string
	// Logger records internal errors (nil: discarded).
	Logger *slog.Logger
}

// server is the tools' shared state.
type server struct {
	bind    Binder
	session func(req *mcp.CallToolRequest) string
	log     *slog.Logger
}

// NewServer returns an MCP server with the nine memory tools. It speaks
// the session-based protocol versions only (up to 2025-11-25), because the
// tools' defaults are scoped to the MCP session.
func NewServer(opts Options) *mcp.Server {
	s := &server{bind: opts.Bind, session: opts.SessionID, log: opts.Logger}
	if s.session == nil {
		s.session = func(req *mcp.CallToolRequest) string {
			if req.Session == nil {
				return ""
			}
			return req.Session.ID()
		}
	}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: Name, Title: "Strata memory", Version: Version},
		&mcp.ServerOptions{Instructions: instructions, Logger: opts.Logger,
			Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}}, SupportedProtocolVersions: sessionVersions()})
	s.addTools(srv)
	return srv
}

const instructions = "Long-term memory for this user. remember stores what is worth keeping; recall finds memories " +
	"by meaning; relate records facts between entities; merge_entities makes two entities one; timeline, profile " +
	"and reflect describe an entity; context writes a token-bounded summary of relevant memories. By default " +
	"remember and recall use this session's namespace (session:<id>); pass namespace \"global\" or " +
	"allow_cross_namespace true to reach beyond it."

// sessionVersions lists the SDK's protocol versions that have sessions
// (before 2026-07-28, which drops them).
func sessionVersions() []string {
	var out []string
	for _, v := range mcp.SupportedProtocolVersions() {
		if v < "2026-07-28" {
			out = append(out, v)
		}
	}
	return out
}

// add registers one tool: it binds the backend with the tool's scope, runs
// it, and turns its errors into tool errors.
func add[In, Out any](srv *mcp.Server, s *server, t *mcp.Tool, scope string,
	run func(ctx context.Context, b Backend, session string, in In) (Out, error)) {
	mcp.AddTool(srv, t, func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
		var zero Out
		ctx, b, err := s.bind(ctx, req, scope)
		if err != nil {
			return nil, zero, s.toolError(ctx, t.Name, err)
		}
		out, err := run(ctx, b, s.session(req), in)
		if err != nil {
			return nil, zero, s.toolError(ctx, t.Name, err)
		}
		return nil, out, nil
	})
}

// toolError is the text a client sees for a failed call: "<code>: " and
// the API's message, which for bad input names the field and the rule.
// Internal errors are logged and reported without their cause.
func (s *server) toolError(ctx context.Context, tool string, err error) error {
	if e, ok := isAPIError(err); ok {
		return errors.New(e.Code + ": " + e.Detail)
	}
	var ke *kernel.Error
	if errors.As(err, &ke) && ke.Kind != kernel.KindInternal {
		return errors.New(ke.Kind.String() + ": " + describe(ke))
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return errors.New("timeout: the call was cancelled or ran out of time")
	}
	s.log.ErrorContext(ctx, "memory tool failed", "tool", tool, "error", err)
	return errors.New("internal: the memory service failed; try again later")
}

// describe writes a kernel error as the REST API's problem detail does:
// "<field>: <rule> (<message>)" for bad input, else the message.
func describe(e *kernel.Error) string {
	if e.Field == "" {
		return e.Message
	}
	head := e.Field
	if e.Rule != "" {
		head += ": " + e.Rule
	}
	switch {
	case e.Message == "":
		return head
	case e.Rule == "":
		return head + ": " + e.Message
	}
	return head + " (" + e.Message + ")"
}

// sessionNamespace is the namespace of a session ("" without a session).
func sessionNamespace(session string) string {
	if session == "" {
		return ""
	}
	return "session:" + session
}

// required refuses an empty identifier argument.
func required(field, v string) error {
	if strings.TrimSpace(v) == "" {
		return kernel.Invalid(field, "required", field+" is required")
	}
	return nil
}

// Scopes the tools need, re-exported for binders.
const (
	ScopeRead  = readmemory.ScopeRead
	ScopeWrite = readmemory.ScopeWrite
)
