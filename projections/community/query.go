package community

import (
	"context"
	stdsql "database/sql"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/strata-platform/strata/domain/kernel"
)

// EventRow is an event as the read model keeps it.
type EventRow struct {
	ID, TenantID, CreatorID, Title string
	Description, Location, GroupID stdsql.NullString
	URL                            stdsql.NullString
	StartTime                      time.Time
	EndTime                        stdsql.NullTime
	EventType, Status              string
	Capacity                       stdsql.NullInt64
	Waitlist                       bool
	Sequence                       int
	Going, Interested, NotGoing    int
	Waitlisted                     int
	CreatedAt, UpdatedAt           time.Time
	RSVPStatus                     stdsql.NullString // the caller's RSVP (my-events)
	RSVPID                         stdsql.NullString // the caller's RSVP (my-events)
}

const eventCols = `e.event_id::text, e.tenant_id, e.creator_id, e.title, e.description, e.location, e.group_id, e.url,
	e.start_time, e.end_time, e.event_type, e.status, e.capacity, e.waitlist, e.sequence, e.going_count,
	e.interested_count, e.not_going_count, e.waitlisted_count, e.created_at, e.updated_at`

func (r *EventRow) dest() []any {
	return []any{&r.ID, &r.TenantID, &r.CreatorID, &r.Title, &r.Description, &r.Location, &r.GroupID, &r.URL,
		&r.StartTime, &r.EndTime, &r.EventType, &r.Status, &r.Capacity, &r.Waitlist, &r.Sequence, &r.Going,
		&r.Interested, &r.NotGoing, &r.Waitlisted, &r.CreatedAt, &r.UpdatedAt}
}

// Page is a limit and an offset.
type Page struct{ Limit, Offset int }

// Event returns the event with id in tenant; another tenant's is not found.
func Event(ctx context.Context, db *stdsql.DB, tenant, id string) (EventRow, error) {
	var r EventRow
	if _, err := uuid.Parse(id); err != nil {
		return r, kernel.NotFound("event " + id + " not found")
	}
	err := db.QueryRowContext(ctx, `SELECT `+eventCols+` FROM `+Schema+`.events e
		WHERE e.event_id = $1 AND e.tenant_id = $2`, id, tenant).Scan(r.dest()...)
	if errors.Is(err, stdsql.ErrNoRows) {
		return r, kernel.NotFound("event " + id + " not found")
	}
	return r, err
}

// EventFilter selects events of one tenant.
type EventFilter struct {
	Tenant    string
	Creator   string    // only events this user created
	GroupID   string    // only this group's events
	EventType string    // only this type
	From      time.Time // start_time >= From (zero: no bound)
	Before    time.Time // start_time < Before (zero: no bound)
	Scheduled bool      // only scheduled (not cancelled) events
	// Order is the ORDER BY: OrderStartAsc (default), OrderStartDesc,
	// OrderGoingAsc or OrderGoingDesc.
	Order string
}

// Orders of EventFilter.
const (
	OrderStartAsc  = "e.start_time, e.event_id"
	OrderStartDesc = "e.start_time DESC, e.event_id DESC"
	OrderGoingAsc  = "e.going_count, e.start_time, e.event_id"
	OrderGoingDesc = "e.going_count DESC, e.start_time, e.event_id"
)

// Events lists a page of the events f selects, and how many it selects.
func Events(ctx context.Context, db *stdsql.DB, f EventFilter, p Page) ([]EventRow, int, error) {
	where, args := []string{"e.tenant_id = $1"}, []any{f.Tenant}
	add := func(cond string, v any) {
		args = append(args, v)
		where = append(where, strings.ReplaceAll(cond, "?", "$"+strconv.Itoa(len(args))))
	}
	if f.Creator != "" {
		add("e.creator_id = ?", f.Creator)
	}
	if f.GroupID != "" {
		add("e.group_id = ?", f.GroupID)
	}
	if f.EventType != "" {
		add("e.event_type = ?", f.EventType)
	}
	if !f.From.IsZero() {
		add("e.start_time >= ?", f.From)
	}
	if !f.Before.IsZero() {
		add("e.start_time < ?", f.Before)
	}
	if f.Scheduled {
		where = append(where, "e.status = 'scheduled'")
	}
	order := f.Order
	if order == "" {
		order = OrderStartAsc
	}
	from := ` FROM ` + Schema + `.events e WHERE ` + strings.Join(where, " AND ")
	return pageOf(ctx, db, `SELECT `+eventCols+from+` ORDER BY `+order, `SELECT count(*)`+from, args, p,
		func(r *EventRow) []any { return r.dest() })
}

// MyEventsFilter selects the events a user RSVP'd to in a tenant.
type MyEventsFilter struct {
	Tenant, User string
	Status       string    // only RSVPs with this status
	From         time.Time // start_time >= From (zero: no bound)
}

// MyEvents lists a page of the events the user RSVP'd to, soonest first,
// each with the user's RSVP.
func MyEvents(ctx context.Context, db *stdsql.DB, f MyEventsFilter, p Page) ([]EventRow, int, error) {
	where, args := []string{"r.user_id = $1", "r.tenant_id = $2"}, []any{f.User, f.Tenant}
	if f.Status != "" {
		args = append(args, f.Status)
		where = append(where, "r.status = $"+strconv.Itoa(len(args)))
	}
	if !f.From.IsZero() {
		args = append(args, f.From)
		where = append(where, "e.start_time >= $"+strconv.Itoa(len(args)))
	}
	from := ` FROM ` + Schema + `.rsvps r JOIN ` + Schema + `.events e ON e.event_id = r.event_id WHERE ` + strings.Join(where, " AND ")
	return pageOf(ctx, db, `SELECT `+eventCols+`, r.status, r.rsvp_id::text`+from+` ORDER BY e.start_time, e.event_id`,
		`SELECT count(*)`+from, args, p, func(r *EventRow) []any { return append(r.dest(), &r.RSVPStatus, &r.RSVPID) })
}

// pageOf runs a page query (LIMIT and OFFSET appended) and its count.
func pageOf[T any](ctx context.Context, db *stdsql.DB, query, count string, args []any, p Page, dest func(*T) []any) ([]T, int, error) {
	n := len(args)
	rows, err := db.QueryContext(ctx, query+" LIMIT $"+strconv.Itoa(n+1)+" OFFSET $"+strconv.Itoa(n+2), append(args, p.Limit, p.Offset)...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		var r T
		if err := rows.Scan(dest(&r)...); err != nil {
			return nil, 0, err
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	total := p.Offset + len(out)
	if len(out) == p.Limit || (len(out) == 0 && p.Offset > 0) {
		if err := db.QueryRowContext(ctx, count, args...).Scan(&total); err != nil {
			return nil, 0, err
		}
	}
	return out, total, nil
}
