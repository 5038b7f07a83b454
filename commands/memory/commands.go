package memory

import (
	"context"

	"github.com/strata-platform/strata/domain/memory"
)

// Remember validates in and records it in user's store (or merges it into
// a near-duplicate), with the facts of the configured model extractor, if
// any, merged into the offline extractor's. The read model reflects it
// when Remember returns.
func (s *Service) Remember(ctx context.Context, user string, in memory.RememberInput) (memory.Remembered, error) {
	if err := in.Check(s.clock.Now()); err != nil {
		return memory.Remembered{}, err
	}
	s.askModel(ctx, &in) // before the lock: no one waits for the model but this caller
	v, err := s.run(ctx, user, func(d *memory.Decision) (any, error) {
		return d.Remember(in, s.cfg.Vocabulary), nil
	})
	if err != nil {
		return memory.Remembered{}, err
	}
	return v.(memory.Remembered), nil
}

// RememberMany records several memories in one decision and one append
// (a transcript's extracted memories): all or none.
func (s *Service) RememberMany(ctx context.Context, user string, ins []memory.RememberInput) ([]memory.Remembered, error) {
	now := s.clock.Now()
	for i := range ins {
		if err := ins[i].Check(now); err != nil {
			return nil, err
		}
	}
	s.askModelAll(ctx, ins)
	v, err := s.run(ctx, user, func(d *memory.Decision) (any, error) {
		out := make([]memory.Remembered, len(ins))
		for i, in := range ins {
			out[i] = d.Remember(in, s.cfg.Vocabulary)
		}
		return out, nil
	})
	if err != nil {
		return nil, err
	}
	return v.([]memory.Remembered), nil
}

// Forget deletes a memory of user's and destroys its key.
func (s *Service) Forget(ctx context.Context, user, memoryID string) error {
	_, err := s.run(ctx, user, func(d *memory.Decision) (any, error) {
		return nil, d.Forget(memoryID)
	})
	return err
}

// Relate records a fact in user's graph.
func (s *Service) Relate(ctx context.Context, user string, in memory.RelateInput) (memory.Related, error) {
	if err := in.Check(s.clock.Now()); err != nil {
		return memory.Related{}, err
	}
	v, err := s.run(ctx, user, func(d *memory.Decision) (any, error) {
		return d.Relate(in, s.cfg.Vocabulary)
	})
	if err != nil {
		return memory.Related{}, err
	}
	return v.(memory.Related), nil
}

// DeleteEntity removes an entity of user's with its edges (and, with
// cascade, the memories mentioning it) in one append.
func (s *Service) DeleteEntity(ctx context.Context, user, ref string, cascade bool) (memory.EntityDeletion, error) {
	v, err := s.run(ctx, user, func(d *memory.Decision) (any, error) {
		return d.DeleteEntity(ref, cascade)
	})
	if err != nil {
		return memory.EntityDeletion{}, err
	}
	return v.(memory.EntityDeletion), nil
}
