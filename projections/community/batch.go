package community

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"time"

	"github.com/strata-platform/strata/domain/community"
	"github.com/strata-platform/strata/eventstore"
)

// ApplyBatch implements projections.BatchProjector: runs of consecutive
// RSVP events (the bulk of the community's events) are written with one
// upsert of their RSVPs' final state, one update of the few promoted-only
// RSVPs and one update of the events' counts; every other event goes
// through Apply in order. The rows are those Apply gives event by event.
func (p Projector) ApplyBatch(ctx context.Context, tx *stdsql.Tx, events []eventstore.Envelope) error {
	var run rsvpRun
	for _, e := range events {
		switch ev := e.Event.(type) {
		case *community.RSVPChanged:
			run.changed(ev)
		case *community.RSVPPromoted:
			run.promoted(ev)
		default:
			if err := run.flush(ctx, tx); err != nil {
				return err
			}
			if err := p.Apply(ctx, tx, e); err != nil {
				return err
			}
		}
	}
	return run.flush(ctx, tx)
}

// rsvpState is an RSVP's final state within a run. full is false for an
// RSVP the run only promoted (its message is not known here).
type rsvpState struct {
	id, event, user, status, message string
	created, updated                 time.Time
	full                             bool
}

// counts are an event's count changes within a run.
type counts struct{ going, interested, notGoing, waitlisted int }

func (c *counts) move(status string, d int) {
	switch status {
	case community.Going:
		c.going += d
	case community.Interested:
		c.interested += d
	case community.NotGoing:
		c.notGoing += d
	case community.Waitlisted:
		c.waitlisted += d
	}
}

// rsvpRun accumulates consecutive RSVP events.
type rsvpRun struct {
	order  []string // rsvp ids, first seen first
	rsvps  map[string]*rsvpState
	events []string // event ids, first seen first
	deltas map[string]*counts
}

func (r *rsvpRun) state(id string) *rsvpState {
	if r.rsvps == nil {
		r.rsvps, r.deltas = map[string]*rsvpState{}, map[string]*counts{}
	}
	s, ok := r.rsvps[id]
	if !ok {
		s = &rsvpState{id: id}
		r.rsvps[id] = s
		r.order = append(r.order, id)
	}
	return s
}

func (r *rsvpRun) delta(event string) *counts {
	c, ok := r.deltas[event]
	if !ok {
		c = &counts{}
		r.deltas[event] = c
		r.events = append(r.events, event)
	}
	return c
}

func (r *rsvpRun) changed(ev *community.RSVPChanged) {
	s := r.state(ev.RSVPID)
	if !s.full && s.status == "" { // first sight: a new RSVP starts here
		s.created = ev.At
	}
	s.event, s.user, s.status, s.message, s.updated, s.full = ev.EventID, ev.UserID, ev.Status, ev.ResponseMessage, ev.At, true
	d := r.delta(ev.EventID)
	d.move(ev.Status, 1)
	d.move(ev.Previous, -1)
}

func (r *rsvpRun) promoted(ev *community.RSVPPromoted) {
	s := r.state(ev.RSVPID)
	s.event, s.user, s.status, s.updated = ev.EventID, ev.UserID, community.Going, ev.At
	d := r.delta(ev.EventID)
	d.move(community.Going, 1)
	d.move(community.Waitlisted, -1)
}

// flush writes the run and empties it.
func (r *rsvpRun) flush(ctx context.Context, tx *stdsql.Tx) error {
	if len(r.order) == 0 {
		return nil
	}
	var full, promoted struct {
		ids, events, users, statuses, messages []string
		created, updated                       []time.Time
	}
	for _, id := range r.order {
		s := r.rsvps[id]
		if !s.full {
			promoted.ids, promoted.updated = append(promoted.ids, id), append(promoted.updated, s.updated)
			continue
		}
		full.ids, full.events, full.users = append(full.ids, id), append(full.events, s.event), append(full.users, s.user)
		full.statuses, full.messages = append(full.statuses, s.status), append(full.messages, s.message)
		full.created, full.updated = append(full.created, s.created), append(full.updated, s.updated)
	}
	if len(full.ids) > 0 {
		if _, err := tx.ExecContext(ctx, `INSERT INTO rsvps (rsvp_id, event_id, tenant_id, user_id, status, response_message,
				created_at, updated_at)
			SELECT u.id, u.event, e.tenant_id, u.usr, u.status, NULLIF(u.msg, ''), u.created, u.updated
			FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::timestamptz[])
				AS u(id, event, usr, status, msg, created, updated)
			JOIN events e ON e.event_id = u.event
			ON CONFLICT (rsvp_id) DO UPDATE SET status = EXCLUDED.status, response_message = EXCLUDED.response_message,
				updated_at = EXCLUDED.updated_at`,
			full.ids, full.events, full.users, full.statuses, full.messages, full.created, full.updated); err != nil {
			return fmt.Errorf("rsvps: %w", err)
		}
	}
	if len(promoted.ids) > 0 {
		if _, err := tx.ExecContext(ctx, `UPDATE rsvps SET status = 'going', updated_at = u.updated
			FROM unnest($1::uuid[], $2::timestamptz[]) AS u(id, updated) WHERE rsvps.rsvp_id = u.id`,
			promoted.ids, promoted.updated); err != nil {
			return fmt.Errorf("promoted rsvps: %w", err)
		}
	}
	g, i, n, w := make([]int, len(r.events)), make([]int, len(r.events)), make([]int, len(r.events)), make([]int, len(r.events))
	for k, id := range r.events {
		d := r.deltas[id]
		g[k], i[k], n[k], w[k] = d.going, d.interested, d.notGoing, d.waitlisted
	}
	if _, err := tx.ExecContext(ctx, `UPDATE events SET going_count = going_count + d.g, interested_count = interested_count + d.i,
			not_going_count = not_going_count + d.n, waitlisted_count = waitlisted_count + d.w
		FROM unnest($1::uuid[], $2::int[], $3::int[], $4::int[], $5::int[]) AS d(id, g, i, n, w) WHERE events.event_id = d.id`,
		r.events, g, i, n, w); err != nil {
		return fmt.Errorf("rsvp counts: %w", err)
	}
	*r = rsvpRun{}
	return nil
}
