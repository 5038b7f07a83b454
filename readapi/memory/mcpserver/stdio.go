package mcpserver

import (
	"context"
	"crypto/rand"
	"io"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/strata-platform/strata/domain/memory"
)

// NewSessionID returns a random session id (26 base32 characters), valid
// in a session:<id> namespace.
func NewSessionID() string { return rand.Text() }

// CheckSessionID reports whether session may name a session:<id>
// namespace (1-128 characters, no white space); field names the setting in
// the error.
func CheckSessionID(field, session string) error {
	return memory.CheckNamespace(field, "session:"+session)
}

// ServeStdio serves the memory tools as newline-delimited JSON-RPC on in
// and out until ctx ends or in closes, acting through b. The whole
// connection is one session whose namespace is session:<session>. Nothing
// but protocol messages is written to out; logger (nil: none) gets the
// rest.
func ServeStdio(ctx context.Context, b Backend, session string, in io.ReadCloser, out io.WriteCloser, logger *slog.Logger) error {
	srv := NewServer(Options{Bind: Static(b), Logger: logger,
		SessionID: func(*mcp.CallToolRequest) string { return session }})
	return srv.Run(ctx, &mcp.IOTransport{Reader: in, Writer: out})
}
