package voice

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/shred"
)

// ensureKey makes sure the subject key exists, creating it (owned by the
// tenant) in a transaction of its own when it does not. Two processes
// creating it at once: the loser finds the winner's. A key of an erased
// generation is never asked for again (the generation moved on).
func (s *Service) ensureKey(ctx context.Context, key, tenant string) error {
	db := s.store.DB()
	_, err := s.cfg.Keys.Seal(ctx, db, key, nil)
	if err == nil || !errors.Is(err, shred.ErrShredded) {
		return err
	}
	nk, err := s.cfg.Keys.Fresh(key, "voice:"+tenant)
	if err != nil {
		return err
	}
	err = eventstore.RunInTx(ctx, db, nil, func(tx *stdsql.Tx) error { return s.cfg.Keys.Store(ctx, tx, nk) })
	if err == nil {
		s.cfg.Keys.Remember(nk)
		return nil
	}
	if _, again := s.cfg.Keys.Seal(ctx, db, key, nil); again == nil {
		return nil
	}
	return err
}

// seal encrypts every event's secret part under key.
func (s *Service) seal(ctx context.Context, key string, evs []kernel.Event) error {
	for _, ev := range evs {
		sec, ok := voice.SecretOf(ev)
		if !ok || sec.Plain == nil {
			continue
		}
		raw, err := json.Marshal(sec.Plain)
		if err != nil {
			return fmt.Errorf("seal %s: %w", ev.EventType(), err)
		}
		sealed, err := s.cfg.Keys.Seal(ctx, s.store.DB(), key, raw)
		if err != nil {
			return fmt.Errorf("seal %s under %s: %w", ev.EventType(), key, err)
		}
		*sec.Sealed = sealed
	}
	return nil
}

// Open fills an event's plain part from its sealed part. A value whose key
// was destroyed (erased) stays nil: that is not an error.
func (s *Service) Open(ctx context.Context, ev kernel.Event) error {
	sec, ok := voice.SecretOf(ev)
	if !ok || sec.Sealed.Key == "" {
		return nil
	}
	raw, err := s.cfg.Keys.Open(ctx, s.store.DB(), *sec.Sealed)
	if errors.Is(err, shred.ErrShredded) {
		return nil
	}
	if err != nil {
		return err
	}
	return sec.Open(raw)
}

// OpenSealed decrypts one sealed value; nil, nil when it was erased.
func (s *Service) OpenSealed(ctx context.Context, v kernel.Sealed) ([]byte, error) {
	if v.Key == "" {
		return nil, nil
	}
	raw, err := s.cfg.Keys.Open(ctx, s.store.DB(), v)
	if errors.Is(err, shred.ErrShredded) {
		return nil, nil
	}
	return raw, err
}
