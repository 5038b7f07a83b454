package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// States a job can be in, as River names them. "discarded" is the dead
// state: the job failed its last attempt.
var States = []string{"available", "scheduled", "running", "retryable", "completed", "discarded", "cancelled", "pending"}

// Info is a job as operators see it.
type Info struct {
	ID          int64           `json:"id"`
	Kind        string          `json:"kind"`
	State       string          `json:"state"`
	Attempt     int             `json:"attempt"`
	MaxAttempts int             `json:"max_attempts"`
	Args        json.RawMessage `json:"args"`
	CreatedAt   time.Time       `json:"created_at"`
	ScheduledAt time.Time       `json:"scheduled_at"`
	AttemptedAt *time.Time      `json:"attempted_at,omitempty"`
	FinalizedAt *time.Time      `json:"finalized_at,omitempty"`
	// LastError is the error of the latest failed attempt, if any.
	LastError string `json:"last_error,omitempty"`
	Errors    int    `json:"errors"`
}

func info(j *rivertype.JobRow) Info {
	in := Info{ID: j.ID, Kind: j.Kind, State: string(j.State), Attempt: j.Attempt, MaxAttempts: j.MaxAttempts,
		Args: json.RawMessage(j.EncodedArgs), CreatedAt: j.CreatedAt, ScheduledAt: j.ScheduledAt,
		AttemptedAt: j.AttemptedAt, FinalizedAt: j.FinalizedAt, Errors: len(j.Errors)}
	if n := len(j.Errors); n > 0 {
		in.LastError = j.Errors[n-1].Error
	}
	return in
}

// ErrNotFound: no job has that id (it may have been removed after its
// retention).
var ErrNotFound = errors.New("jobs: no such job")

// Filter selects jobs for List; zero fields select everything.
type Filter struct {
	States []string
	Kinds  []string
	Limit  int // at most 10000; 0: 100
}

// List returns jobs, newest first.
func (s *Service) List(ctx context.Context, f Filter) ([]Info, error) {
	client, err := s.river()
	if err != nil {
		return nil, err
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 100
	}
	p := river.NewJobListParams().OrderBy(river.JobListOrderByID, river.SortOrderDesc).First(min(limit, 10000))
	if len(f.States) > 0 {
		var states []rivertype.JobState
		for _, st := range f.States {
			if !slices.Contains(States, st) {
				return nil, fmt.Errorf("jobs: unknown state %q (want one of %s)", st, strings.Join(States, ", "))
			}
			states = append(states, rivertype.JobState(st))
		}
		p = p.States(states...)
	}
	if len(f.Kinds) > 0 {
		p = p.Kinds(f.Kinds...)
	}
	res, err := client.JobList(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("jobs: list: %w", err)
	}
	out := make([]Info, 0, len(res.Jobs))
	for _, j := range res.Jobs {
		out = append(out, info(j))
	}
	return out, nil
}

// Retry makes a job available to run now: a discarded (dead), cancelled,
// completed, retrying or scheduled job runs again, with one more attempt
// allowed if it had used them all. A running job is left as it is.
func (s *Service) Retry(ctx context.Context, id int64) (Info, error) {
	client, err := s.river()
	if err != nil {
		return Info{}, err
	}
	j, err := client.JobRetry(ctx, id)
	return found(j, err, "retry", id)
}

// Cancel cancels a job: one waiting or retrying never runs; a running one
// has its context cancelled (the process running it learns within seconds)
// and is not retried; a finished one is left as it is.
func (s *Service) Cancel(ctx context.Context, id int64) (Info, error) {
	client, err := s.river()
	if err != nil {
		return Info{}, err
	}
	j, err := client.JobCancel(ctx, id)
	return found(j, err, "cancel", id)
}

func found(j *rivertype.JobRow, err error, op string, id int64) (Info, error) {
	if errors.Is(err, river.ErrNotFound) {
		return Info{}, fmt.Errorf("%w: %d", ErrNotFound, id)
	}
	if err != nil {
		return Info{}, fmt.Errorf("jobs: %s %d: %w", op, id, err)
	}
	return info(j), nil
}

// Count is how many jobs of a kind are in a state.
type Count struct {
	Kind, State string
	N           int64
}

// Counts counts the jobs of every process by kind and state, leaving out
// completed ones (the bulk of the table; Runs counts completions).
func (s *Service) Counts(ctx context.Context) ([]Count, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT kind, state::text, count(*) FROM jobs.river_job WHERE state <> 'completed'
		GROUP BY kind, state ORDER BY kind, state`)
	if err != nil {
		return nil, fmt.Errorf("jobs: counts: %w", err)
	}
	defer rows.Close()
	var out []Count
	for rows.Next() {
		var c Count
		if err := rows.Scan(&c.Kind, &c.State, &c.N); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// Run counts this process's attempts of a kind by outcome (Outcome*).
type Run struct {
	Kind, Outcome string
	N             uint64
}

// Runs returns this process's attempt counts since it started.
func (s *Service) Runs() []Run { return s.runs.list() }

type runCounts struct {
	mu sync.Mutex
	n  map[[2]string]uint64
}

func newRunCounts() *runCounts { return &runCounts{n: map[[2]string]uint64{}} }

func (r *runCounts) add(kind, outcome string) {
	r.mu.Lock()
	r.n[[2]string{kind, outcome}]++
	r.mu.Unlock()
}

func (r *runCounts) list() []Run {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Run, 0, len(r.n))
	for k, n := range r.n {
		out = append(out, Run{Kind: k[0], Outcome: k[1], N: n})
	}
	slices.SortFunc(out, func(a, b Run) int { return strings.Compare(a.Kind+"\x00"+a.Outcome, b.Kind+"\x00"+b.Outcome) })
	return out
}
