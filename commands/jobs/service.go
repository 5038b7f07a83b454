package jobs

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"

	"github.com/strata-platform/strata/domain/kernel"
)

// Schema is the PostgreSQL schema of River's tables and the periodic
// schedules (migrations/00016_jobs.sql).
const Schema = "jobs"

// Defaults of Config's zero fields.
const (
	DefaultWorkers       = 10
	DefaultPollInterval  = time.Second
	DefaultJobTimeout    = time.Minute
	DefaultRescueAfter   = 15 * time.Minute
	DefaultShutdownGrace = 10 * time.Second
	DefaultRetention     = 7 * 24 * time.Hour
	DefaultDeadRetention = 30 * 24 * time.Hour
	DefaultMaxAttempts   = 25
)

// Config tunes a Service; zero fields take the defaults above.
type Config struct {
	// Workers is how many jobs this process runs at once.
	Workers int
	// PollInterval is how often an idle process looks for due jobs when no
	// notification arrives (or always, without ListenURL).
	PollInterval time.Duration
	// JobTimeout bounds one attempt of a kind that sets no Timeout: its
	// context is cancelled then, and the attempt fails.
	JobTimeout time.Duration
	// RescueAfter is how long a job may stay "running" before it is taken
	// for dead (its process killed) and retried. It must exceed every
	// kind's timeout, or a slow but live attempt would run twice.
	RescueAfter time.Duration
	// ShutdownGrace is how long Stop lets running jobs finish before it
	// cancels them and releases them to other processes.
	ShutdownGrace time.Duration
	// Retention is how long completed and cancelled jobs are kept, which is
	// also how long a unique job keeps its duplicates out.
	Retention time.Duration
	// DeadRetention is how long discarded (dead) jobs are kept for operators.
	DeadRetention time.Duration
	// ListenURL, a PostgreSQL URL, gives River a LISTEN connection so an
	// enqueued job is picked up at once; empty: poll only.
	ListenURL string
	// Clock times periodic runs (tests pin it); nil: the system clock.
	Clock kernel.Clock
	// DueClock, for tests, is the clock River judges due times by (a
	// scheduled job, a retry, which jobs to fetch; River's own test time
	// generator): advancing it runs a job scheduled a day ahead. It must
	// flow with real time (an offset clock, not a pinned one), since River
	// also times leases with it. nil, as in production: the process's
	// clock and the database's now().
	DueClock kernel.Clock
	Logger   *slog.Logger
}

// Check reports a configuration New would refuse.
func (c Config) Check() error {
	_, err := c.withDefaults()
	return err
}

