package identity

import (
	"context"
	"errors"
	"sync"
	"time"

	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/eventstore"
)

// Usage counts API key use in memory and records it as identity.api_key_used
// events, one per key per flush, so the request path never writes to the
// database. A crash loses at most one flush interval of counts.
type Usage struct {
	s       *Service
	mu      sync.Mutex
	pending map[string]*ident.APIKeyUsed
}

func newUsage(s *Service) *Usage { return &Usage{s: s, pending: map[string]*ident.APIKeyUsed{}} }

func (u *Usage) count(keyID string, at time.Time) {
	u.mu.Lock()
	p := u.pending[keyID]
	if p == nil {
		p = &ident.APIKeyUsed{KeyID: keyID}
		u.pending[keyID] = p
	}
	p.Count++
	if at.After(p.LastUsedAt) {
		p.LastUsedAt = at
	}
	u.mu.Unlock()
}

// Flush records the counted use in one transaction.
func (u *Usage) Flush(ctx context.Context) error {
	u.mu.Lock()
	batch := u.pending
	u.pending = map[string]*ident.APIKeyUsed{}
	u.mu.Unlock()
	if len(batch) == 0 {
		return nil
	}
	err := u.s.write(ctx, func(t *txn) error {
		for id, ev := range batch {
			if err := t.append(ctx, eventstore.Stream{Type: ident.StreamAPIKey, ID: id}, eventstore.AnyVersion, ev); err != nil {
				return err
			}
		}
		return nil
	})
	var stored *NotVisible
	if err != nil && !errors.As(err, &stored) { // not written: put the counts back for the next flush
		u.mu.Lock()
		for id, ev := range batch {
			if p := u.pending[id]; p != nil {
				p.Count += ev.Count
				if ev.LastUsedAt.After(p.LastUsedAt) {
					p.LastUsedAt = ev.LastUsedAt
				}
			} else {
				u.pending[id] = ev
			}
		}
		u.mu.Unlock()
	}
	return err
}

func (u *Usage) run(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			final, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			if err := u.Flush(final); err != nil {
				u.s.log.Error("api key usage: final flush", "err", err)
			}
			cancel()
			return
		case <-t.C:
			if err := u.Flush(ctx); err != nil && ctx.Err() == nil {
				u.s.log.Error("api key usage: flush", "err", err)
			}
		}
	}
}

// FlushUsage records the API key use counted so far (tests and shutdown).
func (s *Service) FlushUsage(ctx context.Context) error { return s.usage.Flush(ctx) }
