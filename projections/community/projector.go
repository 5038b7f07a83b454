// Package community projects the community context's events into the
// tables of schema rm_community_v1, which the community read API serves:
// events with running RSVP counts (so browsing by attendee count and the
// attendee summary read one row, whatever the number of RSVPs), RSVPs,
// comments, and the hashes of live calendar feed tokens.
package community

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"time"

	"github.com/strata-platform/strata/domain/community"
	"github.com/strata-platform/strata/eventstore"
)

// Name is the projector's name; its tables live in schema rm_community_v1.
const Name = "community.v1"

// Schema is the schema of the projector's tables, for qualified queries.
const Schema = "rm_community_v1"

// Projector maintains rm_community_v1.
type Projector struct{}

// Name implements projections.Projector.
func (Projector) Name() string { return Name }

// PartitionedByStream implements projections.Partitioned: the rows one
// stream's events write are that stream's alone, so an event that cannot be
// applied parks its stream and the others go on.
func (Projector) PartitionedByStream() {}

// Handles implements projections.Projector: every community event but the
// moderation policy, which commands fold from its stream.
func (Projector) Handles() []string {
	var out []string
	for _, c := range community.Events() {
		if t := c().EventType(); t != (community.ModerationPolicySet{}).EventType() {
			out = append(out, t)
		}
	}
	return out
}

// Apply implements projections.Projector.
func (Projector) Apply(ctx context.Context, tx *stdsql.Tx, e eventstore.Envelope) error {
	var err error
	switch ev := e.Event.(type) {
	case *community.EventCreated:
		d := ev.Details
		_, err = tx.ExecContext(ctx, `INSERT INTO events (event_id, tenant_id, creator_id, title, description, start_time,
			end_time, location, event_type, capacity, group_id, url, waitlist, status, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'scheduled', $14, $14)
			ON CONFLICT (event_id) DO NOTHING`,
			ev.EventID, ev.TenantID, ev.CreatorID, d.Title, null(d.Description), d.StartTime, d.EndTime, null(d.Location),
			d.EventType, d.Capacity, null(d.GroupID), null(d.URL), d.Waitlist, ev.At)
		if err == nil {
			err = bump(ctx, tx, ev.TenantID, d.StartTime, community.StatusScheduled, d.EventType, 1)
		}
	case *community.EventUpdated:
		d := ev.Details
		err = moveDay(ctx, tx, ev.EventID, func(old dayKey) dayKey {
			old.start, old.eventType = d.StartTime, d.EventType
			return old
		})
		if err != nil {
			break
		}
		_, err = tx.ExecContext(ctx, `UPDATE events SET title = $2, description = $3, start_time = $4, end_time = $5,
			location = $6, event_type = $7, capacity = $8, group_id = $9, url = $10, waitlist = $11, sequence = $12,
			updated_at = $13 WHERE event_id = $1`,
			ev.EventID, d.Title, null(d.Description), d.StartTime, d.EndTime, null(d.Location), d.EventType, d.Capacity,
			null(d.GroupID), null(d.URL), d.Waitlist, ev.Sequence, ev.At)
	case *community.EventCancelled:
		err = moveDay(ctx, tx, ev.EventID, func(old dayKey) dayKey {
			old.status = community.StatusCancelled
			return old
		})
		if err != nil {
			break
		}
		_, err = tx.ExecContext(ctx, `UPDATE events SET status = 'cancelled', sequence = $2, updated_at = $3 WHERE event_id = $1`,
			ev.EventID, ev.Sequence, ev.At)
	case *community.RSVPChanged:
		_, err = tx.ExecContext(ctx, `WITH r AS (
				INSERT INTO rsvps (rsvp_id, event_id, tenant_id, user_id, status, response_message, created_at, updated_at)
				SELECT $1, $2, tenant_id, $3, $4, $5, $6, $6 FROM events WHERE event_id = $2
				ON CONFLICT (rsvp_id) DO UPDATE SET status = EXCLUDED.status,
					response_message = EXCLUDED.response_message, updated_at = EXCLUDED.updated_at)
			UPDATE events SET `+countDelta("$4", "$7")+` WHERE event_id = $2`,
			ev.RSVPID, ev.EventID, ev.UserID, ev.Status, null(ev.ResponseMessage), ev.At, ev.Previous)
	case *community.RSVPPromoted:
		_, err = tx.ExecContext(ctx, `WITH r AS (
				UPDATE rsvps SET status = 'going', updated_at = $2 WHERE rsvp_id = $1)
			UPDATE events SET going_count = going_count + 1, waitlisted_count = waitlisted_count - 1 WHERE event_id = $3`,
			ev.RSVPID, ev.At, ev.EventID)
	case *community.CommentPosted:
		_, err = tx.ExecContext(ctx, `INSERT INTO comments (comment_id, tenant_id, user_id, content_type, content_id, comment,
			created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (comment_id) DO NOTHING`,
			ev.CommentID, ev.TenantID, ev.UserID, ev.ContentType, ev.ContentID, ev.Comment, ev.At)
	case *community.CommentEdited:
		_, err = tx.ExecContext(ctx, `UPDATE comments SET comment = $2, updated_at = $3 WHERE comment_id = $1`,
			ev.CommentID, ev.Comment, ev.At)
	case *community.CommentDeleted:
		_, err = tx.ExecContext(ctx, `DELETE FROM comments WHERE comment_id = $1`, ev.CommentID)
	case *community.CalendarFeedIssued:
		_, err = tx.ExecContext(ctx, `WITH old AS (DELETE FROM calendar_feeds WHERE tenant_id = $2 AND user_id = $3)
			INSERT INTO calendar_feeds (token_hash, feed_id, tenant_id, user_id, issued_at) VALUES ($4, $1, $2, $3, $5)
			ON CONFLICT (token_hash) DO NOTHING`, ev.FeedID, ev.TenantID, ev.UserID, ev.TokenHash, ev.At)
	case *community.CalendarFeedRevoked:
		_, err = tx.ExecContext(ctx, `DELETE FROM calendar_feeds WHERE feed_id = $1`, ev.FeedID)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", e.Type, err)
	}
	return nil
}

