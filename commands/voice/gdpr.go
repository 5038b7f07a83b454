package voice

import (
	"context"
	stdsql "database/sql"

	"github.com/google/uuid"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/folds"
)

// Subject is who a data-protection request is about: a phone number
// (E.164) or one of the tenant's contacts (its number).
type Subject struct {
	Phone     string `json:"phone,omitempty"`
	ContactID string `json:"contact_id,omitempty"`
}

// PartyOf resolves a request's subject to the party (blind index) in the
// tenant; exactly one of phone and contact_id must be given.
func (s *Service) PartyOf(ctx context.Context, a Actor, sub Subject) (string, error) {
	if err := a.check(); err != nil {
		return "", err
	}
	switch {
	case sub.Phone != "" && sub.ContactID != "":
		return "", kernel.Invalid("phone", "one_of:phone,contact_id", "give phone or contact_id, not both")
	case sub.Phone != "":
		if err := voice.CheckE164("phone", sub.Phone); err != nil {
			return "", err
		}
		return s.Party(a.Tenant, sub.Phone), nil
	case sub.ContactID != "":
		if _, err := uuid.Parse(sub.ContactID); err != nil {
			return "", kernel.NotFound("contact not found")
		}
		envs, err := s.store.Load(ctx, sub.ContactID, eventstore.LoadOptions{})
		if err != nil {
			return "", err
		}
		for _, env := range envs {
			if c, ok := env.Event.(*voice.ContactCreated); ok && c.Tenant == a.Tenant {
				return c.Party, nil
			}
		}
		return "", kernel.NotFound("contact not found")
	}
	return "", kernel.Invalid("phone", "required", "give phone (E.164) or contact_id")
}

// RecordExport records that everything held about party was exported.
func (s *Service) RecordExport(ctx context.Context, a Actor, party string) (string, error) {
	id := NewID()
	err := s.dncDo(ctx, a.Tenant, func(*voice.Tenant) ([]kernel.Event, error) {
		return []kernel.Event{&voice.PartyExported{Tenant: a.Tenant, ExportID: id, Party: party, By: a.User, At: s.Now()}}, nil
	})
	return id, err
}

// Erasure is an erasure carried out.
type Erasure struct {
	ID     string
	Party  string
	Counts map[string]int
	At     string
}

// Erase carries out an erasure request: every subject key the party's
// data was ever sealed under is destroyed in the transaction that records
// the erasure (voice.party_erased, which holds no personal data), so the
// party's numbers, names, message bodies, notes and recordings become
// unreadable in every copy (events, read model, blob store); the
// encrypted recordings are then deleted from the blob store. counts says
// what the party had (from the read model, settled first). A do-not-call
// listing stays in force (its number unreadable): the suppression is kept
// by the blind index, as the law expects a suppression list to be.
func (s *Service) Erase(ctx context.Context, a Actor, party string, counts map[string]int, blobsOf []string) (Erasure, error) {
	id := NewID()
	var keys []string
	err := s.tenant(ctx, a.Tenant, func(e *folds.Entry[voice.Tenant]) error {
		gen := e.State.Erased[party]
		for g := 0; g <= gen; g++ {
			keys = append(keys, voice.PartyKey(a.Tenant, party, g))
		}
		app, err := s.tenants.DecideThen(ctx, eventstore.Stream{Type: voice.StreamTenant, ID: voice.TenantStream(a.Tenant)}, e, true,
			func(*voice.Tenant) ([]kernel.Event, error) {
				return []kernel.Event{&voice.PartyErased{Tenant: a.Tenant, ErasureID: id, Party: party, Counts: counts,
					Recordings: blobsOf, By: a.User, At: s.Now()}}, nil
			},
			func(tx *stdsql.Tx, _ []kernel.Event, _ eventstore.Appended) error {
				return s.cfg.Keys.Shred(ctx, tx, keys...)
			})
		if err != nil {
			return err
		}
		return s.settle(ctx, app)
	})
	if err != nil {
		return Erasure{}, err
	}
	s.cfg.Keys.Forget(keys...)
	for _, b := range blobsOf {
		if s.cfg.Blobs == nil {
			break
		}
		if err := s.cfg.Blobs.Remove(ctx, a.Tenant, b); err != nil {
			s.log.Warn("voice: erased recording not removed (it stays encrypted under a destroyed key)", "blob", b, "err", err)
		}
	}
	return Erasure{ID: id, Party: party, Counts: counts, At: s.Now().Format("2006-01-02T15:04:05.000000Z07:00")}, nil
}
