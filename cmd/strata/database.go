package main

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver

	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgcluster"
	"github.com/strata-platform/strata/migrations"
)

// database is an open connection pool plus what is needed to close it.
type database struct {
	SQL   *stdsql.DB
	URL   string
	close func()
}

// Close closes the pool and stops the embedded cluster if this process started it.
func (d *database) Close() { d.close() }

// openDatabase connects to DATABASE_URL, or else to the embedded cluster in
// the data directory: started here (initdb on first run) or, when a running
// `strata serve` already owns it, reached through its postmaster.pid. It then
// applies pending migrations when migrate is set.
func (c *command) openDatabase(ctx context.Context, migrate bool) (*database, error) {
	d := &database{URL: c.cfg.DatabaseURL, close: func() {}}
	if d.URL == "" {
		if err := c.embedded(ctx, d); err != nil {
			return nil, err
		}
	}
	db, err := stdsql.Open("pgx", d.URL)
	if err != nil {
		d.close()
		return nil, fmt.Errorf("open database: %w", err)
	}
	db.SetMaxOpenConns(64)
	db.SetMaxIdleConns(64)
	db.SetConnMaxIdleTime(5 * time.Minute)
	stopCluster := d.close
	d.SQL, d.close = db, func() { db.Close(); stopCluster() }
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := db.PingContext(pingCtx); err != nil {
		d.close()
		return nil, fmt.Errorf("connect to database: %w", err)
	}
	if migrate {
		applied, err := migrations.Up(ctx, db)
		if err != nil {
			d.close()
			return nil, err
		}
		for _, m := range applied {
			c.logger.Info("migration applied", "file", m)
		}
	}
	return d, nil
}

// open builds the sealed event registry (start-up stops on a registration
// error before touching the database), then opens and migrates the database.
func (c *command) open(ctx context.Context) (*eventstore.Registry, *database, error) {
	reg, err := c.wiring.registry()
	if err != nil {
		return nil, nil, err
	}
	db, err := c.openDatabase(ctx, true)
	if err != nil {
		return nil, nil, err
	}
	return reg, db, nil
}

func (c *command) embedded(ctx context.Context, d *database) error {
	if u, ok := attachRunning(c.cfg.DataDir, "strata"); ok {
		c.logger.Info("using the embedded PostgreSQL of a running strata process", "data_dir", c.cfg.DataDir)
		d.URL = u
		return nil
	}
	cluster, err := pgcluster.Start(ctx, pgcluster.Options{DataDir: c.cfg.DataDir, Logger: c.logger,
		SharedBuffers: c.cfg.SharedBuffers})
	if err != nil {
		return fmt.Errorf("embedded PostgreSQL (set DATABASE_URL to use another server): %w", err)
	}
	d.close = func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := cluster.Stop(stopCtx); err != nil {
			c.logger.Error("stop embedded PostgreSQL", "err", err)
		}
	}
	admin, err := stdsql.Open("pgx", cluster.URL("postgres"))
	if err != nil {
		d.close()
		return err
	}
	defer admin.Close()
	var exists bool
	if err := admin.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = 'strata')`).Scan(&exists); err != nil {
		d.close()
		return fmt.Errorf("embedded PostgreSQL: %w", err)
	}
	if !exists {
		if _, err := admin.ExecContext(ctx, `CREATE DATABASE strata`); err != nil {
			d.close()
			return fmt.Errorf("embedded PostgreSQL: create database: %w", err)
		}
	}
	c.logger.Info("embedded PostgreSQL running", "data_dir", c.cfg.DataDir, "port", cluster.Port())
	d.URL = cluster.URL("strata")
	return nil
}

// attachRunning returns a URL for dbname on the cluster another process runs
// in dataDir, read from its postmaster.pid (pid, data dir, start time, port,
// socket dir), when that process is alive.
func attachRunning(dataDir, dbname string) (string, bool) {
	raw, err := os.ReadFile(filepath.Join(dataDir, "pg", "postmaster.pid"))
	if err != nil {
		return "", false
	}
	lines := strings.Split(string(raw), "\n")
	if len(lines) < 5 {
		return "", false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(lines[0]))
	if err != nil || !processAlive(pid) {
		return "", false
	}
	port, sock := strings.TrimSpace(lines[3]), strings.TrimSpace(lines[4])
	if _, err := strconv.Atoi(port); err != nil || sock == "" {
		return "", false
	}
	q := url.Values{"host": {sock}, "port": {port}, "sslmode": {"disable"}}
	return (&url.URL{Scheme: "postgres", User: url.User("postgres"), Path: "/" + dbname, RawQuery: q.Encode()}).String(), true
}

func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	return p.Signal(syscallZero) == nil
}
