package voice

import (
	"context"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/folds"
)

// dncDo decides on tenant's voice stream and appends.
func (s *Service) dncDo(ctx context.Context, tenant string, decide func(t *voice.Tenant) ([]kernel.Event, error)) error {
	id := voice.TenantStream(tenant)
	return s.tenant(ctx, tenant, func(e *folds.Entry[voice.Tenant]) error {
		app, err := s.tenants.Decide(ctx, eventstore.Stream{Type: voice.StreamTenant, ID: id}, e, true, decide)
		if err != nil {
			return err
		}
		return s.settle(ctx, app)
	})
}

// AddDNC puts phone on the tenant's do-not-call list (already listed:
// nothing changes).
func (s *Service) AddDNC(ctx context.Context, a Actor, phone, reason string) error {
	if err := a.check(); err != nil {
		return err
	}
	if err := voice.CheckE164("phone", phone); err != nil {
		return err
	}
	party := s.Party(a.Tenant, phone)
	var key string
	if err := s.tenant(ctx, a.Tenant, func(e *folds.Entry[voice.Tenant]) error { key = e.State.Key(a.Tenant, party); return nil }); err != nil {
		return err
	}
	if err := s.ensureKey(ctx, key, a.Tenant); err != nil {
		return err
	}
	return s.dncDo(ctx, a.Tenant, func(t *voice.Tenant) ([]kernel.Event, error) {
		evs, err := t.AddDNC(a.Tenant, party, phone, voice.SourceAPI, reason, a.User, s.Now())
		if err != nil || len(evs) == 0 {
			return evs, err
		}
		return evs, s.seal(ctx, t.Key(a.Tenant, party), evs)
	})
}

// RemoveDNC takes phone off the tenant's list; not listed is not found.
func (s *Service) RemoveDNC(ctx context.Context, a Actor, phone string) error {
	if err := a.check(); err != nil {
		return err
	}
	if err := voice.CheckE164("phone", phone); err != nil {
		return err
	}
	party := s.Party(a.Tenant, phone)
	return s.dncDo(ctx, a.Tenant, func(t *voice.Tenant) ([]kernel.Event, error) {
		if !t.Blocked(party) {
			return nil, kernel.NotFound("phone is not on the do-not-call list")
		}
		return t.RemoveDNC(a.Tenant, party, voice.SourceAPI, a.User, s.Now()), nil
	})
}

// DNCEntry is a do-not-call check's answer.
type DNCEntry struct {
	Listed bool
	Since  time.Time
	Source string
	Reason string
}

// CheckDNC tells whether phone is on the tenant's list, exactly (the
// tenant's fold, caught up).
func (s *Service) CheckDNC(ctx context.Context, a Actor, phone string) (DNCEntry, error) {
	if err := a.check(); err != nil {
		return DNCEntry{}, err
	}
	if err := voice.CheckE164("phone", phone); err != nil {
		return DNCEntry{}, err
	}
	party := s.Party(a.Tenant, phone)
	var out DNCEntry
	err := s.tenant(ctx, a.Tenant, func(e *folds.Entry[voice.Tenant]) error {
		if l, ok := e.State.DNC[party]; ok {
			out = DNCEntry{Listed: true, Since: l.Since, Source: l.Source, Reason: l.Reason}
		}
		return nil
	})
	return out, err
}

// SetCallingHours turns the tenant's calling-hours guard on or off.
func (s *Service) SetCallingHours(ctx context.Context, a Actor, enforced bool) error {
	if err := a.check(); err != nil {
		return err
	}
	return s.dncDo(ctx, a.Tenant, func(t *voice.Tenant) ([]kernel.Event, error) {
		return t.SetCallingHours(a.Tenant, enforced, a.User, s.Now()), nil
	})
}

// CallingHoursEnforced tells whether the tenant's guard is on.
func (s *Service) CallingHoursEnforced(ctx context.Context, a Actor) (bool, error) {
	var on bool
	err := s.tenant(ctx, a.Tenant, func(e *folds.Entry[voice.Tenant]) error { on = !e.State.HoursOff; return nil })
	return on, err
}
