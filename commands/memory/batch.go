package memory

import (
	"context"
	stdsql "database/sql"
	"fmt"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/memory"
	"github.com/strata-platform/strata/eventstore"
)

// decideFunc decides one command on the user's fold. It must either fail
// before recording any event or succeed.
type decideFunc func(d *memory.Decision) (any, error)

// job is one command waiting for a batch.
type job struct {
	md     eventstore.Metadata
	decide decideFunc
	done   chan outcome
	// filled by the batch
	events []kernel.Event
	shred  []string
	value  any
	err    error
}

type outcome struct {
	value any
	err   error
}

// run submits a command for user and waits for its outcome. The caller that
// takes the user's lock leads: it decides every queued command on the fold,
// appends them in one transaction, waits for the read model once, and hands
// each its outcome.
func (s *Service) run(ctx context.Context, user string, decide decideFunc) (any, error) {
	if user == "" {
		return nil, kernel.Unauthenticated("a memory store belongs to a signed-in user")
	}
	j := &job{md: eventstore.MetadataFrom(ctx), decide: decide, done: make(chan outcome, 1)}
	e := s.entry(user)
	e.qmu.Lock()
	e.queue = append(e.queue, j)
	e.qmu.Unlock()

	e.mu.Lock()
	select {
	case out := <-j.done: // an earlier leader took it
		e.mu.Unlock()
		return out.value, out.err
	default:
	}
	e.qmu.Lock()
	batch := e.queue
	e.queue = nil
	e.qmu.Unlock()
	if len(batch) == 0 { // an earlier leader took it and is still waiting for the read model
		e.mu.Unlock()
		out := <-j.done
		return out.value, out.err
	}
	bctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.cfg.BatchTimeout)
	last, err := s.commit(bctx, user, e, batch)
	e.mu.Unlock()
	if err == nil && s.cfg.Wait != nil && last != (eventstore.Key{}) {
		err = s.cfg.Wait(bctx, last)
	}
	cancel()
	for _, b := range batch {
		if err != nil && b.err == nil {
			b.done <- outcome{nil, err}
			continue
		}
		b.done <- outcome{b.value, b.err}
	}
	out := <-j.done
	return out.value, out.err
}

// commit decides and appends a batch, deciding again on a fresh fold when
// another process appended first. It returns the key of the last event.
func (s *Service) commit(ctx context.Context, user string, e *userEntry, batch []*job) (eventstore.Key, error) {
	for attempt := 0; ; attempt++ {
		if err := s.fold(ctx, user, e); err != nil {
			e.store = nil
			return eventstore.Key{}, err
		}
		now := s.clock.Now()
		for _, j := range batch {
			d := e.store.Begin(now, newID)
			j.value, j.err = j.decide(d)
			j.events, j.shred = d.Events, d.Shred
			if j.err != nil && len(j.events) > 0 {
				e.store = nil // a decision broke its contract; never append on this fold
				return eventstore.Key{}, fmt.Errorf("memory: decision failed after recording events: %w", j.err)
			}
		}
		last, version, err := s.append(ctx, user, batch, e.store.Version)
		if err == nil {
			e.store.Version = version
			return last, nil
		}
		e.store = nil // the fold holds the batch's undecided events: fold again
		if kernel.KindOf(err) != kernel.KindConflict || attempt >= maxConflictRetries {
			return eventstore.Key{}, err
		}
	}
}

// append writes the batch's events in one transaction, each command's
// events under its own metadata, with the new keys stored and the shredded
// keys destroyed in the same transaction.
func (s *Service) append(ctx context.Context, user string, batch []*job, version int64) (eventstore.Key, int64, error) {
	var last eventstore.Key
	stream := eventstore.Stream{Type: memory.StreamType, ID: memory.StoreStream(user)}
	sl := newSealer(s.keys, s.store.DB(), user)
	var shredded []string
	for _, j := range batch {
		if err := sl.seal(ctx, j.events); err != nil {
			return last, 0, err
		}
		shredded = append(shredded, j.shred...)
	}
	expected := version // 0 is eventstore.NoStream
	err := s.store.InTx(ctx, func(tx *stdsql.Tx) error {
		for _, j := range batch {
			if len(j.events) == 0 {
				continue
			}
			app, err := s.store.AppendTx(eventstore.WithMetadata(ctx, j.md), tx, stream, expected, j.events...)
			if err != nil {
				return err
			}
			expected, version, last = app.ToVersion, app.ToVersion, app.Last
		}
		if err := s.keys.Store(ctx, tx, sl.order...); err != nil {
			return err
		}
		return s.keys.Shred(ctx, tx, shredded...)
	})
	if err != nil {
		return eventstore.Key{}, 0, err
	}
	s.keys.Remember(sl.order...)
	s.keys.Forget(shredded...)
	return last, version, nil
}
