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
	count, countArgs := `SELECT count(*)`+from, args
	if f.Creator == "" && f.GroupID == "" {
		count, countArgs = countByDays(f)
	}
	return pageOf(ctx, db, `SELECT `+eventCols+from+` ORDER BY `+order, args, count, countArgs, p,
		func(r *EventRow) []any { return r.dest() })
}

// countByDays is the count query of a filter on tenant, time, status and
// type: whole days from event_days, plus the rows of the days the bounds
// cut, read through the (tenant_id, start_time) index. Its cost grows with
// the days spanned, not with the events.
func countByDays(f EventFilter) (string, []any) {
	args := []any{f.Tenant}
	param := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	days, rows := []string{"tenant_id = $1"}, []string{"e.tenant_id = $1"}
	if f.Scheduled {
		days, rows = append(days, "status = 'scheduled'"), append(rows, "e.status = 'scheduled'")
	}
	if f.EventType != "" {
		p := param(f.EventType)
		days, rows = append(days, "event_type = "+p), append(rows, "e.event_type = "+p)
	}
	dayOf := func(t time.Time) time.Time { return t.UTC().Truncate(24 * time.Hour) }
	var cuts []string // the partial days' ranges
	if !f.From.IsZero() {
		d := dayOf(f.From)
		days = append(days, "day > "+param(d.Format(time.DateOnly))+"::date")
		end := d.Add(24 * time.Hour)
		if !f.Before.IsZero() && f.Before.Before(end) {
			end = f.Before
		}
		cuts = append(cuts, "(e.start_time >= "+param(f.From)+" AND e.start_time < "+param(end)+")")
	}
	if !f.Before.IsZero() {
		d := dayOf(f.Before)
		days = append(days, "day < "+param(d.Format(time.DateOnly))+"::date")
		if f.From.IsZero() || dayOf(f.From).Before(d) {
			start := d
			if !f.From.IsZero() && f.From.After(start) {
				start = f.From
			}
			cuts = append(cuts, "(e.start_time >= "+param(start)+" AND e.start_time < "+param(f.Before)+")")
		}
	}
	q := `SELECT coalesce((SELECT sum(n) FROM ` + Schema + `.event_days WHERE ` + strings.Join(days, " AND ") + `), 0)::bigint`
	if len(cuts) > 0 {
		q += ` + (SELECT count(*) FROM ` + Schema + `.events e WHERE ` + strings.Join(rows, " AND ") +
			` AND (` + strings.Join(cuts, " OR ") + `))`
	}
	return q, args
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
		args, `SELECT count(*)`+from, args, p, func(r *EventRow) []any { return append(r.dest(), &r.RSVPStatus, &r.RSVPID) })
}

// pageOf runs a page query with args (LIMIT and OFFSET appended) and, when
// the page does not tell the total, the count query with countArgs.
func pageOf[T any](ctx context.Context, db *stdsql.DB, query string, args []any, count string, countArgs []any, p Page,
	dest func(*T) []any) ([]T, int, error) {
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
		if err := db.QueryRowContext(ctx, count, countArgs...).Scan(&total); err != nil {
			return nil, 0, err
		}
	}
	return out, total, nil
}
