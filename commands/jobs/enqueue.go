package jobs

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// Opts are one job's options; nil or zero fields take the kind's.
type Opts struct {
	// At is the earliest time the job runs; zero: now.
	At time.Time
	// MaxAttempts overrides the kind's.
	MaxAttempts int
	// Unique keeps a second job with the same key out while the first is
	// waiting, running, retrying or completed (and kept: Config.Retention);
	// after it is discarded or cancelled a new one may be enqueued.
	Unique *Unique
}

// Unique says what makes two jobs of one kind the same. At least one field
// must be set.
type Unique struct {
	// ByArgs: the same arguments (all of them, or only the fields tagged
	// `river:"unique"`).
	ByArgs bool
	// Period: at most one per period of this length (UTC-aligned), counted
	// from At (or now).
	Period time.Duration
}

// Enqueued reports an enqueued job.
type Enqueued struct {
	ID int64
	// Duplicate: a unique job with the same key existed; nothing was added
	// and ID is that job's.
	Duplicate bool
}

// Enqueue adds a job of a declared kind inside tx, the transaction of the
// events that cause it: it runs only if tx commits. With a nil tx the job is
// added in a transaction of its own. Inside an append's transaction, call it
// after Store.AppendTx (the version check must be the first write).
func (s *Service) Enqueue(ctx context.Context, tx *sql.Tx, args Args, opts *Opts) (Enqueued, error) {
	ins, err := s.insertOpts(args.Kind(), opts)
	if err != nil {
		return Enqueued{}, err
	}
	return s.insert(ctx, tx, args, ins)
}

func (s *Service) insert(ctx context.Context, tx *sql.Tx, args river.JobArgs, ins *river.InsertOpts) (Enqueued, error) {
	client, err := s.river()
	if err != nil {
		return Enqueued{}, err
	}
	var res *rivertype.JobInsertResult
	if tx == nil {
		res, err = client.Insert(ctx, args, ins)
	} else {
		res, err = client.InsertTx(ctx, tx, args, ins)
	}
	if err != nil {
		return Enqueued{}, fmt.Errorf("jobs: enqueue %s: %w", args.Kind(), err)
	}
	return Enqueued{ID: res.Job.ID, Duplicate: res.UniqueSkippedAsDuplicate}, nil
}

func (s *Service) insertOpts(kind string, opts *Opts) (*river.InsertOpts, error) {
	s.mu.Lock()
	k, ok := s.kinds[kind]
	s.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("jobs: no worker is declared for kind %q (jobs.Handle)", kind)
	}
	if opts == nil {
		opts = &Opts{}
	}
	ins := &river.InsertOpts{ScheduledAt: opts.At, MaxAttempts: opts.MaxAttempts}
	if ins.MaxAttempts == 0 {
		ins.MaxAttempts = k.MaxAttempts
	}
	if ins.MaxAttempts < 0 {
		return nil, errors.New("jobs: negative MaxAttempts")
	}
	if u := opts.Unique; u != nil {
		if !u.ByArgs && u.Period <= 0 {
			return nil, fmt.Errorf("jobs: kind %s: Unique needs ByArgs or a Period", kind)
		}
		ins.UniqueOpts = river.UniqueOpts{ByArgs: u.ByArgs, ByPeriod: u.Period}
	}
	return ins, nil
}
