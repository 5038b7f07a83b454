// Package storebench measures the event store and the projections against a
// raw PostgreSQL baseline measured in the same run on the same server: what
// an expert would hand-write with pgx, without Watermill. `strata bench
// eventstore` runs it in a scratch database (NewScratch); the measurement
// needs a migrated database it may fill with a million events.
package storebench

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// EventType is the only event type of the bench's private registry.
const EventType = "bench.ticked"

// Tick is the bench event: a small JSON payload.
type Tick struct {
	N int `json:"n"`
}

// EventType names the event.
func (Tick) EventType() string { return EventType }

// Options sizes a run. Start from Full or Quick and set DB and URL.
type Options struct {
	// DB is a migrated database reserved for the bench (see NewScratch): the
	// bench appends up to StoreEvents events and creates schemas in it.
	// Run raises its idle-connection limit to fit Clients.
	DB *stdsql.DB
	// URL connects to the same database (raw pgx pool, LISTEN connection).
	URL string
	// Mode names the preset in the report.
	Mode string

	Clients        int           // concurrent appenders of the append figures (32)
	Rounds         int           // alternating baseline/ours rounds of the append and bulk figures
	AppendDuration time.Duration // per round and side
	PlainDuration  time.Duration // per reference line
	BulkSize       int           // events per bulk append (1000)
	BulkClients    int           // concurrent bulk appenders
	BulkEvents     int           // events per round and side of the bulk figure
	StoreEvents    int           // the store is filled up to this many events before the rebuilds
	LiveEvents     int           // backlog the live projectors catch up on
	Backlogs       []int         // unread events behind the checkpoint of the catch-up batch figures
	BatchSamples   int           // samples per backlog and query shape
	BatchBudget    time.Duration // time limit per backlog and query shape (at least 3 samples)
	LatencySamples int           // samples per commit-to-visible figure
	LatencyGap     time.Duration // idle gaps between samples are uniform in [0, LatencyGap)
	LoadRate       int           // background events/s of the loaded commit-to-visible figure

	// Logger receives the runner's and the listener's log; nil discards it.
	Logger *slog.Logger
	// Progress receives a line per step; nil discards them.
	Progress io.Writer
}

// Full is the preset of `strata bench eventstore`: about five minutes on two cores.
func Full() Options {
	return Options{Mode: "full", Clients: 32, Rounds: 2, AppendDuration: 5 * time.Second, PlainDuration: 4 * time.Second,
		BulkSize: 1000, BulkClients: 2, BulkEvents: 125_000, StoreEvents: 1_000_000, LiveEvents: 200_000,
		Backlogs: []int{0, 100_000, 1_000_000}, BatchSamples: 1000, BatchBudget: 20 * time.Second,
		LatencySamples: 300, LatencyGap: 250 * time.Millisecond, LoadRate: 1000}
}

// Quick is the preset of `--quick`: smaller sizes, well under a minute.
func Quick() Options {
	return Options{Mode: "quick", Clients: 32, Rounds: 1, AppendDuration: 2 * time.Second, PlainDuration: time.Second,
		BulkSize: 1000, BulkClients: 2, BulkEvents: 20_000, StoreEvents: 100_000, LiveEvents: 30_000,
		Backlogs: []int{0, 10_000, 100_000}, BatchSamples: 50, BatchBudget: 3 * time.Second,
		LatencySamples: 30, LatencyGap: 250 * time.Millisecond, LoadRate: 1000}
}

func (o Options) check() error {
	switch {
	case o.DB == nil || o.URL == "":
		return errors.New("bench: DB and URL are required")
	case o.Clients < 1 || o.Rounds < 1 || o.BulkSize < 1 || o.BulkClients < 1 || o.BulkEvents < o.BulkSize:
		return errors.New("bench: Clients, Rounds, BulkSize, BulkClients must be positive and BulkEvents >= BulkSize")
	case o.AppendDuration <= 0 || o.PlainDuration <= 0 || o.BatchBudget <= 0 || o.LatencyGap <= 0:
		return errors.New("bench: durations must be positive")
	case o.LiveEvents < 1 || o.StoreEvents < o.LiveEvents || o.BatchSamples < 1 || o.LatencySamples < 1 || o.LoadRate < 1:
		return errors.New("bench: LiveEvents, BatchSamples, LatencySamples, LoadRate must be positive and StoreEvents >= LiveEvents")
	}
	return nil
}

