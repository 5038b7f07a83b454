package main

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	cmdgateway "github.com/strata-platform/strata/commands/gateway"
	cmdidentity "github.com/strata-platform/strata/commands/identity"
	"github.com/strata-platform/strata/domain/gateway/catalog"
	"github.com/strata-platform/strata/domain/plans"
	"github.com/strata-platform/strata/eventstore/storebench"
	"github.com/strata-platform/strata/projections"
	projcatalog "github.com/strata-platform/strata/projections/catalog"
	projgateway "github.com/strata-platform/strata/projections/gateway"
	"github.com/strata-platform/strata/readapi/gateway/gatewaybench"
)

// benchGateway runs `strata bench gateway [--quick]`: the inference
// gateway, which is `strata serve` itself (benchGatewayServer) on the
// scratch database, against the development upstream called directly
// (readapi/gateway/gatewaybench).
func (c *command) benchGateway(ctx context.Context, scratch *storebench.Scratch, quick bool) error {
	opts := gatewaybench.Full()
	if quick {
		opts = gatewaybench.Quick()
	}
	c.logger.Info("bench running in a scratch database", "database", scratch.Name, "mode", opts.Mode)
	opts.Progress = c.stderr
	opts.Start = func(ctx context.Context, upstream string, accounts int) (*gatewaybench.Gateway, error) {
		return c.benchGatewayServer(ctx, scratch.URL, scratch.DB, upstream, accounts)
	}
	opts.StartUpstream = c.startUpstreamProcess
	opts.StartProxy = c.startProxyProcess
	rep, err := gatewaybench.Run(ctx, opts)
	if err != nil {
		return err
	}
	return rep.Print(c.stdout)
}

// Bench names: the catalog model the bench adds to reach the development
// upstream in the messages format, and that upstream's id.
const (
	benchModel            = "strata-dev-frontier" // a paid model of the built-in catalog, on upstream "dev"
	benchMessagesModel    = "bench-frontier-messages"
	benchMessagesUpstream = "dev-messages"
)

