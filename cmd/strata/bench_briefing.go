package main

import (
	"context"
	"crypto/rand"
	stdsql "database/sql"
	"encoding/hex"
	"errors"

	"github.com/strata-platform/strata/eventstore/storebench"
	"github.com/strata-platform/strata/readapi/briefing/briefingbench"
)

// benchBriefing runs `strata bench briefing [--quick]`: the agent
// briefing's internal routes on `strata serve` itself (benchBriefingServer)
// on the scratch database, at the size (1,000,000 observations,
// 100,000 signals; --quick: 50,000 and 10,000), measured over HTTP
// (readapi/briefing/briefingbench).
func (c *command) benchBriefing(ctx context.Context, scratch *storebench.Scratch, quick bool) error {
	opts := briefingbench.Full()
	if quick {
		opts = briefingbench.Quick()
	}
	c.logger.Info("bench running in a scratch database", "database", scratch.Name, "mode", opts.Mode)
	opts.Progress = c.stderr
	opts.Start = func(ctx context.Context) (*briefingbench.Server, error) {
		return c.benchBriefingServer(ctx, scratch.URL, scratch.DB)
	}
	rep, err := briefingbench.Run(ctx, opts)
	if err != nil {
		return err
	}
	return rep.Print(c.stdout)
}

// benchBriefingServer starts `strata serve --surfaces api` with the
// production wiring on the database at dbURL (a scratch database), on free
// loopback ports, with a data directory of its own, the default
// configuration and one generated internal API key
// (STRATA_INTERNAL_API_KEYS): the briefing.v1 projector runs live and
// commands wait for it as in production. The access log is written at the
// configured level, to nowhere; warnings and errors go to the command's
// stderr.
func (c *command) benchBriefingServer(ctx context.Context, dbURL string, db *stdsql.DB) (_ *briefingbench.Server, err error) {
	secret := make([]byte, 24)
	if _, err := rand.Read(secret); err != nil {
		return nil, err
	}
	key := "bench-" + hex.EncodeToString(secret)
	app, addrs, _, done, closeServer, err := c.benchLoopbackEnv(ctx, "bench briefing", "strata-bench-briefing-", "api", dbURL,
		map[string]string{"STRATA_INTERNAL_API_KEYS": key}, "STRATA_API_ADDR", "STRATA_ADMIN_ADDR")
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			_ = closeServer()
		}
	}()
	base := "http://" + addrs[0]
	if err := waitHealthy(ctx, base, done); err != nil {
		return nil, err
	}
	if app.Briefing == nil || app.Store == nil {
		return nil, errors.New("bench briefing: serve's wiring runs no briefing service")
	}
	pg, err := serverSettings(ctx, db)
	if err != nil {
		return nil, err
	}
	return &briefingbench.Server{URL: base, Key: key, Store: app.Store, DB: app.Store.DB(),
		Describe: "strata serve (api surface, production wiring) on " + pg,
		Close:    closeServer}, nil
}
