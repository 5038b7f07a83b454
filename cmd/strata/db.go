package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/strata-platform/strata/eventstore/pgcluster"
)

// db runs the embedded cluster of the data directory on its own, for
// development with several processes: `db start` leaves it running after
// the command exits, `db url` prints what other processes connect with and
// `db stop` stops it. DATABASE_URL plays no part: these commands are about
// STRATA_DATA_DIR's cluster.
func (c *command) db(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: db start|stop|url", errUsage)
	}
	switch args[0] {
	case "start":
		return c.dbStart(ctx, args[1:])
	case "stop":
		return c.dbStop(ctx, args[1:])
	case "url":
		return c.dbURL(args[1:])
	}
	return fmt.Errorf("%w: db %q: want start|stop|url", errUsage, args[0])
}

// dbStart starts the cluster detached (initdb on the first run), creates the
// database "strata" and says where it listens. A cluster already running on
// the data directory is left as it is.
func (c *command) dbStart(ctx context.Context, args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("%w: db start takes no arguments", errUsage)
	}
	cluster, err := pgcluster.Running(c.cfg.DataDir)
	switch {
	case err == nil:
		fmt.Fprintf(c.stdout, "PostgreSQL already running on %s (port %d)\n", c.cfg.DataDir, cluster.Port())
		return nil
	case !errors.Is(err, pgcluster.ErrNotRunning):
		return err
	}
	if cluster, err = c.startCluster(ctx, true); err != nil {
		return err
	}
	if err := ensureDatabase(ctx, cluster); err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "PostgreSQL started on %s (port %d); `strata serve` with this data directory uses it, "+
		"`strata db url` prints DATABASE_URL for other processes, `strata db stop` stops it\n", c.cfg.DataDir, cluster.Port())
	return nil
}

// dbStop stops the cluster running on the data directory, whoever started
// it: processes using it lose their connections until it is started again.
func (c *command) dbStop(ctx context.Context, args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("%w: db stop takes no arguments", errUsage)
	}
	cluster, err := pgcluster.Running(c.cfg.DataDir)
	if errors.Is(err, pgcluster.ErrNotRunning) {
		fmt.Fprintf(c.stdout, "no PostgreSQL running on %s\n", c.cfg.DataDir)
		return nil
	} else if err != nil {
		return err
	}
	stopCtx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	if err := cluster.Stop(stopCtx); err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "PostgreSQL stopped on %s\n", c.cfg.DataDir)
	return nil
}

// dbURL prints the URL of the running cluster's database "strata" over TCP
// on 127.0.0.1 with the password: DATABASE_URL for another process. It stays
// right across `db stop` and `db start` (the port and password are kept).
func (c *command) dbURL(args []string) error {
	fs := flag.NewFlagSet("db url", flag.ContinueOnError)
	dbname := fs.String("db", embeddedDB, "database name")
	if rest, err := parseFlags(fs, args); err != nil {
		return err
	} else if len(rest) > 0 {
		return fmt.Errorf("%w: db url [--db NAME]", errUsage)
	}
	cluster, err := pgcluster.Running(c.cfg.DataDir)
	if errors.Is(err, pgcluster.ErrNotRunning) {
		return fmt.Errorf("%w: run `strata db start` first", err)
	} else if err != nil {
		return err
	}
	fmt.Fprintln(c.stdout, cluster.TCPURL(*dbname))
	return nil
}
