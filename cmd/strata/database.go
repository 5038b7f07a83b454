package main

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
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
// the data directory: the one already running there (`strata db start`, or
// another `strata serve`), found through its postmaster.pid and password
// file, or else started here (initdb on first run). It then applies pending
// migrations when migrate is set.
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

// embedded points d at the embedded cluster of the data directory: the one
// already running there (`strata db start`, or another `strata serve`),
// which this process then leaves running, or else one it starts and stops
// at Close. Either way the database "strata" exists afterwards.
func (c *command) embedded(ctx context.Context, d *database) error {
	cluster, err := pgcluster.Running(c.cfg.DataDir)
	if err == nil {
		c.logger.Info("using the embedded PostgreSQL already running on the data directory (left running at exit)",
			"data_dir", c.cfg.DataDir, "port", cluster.Port())
	} else if !errors.Is(err, pgcluster.ErrNotRunning) {
		return fmt.Errorf("embedded PostgreSQL: %w", err)
	} else {
		cluster, err = c.startCluster(ctx, false)
		if err != nil {
			return err
		}
		d.close = func() {
			stopCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if err := cluster.Stop(stopCtx); err != nil {
				c.logger.Error("stop embedded PostgreSQL", "err", err)
			}
		}
	}
	if err := ensureDatabase(ctx, cluster); err != nil {
		d.close()
		return err
	}
	d.URL = cluster.URL(embeddedDB)
	return nil
}

// embeddedDB is the database Strata uses on its embedded cluster.
const embeddedDB = "strata"

// startCluster starts the embedded cluster of the data directory; detach
// leaves it running after this process exits (`strata db start`).
func (c *command) startCluster(ctx context.Context, detach bool) (*pgcluster.Cluster, error) {
	cluster, err := pgcluster.Start(ctx, pgcluster.Options{DataDir: c.cfg.DataDir, Logger: c.logger,
		SharedBuffers: c.cfg.SharedBuffers, Detach: detach})
	if err != nil {
		return nil, fmt.Errorf("embedded PostgreSQL (set DATABASE_URL to use another server): %w", err)
	}
	c.logger.Info("embedded PostgreSQL running", "data_dir", c.cfg.DataDir, "port", cluster.Port(), "detached", detach)
	return cluster, nil
}

// ensureDatabase creates the database "strata" on cluster when it is missing.
func ensureDatabase(ctx context.Context, cluster *pgcluster.Cluster) error {
	admin, err := stdsql.Open("pgx", cluster.URL("postgres"))
	if err != nil {
		return fmt.Errorf("embedded PostgreSQL: %w", err)
	}
	defer admin.Close()
	var exists bool
	if err := admin.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, embeddedDB).Scan(&exists); err != nil {
		return fmt.Errorf("embedded PostgreSQL: %w", err)
	}
	if !exists {
		if _, err := admin.ExecContext(ctx, `CREATE DATABASE `+embeddedDB); err != nil {
			return fmt.Errorf("embedded PostgreSQL: create database: %w", err)
		}
	}
	return nil
}
