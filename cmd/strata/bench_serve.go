package main

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
)

// benchServe runs `strata serve --surfaces surfaces` in this process for a
// bench (name: "bench gateway"), with the wiring of c and the configuration
// env (its data directory dir, removed when the server closes): the
// server's App once its contexts started, the channel serve's result
// arrives on, and the function that stops it (once; later calls give the
// same result). Its log is formatted at c's level but only warnings are
// printed (to c's stderr).
func (c *command) benchServe(ctx context.Context, name, surfaces, dir string, env map[string]string) (*App, chan error, func() error, error) {
	cfg, err := loadConfig(env)
	if err != nil {
		return nil, nil, nil, err
	}
	cfg.LogLevel = c.cfg.LogLevel
	logger := slog.New(slog.NewMultiHandler(slog.NewJSONHandler(io.Discard, &slog.HandlerOptions{Level: cfg.LogLevel}),
		slog.NewJSONHandler(c.stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	apps := make(chan *App, 1)
	w := c.wiring
	start := w.Start
	w.Start = func(ctx context.Context, app *App) error {
		if start != nil {
			if err := start(ctx, app); err != nil {
				return err
			}
		}
		apps <- app
		return nil
	}
	inner := &command{cfg: cfg, stdout: io.Discard, stderr: c.stderr, wiring: w, logger: logger}
	sctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan error, 1)
	go func() { done <- inner.serve(sctx, []string{"--surfaces", surfaces}) }()
	var once sync.Once
	var serveErr error
	closeServer := func() error {
		once.Do(func() {
			stop()
			serveErr = <-done
			os.RemoveAll(dir)
		})
		return serveErr
	}
	select {
	case app := <-apps:
		return app, done, closeServer, nil
	case err := <-done:
		done <- err
		_ = closeServer()
		return nil, nil, nil, fmt.Errorf("%s: serve: %w", name, err)
	case <-ctx.Done():
		_ = closeServer()
		return nil, nil, nil, ctx.Err()
	}
}

// benchLoopback is benchServe on the database at dbURL with a data
// directory of its own (prefix: its name's prefix) and free loopback
// addresses for the listeners named by addrKeys (STRATA_API_ADDR, ...),
// returned in their order. On error nothing is left running or on disk.
func (c *command) benchLoopback(ctx context.Context, name, prefix, surfaces, dbURL string, addrKeys ...string) (
	app *App, addrs []string, dir string, done chan error, closeServer func() error, err error) {
	return c.benchLoopbackEnv(ctx, name, prefix, surfaces, dbURL, nil, addrKeys...)
}

// benchLoopbackEnv is benchLoopback with settings of the bench's own
// (extra) on top of the defaults.
func (c *command) benchLoopbackEnv(ctx context.Context, name, prefix, surfaces, dbURL string, extra map[string]string, addrKeys ...string) (
	app *App, addrs []string, dir string, done chan error, closeServer func() error, err error) {
	dir, err = os.MkdirTemp("", prefix)
	if err != nil {
		return nil, nil, "", nil, nil, err
	}
	env := map[string]string{"DATABASE_URL": dbURL, "STRATA_DATA_DIR": dir}
	for k, v := range extra {
		env[k] = v
	}
	addrs = make([]string, len(addrKeys))
	for i, key := range addrKeys {
		if addrs[i], err = freeLoopbackAddr(); err != nil {
			os.RemoveAll(dir)
			return nil, nil, "", nil, nil, err
		}
		env[key] = addrs[i]
	}
	app, done, closeServer, err = c.benchServe(ctx, name, surfaces, dir, env)
	if err != nil {
		os.RemoveAll(dir)
		return nil, nil, "", nil, nil, err
	}
	return app, addrs, dir, done, closeServer, nil
}

// serverSettings describes the PostgreSQL server behind db for a bench's
// header: its version, fsync and synchronous_commit.
func serverSettings(ctx context.Context, db *stdsql.DB) (string, error) {
	var version, fsync, syncCommit string
	if err := db.QueryRowContext(ctx, `SELECT current_setting('server_version'), current_setting('fsync'), current_setting('synchronous_commit')`).
		Scan(&version, &fsync, &syncCommit); err != nil {
		return "", err
	}
	return fmt.Sprintf("PostgreSQL %s (fsync=%s, synchronous_commit=%s)", version, fsync, syncCommit), nil
}
