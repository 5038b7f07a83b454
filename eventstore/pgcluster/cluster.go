// Package pgcluster runs a private PostgreSQL cluster from the server binaries
// installed on the machine, for `strata serve` without DATABASE_URL and for
// tests.
//
// The cluster lives in <DataDir>/pg and logs to <DataDir>/pg.log. It listens on
// 127.0.0.1 only (TCP) and on a unix socket in a short private directory
// /tmp/strata-pg-*, created at Start and removed at Stop: unix socket paths are
// limited to about 107 bytes, so the socket cannot live under an arbitrarily
// deep DataDir. URL uses the socket.
//
// PostgreSQL refuses to run as root. When the process is root, every
// PostgreSQL program runs as the owner of an existing <DataDir>/pg, or as the
// `postgres` system user for a new cluster; that user needs search (x)
// permission on DataDir and every parent directory, which Start checks.
//
// The server never outlives the process that started it: a tiny watchdog
// (a shell blocked reading a pipe from this process) stops it with
// `pg_ctl stop -m immediate` when the process exits without calling Stop,
// even on a crash, a test timeout or SIGKILL.
package pgcluster

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// MaxConnections is the max_connections setting of every private cluster:
// tests and benchmarks open many connections.
const MaxConnections = 300

// Options configures Start.
type Options struct {
	// DataDir holds the cluster in DataDir/pg (created, and initialised with
	// initdb, when it has no PG_VERSION) and its log in DataDir/pg.log.
	// Relative paths are resolved against the working directory.
	DataDir string
	// Port is the TCP port on 127.0.0.1; 0 picks a free one.
	Port int
	// Logger receives progress messages; nil discards them.
	Logger *slog.Logger
	// Fast trades durability for speed, for tests: fsync, synchronous_commit
	// and full_page_writes are off, and initdb does not sync. A crash of the
	// machine (not of PostgreSQL) may then corrupt the cluster.
	Fast bool
	// SharedBuffers is the server's shared_buffers (a size such as 1GB,
	// see CheckSize); "" keeps PostgreSQL's default.
	SharedBuffers string
}

// Cluster is a running private PostgreSQL server. Its methods are safe for
// concurrent use.
type Cluster struct {
	binDir  string
	pgDir   string
	logPath string
	sockDir string
	port    int
	acct    *account
	logger  *slog.Logger
	dog     *watchdog

	mu      sync.Mutex
	stopped bool
}

// Start starts the cluster in opts.DataDir, running initdb first when the
// directory holds no cluster yet, and returns once the server accepts
// connections (pg_ctl start -w). It fails with a clear error when the server
// binaries are missing, when a server is already running on that data
// directory (for example one started by another strata process), or when the
// PostgreSQL user cannot reach the data directory. A postmaster.pid left by a
// crashed server whose process is gone does not prevent the start.
func Start(ctx context.Context, opts Options) (*Cluster, error) {
	if opts.DataDir == "" {
		return nil, errors.New("pgcluster: Options.DataDir is empty")
	}
	if opts.SharedBuffers != "" {
		if err := CheckSize(opts.SharedBuffers); err != nil {
			return nil, fmt.Errorf("pgcluster: shared_buffers: %w", err)
		}
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	binDir, err := FindBinaries()
	if err != nil {
		return nil, err
	}
	dataDir, err := filepath.Abs(opts.DataDir)
	if err != nil {
		return nil, fmt.Errorf("data dir %s: %w", opts.DataDir, err)
	}
	c := &Cluster{binDir: binDir, pgDir: filepath.Join(dataDir, "pg"), logPath: filepath.Join(dataDir, "pg.log"), logger: logger}
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		return nil, fmt.Errorf("create data dir: %w", err)
	}
	if c.acct, err = lookupAccount(c.pgDir); err != nil {
		return nil, err
	}
	if err := c.acct.checkTraversable(dataDir); err != nil {
		return nil, err
	}
	if err := c.prepareFiles(); err != nil {
		return nil, err
	}
	if pid, running := runningPostmaster(c.pgDir); running {
		return nil, fmt.Errorf("a PostgreSQL server (pid %d) is already running on %s, probably started by another strata process: stop it or use another data directory", pid, c.pgDir)
	}
	if _, err := os.Stat(filepath.Join(c.pgDir, "PG_VERSION")); errors.Is(err, os.ErrNotExist) {
		if err := c.initdb(ctx, opts.Fast); err != nil {
			return nil, err
		}
	} else if err != nil {
		return nil, fmt.Errorf("stat %s: %w", c.pgDir, err)
	}
	if c.sockDir, err = os.MkdirTemp("/tmp", "strata-pg-"); err != nil {
		return nil, fmt.Errorf("create socket dir: %w", err)
	}
	if err := c.acct.chown(c.sockDir); err != nil {
		os.RemoveAll(c.sockDir)
		return nil, err
	}
	if err := c.start(ctx, opts); err != nil {
		os.RemoveAll(c.sockDir)
		return nil, err
	}
	return c, nil
}

// URL returns a connection URL for database dbname as the superuser
// "postgres" (trust authentication, no password) over the unix socket. pgx,
// database/sql with the "pgx" driver and libpq (psql) accept it.
func (c *Cluster) URL(dbname string) string {
	q := url.Values{}
	q.Set("host", c.sockDir)
	q.Set("port", strconv.Itoa(c.port))
	q.Set("sslmode", "disable")
	u := url.URL{Scheme: "postgres", User: url.User("postgres"), Path: "/" + dbname, RawQuery: q.Encode()}
	return u.String()
}

// Port returns the TCP port the server listens on at 127.0.0.1.
func (c *Cluster) Port() int { return c.port }

// Stop shuts the server down (pg_ctl stop -m fast: sessions are ended,
// committed data is kept) and waits until it has exited, then removes the
// socket directory. Calling it again, or after the server died, returns nil.
func (c *Cluster) Stop(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return nil
	}
	// Disarm the watchdog first: it must not fire on a later cluster that
	// reuses this data directory.
	c.dog.disarm()
	if err := c.stop(ctx, "fast"); err != nil {
		return err
	}
	c.stopped = true
	if err := os.RemoveAll(c.sockDir); err != nil {
		return fmt.Errorf("remove socket dir: %w", err)
	}
	c.logger.Info("postgres stopped", "dir", c.pgDir)
	return nil
}
