package voice

import (
	"context"
	"strings"

	"github.com/google/uuid"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/folds"
)

// numberLocked runs fn on number id's caught-up fold.
func (s *Service) numberLocked(ctx context.Context, id string, fn func(e *folds.Entry[voice.Number]) error) error {
	if _, err := uuid.Parse(id); err != nil {
		return kernel.NotFound("number not found")
	}
	return s.numbers.Locked(id, func(e *folds.Entry[voice.Number]) error {
		if err := s.numbers.CatchUp(ctx, id, e); err != nil {
			return err
		}
		return fn(e)
	})
}

// numberDo decides on number id and appends.
func (s *Service) numberDo(ctx context.Context, id string, decide func(n *voice.Number) ([]kernel.Event, error)) (voice.Number, error) {
	var out voice.Number
	err := s.numberLocked(ctx, id, func(e *folds.Entry[voice.Number]) error {
		app, err := s.numbers.Decide(ctx, eventstore.Stream{Type: voice.StreamNumber, ID: id}, e, true, decide)
		if err != nil {
			return err
		}
		out = e.State
		return s.settle(ctx, app)
	})
	return out, err
}

// ImportedNumber is one row of an operator's inventory import.
type ImportedNumber struct {
	Phone, National, Country, NumberType, Region string
	Capabilities                                 []string
}

// ImportNumber adds a number the provider holds to the inventory (an
// operator's import, never invented); importing it again changes nothing
// and reports false.
func (s *Service) ImportNumber(ctx context.Context, in ImportedNumber, provider, source string) (bool, error) {
	if err := voice.CheckE164("phone_number", in.Phone); err != nil {
		return false, err
	}
	caps := in.Capabilities
	if len(caps) == 0 {
		caps = []string{"voice", "sms"}
	}
	id := NumberID(in.Phone)
	added := false
	_, err := s.numberDo(ctx, id, func(n *voice.Number) ([]kernel.Event, error) {
		evs, err := n.Import(voice.NumberImported{NumberID: id, Phone: in.Phone, National: in.National, Country: strings.ToUpper(in.Country),
			NumberType: in.NumberType, Region: in.Region, Capabilities: caps, Provider: provider, Source: source, At: s.Now()})
		added = len(evs) > 0
		return evs, err
	})
	return added, err
}

// Purchase assigns an available inventory number to the tenant.
func (s *Service) Purchase(ctx context.Context, a Actor, phone, friendly string) (voice.Number, error) {
	if err := a.check(); err != nil {
		return voice.Number{}, err
	}
	if err := voice.CheckE164("phone_number", phone); err != nil {
		return voice.Number{}, err
	}
	return s.numberDo(ctx, NumberID(phone), func(n *voice.Number) ([]kernel.Event, error) {
		return n.Purchase(a.Tenant, friendly, a.User, s.Now())
	})
}

// Configure changes the name or routing of one of the tenant's numbers.
func (s *Service) Configure(ctx context.Context, a Actor, id, friendly string, routing *voice.Routing) (voice.Number, error) {
	return s.numberDo(ctx, id, func(n *voice.Number) ([]kernel.Event, error) {
		return n.Configure(a.Tenant, friendly, routing, a.User, s.Now())
	})
}

// Release returns one of the tenant's numbers to the inventory.
func (s *Service) Release(ctx context.Context, a Actor, id string) error {
	_, err := s.numberDo(ctx, id, func(n *voice.Number) ([]kernel.Event, error) {
		return n.Release(a.Tenant, a.User, s.Now())
	})
	return err
}
