package voice

import (
	"context"

	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/folds"
)

// CreateContact records a contact; its personal fields are sealed under
// the party key of its phone number.
func (s *Service) CreateContact(ctx context.Context, a Actor, in voice.ContactInput) (string, error) {
	if err := a.check(); err != nil {
		return "", err
	}
	id := NewID()
	party := ""
	if voice.CheckE164("phone", in.Phone) == nil {
		party = s.Party(a.Tenant, in.Phone)
	}
	evs, err := voice.NewContact(id, a.Tenant, party, a.User, in, s.Now())
	if err != nil {
		return "", err
	}
	var key string
	if err := s.tenant(ctx, a.Tenant, func(e *folds.Entry[voice.Tenant]) error { key = e.State.Key(a.Tenant, party); return nil }); err != nil {
		return "", err
	}
	if err := s.ensureKey(ctx, key, a.Tenant); err != nil {
		return "", err
	}
	if err := s.seal(ctx, key, evs); err != nil {
		return "", err
	}
	app, err := s.store.Append(ctx, eventstore.Stream{Type: voice.StreamContact, ID: id}, eventstore.NoStream, evs...)
	if err != nil {
		return "", err
	}
	return id, s.settle(ctx, app)
}
