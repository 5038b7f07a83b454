package main

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"path/filepath"

	cmdidentity "github.com/strata-platform/strata/commands/identity"
	"github.com/strata-platform/strata/eventstore/storebench"
	"github.com/strata-platform/strata/readapi/hackathon/hackathonbench"
)

// benchHackathon runs `strata bench hackathon [--quick]`: the hackathon
// surface of `strata serve` itself (benchHackathonServer) on the scratch
// database, at the issue's size (5,000 submissions, 100 judges, 3 scores
// each; --quick: 500 and 20), measured over HTTP
// (readapi/hackathon/hackathonbench).
func (c *command) benchHackathon(ctx context.Context, scratch *storebench.Scratch, quick bool) error {
	opts := hackathonbench.Full()
	if quick {
		opts = hackathonbench.Quick()
	}
	c.logger.Info("bench running in a scratch database", "database", scratch.Name, "mode", opts.Mode)
	opts.Progress = c.stderr
	opts.Start = func(ctx context.Context) (*hackathonbench.Server, error) {
		return c.benchHackathonServer(ctx, scratch.URL, scratch.DB)
	}
	rep, err := hackathonbench.Run(ctx, opts)
	if err != nil {
		return err
	}
	return rep.Print(c.stdout)
}

// benchHackathonServer starts `strata serve --surfaces hackathon,api` with
// the production wiring on the database at dbURL (a scratch database), on
// free loopback ports, with a data directory of its own (the blob store,
// the dev mailbox the judge invitations are written to) and the default
// configuration: the hackathon.v1 projector runs live, commands wait for
// it (STRATA_READ_WAIT_MS), requests authenticate with the platform's
// credentials and are rate limited per user as in production. The access
// log is written at the configured level, to nowhere; warnings and errors
// go to the command's stderr. Accounts are registered through the running
// server's identity service, each with an API key.
func (c *command) benchHackathonServer(ctx context.Context, dbURL string, db *stdsql.DB) (_ *hackathonbench.Server, err error) {
	app, addrs, dir, done, closeServer, err := c.benchLoopback(ctx, "bench hackathon", "strata-bench-hackathon-", "hackathon,api", dbURL,
		"STRATA_HACKATHON_ADDR", "STRATA_API_ADDR", "STRATA_ADMIN_ADDR")
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
	if app.Hackathon == nil || app.Identity == nil {
		return nil, errors.New("bench hackathon: serve's wiring runs no hackathon service or no identity")
	}
	register := func(ctx context.Context, email, name string) (hackathonbench.User, error) {
		s, err := app.Identity.Service.Register(ctx, cmdidentity.Register{Email: email, Password: "Hackathon-bench-pass-1", FullName: name})
		if err != nil {
			return hackathonbench.User{}, fmt.Errorf("bench hackathon: register %s: %w", email, err)
		}
		k, err := app.Identity.Service.IssueKey(ctx, cmdidentity.IssueKey{UserID: s.User.ID, Name: "hackathon bench"})
		if err != nil {
			return hackathonbench.User{}, fmt.Errorf("bench hackathon: %s: issue a key: %w", email, err)
		}
		return hackathonbench.User{ID: s.User.ID, Email: s.User.Email, Key: k.Secret}, nil
	}
	pg, err := serverSettings(ctx, db)
	if err != nil {
		return nil, err
	}
	return &hackathonbench.Server{URL: base, Register: register, Service: app.Hackathon, Store: app.Store,
		MailDir:  filepath.Join(dir, "mail"),
		Describe: "strata serve (hackathon and api surfaces, production wiring) on " + pg,
		Close:    closeServer}, nil
}
