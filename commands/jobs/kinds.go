package jobs

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
)

// Args are a job's arguments: a struct, stored as JSON, whose Kind names the
// job kind ("mail.welcome"); like an event type, a kind is a stable string.
type Args interface {
	Kind() string
}

// Job is one attempt at a job, as its worker sees it.
type Job[T Args] struct {
	ID          int64
	Kind        string
	Args        T
	Attempt     int // 1 on the first attempt
	MaxAttempts int
	CreatedAt   time.Time
	// Due is when the job was meant to run: the intended instant of a
	// periodic run, else the time it was scheduled for.
	Due time.Time
	// Periodic names the periodic job that enqueued this run, if any.
	Periodic string

	row *river.Job[T]
}

// KindOptions are a job kind's defaults.
type KindOptions struct {
	// MaxAttempts before the job is discarded (dead); 0: DefaultMaxAttempts.
	MaxAttempts int
	// Timeout of one attempt; 0: Config.JobTimeout. It must stay below
	// Config.RescueAfter.
	Timeout time.Duration
	// Backoff returns the wait before the next attempt after the attempt
	// given (1 after the first) failed; nil: River's attempt^4 seconds with
	// jitter (1 s, 16 s, 81 s, ... about three weeks over 25 attempts).
	Backoff func(attempt int) time.Duration
}

// Handle declares the job kind of T and the function that works it. work
// returns nil when the job is done; an error fails the attempt (retried with
// backoff until MaxAttempts, then discarded); Permanent(err) gives up at
// once. work must return soon after ctx ends (shutdown, timeout, an
// operator's cancel). A worker whose outcome changes the domain appends its
// events and calls CompleteTx in the same transaction.
func Handle[T Args](s *Service, work func(ctx context.Context, job *Job[T]) error, opts KindOptions) error {
	var zero T
	kind := zero.Kind()
	if opts.MaxAttempts < 0 || opts.Timeout < 0 {
		return fmt.Errorf("jobs: kind %s: negative options", kind)
	}
	if opts.Timeout >= s.cfg.RescueAfter {
		return fmt.Errorf("jobs: kind %s: timeout %s must stay below the rescue delay %s", kind, opts.Timeout, s.cfg.RescueAfter)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.client != nil {
		return errDeclared
	}
	if _, dup := s.kinds[kind]; dup {
		return fmt.Errorf("jobs: kind %s is declared twice", kind)
	}
	if err := river.AddWorkerSafely(s.workers, &worker[T]{work: work, opts: opts, runs: s.runs, stopping: &s.stopping}); err != nil {
		return fmt.Errorf("jobs: kind %s: %w", kind, err)
	}
	s.kinds[kind] = opts
	return nil
}

// Permanent marks a failure that retrying cannot fix (a webhook answering
// 410): the job is cancelled at once with the error recorded, not retried.
func Permanent(err error) error { return river.JobCancel(err) }

// Snooze puts the job back to run again after d without counting the
// attempt (its work is waiting on something else: an earlier callback of
// the same call still being delivered).
func Snooze(d time.Duration) error { return river.JobSnooze(d) }

// CompleteTx marks job completed inside tx, so that the events a worker
// appends and the job's completion commit together (or not at all); the
// worker then returns nil. Only valid inside a worker's call.
func CompleteTx[T Args](ctx context.Context, tx *sql.Tx, job *Job[T]) error {
	if job.row == nil {
		return errors.New("jobs: CompleteTx outside a worker")
	}
	if _, err := river.JobCompleteTx[*riverdatabasesql.Driver](ctx, tx, job.row); err != nil {
		return fmt.Errorf("jobs: complete %d: %w", job.ID, err)
	}
	return nil
}

// worker adapts a Handle function to River.
type worker[T Args] struct {
	river.WorkerDefaults[T]
	work     func(ctx context.Context, job *Job[T]) error
	opts     KindOptions
	runs     *runCounts
	stopping *atomic.Bool // the service is stopping: a cancelled job is released
}

func (w *worker[T]) Timeout(*river.Job[T]) time.Duration { return w.opts.Timeout }

func (w *worker[T]) NextRetry(job *river.Job[T]) time.Time {
	if w.opts.Backoff == nil {
		return time.Time{} // River's policy
	}
	return time.Now().Add(w.opts.Backoff(job.Attempt))
}

func (w *worker[T]) Work(ctx context.Context, rj *river.Job[T]) (err error) {
	j := &Job[T]{ID: rj.ID, Kind: rj.Kind, Args: rj.Args, Attempt: rj.Attempt, MaxAttempts: rj.MaxAttempts,
		CreatedAt: rj.CreatedAt, Due: rj.ScheduledAt, row: rj}
	var p struct {
		Name string     `json:"strata_periodic"`
		At   *time.Time `json:"strata_periodic_at"`
	}
	if json.Unmarshal(rj.EncodedArgs, &p) == nil && p.At != nil {
		j.Due, j.Periodic = *p.At, p.Name
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
		w.runs.add(rj.Kind, outcome(ctx, err, rj.Attempt, rj.MaxAttempts, w.stopping.Load()))
	}()
	return w.work(ctx, j)
}

// Outcomes of an attempt, as counted in Runs.
const (
	OutcomeCompleted = "completed" // done
	OutcomeFailed    = "failed"    // failed; it will be retried
	OutcomeDiscarded = "discarded" // failed its last attempt: dead
	OutcomeCancelled = "cancelled" // Permanent, or cancelled by an operator
	OutcomeReleased  = "released"  // stopped by a shutdown; available again
	OutcomeSnoozed   = "snoozed"   // put back by Snooze; the attempt does not count
)

func isSnooze(err error) bool {
	var snooze *river.JobSnoozeError
	return errors.As(err, &snooze)
}

func outcome(ctx context.Context, err error, attempt, max int, stopping bool) string {
	var cancel *river.JobCancelError
	switch {
	case err == nil:
		return OutcomeCompleted
	case errors.As(err, &cancel):
		return OutcomeCancelled
	case isSnooze(err):
		return OutcomeSnoozed
	case stopping && ctx.Err() != nil && errors.Is(err, context.Canceled):
		return OutcomeReleased
	case attempt >= max:
		return OutcomeDiscarded
	default:
		return OutcomeFailed
	}
}
