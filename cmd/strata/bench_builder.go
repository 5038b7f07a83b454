package main

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"net/http"
	"os/exec"
	"strings"
	"time"

	cmdidentity "github.com/strata-platform/strata/commands/identity"
	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/storebench"
	"github.com/strata-platform/strata/readapi/builder/builderbench"
)

// benchBuilder runs `strata bench builder [--quick]`: the builder surface
// of `strata serve` itself (benchBuilderServer) on the scratch database,
// measured over HTTP (readapi/builder/builderbench).
func (c *command) benchBuilder(ctx context.Context, scratch *storebench.Scratch, quick bool) error {
	opts := builderbench.Full()
	if quick {
		opts = builderbench.Quick()
	}
	c.logger.Info("bench running in a scratch database", "database", scratch.Name, "mode", opts.Mode)
	opts.Progress = c.stderr
	opts.Start = func(ctx context.Context) (*builderbench.Builder, error) {
		return c.benchBuilderServer(ctx, scratch.URL, scratch.DB)
	}
	rep, err := builderbench.Run(ctx, opts)
	if err != nil {
		return err
	}
	return rep.Print(c.stdout)
}

// The founder account the bench signs in with.
const (
	benchFounderEmail    = "builder-bench@bench.invalid"
	benchFounderPassword = "Builder-bench-pass-1"
)

// benchBuilderServer starts `strata serve --surfaces builder,api` with the
// production wiring on the database at dbURL (a scratch database), on free
// loopback ports, with a data directory of its own (the blob store, the
// apps' files and data) and the default configuration: generations run as
// durable jobs, the apps run under node behind the builder's proxy, and
// founders sign in through the platform's OAuth provider (the api
// surface). The access log is written at the configured level, to
// nowhere; warnings and errors go to the command's stderr. Through the
// running server's identity service it registers the founder the bench
// signs in as. It needs node on PATH: without it the previews serve files
// only and nothing could be redeployed.
func (c *command) benchBuilderServer(ctx context.Context, dbURL string, db *stdsql.DB) (_ *builderbench.Builder, err error) {
	nodePath, err := exec.LookPath("node")
	if err != nil {
		return nil, errors.New("bench builder: node is not on PATH: the generated apps run under node (previews' API, redeploys)")
	}
	nodeVersion, err := exec.CommandContext(ctx, nodePath, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("bench builder: node --version: %w", err)
	}
	app, addrs, _, done, closeServer, err := c.benchLoopback(ctx, "bench builder", "strata-bench-builder-", "builder,api", dbURL,
		"STRATA_BUILDER_ADDR", "STRATA_API_ADDR", "STRATA_ADMIN_ADDR")
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			_ = closeServer()
		}
	}()
	base := "http://" + addrs[0]
	if err := waitBuilderHealthy(ctx, base+"/api/health", done); err != nil {
		return nil, err
	}
	switch {
	case app.Chats == nil || app.Founders == nil || app.Identity == nil:
		return nil, errors.New("bench builder: serve's wiring runs no builder")
	case app.Deploys == nil:
		return nil, errors.New("bench builder: serve runs no app runtime (is node on its PATH?)")
	}
	if _, err := app.Identity.Service.Register(ctx, cmdidentity.Register{Email: benchFounderEmail, Password: benchFounderPassword,
		FullName: "Builder bench founder"}); err != nil {
		return nil, fmt.Errorf("bench builder: register the founder: %w", err)
	}
	appendOne := func(ctx context.Context) error {
		id := "bench-append-" + app.IDs.NewID()
		_, err := app.Store.Append(ctx, eventstore.Stream{Type: builder.StreamChat, ID: id}, eventstore.NoStream,
			&builder.GenerationStep{GenerationID: id, Step: "bench", Detail: "strata bench builder: a baseline append", At: app.Clock.Now()})
		return err
	}
	pg, err := serverSettings(ctx, db)
	if err != nil {
		return nil, err
	}
	return &builderbench.Builder{URL: base, Email: benchFounderEmail, Password: benchFounderPassword, Append: appendOne,
		Describe: fmt.Sprintf("strata serve (builder and api surfaces, production wiring) on %s, node %s", pg,
			strings.TrimSpace(string(nodeVersion))),
		Close: closeServer}, nil
}

// waitBuilderHealthy waits up to a minute for health (the builder's
// /api/health) to answer 200, or for serve to end (its error is put back
// on done).
func waitBuilderHealthy(ctx context.Context, health string, done chan error) error {
	deadline := time.Now().Add(time.Minute)
	for {
		resp, err := http.Get(health)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("bench builder: %s not healthy after a minute", health)
		}
		select {
		case err := <-done:
			done <- err
			return fmt.Errorf("bench builder: serve: %w", err)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}
