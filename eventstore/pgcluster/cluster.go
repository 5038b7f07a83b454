// Package pgcluster runs a private PostgreSQL cluster from the server binaries
// installed on the machine, for `strata serve` without DATABASE_URL, for
// `strata db start` and for tests.
//
// The cluster lives in <DataDir>/pg and logs to <DataDir>/pg.log. Every
// connection authenticates as the superuser "postgres" with a password
// (SCRAM-SHA-256) that initdb sets from <DataDir>/pg.password (random, mode
// 0600); a cluster made before passwords (trust) is migrated at its next
// start. It listens on 127.0.0.1 on a port chosen at the first start and kept
// in <DataDir>/pg.port, and on a unix socket inside <DataDir>/pg (mode 0700)
// when that path fits the ~100-byte limit of socket paths. URL prefers the
// socket; TCPURL is the one to hand to other programs.
//
// PostgreSQL refuses to run as root. When the process is root, every
// PostgreSQL program runs as the owner of an existing <DataDir>/pg, or as the
// `postgres` system user for a new cluster; that user needs search (x)
// permission on DataDir and every parent directory, which Start checks.
//
// By default the server never outlives the process that started it: a tiny
// watchdog (a shell blocked reading a pipe from this process) stops it with
// `pg_ctl stop -m immediate` when the process exits without calling Stop,
// even on a crash, a test timeout or SIGKILL. Options.Detach leaves it
// running (`strata db start`); Running finds it again.
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
	// Port is the TCP port on 127.0.0.1; 0 takes the one kept in
	// DataDir/pg.port, or picks a free one at the first start (and again,
	// with a warning, when another program took it).
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
	// Detach leaves the server running when this process exits (no
	// watchdog); stop it with Stop, or Running(DataDir).Stop from another
	// process.
	Detach bool
}

// Cluster is a running private PostgreSQL server. Its methods are safe for
// concurrent use.
type Cluster struct {
	binDir   string
	pgDir    string
	logPath  string
	sockDir  string // "" when the server has no unix socket
	port     int
	password string
	acct     *account
	logger   *slog.Logger
	dog      *watchdog

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
	var migrate bool
	if _, err := os.Stat(filepath.Join(c.pgDir, "PG_VERSION")); errors.Is(err, os.ErrNotExist) {
		if err := c.initdb(ctx, opts.Fast); err != nil {
			return nil, err
		}
	} else if err != nil {
		return nil, fmt.Errorf("stat %s: %w", c.pgDir, err)
	} else if migrate, err = c.loadPassword(); err != nil {
		return nil, err
	}
	if socketFits(c.pgDir) {
		c.sockDir = c.pgDir
	}
	if err := c.start(ctx, opts); err != nil {
		return nil, err
	}
	if migrate {
		if err := c.migrateTrust(ctx); err != nil {
			c.dog.disarm()
			c.stop(context.Background(), "fast")
			return nil, fmt.Errorf("require a password on %s (made before passwords): %w", c.pgDir, err)
		}
	}
	return c, nil
}

// socketFits reports whether a unix socket in dir fits the length limit of
// socket paths (108 bytes on Linux, 104 on macOS, with the terminating NUL).
func socketFits(dir string) bool {
	return len(dir)+len("/.s.PGSQL.65535") < 104
}

// URL returns a connection URL for database dbname as the superuser
// "postgres" with its password, over the unix socket in the data directory
// (TCP on 127.0.0.1 when the server has none). pgx, database/sql with the
// "pgx" driver and libpq (psql) accept it. It stays right across restarts.
func (c *Cluster) URL(dbname string) string {
	if c.sockDir == "" {
		return c.TCPURL(dbname)
	}
	q := url.Values{}
	q.Set("host", c.sockDir)
	q.Set("port", strconv.Itoa(c.port))
	q.Set("sslmode", "disable")
	u := url.URL{Scheme: "postgres", User: url.UserPassword(Superuser, c.password), Path: "/" + dbname, RawQuery: q.Encode()}
	return u.String()
}

// TCPURL is URL over TCP on 127.0.0.1: what another program or user (who
// cannot enter the data directory) connects with, as DATABASE_URL.
func (c *Cluster) TCPURL(dbname string) string {
	u := url.URL{Scheme: "postgres", User: url.UserPassword(Superuser, c.password),
		Host: "127.0.0.1:" + strconv.Itoa(c.port), Path: "/" + dbname, RawQuery: "sslmode=disable"}
	return u.String()
}

// Port returns the TCP port the server listens on at 127.0.0.1.
func (c *Cluster) Port() int { return c.port }

// Stop shuts the server down (pg_ctl stop -m fast: sessions are ended,
// committed data is kept) and waits until it has exited. Calling it again,
// or after the server died, returns nil.
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
	c.logger.Info("postgres stopped", "dir", c.pgDir)
	return nil
}