// dayKey is an event's bucket in event_days.
type dayKey struct {
	tenant, status, eventType string
	start                     time.Time
}

func (k dayKey) day() string { return k.start.UTC().Format(time.DateOnly) }

// bump adds d to the count of events of tenant starting on start's day
// (UTC) with status and type.
func bump(ctx context.Context, tx *stdsql.Tx, tenant string, start time.Time, status, eventType string, d int) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO event_days (tenant_id, day, status, event_type, n) VALUES ($1, $2::date, $3, $4, $5)
		ON CONFLICT (tenant_id, day, status, event_type) DO UPDATE SET n = event_days.n + EXCLUDED.n`,
		tenant, start.UTC().Format(time.DateOnly), status, eventType, d)
	return err
}

// moveDay moves an event from its current bucket to the one next gives,
// when they differ; it reads the event's row before the row is updated.
func moveDay(ctx context.Context, tx *stdsql.Tx, eventID string, next func(dayKey) dayKey) error {
	var old dayKey
	err := tx.QueryRowContext(ctx, `SELECT tenant_id, status, event_type, start_time FROM events WHERE event_id = $1`, eventID).
		Scan(&old.tenant, &old.status, &old.eventType, &old.start)
	if err != nil {
		return err
	}
	n := next(old)
	if n.day() == old.day() && n.status == old.status && n.eventType == old.eventType {
		return nil
	}
	if err := bump(ctx, tx, old.tenant, old.start, old.status, old.eventType, -1); err != nil {
		return err
	}
	return bump(ctx, tx, n.tenant, n.start, n.status, n.eventType, 1)
}

// countDelta moves one RSVP from the status in parameter prev ("" for a
// new RSVP) to the status in parameter next.
func countDelta(next, prev string) string {
	col := func(status, name string) string {
		return fmt.Sprintf("%s_count = %s_count + (%s = '%s')::int - (%s = '%s')::int", name, name, next, status, prev, status)
	}
	return col(community.Going, "going") + ", " + col(community.Interested, "interested") + ", " +
		col(community.NotGoing, "not_going") + ", " + col(community.Waitlisted, "waitlisted")
}

// null stores "" as NULL.
func null(s string) any {
	if s == "" {
		return nil
	}
	return s
}
