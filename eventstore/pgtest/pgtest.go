// Package pgtest gives each test its own freshly migrated PostgreSQL
// database, cloned in a few milliseconds from a template database.
//
// With STRATA_TEST_DATABASE_URL set, databases are created on that server
// (its database is used for maintenance; the role must be allowed to create
// databases). Otherwise the first DB call starts a private cluster
// (pgcluster, Fast mode) in a temporary directory (on /dev/shm when it has
// room, see ramDir), shared by all tests of the test binary and stopped by
// Main. Call Main from TestMain:
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
package pgtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver

	"github.com/strata-platform/strata/eventstore/pgcluster"
)

// EnvURL names the environment variable that points tests at an existing
// server instead of a private cluster.
const EnvURL = "STRATA_TEST_DATABASE_URL"

// tmpPrefix starts the name of a private cluster's temporary directory.
const tmpPrefix = "strata-pgtest-"

// cloneStrategy is appended to CREATE DATABASE on the private cluster.
// FILE_COPY copies the template's files between two checkpoints where
// PostgreSQL 15's default, WAL_LOG, copies every block through the buffer
// cache and the WAL. On the private cluster (fsync off, on /dev/shm) it
// measured ~10 ms per clone against ~14 ms (see BenchmarkClone). On a
// STRATA_TEST_DATABASE_URL server the default is kept: with fsync on, the
// forced checkpoints flush every other session's dirty pages too, and
// FILE_COPY measured no faster there (~180 ms against ~170 ms on disk).
const cloneStrategy = " STRATEGY FILE_COPY"

// shared is the package's only mutable state: the server every DB call of
// this test binary uses, set up once by the first DB call (guarded by its
// sync.Once) and torn down by Main.
var shared server

type server struct {
	once    sync.Once
	err     error
	cluster *pgcluster.Cluster // nil with STRATA_TEST_DATABASE_URL
	tmpDir  string             // the private cluster's directory
	baseURL string             // STRATA_TEST_DATABASE_URL, when set
	admin   *sql.DB            // the maintenance database
	tpl     string             // the migrated template database
	clone   string             // cloneStrategy, or "" for the server's default
}

// Database is a brand-new, migrated database of one test, dropped when the
// test ends.
type Database struct {
	// Name is the database's name, unique per DB call ("t_" + random hex).
	Name string
	// URL connects to this database as a role that may do anything in it;
	// pgx and database/sql with the "pgx" driver accept it. It is a
	// postgres:// URL, unless STRATA_TEST_DATABASE_URL is a keyword/value
	// string ("host=... dbname=..."), which it then extends.
	URL string
	// SQL is a pool on the database ("pgx" driver), closed at cleanup.
	SQL *sql.DB
}

// Main runs the package's tests, then stops the private cluster (if a DB call
// started one) and removes its directory, and exits with m.Run's code (or 1,
// when the tests passed but the cleanup failed).
func Main(m *testing.M) {
	code := m.Run()
	if err := shared.close(); err != nil {
		fmt.Fprintln(os.Stderr, "pgtest:", err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

// DB returns a handle to a brand-new database for this test, cloned from the
// template database migrated with the current migrations (CREATE DATABASE
// ... TEMPLATE ...). At t's cleanup the pool is closed and the database
// dropped, even if the test left sessions open. Safe for parallel tests; a
// failure to provide the database fails the test with t.Fatal.
func DB(t testing.TB) *Database {
	t.Helper()
	s, err := shared.get()
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d, err := s.create(ctx)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := s.drop(ctx, d); err != nil {
			t.Errorf("pgtest: %v", err)
		}
	})
	return d
}

func (s *server) get() (*server, error) {
	s.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		s.err = s.setup(ctx)
	})
	return s, s.err
}