// bench is one run's state.
type bench struct {
	o     Options
	db    *stdsql.DB
	pool  *pgxpool.Pool
	reg   *eventstore.Registry
	store *eventstore.Store
	log   *slog.Logger
}

// Run measures every figure, in this order: reference inserts, appends with a
// version check, bulk appends, rebuilds, catch-up batches, live projection
// and commit-to-visible latency. It stops at the first error.
func Run(ctx context.Context, o Options) (Report, error) {
	start := time.Now()
	rep := Report{Mode: o.Mode, CPUs: runtime.NumCPU()}
	if err := o.check(); err != nil {
		return rep, err
	}
	b, err := newBench(ctx, o)
	if err != nil {
		return rep, err
	}
	defer b.pool.Close()
	// Our appends pay for announcing their commits for the whole run; there
	// is no in-process shortcut, consumers are woken through PostgreSQL.
	nctx, stopNotifier := context.WithCancel(ctx)
	notified := make(chan struct{})
	go func() { defer close(notified); b.store.RunNotifier(nctx, nil) }()
	defer func() { stopNotifier(); <-notified }()
	if rep.Server, err = b.server(ctx); err != nil {
		return rep, err
	}
	steps := []struct {
		name string
		fn   func(context.Context) ([]Figure, error)
	}{
		{"reference inserts", b.plain},
		{"appends", b.appends},
		{"bulk appends", b.bulk},
		{"fill", b.fill},
		{"rebuilds", b.rebuilds},
		{"catch-up batches", b.batches},
		{"live projection", b.live},
	}
	for _, s := range steps {
		b.progress("%s ...", s.name)
		figs, err := s.fn(ctx)
		if ctx.Err() != nil {
			return rep, fmt.Errorf("bench interrupted during %s: %w", s.name, ctx.Err())
		}
		if err != nil {
			return rep, fmt.Errorf("bench %s: %w", s.name, err)
		}
		rep.Figures = append(rep.Figures, figs...)
	}
	rep.Elapsed = time.Since(start)
	return rep, nil
}

func newBench(ctx context.Context, o Options) (*bench, error) {
	reg := eventstore.NewRegistry()
	if err := reg.Register(eventstore.EventDef{Name: EventType, Version: 1, New: func() kernel.Event { return &Tick{} }}); err != nil {
		return nil, err
	}
	if err := reg.Seal(); err != nil {
		return nil, err
	}
	cfg, err := pgxpool.ParseConfig(o.URL)
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	cfg.MaxConns = int32(max(o.Clients, o.BulkClients) + 4)
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("bench: raw pool: %w", err)
	}
	o.DB.SetMaxIdleConns(max(o.Clients, o.BulkClients) + 16)
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	clock := kernel.SystemClock{}
	b := &bench{o: o, db: o.DB, pool: pool, reg: reg, log: log,
		store: eventstore.New(o.DB, reg, clock, eventstore.NewULIDs(clock))}
	_, err = o.DB.ExecContext(ctx, `CREATE SCHEMA IF NOT EXISTS storebench;
		CREATE TABLE IF NOT EXISTS storebench.plain (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
			payload jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT clock_timestamp())`)
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("bench: create tables: %w", err)
	}
	return b, nil
}

// server describes the server and the settings that matter to the figures.
func (b *bench) server(ctx context.Context) (string, error) {
	var version, fsync, syncCommit, buffers string
	err := b.db.QueryRowContext(ctx, `SELECT current_setting('server_version'), current_setting('fsync'),
		current_setting('synchronous_commit'), current_setting('shared_buffers')`).Scan(&version, &fsync, &syncCommit, &buffers)
	if err != nil {
		return "", fmt.Errorf("bench: server settings: %w", err)
	}
	return fmt.Sprintf("PostgreSQL %s (fsync=%s, synchronous_commit=%s, shared_buffers=%s)", version, fsync, syncCommit, buffers), nil
}

func (b *bench) progress(format string, args ...any) {
	if b.o.Progress != nil {
		fmt.Fprintf(b.o.Progress, "bench: "+format+"\n", args...)
	}
}

// storeSize counts the events in the store.
func (b *bench) storeSize(ctx context.Context) (int64, error) {
	var n int64
	err := b.db.QueryRowContext(ctx, `SELECT count(*) FROM es.events`).Scan(&n)
	return n, err
}
