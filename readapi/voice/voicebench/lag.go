package voicebench

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	projvoice "github.com/strata-platform/strata/projections/voice"
)

// key is an event's place in the consumers' order: (transaction id,
// position).
type key struct {
	tx  uint64
	pos int64
}

func (k key) atLeast(o key) bool { return k.tx > o.tx || k.tx == o.tx && k.pos >= o.pos }

// marks reads the last event's key and the voice.v1 projector's
// checkpoint.
func marks(ctx context.Context, db *stdsql.DB) (head, done key, err error) {
	var htx, dtx stdsql.NullString
	var hpos, dpos stdsql.NullInt64
	err = db.QueryRowContext(ctx, `SELECT
			(SELECT transaction_id::text FROM es.events ORDER BY transaction_id DESC, position DESC LIMIT 1),
			(SELECT position FROM es.events ORDER BY transaction_id DESC, position DESC LIMIT 1),
			(SELECT last_processed_transaction_id::text FROM es.checkpoints WHERE consumer_group = $1),
			(SELECT offset_acked FROM es.checkpoints WHERE consumer_group = $1)`, projvoice.Name).Scan(&htx, &hpos, &dtx, &dpos)
	if err != nil {
		return head, done, err
	}
	head.tx, _ = strconv.ParseUint(htx.String, 10, 64)
	done.tx, _ = strconv.ParseUint(dtx.String, 10, 64)
	head.pos, done.pos = hpos.Int64, dpos.Int64
	return head, done, nil
}

// quiesce waits (up to limit) until the voice.v1 projector has applied
// every event recorded so far, so that a phase's backlog does not spill
// into the next one.
func quiesce(ctx context.Context, db *stdsql.DB, limit time.Duration) (time.Duration, error) {
	t0 := time.Now()
	for {
		head, done, err := marks(ctx, db)
		if err != nil {
			return time.Since(t0), err
		}
		if done.atLeast(head) {
			return time.Since(t0), nil
		}
		if time.Since(t0) > limit {
			return time.Since(t0), fmt.Errorf("voicebench: the %s projector is still behind after %s", projvoice.Name, limit)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// lagSampler measures how far the voice.v1 projector (the read model the
// routes wait for: read-your-writes) runs behind the event store: every
// 10 ms it notes the last event recorded and the projector's checkpoint;
// a sample's lag is the time until a sample saw the checkpoint pass that
// event (0 when its own did; else at most 10 ms and a query too long).
type lagSampler struct {
	stop func()
	done chan struct{}

	mu      sync.Mutex
	samples []lagSample
	err     error
}

type lagSample struct {
	at         time.Time
	head, done key
}

func startLag(ctx context.Context, db *stdsql.DB) *lagSampler {
	ctx, stop := context.WithCancel(ctx)
	s := &lagSampler{stop: stop, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		for ctx.Err() == nil {
			at := time.Now()
			head, done, err := marks(ctx, db)
			s.mu.Lock()
			if err != nil && ctx.Err() == nil && s.err == nil {
				s.err = err
			}
			if err == nil {
				s.samples = append(s.samples, lagSample{at: at, head: head, done: done})
			}
			s.mu.Unlock()
			select {
			case <-ctx.Done():
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	return s
}

// lags stops the sampler and returns each sample's lag (samples whose
// event the projector had not passed by the end are left out, and
// counted).
func (s *lagSampler) lags() ([]time.Duration, int, error) {
	s.stop()
	<-s.done
	if s.err != nil && !errors.Is(s.err, context.Canceled) {
		return nil, 0, s.err
	}
	lags, open := Lags(s.samples)
	return lags, open, nil
}

// Lags is, for each sample, the time until a later sample's checkpoint
// passed its head (0 when its own had), and how many never saw theirs
// passed.
func Lags(samples []lagSample) ([]time.Duration, int) {
	var out []time.Duration
	open := 0
	for i, s := range samples {
		found := false
		for _, later := range samples[i:] {
			if later.done.atLeast(s.head) {
				out = append(out, later.at.Sub(s.at))
				found = true
				break
			}
		}
		if !found {
			open++
		}
	}
	return out, open
}
