package content

import (
	"context"
	stdsql "database/sql"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"github.com/strata-platform/strata/domain/content"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// Retry plans a new attempt series for every platform of a post whose
// latest target failed: the founder's decision (an unconfirmed outcome is
// retried only this way). A post with no failed platform is 409.
func (s *Service) Retry(ctx context.Context, a Actor, id string) (content.Post, error) {
	if _, err := uuid.Parse(id); err != nil {
		return content.Post{}, kernel.NotFound("no calendar item or publish job with id " + quoteID(id))
	}
	var out content.Post
	var ap eventstore.Appended
	err := s.retryConflicts(ctx, func() error {
		return s.inTx(ctx, func(tx *stdsql.Tx) error {
			p, version, err := s.loadPost(ctx, tx, a.Owner, id, true)
			if err != nil {
				return err
			}
			evs, publish, err := s.plan(ctx, &p, a.User, true)
			if err != nil {
				return err
			}
			if len(evs) == 0 {
				return kernel.Conflict("nothing to retry: no platform of "+id+" has failed", nil)
			}
			if ap, err = s.cfg.Store.AppendTx(ctx, tx, postStream(id), version, evs...); err != nil {
				return err
			}
			for _, e := range evs {
				p.Apply(e)
			}
			out = p
			return s.enqueuePublish(ctx, tx, publish)
		})
	})
	if err != nil {
		return content.Post{}, err
	}
	return out, s.wait(ctx, ap)
}

// RetryResult is one post's outcome in RetryFailed.
type RetryResult struct {
	ID     string `json:"id"`
	Status string `json:"status"` // retried or skipped
	Reason string `json:"reason,omitempty"`
}

// RetryFailed retries every failed calendar item of the owner on platform
// ("" all) whose failure reason is reason ("" any), at most limit items.
func (s *Service) RetryFailed(ctx context.Context, a Actor, platform, reason string, limit int) ([]RetryResult, error) {
	if platform != "" && !content.ValidPlatform(platform) {
		return nil, kernel.Invalid("platform", "enum", "platform must be one of "+strings.Join(content.Platforms, ", "))
	}
	rows, err := s.cfg.Store.DB().QueryContext(ctx, `SELECT id FROM rm_content_v1.posts
		WHERE owner = $1 AND origin = 'calendar' AND status = 'failed' AND deleted_at IS NULL
		  AND ($2 = '' OR $2 = ANY (platforms)) AND ($3 = '' OR reason = $3 OR reason LIKE $3 || ':%')
		ORDER BY scheduled_at, id LIMIT $4`, a.Owner, platform, reason, limit)
	if err != nil {
		return nil, err
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, err
		}
		ids = append(ids, id)
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	out := []RetryResult{}
	for _, id := range ids {
		if _, err := s.Retry(ctx, a, id); err != nil {
			if k := kernel.KindOf(err); k == kernel.KindConflict || k == kernel.KindNotFound {
				out = append(out, RetryResult{ID: id, Status: "skipped", Reason: err.Error()})
				continue
			}
			return out, err
		}
		out = append(out, RetryResult{ID: id, Status: "retried"})
	}
	return out, nil
}

// PublishInput is a direct publish to one or more platforms.
type PublishInput struct {
	Platforms []string
	ReelURL   string
	Caption   string
	TwinID    string
	Title     string
}

// Publish records a post for every platform given, due now, and plans its
// targets at once: a platform without a connected account fails at once
// (not_connected); the others are queued. It returns the post with its
// targets (each target's id is its task id).
func (s *Service) Publish(ctx context.Context, a Actor, in PublishInput) (content.Post, error) {
	if len(in.Platforms) == 0 {
		return content.Post{}, kernel.Invalid("platforms", "required", "platforms must list at least one platform")
	}
	seen := map[string]bool{}
	var errs []content.FieldError
	var media []content.Media
	if in.ReelURL != "" {
		media = []content.Media{{URL: in.ReelURL, Kind: content.MediaVideo}}
	}
	for i, pl := range in.Platforms {
		if !content.ValidPlatform(pl) {
			return content.Post{}, kernel.Invalid("platforms", "enum", "platforms["+strconv.Itoa(i)+"] must be one of "+strings.Join(content.Platforms, ", "))
		}
		if seen[pl] {
			return content.Post{}, kernel.Invalid("platforms", "unique", "platforms lists "+pl+" twice")
		}
		seen[pl] = true
		perr, warn := content.CheckPost(pl, in.Title, in.Caption, media)
		for _, e := range perr {
			if e.Field == "script" {
				e.Field, e.Message = "caption", strings.Replace(e.Message, "script", "caption", 1)
			}
			if strings.HasPrefix(e.Field, "media") {
				e.Field = "reel_url"
			}
			errs = append(errs, e)
		}
		if len(warn) > 0 {
			errs = append(errs, content.FieldError{Field: "reel_url", Rule: "required", Message: "reel_url is required: " + warn[0]})
		}
	}
	if len(errs) > 0 {
		return content.Post{}, invalid(errs)
	}
	if in.TwinID != "" {
		if _, err := s.CheckTwin(ctx, a.Owner, "twin_id", in.TwinID); err != nil {
			return content.Post{}, err
		}
	}
	now := s.cfg.Clock.Now()
	ev := &content.PostScheduled{PostID: uuid.NewString(), Owner: a.Owner, Origin: content.OriginPublish, TwinID: in.TwinID,
		Title: in.Title, Platforms: in.Platforms, Script: in.Caption, Media: orEmpty(media), ScheduledAt: now,
		LimitsVersion: content.LimitsVersion, By: a.User, At: now}
	var p content.Post
	p.Apply(ev)
	evs, publish, err := s.plan(ctx, &p, a.User, false)
	if err != nil {
		return content.Post{}, err
	}
	var ap eventstore.Appended
	err = s.inTx(ctx, func(tx *stdsql.Tx) error {
		var err error
		if ap, err = s.cfg.Store.AppendTx(ctx, tx, postStream(ev.PostID), eventstore.NoStream, append([]kernel.Event{ev}, evs...)...); err != nil {
			return err
		}
		return s.enqueuePublish(ctx, tx, publish)
	})
	if err != nil {
		return content.Post{}, err
	}
	for _, e := range evs {
		p.Apply(e)
	}
	return p, s.wait(ctx, ap)
}
