package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/strata-platform/strata/readapi/memory/mcpserver"
)

// defaultAPIURL is where `strata mcp memory` finds the platform API when
// STRATA_API_URL is not set.
const defaultAPIURL = "http://127.0.0.1:8080"

// mcp runs `strata mcp memory`: the memory tools over MCP on stdin and
// stdout, acting through the platform API's REST routes (no database). It
// reads STRATA_API_URL (default http://127.0.0.1:8080), STRATA_API_KEY
// (required: the account whose memory it serves) and STRATA_MCP_SESSION
// (the session namespace's id; default random per process). Stdout carries
// protocol messages only; logs go to stderr.
func (c *command) mcp(ctx context.Context, args []string, env map[string]string) error {
	if len(args) != 1 || args[0] != "memory" {
		return fmt.Errorf("%w: mcp memory", errUsage)
	}
	base := strings.TrimRight(strings.TrimSpace(env["STRATA_API_URL"]), "/")
	if base == "" {
		base = defaultAPIURL
	}
	if err := checkHTTPURL(base); err != nil {
		return fmt.Errorf("STRATA_API_URL: %w", err)
	}
	key := strings.TrimSpace(env["STRATA_API_KEY"])
	if key == "" {
		return errors.New("mcp memory: STRATA_API_KEY is required: set it to an API key of the account whose memory " +
			"the server acts on (issue one on the platform API: POST /api/v1/api-keys)")
	}
	session := strings.TrimSpace(env["STRATA_MCP_SESSION"])
	if session == "" {
		session = mcpserver.NewSessionID()
	} else if err := mcpserver.CheckSessionID("STRATA_MCP_SESSION", session); err != nil {
		return errors.New("STRATA_MCP_SESSION: must be 1-128 characters without white space")
	}
	c.logger.Info("serving the memory tools over MCP on stdio", "api", base, "namespace", "session:"+session)
	err := mcpserver.ServeStdio(ctx, mcpserver.NewHTTP(base, key, nil), session, os.Stdin, nopCloser{c.stdout}, c.logger)
	if err != nil && (errors.Is(err, io.EOF) || ctx.Err() != nil) {
		return nil
	}
	return err
}

// nopCloser lets the command's stdout serve as the transport's writer
// without the transport closing it.
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