func (c Config) withDefaults() (Config, error) {
	set := func(d *time.Duration, def time.Duration) {
		if *d <= 0 {
			*d = def
		}
	}
	if c.Workers <= 0 {
		c.Workers = DefaultWorkers
	}
	set(&c.PollInterval, DefaultPollInterval)
	set(&c.JobTimeout, DefaultJobTimeout)
	set(&c.RescueAfter, DefaultRescueAfter)
	set(&c.ShutdownGrace, DefaultShutdownGrace)
	set(&c.Retention, DefaultRetention)
	set(&c.DeadRetention, DefaultDeadRetention)
	if c.RescueAfter <= c.JobTimeout {
		return c, fmt.Errorf("jobs: the rescue delay (%s) must exceed the job timeout (%s)", c.RescueAfter, c.JobTimeout)
	}
	if c.Clock == nil {
		c.Clock = kernel.SystemClock{}
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c, nil
}

// Service enqueues, works, schedules and administers jobs. Declare kinds
// (Handle) and periodic jobs (Schedule) first; the first other use builds
// the River client, after which declarations are refused. It is safe for
// concurrent use.
type Service struct {
	db   *sql.DB
	cfg  Config
	runs *runCounts
	// stopping is set while Stop runs (workers count released jobs).
	stopping atomic.Bool

	mu       sync.Mutex
	workers  *river.Workers
	kinds    map[string]KindOptions
	periodic []*periodic
	client   *river.Client[*sql.Tx]
	listen   *pgxpool.Pool
	stopSch  context.CancelFunc
	schDone  chan struct{}
	started  bool
}

// New returns a service on db (the store's pool, "pgx" driver).
func New(db *sql.DB, cfg Config) (*Service, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	return &Service{db: db, cfg: cfg, runs: newRunCounts(), workers: river.NewWorkers(), kinds: map[string]KindOptions{}}, nil
}

// fetchCooldown is River's FetchCooldown: the least time between two
// fetches of a queue, and also the window in which River sends one insert
// notification per queue (a job inserted within it of the previous
// notified one is not announced and waits for the next poll, a second by
// default). River's default of 100 ms left one builder generation in
// twenty waiting most of a second for its pickup when generations
// followed each other (strata bench builder): 10 ms keeps fetches bounded
// (at most a hundred a second per queue, only while jobs are inserted) and
// the unannounced window short.
const fetchCooldown = 10 * time.Millisecond

// errDeclared refuses a declaration after the client was built.
var errDeclared = errors.New("jobs: declare job kinds and periodic jobs before the service is first used")

// river returns the River client, building it on first use.
func (s *Service) river() (*river.Client[*sql.Tx], error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.client != nil {
		return s.client, nil
	}
	cfg := &river.Config{
		Schema:                      Schema,
		Logger:                      s.cfg.Logger,
		JobTimeout:                  s.cfg.JobTimeout,
		RescueStuckJobsAfter:        s.cfg.RescueAfter,
		SoftStopTimeout:             s.cfg.ShutdownGrace,
		CompletedJobRetentionPeriod: s.cfg.Retention,
		CancelledJobRetentionPeriod: s.cfg.Retention,
		DiscardedJobRetentionPeriod: s.cfg.DeadRetention,
		FetchPollInterval:           s.cfg.PollInterval,
		FetchCooldown:               min(fetchCooldown, s.cfg.PollInterval),
		MaxAttempts:                 DefaultMaxAttempts,
		SkipUnknownJobCheck:         true, // Enqueue checks against s.kinds
	}
	if s.cfg.DueClock != nil {
		cfg.Test.Time = dueTime{s.cfg.DueClock}
	}
	driver := riverdatabasesql.New(s.db)
	if len(s.kinds) > 0 {
		cfg.Queues = map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: s.cfg.Workers}}
		cfg.Workers = s.workers
		if s.cfg.ListenURL != "" {
			pc, err := pgxpool.ParseConfig(s.cfg.ListenURL)
			if err != nil {
				return nil, fmt.Errorf("jobs: listen URL: %w", err)
			}
			pc.MaxConns, pc.MinConns = 2, 0
			pool, err := pgxpool.NewWithConfig(context.Background(), pc) // connects on first use
			if err != nil {
				return nil, fmt.Errorf("jobs: listen pool: %w", err)
			}
			s.listen = pool
			driver = riverdatabasesql.NewWithPgxListener(s.db, pool)
		}
	}
	client, err := river.NewClient(driver, cfg)
	if err != nil {
		if s.listen != nil {
			s.listen.Close()
			s.listen = nil
		}
		return nil, fmt.Errorf("jobs: %w", err)
	}
	s.client = client
	return client, nil
}

// Start runs this process's share of the work until Stop: River's fetchers
// and workers (and, on the process elected leader, its maintenance:
// scheduling retries, rescuing jobs of dead processes, removing old rows),
// and the periodic schedules. Without declared kinds it does nothing.
func (s *Service) Start(ctx context.Context) error {
	s.mu.Lock()
	none, started := len(s.kinds) == 0, s.started
	s.mu.Unlock()
	if none || started {
		return nil
	}
	client, err := s.river()
	if err != nil {
		return err
	}
	if err := client.Start(context.WithoutCancel(ctx)); err != nil {
		return fmt.Errorf("jobs: start: %w", err)
	}
	schCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	s.mu.Lock()
	s.started, s.stopSch, s.schDone = true, stop, make(chan struct{})
	s.mu.Unlock()
	go func() { defer close(s.schDone); s.runSchedules(schCtx) }()
	return nil
}

// Stop stops fetching, lets running jobs finish within ShutdownGrace, then
// cancels them; a job that returns because of that is released (available
// again, its attempt not counted) for another process. It returns when
// every job has returned or ctx ends (a job that ignores its context stays
// "running" until RescueAfter). Stop on a service never started does
// nothing.
func (s *Service) Stop(ctx context.Context) error {
	s.mu.Lock()
	started, client, stopSch, schDone, listen := s.started, s.client, s.stopSch, s.schDone, s.listen
	s.started, s.listen = false, nil
	s.mu.Unlock()
	if !started {
		if listen != nil {
			listen.Close()
		}
		return nil
	}
	stopSch()
	<-schDone
	s.stopping.Store(true)
	defer s.stopping.Store(false)
	err := client.Stop(ctx)
	if listen != nil {
		listen.Close()
	}
	if err != nil {
		return fmt.Errorf("jobs: stop: %w", err)
	}
	return nil
}