func (s *server) setup(ctx context.Context) error {
	s.baseURL = os.Getenv(EnvURL)
	adminURL := s.baseURL
	if adminURL == "" {
		if _, err := pgcluster.FindBinaries(); err != nil {
			return fmt.Errorf("%w: %v", errNoServer, err)
		}
		if err := s.startCluster(ctx); err != nil {
			return err
		}
		adminURL = s.cluster.URL("postgres")
	}
	admin, err := sql.Open("pgx", adminURL)
	if err != nil {
		return fmt.Errorf("open maintenance database: %w", err)
	}
	s.admin = admin
	if err := admin.PingContext(ctx); err != nil {
		return fmt.Errorf("connect to maintenance database: %w", err)
	}
	if s.cluster != nil { // PostgreSQL 15 or later has STRATEGY
		var version int
		if err := admin.QueryRowContext(ctx, "SELECT current_setting('server_version_num')::int").Scan(&version); err != nil {
			return fmt.Errorf("server version: %w", err)
		}
		if version >= 150000 {
			s.clone = cloneStrategy
		}
	}
	s.tpl, err = ensureTemplate(ctx, admin, s.url)
	return err
}

func (s *server) startCluster(ctx context.Context) error {
	removeStaleDirs()
	ram := ramDir()
	dir, err := os.MkdirTemp(ram, tmpPrefix)
	if err != nil && ram != "" {
		dir, err = os.MkdirTemp("", tmpPrefix)
	}
	if err != nil {
		return fmt.Errorf("create cluster dir: %w", err)
	}
	s.tmpDir = dir
	// When root, PostgreSQL runs as another user, who must traverse the dir.
	if err := os.Chmod(dir, 0o711); err != nil {
		return fmt.Errorf("chmod cluster dir: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "owner.pid"), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		return fmt.Errorf("write owner pid: %w", err)
	}
	s.cluster, err = pgcluster.Start(ctx, pgcluster.Options{DataDir: dir, Fast: true})
	return err
}

// url returns the connection URL of database dbname on the server.
func (s *server) url(dbname string) (string, error) {
	if s.cluster != nil {
		return s.cluster.URL(dbname), nil
	}
	return pgcluster.WithDatabase(s.baseURL, dbname)
}

func (s *server) create(ctx context.Context) (*Database, error) {
	var b [8]byte
	rand.Read(b[:])
	name := "t_" + hex.EncodeToString(b[:])
	if _, err := s.admin.ExecContext(ctx, "CREATE DATABASE "+ident(name)+" TEMPLATE "+ident(s.tpl)+s.clone); err != nil {
		return nil, fmt.Errorf("create database %s from %s: %w", name, s.tpl, err)
	}
	u, err := s.url(name)
	if err == nil {
		var db *sql.DB
		if db, err = sql.Open("pgx", u); err == nil {
			return &Database{Name: name, URL: u, SQL: db}, nil
		}
	}
	_, _ = s.admin.ExecContext(ctx, "DROP DATABASE "+ident(name))
	return nil, fmt.Errorf("open database %s: %w", name, err)
}

func (s *server) drop(ctx context.Context, d *Database) error {
	closeErr := d.SQL.Close()
	if _, err := s.admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+ident(d.Name)+" WITH (FORCE)"); err != nil {
		return fmt.Errorf("drop database %s: %w", d.Name, err)
	}
	if closeErr != nil {
		return fmt.Errorf("close database %s: %w", d.Name, closeErr)
	}
	return nil
}

// close releases what setup acquired; it is safe when setup never ran.
func (s *server) close() error {
	var errs []error
	if s.admin != nil {
		errs = append(errs, s.admin.Close())
	}
	if s.cluster != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		errs = append(errs, s.cluster.Stop(ctx))
	}
	if s.tmpDir != "" {
		errs = append(errs, os.RemoveAll(s.tmpDir))
	}
	return errors.Join(errs...)
}

// removeStaleDirs deletes the directories of private clusters whose test
// binary died without running Main (a timeout, Ctrl-C): pgcluster's watchdog
// has stopped their servers, but the files stay. A directory is removed only
// when its owner process is gone and no server runs in it.
func removeStaleDirs() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), tmpPrefix+"*"))
	if ram := ramDir(); ram != "" {
		more, _ := filepath.Glob(filepath.Join(ram, tmpPrefix+"*"))
		dirs = append(dirs, more...)
	}
	for _, dir := range dirs {
		b, err := os.ReadFile(filepath.Join(dir, "owner.pid"))
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(string(b))
		if err != nil || alive(pid) {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, "pg", "postmaster.pid")); !errors.Is(err, os.ErrNotExist) {
			continue
		}
		_ = os.RemoveAll(dir)
	}
}

func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	return !errors.Is(p.Signal(syscall.Signal(0)), os.ErrProcessDone)
}
