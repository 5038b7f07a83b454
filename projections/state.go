package projections

import (
	"context"
	"errors"
	"time"

	"github.com/strata-platform/strata/eventstore"
)

// Projector states, as shown by `strata projections status` and health.
const (
	StateStarting   = "starting"
	StateRunning    = "running"
	StateFailing    = "failing" // stopped at an event, retrying with backoff
	StateStopped    = "stopped"
	StateRebuilding = "rebuilding"
)

// State is what this process knows of one projector.
type State struct {
	Name         string
	State        string
	Processed    eventstore.Key // last key committed by this process
	LastError    string
	FailingAt    int64 // position of the failing event
	FailingSince time.Time
	Retries      int
}

// States returns a snapshot of every projector's state in this process.
func (r *Runner) States() []State {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]State, 0, len(r.projectors))
	for _, p := range r.projectors {
		out = append(out, *r.states[p.Name()])
	}
	return out
}

// Stalled lists the projectors currently failing.
func (r *Runner) Stalled() []string {
	var out []string
	for _, s := range r.States() {
		if s.State == StateFailing {
			out = append(out, s.Name)
		}
	}
	return out
}

// Progress is fired after every batch a projector of this runner commits.
func (r *Runner) Progress() *Signal { return r.progress }

func (r *Runner) failing(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.states[name].State == StateFailing
}

func (r *Runner) setState(ctx context.Context, name, state string) {
	r.mu.Lock()
	s := r.states[name]
	if s.State == StateFailing && state == StateRunning {
		r.mu.Unlock() // a new subscription is not a recovery; the next committed batch is
		return
	}
	s.State = state
	r.mu.Unlock()
	r.writeStatus(ctx, name, state, nil, 0)
}

func (r *Runner) failed(ctx context.Context, name string, err error) {
	var ae *ApplyError
	pos := int64(0)
	if errors.As(err, &ae) {
		pos = ae.Position
	}
	r.mu.Lock()
	s := r.states[name]
	if s.State != StateFailing {
		s.FailingSince = time.Now().UTC()
	}
	s.State, s.LastError, s.FailingAt = StateFailing, err.Error(), pos
	s.Retries++
	r.mu.Unlock()
	r.logger.Error("projector failed; it stays at this event and retries", "projector", name, "position", pos, "err", err)
	r.writeStatus(ctx, name, StateFailing, err, pos)
}

func (r *Runner) committed(ctx context.Context, name string, key eventstore.Key) {
	r.mu.Lock()
	s := r.states[name]
	recovered := false
	if key != (eventstore.Key{}) && s.Processed.Less(key) {
		s.Processed = key
	}
	// A batch committed after a failure is a recovery, even an empty one: a
	// failing event is the first of the next batch read (so that batch would
	// have failed again), and once it is applied, here or by this group's
	// consumer in another process, the projector is no longer stuck. (Waiting
	// for this process to pass it left a process whose peer did the work
	// reporting "failing" until the next event.)
	if s.State == StateFailing {
		s.State, s.LastError, s.FailingAt, s.Retries, s.FailingSince = StateRunning, "", 0, 0, time.Time{}
		recovered = true
	}
	r.mu.Unlock()
	if recovered {
		r.logger.Info("projector recovered", "projector", name)
		r.writeStatus(ctx, name, StateRunning, nil, 0)
	}
	r.progress.Fire()
}

// writeStatus records a projector's state in es.projector_status, so other
// processes (the CLI, other replicas) can see it. Failures are logged only.
func (r *Runner) writeStatus(ctx context.Context, name, state string, err error, pos int64) {
	var msg *string
	var at *int64
	if err != nil {
		m := err.Error()
		msg, at = &m, &pos
	}
	_, werr := r.db.ExecContext(ctx, `INSERT INTO es.projector_status (name, state, last_error, failing_position, failing_since, retries, updated_at)
		VALUES ($1, $2, $3, $4, CASE WHEN $2 = 'failing' THEN clock_timestamp() END, CASE WHEN $2 = 'failing' THEN 1 ELSE 0 END, clock_timestamp())
		ON CONFLICT (name) DO UPDATE SET state = $2, last_error = $3, failing_position = $4,
			failing_since = CASE WHEN $2 <> 'failing' THEN NULL
				WHEN es.projector_status.state = 'failing' THEN es.projector_status.failing_since ELSE clock_timestamp() END,
			retries = CASE WHEN $2 = 'failing' THEN es.projector_status.retries + 1 ELSE 0 END,
			updated_at = clock_timestamp()`, name, state, msg, at)
	if werr != nil {
		r.logger.Warn("could not record projector status", "projector", name, "err", werr)
	}
}
