package community

import (
	"context"
	"fmt"
	"time"

	"github.com/strata-platform/strata/domain/community"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// CreateEvent records a new event by creator in tenant and returns its id
// once the read model shows it.
func (s *Service) CreateEvent(ctx context.Context, tenant, creator string, d community.Details) (string, error) {
	id := newID()
	ev, err := community.Create(id, tenant, creator, d, s.clock.Now())
	if err != nil {
		return "", err
	}
	app, err := s.store.Append(ctx, eventstore.Stream{Type: community.StreamEvent, ID: id}, eventstore.NoStream, ev)
	if err != nil {
		return "", fmt.Errorf("create event: %w", err)
	}
	return id, s.settle(ctx, app)
}

// UpdateEvent applies a partial update by actor (the creator only).
func (s *Service) UpdateEvent(ctx context.Context, tenant, actor, id string, p community.Patch) error {
	app, err := s.onEvent(ctx, tenant, id, func(ev *community.Event) ([]kernel.Event, error) {
		return ev.Update(actor, p, s.clock.Now())
	})
	if err != nil {
		return err
	}
	return s.settle(ctx, app)
}

// CancelEvent marks the event cancelled (the creator only); it stays
// readable with status cancelled.
func (s *Service) CancelEvent(ctx context.Context, tenant, actor, id string) error {
	app, err := s.onEvent(ctx, tenant, id, func(ev *community.Event) ([]kernel.Event, error) {
		return ev.Cancel(actor, s.clock.Now())
	})
	if err != nil {
		return err
	}
	return s.settle(ctx, app)
}

// RSVPResult is an RSVP as decided, with the event it belongs to.
type RSVPResult struct {
	community.RSVP
	EventID string
	// WaitlistPosition is the RSVP's 1-based place on the waitlist (0 when
	// it is not waitlisted).
	WaitlistPosition int
}

// RSVP creates or updates user's RSVP to the event (message nil keeps the
// current response message).
func (s *Service) RSVP(ctx context.Context, tenant, user, eventID, status string, message *string) (RSVPResult, error) {
	return s.rsvp(ctx, tenant, eventID, func(ev *community.Event) (community.RSVP, []kernel.Event, error) {
		return ev.Respond(user, status, message, newID(), s.clock.Now())
	})
}

// ChangeRSVP changes the RSVP with rsvpID on the event by actor, who must
// own it (status "" keeps the asked-for status).
func (s *Service) ChangeRSVP(ctx context.Context, tenant, actor, eventID, rsvpID, status string, message *string) (RSVPResult, error) {
	return s.rsvp(ctx, tenant, eventID, func(ev *community.Event) (community.RSVP, []kernel.Event, error) {
		return ev.ChangeRSVP(rsvpID, actor, status, message, s.clock.Now())
	})
}

func (s *Service) rsvp(ctx context.Context, tenant, eventID string,
	decide func(ev *community.Event) (community.RSVP, []kernel.Event, error)) (RSVPResult, error) {
	var out RSVPResult
	app, err := s.onEvent(ctx, tenant, eventID, func(ev *community.Event) ([]kernel.Event, error) {
		r, evs, err := decide(ev)
		out = RSVPResult{RSVP: r, EventID: ev.ID}
		if r.Status == community.Waitlisted { // decided on the fold before its events: a newcomer joins at the end
			if out.WaitlistPosition = ev.WaitlistPosition(r.UserID); out.WaitlistPosition == 0 {
				out.WaitlistPosition = ev.Count(community.Waitlisted) + 1
			}
		}
		return evs, err
	})
	if err != nil {
		return RSVPResult{}, err
	}
	if err := s.settle(ctx, app); err != nil {
		return RSVPResult{}, err
	}
	return out, nil
}

// Replay folds the event's stream from the store (not the cache): what an
// auditor would rebuild. Another tenant's event is not found.
func (s *Service) Replay(ctx context.Context, tenant, id string) (*community.Event, error) {
	envs, err := s.store.Load(ctx, id, eventstore.LoadOptions{})
	if err != nil {
		return nil, err
	}
	evs := make([]kernel.Event, len(envs))
	for i, e := range envs {
		evs[i] = e.Event
	}
	ev := community.Replay(evs)
	if !ev.Exists() || ev.TenantID != tenant {
		return nil, notFound(id)
	}
	return ev, nil
}

// RSVPChange is one step of an RSVP's history, from its event's stream.
type RSVPChange struct {
	Status          string
	Previous        string
	ResponseMessage string
	Reason          string // a promotion's reason; "" for a change the owner made
	At              time.Time
	EventVersion    int64 // the change's version in the event's stream
}

// RSVPHistory returns every change of the RSVP with rsvpID, oldest first.
// The RSVP's owner and the event's creator may read it.
func (s *Service) RSVPHistory(ctx context.Context, tenant, actor, eventID, rsvpID string) ([]RSVPChange, error) {
	ev, err := s.Replay(ctx, tenant, eventID)
	if err != nil {
		return nil, err
	}
	r, ok := ev.RSVPByID(rsvpID)
	if !ok {
		return nil, kernel.NotFound("RSVP " + rsvpID + " not found")
	}
	if actor != r.UserID && actor != ev.CreatorID {
		return nil, kernel.Forbidden("only the RSVP's owner and the event's creator may read its history")
	}
	envs, err := s.store.Load(ctx, eventID, eventstore.LoadOptions{})
	if err != nil {
		return nil, err
	}
	var out []RSVPChange
	status := ""
	for _, env := range envs {
		switch e := env.Event.(type) {
		case *community.RSVPChanged:
			if e.RSVPID == rsvpID {
				out = append(out, RSVPChange{Status: e.Status, Previous: e.Previous, ResponseMessage: e.ResponseMessage,
					At: e.At, EventVersion: env.StreamVersion})
				status = e.Status
			}
		case *community.RSVPPromoted:
			if e.RSVPID == rsvpID {
				msg := ""
				if n := len(out); n > 0 {
					msg = out[n-1].ResponseMessage
				}
				out = append(out, RSVPChange{Status: community.Going, Previous: status, ResponseMessage: msg,
					Reason: e.Reason, At: e.At, EventVersion: env.StreamVersion})
				status = community.Going
			}
		}
	}
	return out, nil
}