// benchGatewayServer prepares the gateway under bench on the database at
// dbURL (a scratch database) and starts it in a process of its own, as
// it is deployed. First `strata serve --surfaces api` runs in this
// process, with the production wiring and the default configuration, on
// a data directory of its own, with the development upstream at upstream
// (…/v1) configured as upstream "dev" (openai format, what the built-in
// catalog names) and again as "dev-messages" (messages format). Through
// its services it adds a catalog model served by dev-messages (a copy of
// the paid strata-dev-frontier) and registers accounts accounts, each with
// an API key, the platform plan basic (the model's tier) and the gateway
// plan enterprise (its monthly credits and 5,000 requests an hour). Then
// it stops, and a child process (this executable's `serve --surfaces
// api`) serves the same database and data directory (the same master key)
// on free loopback ports: the measured gateway, whose every request goes
// through key authentication, catalog resolution and the credit ledger's
// admission and debit record, as in production. Its log is written at the
// configured level to a pipe; warnings and errors go to the command's
// stderr.
func (c *command) benchGatewayServer(ctx context.Context, dbURL string, db *stdsql.DB, upstream string,
	accounts int) (_ *gatewaybench.Gateway, err error) {
	setup, err := os.MkdirTemp("", "strata-bench-gateway-setup-")
	if err != nil {
		return nil, err
	}
	data, err := os.MkdirTemp("", "strata-bench-gateway-")
	if err != nil {
		os.RemoveAll(setup)
		return nil, err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(data)
		}
	}()
	upstreams := []byte(fmt.Sprintf(`{"upstreams": [{"id": "dev", "format": "openai", "base_url": %q},
		{"id": %q, "format": "messages", "base_url": %q}]}`, upstream, benchMessagesUpstream, upstream))
	file := filepath.Join(setup, "upstreams.json")
	if err := os.WriteFile(file, upstreams, 0o600); err != nil {
		os.RemoveAll(setup)
		return nil, err
	}
	var addrs [2]string
	for i := range addrs {
		if addrs[i], err = freeLoopbackAddr(); err != nil {
			os.RemoveAll(setup)
			return nil, err
		}
	}
	app, done, closeServer, err := c.benchServe(ctx, "bench gateway", "api", setup, map[string]string{"DATABASE_URL": dbURL,
		"STRATA_DATA_DIR": data, "STRATA_API_ADDR": addrs[0], "STRATA_ADMIN_ADDR": addrs[1], cmdgateway.UpstreamsEnv: file})
	if err != nil {
		return nil, err
	}
	keys, err := c.benchGatewaySetup(ctx, app, "http://"+addrs[0], done, accounts)
	if cerr := closeServer(); err == nil && cerr != nil {
		err = fmt.Errorf("bench gateway: stopping the setup server: %w", cerr)
	}
	if err != nil {
		return nil, err
	}

	var version, fsync, syncCommit string
	if err := db.QueryRowContext(ctx, `SELECT current_setting('server_version'), current_setting('fsync'), current_setting('synchronous_commit')`).
		Scan(&version, &fsync, &syncCommit); err != nil {
		return nil, err
	}
	if _, err := db.ExecContext(ctx, `CREATE TABLE bench_gateway_commits (id bigserial PRIMARY KEY, at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return nil, err
	}
	commit := func(ctx context.Context) error {
		_, err := db.ExecContext(ctx, `INSERT INTO bench_gateway_commits DEFAULT VALUES`)
		return err
	}
	file = filepath.Join(data, "upstreams.json")
	if err := os.WriteFile(file, upstreams, 0o600); err != nil {
		return nil, err
	}
	child, err := c.startGatewayProcess(ctx, map[string]string{"DATABASE_URL": dbURL, "STRATA_DATA_DIR": data,
		cmdgateway.UpstreamsEnv: file, "STRATA_LOG_LEVEL": c.cfg.LogLevel.String()}, keys[0])
	if err != nil {
		return nil, err
	}
	settle := func(ctx context.Context) error { return settleGateway(ctx, db) }
	return &gatewaybench.Gateway{URL: child.base, Keys: keys, UpstreamModel: benchModel, Commit: commit, Settle: settle, PID: child.cmd.Process.Pid,
		Models: map[string]string{cmdgateway.FormatOpenAI: benchModel, cmdgateway.FormatMessages: benchMessagesModel},
		Describe: fmt.Sprintf("strata serve (api surface, production wiring, its own process) on PostgreSQL %s (fsync=%s, synchronous_commit=%s), "+
			"dev upstream in a process of its own, load generator in the bench's, %d accounts", version, fsync, syncCommit, accounts),
		Close: func() error {
			err := child.stop()
			os.RemoveAll(data)
			return err
		}}, nil
}

// benchGatewaySetup adds the bench's messages-format model to the catalog
// and registers the accounts through app (serving at base), and returns
// their keys.
func (c *command) benchGatewaySetup(ctx context.Context, app *App, base string, done chan error, accounts int) ([]string, error) {
	if err := waitHealthy(ctx, base, done); err != nil {
		return nil, err
	}
	if app.Gateway == nil || app.Identity == nil || app.Plans == nil {
		return nil, errors.New("bench gateway: serve's wiring runs no gateway")
	}
	m, ok := findModel(catalog.Builtin(), benchModel)
	if !ok {
		return nil, fmt.Errorf("bench gateway: the built-in catalog has no model %s", benchModel)
	}
	m.ID, m.Label, m.Upstream.ID = benchMessagesModel, "Gateway bench: "+m.Label+" through a messages-format upstream", benchMessagesUpstream
	if _, _, err := app.Gateway.Catalog.Upsert(ctx, m); err != nil {
		return nil, fmt.Errorf("bench gateway: add model %s: %w", benchMessagesModel, err)
	}
	return benchAccounts(ctx, app, accounts)
}

// benchAccounts registers n accounts through the identity service, each
// with an API key and on the platform plan basic and the gateway plan
// enterprise, two at a time per CPU (registration hashes a password), and
// returns their keys.
func benchAccounts(ctx context.Context, app *App, n int) ([]string, error) {
	keys := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			keys[i], errs[i] = benchAccount(ctx, app, i)
		}()
	}
	wg.Wait()
	return keys, errors.Join(errs...)
}

func benchAccount(ctx context.Context, app *App, i int) (string, error) {
	id := app.Identity.Service
	s, err := id.Register(ctx, cmdidentity.Register{Email: fmt.Sprintf("gateway-bench-%d@bench.invalid", i),
		Password: "Gateway-bench-pass-1", FullName: fmt.Sprintf("Gateway bench %d", i)})
	if err != nil {
		return "", fmt.Errorf("bench gateway: register account %d: %w", i, err)
	}
	for _, ch := range []plans.Change{{Line: plans.LinePlatform, Plan: "basic"}, {Line: plans.LineGateway, Plan: "enterprise"}} {
		ch.AccountID, ch.Source = s.User.ID, plans.SourceOperator
		if _, err := app.Plans.Change(ctx, ch); err != nil {
			return "", fmt.Errorf("bench gateway: account %d: %s plan %s: %w", i, ch.Line, ch.Plan, err)
		}
	}
	k, err := id.IssueKey(ctx, cmdidentity.IssueKey{UserID: s.User.ID, Name: "gateway bench"})
	if err != nil {
		return "", fmt.Errorf("bench gateway: account %d: issue a key: %w", i, err)
	}
	return k.Secret, nil
}

func findModel(f catalog.File, id string) (catalog.Model, bool) {
	for _, m := range f.Models {
		if m.ID == id {
			return m, true
		}
	}
	return catalog.Model{}, false
}

// freeLoopbackAddr returns a loopback address whose port was free a moment
// ago (serve binds it again).
func freeLoopbackAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// waitHealthy waits up to a minute for base's /health to answer 200, or
// for serve to end (its error is put back on done).
func waitHealthy(ctx context.Context, base string, done chan error) error {
	deadline := time.Now().Add(time.Minute)
	for {
		resp, err := http.Get(base + "/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("bench gateway: serve on %s not healthy after a minute", base)
		}
		select {
		case err := <-done:
			done <- err
			return fmt.Errorf("bench gateway: serve: %w", err)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// settleGateway waits up to a minute until no debit is pending and the
// ledger's and the store catalog's projectors have applied every event:
// the work a step leaves behind is done before the next one starts.
func settleGateway(ctx context.Context, db *stdsql.DB) error {
	deadline := time.Now().Add(time.Minute)
	for {
		var pending int64
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM platform.gateway_pending_debits`).Scan(&pending); err != nil {
			return err
		}
		st, err := projections.ReadStatus(ctx, db, []string{projgateway.CreditsName, projcatalog.Name})
		if err != nil {
			return err
		}
		lag := int64(0)
		for _, s := range st {
			lag += s.LagEvents
		}
		if pending == 0 && lag == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("bench gateway: not settled after a minute (%d debits pending, projectors %d events behind)", pending, lag)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}
