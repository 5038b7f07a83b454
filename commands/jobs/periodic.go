package jobs

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"

	"github.com/strata-platform/strata/eventstore"
)

// Periodic declares a job enqueued on a clock. Every process runs every
// schedule; each run is enqueued once, by the first process to see it due,
// while it holds the schedule's row in jobs.periodic (which records the last
// run enqueued), and the run's job is also unique by (kind, schedule name,
// intended instant), so neither two processes nor a restart double a run.
//
// Runs missed while no process ran (or while the database was away) are
// caught up at most once: the latest missed run is enqueued, the earlier
// ones are skipped and logged. A schedule seen for the first time starts
// from that moment (no catch-up of its past).
type Periodic struct {
	// Name identifies the schedule for good ("marketplace.refresh.weekly").
	Name string
	// Cron is a five-field cron expression (see ParseSchedule), read in Zone.
	Cron string
	// Zone is an IANA time zone, such as "America/Los_Angeles", or "UTC".
	Zone string
	// Args builds the job of the run intended for at; its kind must be
	// declared with Handle (Schedule calls Args once with the zero time to
	// learn the kind). Job.Due and Job.Periodic carry at and Name.
	Args func(at time.Time) Args
	// MaxAttempts overrides the kind's.
	MaxAttempts int
}

type periodic struct {
	Periodic
	sched *Schedule
}

// Schedule declares a periodic job (before the service is first used).
func (s *Service) Schedule(p Periodic) error {
	if p.Name == "" || p.Args == nil {
		return errors.New("jobs: a periodic job needs a Name and Args")
	}
	sched, err := ParseSchedule(p.Cron, p.Zone)
	if err != nil {
		return fmt.Errorf("jobs: periodic %s: %w", p.Name, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.client != nil {
		return errDeclared
	}
	for _, q := range s.periodic {
		if q.Name == p.Name {
			return fmt.Errorf("jobs: periodic %s is declared twice", p.Name)
		}
	}
	if _, ok := s.kinds[p.Args(time.Time{}).Kind()]; !ok {
		return fmt.Errorf("jobs: periodic %s: no worker is declared for kind %q", p.Name, p.Args(time.Time{}).Kind())
	}
	s.periodic = append(s.periodic, &periodic{Periodic: p, sched: sched})
	return nil
}

// runSchedules enqueues due runs until ctx ends, waking for the next due
// run and at least every minute (another process may have moved on).
func (s *Service) runSchedules(ctx context.Context) {
	for {
		wait := time.Minute
		now := s.cfg.Clock.Now()
		for _, p := range s.periodic {
			next, err := s.tick(ctx, p)
			switch {
			case ctx.Err() != nil:
				return
			case err != nil:
				s.cfg.Logger.Warn("periodic job: enqueue failed; trying again", "periodic", p.Name, "err", err)
				wait = min(wait, 5*time.Second)
			case !next.IsZero():
				wait = min(wait, max(next.Sub(now), 10*time.Millisecond))
			}
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// maxCatchUp bounds how far back a schedule's missed runs are looked for.
const maxCatchUp = 366 * 24 * time.Hour

// tick enqueues p's due run, if any, and returns its next run after that.
func (s *Service) tick(ctx context.Context, p *periodic) (time.Time, error) {
	now := s.cfg.Clock.Now()
	var next time.Time
	err := eventstore.RunInTx(ctx, s.db, nil, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO jobs.periodic (name, spec, zone, last_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (name) DO NOTHING`, p.Name, p.Cron, p.Zone, now); err != nil {
			return err
		}
		var last time.Time
		if err := tx.QueryRowContext(ctx, `SELECT last_at FROM jobs.periodic WHERE name = $1 FOR UPDATE`, p.Name).Scan(&last); err != nil {
			return err
		}
		if now.Sub(last) > maxCatchUp {
			last = now.Add(-maxCatchUp)
		}
		var due time.Time
		missed := 0
		for r := p.sched.Next(last); !r.IsZero() && !r.After(now); r = p.sched.Next(r) {
			if !due.IsZero() {
				missed++
			}
			due = r
		}
		if due.IsZero() {
			next = p.sched.Next(last)
			return nil
		}
		if missed > 0 {
			s.cfg.Logger.Warn("periodic job: runs were missed while nothing ran; catching up once", "periodic", p.Name,
				"missed", missed, "run", due)
		}
		if _, err := s.enqueueRun(ctx, tx, p, due); err != nil {
			return err
		}
		next = p.sched.Next(due)
		_, err := tx.ExecContext(ctx, `UPDATE jobs.periodic SET last_at = $2, spec = $3, zone = $4, updated_at = now() WHERE name = $1`,
			p.Name, due, p.Cron, p.Zone)
		return err
	})
	if err != nil {
		return time.Time{}, fmt.Errorf("periodic %s: %w", p.Name, err)
	}
	return next, nil
}

// enqueueRun adds the job of p's run intended for at, unique by (kind,
// schedule, at): enqueued twice, it runs once.
func (s *Service) enqueueRun(ctx context.Context, tx *sql.Tx, p *periodic, at time.Time) (Enqueued, error) {
	inner := p.Args(at)
	ins, err := s.insertOpts(inner.Kind(), &Opts{MaxAttempts: p.MaxAttempts})
	if err != nil {
		return Enqueued{}, err
	}
	ins.UniqueOpts = river.UniqueOpts{ByArgs: true}
	return s.insert(ctx, tx, periodicArgs{inner: inner, Name: p.Name, At: at.UTC()}, ins)
}

// periodicArgs are a periodic run's arguments: the job's own, plus the
// schedule and the intended instant, which alone make up its unique key.
type periodicArgs struct {
	inner Args
	Name  string    `json:"strata_periodic" river:"unique"`
	At    time.Time `json:"strata_periodic_at" river:"unique"`
}

func (a periodicArgs) Kind() string { return a.inner.Kind() }

// MarshalJSON writes the job's own arguments with the two fields added.
func (a periodicArgs) MarshalJSON() ([]byte, error) {
	inner, err := json.Marshal(a.inner)
	if err != nil {
		return nil, err
	}
	if len(inner) < 2 || inner[0] != '{' {
		return nil, fmt.Errorf("jobs: periodic %s: arguments must be a JSON object, got %s", a.Name, inner)
	}
	extra, err := json.Marshal(struct {
		Name string    `json:"strata_periodic"`
		At   time.Time `json:"strata_periodic_at"`
	}{a.Name, a.At})
	if err != nil {
		return nil, err
	}
	if string(inner) == "{}" {
		return extra, nil
	}
	out := append([]byte{}, extra[:len(extra)-1]...)
	out = append(out, ',')
	return append(out, inner[1:]...), nil
}
