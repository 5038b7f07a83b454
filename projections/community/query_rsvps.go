package community

import (
	"context"
	stdsql "database/sql"
	"errors"
	"strconv"
	"time"

	"github.com/google/uuid"

	"github.com/strata-platform/strata/domain/kernel"
)

// RSVPRow is an RSVP as the read model keeps it.
type RSVPRow struct {
	ID, EventID, TenantID, UserID, Status string
	ResponseMessage                       stdsql.NullString
	CreatedAt, UpdatedAt                  time.Time
}

const rsvpCols = `r.rsvp_id::text, r.event_id::text, r.tenant_id, r.user_id, r.status, r.response_message, r.created_at, r.updated_at`

func (r *RSVPRow) dest() []any {
	return []any{&r.ID, &r.EventID, &r.TenantID, &r.UserID, &r.Status, &r.ResponseMessage, &r.CreatedAt, &r.UpdatedAt}
}

// RSVP returns the RSVP with id in tenant; another tenant's is not found.
func RSVP(ctx context.Context, db *stdsql.DB, tenant, id string) (RSVPRow, error) {
	var r RSVPRow
	if _, err := uuid.Parse(id); err != nil {
		return r, kernel.NotFound("RSVP " + id + " not found")
	}
	err := db.QueryRowContext(ctx, `SELECT `+rsvpCols+` FROM `+Schema+`.rsvps r WHERE r.rsvp_id = $1 AND r.tenant_id = $2`,
		id, tenant).Scan(r.dest()...)
	if errors.Is(err, stdsql.ErrNoRows) {
		return r, kernel.NotFound("RSVP " + id + " not found")
	}
	return r, err
}

// RSVPs lists a page of an event's RSVPs in the order they were first
// made (status "" for every status), and how many there are.
func RSVPs(ctx context.Context, db *stdsql.DB, eventID, status string, p Page) ([]RSVPRow, int, error) {
	where, args := "r.event_id = $1", []any{eventID}
	if status != "" {
		args = append(args, status)
		where += " AND r.status = $" + strconv.Itoa(len(args))
	}
	from := ` FROM ` + Schema + `.rsvps r WHERE ` + where
	return pageOf(ctx, db, `SELECT `+rsvpCols+from+` ORDER BY r.created_at, r.rsvp_id`, args, `SELECT count(*)`+from, args, p,
		func(r *RSVPRow) []any { return r.dest() })
}

// CommentRow is a comment as the read model keeps it.
type CommentRow struct {
	ID, TenantID, UserID, ContentType, Comment string
	ContentID                                  int64
	CreatedAt                                  time.Time
	UpdatedAt                                  stdsql.NullTime
}

const commentCols = `c.comment_id::text, c.tenant_id, c.user_id, c.content_type, c.comment, c.content_id, c.created_at, c.updated_at`

func (c *CommentRow) dest() []any {
	return []any{&c.ID, &c.TenantID, &c.UserID, &c.ContentType, &c.Comment, &c.ContentID, &c.CreatedAt, &c.UpdatedAt}
}

// Comments lists a page of a content item's comments, newest first, and
// how many there are.
func Comments(ctx context.Context, db *stdsql.DB, contentType string, contentID int64, p Page) ([]CommentRow, int, error) {
	from := ` FROM ` + Schema + `.comments c WHERE c.content_type = $1 AND c.content_id = $2`
	args := []any{contentType, contentID}
	return pageOf(ctx, db, `SELECT `+commentCols+from+` ORDER BY c.created_at DESC, c.comment_id DESC`,
		args, `SELECT count(*)`+from, args, p, func(c *CommentRow) []any { return c.dest() })
}

// Comment returns the comment with id.
func Comment(ctx context.Context, db *stdsql.DB, id string) (CommentRow, error) {
	var c CommentRow
	if _, err := uuid.Parse(id); err != nil {
		return c, kernel.NotFound("comment " + id + " not found")
	}
	err := db.QueryRowContext(ctx, `SELECT `+commentCols+` FROM `+Schema+`.comments c WHERE c.comment_id = $1`, id).Scan(c.dest()...)
	if errors.Is(err, stdsql.ErrNoRows) {
		return c, kernel.NotFound("comment " + id + " not found")
	}
	return c, err
}

// FeedRow is a live calendar feed.
type FeedRow struct {
	FeedID, TenantID, UserID string
	IssuedAt                 time.Time
}

// FeedByTokenHash returns the live feed whose token has hash; a revoked or
// replaced token is not found.
func FeedByTokenHash(ctx context.Context, db *stdsql.DB, hash string) (FeedRow, error) {
	var f FeedRow
	err := db.QueryRowContext(ctx, `SELECT feed_id::text, tenant_id, user_id, issued_at FROM `+Schema+`.calendar_feeds
		WHERE token_hash = $1`, hash).Scan(&f.FeedID, &f.TenantID, &f.UserID, &f.IssuedAt)
	if errors.Is(err, stdsql.ErrNoRows) {
		return f, kernel.Unauthenticated("the calendar feed token is unknown or was revoked")
	}
	return f, err
}
