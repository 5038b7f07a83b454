package content

import (
	"context"
	stdsql "database/sql"
	"encoding/json"

	"github.com/strata-platform/strata/domain/content"
	"github.com/strata-platform/strata/eventstore"
)

// targetOrTask applies target, task and analytics events.
func targetOrTask(ctx context.Context, tx *stdsql.Tx, e eventstore.Envelope) error {
	switch ev := e.Event.(type) {
	case *content.TargetPlanned:
		if _, err := tx.ExecContext(ctx, `INSERT INTO targets (id, post_id, owner, platform, account_id, handle, state, planned_at, due_at, updated_at)
			SELECT $1, $2, owner, $3, $4, $5, 'pending', $6, $7, $6 FROM posts WHERE id = $2 ON CONFLICT (id) DO NOTHING`,
			ev.TargetID, ev.PostID, ev.Platform, ev.AccountID, ev.Handle, ev.At, ev.Due); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO tasks (id, owner, kind, status, progress, stage, created_at, updated_at)
			SELECT $1, owner, $2, 'queued', 0, 'queued', $3, $3 FROM posts WHERE id = $4 ON CONFLICT (id) DO NOTHING`,
			ev.TargetID, content.TaskPublish, ev.At, ev.PostID); err != nil {
			return err
		}
		return postStatus(ctx, tx, ev.PostID, ev.At)
	case *content.TargetStarted:
		return target(ctx, tx, ev.PostID, ev.TargetID, ev.At,
			`UPDATE targets SET state = 'sending', attempt = $2, started_at = $3, updated_at = $3 WHERE id = $1`, []any{ev.Attempt, ev.At},
			`UPDATE tasks SET status = 'processing', progress = 50, stage = 'sending', updated_at = $2 WHERE id = $1`, nil)
	case *content.TargetRetryScheduled:
		return target(ctx, tx, ev.PostID, ev.TargetID, ev.At,
			`UPDATE targets SET state = 'retrying', reason = $2, due_at = $3, class = 'transient', updated_at = $4 WHERE id = $1`,
			[]any{ev.Reason, ev.Next, ev.At},
			`UPDATE tasks SET status = 'processing', progress = 25, stage = 'retrying', updated_at = $2 WHERE id = $1`, nil)
	case *content.TargetPublished:
		res, err := json.Marshal(map[string]any{"platform_post_id": ev.PlatformPostID, "url": nullable(ev.URL)})
		if err != nil {
			return err
		}
		return target(ctx, tx, ev.PostID, ev.TargetID, ev.At,
			`UPDATE targets SET state = 'published', platform_post_id = $2, url = $3, class = NULL, reason = NULL,
				finished_at = $4, updated_at = $4 WHERE id = $1`, []any{ev.PlatformPostID, nullable(ev.URL), ev.At},
			`UPDATE tasks SET status = 'done', progress = 100, stage = 'published', result = $3, updated_at = $2 WHERE id = $1`, []any{res})
	case *content.TargetFailed:
		res, err := json.Marshal(map[string]any{"code": ev.Class, "message": ev.Reason})
		if err != nil {
			return err
		}
		return target(ctx, tx, ev.PostID, ev.TargetID, ev.At,
			`UPDATE targets SET state = 'failed', class = $2, reason = $3, finished_at = $4, updated_at = $4 WHERE id = $1`,
			[]any{ev.Class, ev.Reason, ev.At},
			`UPDATE tasks SET status = 'error', stage = 'failed', error = $3, updated_at = $2 WHERE id = $1`, []any{res})
	}
	return taskOrAnalytics(ctx, tx, e)
}

// target updates a target row and its task row, then the post's status.
func target(ctx context.Context, tx *stdsql.Tx, postID, targetID string, at any, tq string, targs []any, kq string, kargs []any) error {
	if _, err := tx.ExecContext(ctx, tq, append([]any{targetID}, targs...)...); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, kq, append([]any{targetID, at}, kargs...)...); err != nil {
		return err
	}
	return postStatus(ctx, tx, postID, at)
}

// postStatus derives a post's status from its platforms' latest targets
// (content.Post.Status's rule, in SQL).
func postStatus(ctx context.Context, tx *stdsql.Tx, postID string, at any) error {
	_, err := tx.ExecContext(ctx, `WITH latest AS (
			SELECT DISTINCT ON (platform) platform, state, reason FROM targets WHERE post_id = $1 ORDER BY platform, id DESC),
		s AS (
			SELECT CASE
				WHEN EXISTS (SELECT 1 FROM unnest(p.platforms) pl WHERE NOT EXISTS (SELECT 1 FROM latest l WHERE l.platform = pl))
					OR EXISTS (SELECT 1 FROM latest WHERE state IN ('pending', 'sending', 'retrying')) THEN 'scheduled'
				WHEN NOT EXISTS (SELECT 1 FROM latest WHERE state <> 'published') THEN 'published'
				ELSE 'failed' END AS status,
				(SELECT reason FROM latest WHERE state = 'failed' ORDER BY platform LIMIT 1) AS reason
			FROM posts p WHERE p.id = $1)
		UPDATE posts SET status = s.status, reason = CASE WHEN s.status = 'failed' THEN s.reason END, updated_at = $2
		FROM s WHERE posts.id = $1`, postID, at)
	return err
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func taskOrAnalytics(ctx context.Context, tx *stdsql.Tx, e eventstore.Envelope) error {
	var err error
	switch ev := e.Event.(type) {
	case *content.TaskCreated:
		_, err = tx.ExecContext(ctx, `INSERT INTO tasks (id, owner, kind, status, progress, stage, created_at, updated_at)
			VALUES ($1, $2, $3, 'queued', 0, 'queued', $4, $4) ON CONFLICT (id) DO NOTHING`, ev.TaskID, ev.Owner, ev.Kind, ev.At)
	case *content.TaskProgressed:
		_, err = tx.ExecContext(ctx, `UPDATE tasks SET status = 'processing', progress = $2, stage = $3, updated_at = $4 WHERE id = $1`,
			ev.TaskID, ev.Progress, ev.Stage, ev.At)
	case *content.TaskFinished:
		_, err = tx.ExecContext(ctx, `UPDATE tasks SET status = 'done', progress = 100, stage = 'done', result = $2, updated_at = $3 WHERE id = $1`,
			ev.TaskID, []byte(ev.Result), ev.At)
	case *content.TaskFailed:
		var res []byte
		if res, err = json.Marshal(map[string]string{"code": ev.Code, "message": ev.Message}); err == nil {
			_, err = tx.ExecContext(ctx, `UPDATE tasks SET status = 'error', stage = 'failed', error = $2, updated_at = $3 WHERE id = $1`,
				ev.TaskID, res, ev.At)
		}
	case *content.AnalyticsSynced:
		for _, d := range ev.Days {
			if _, err = tx.ExecContext(ctx, `INSERT INTO analytics (owner, platform, account_id, day, views, likes, comments, shares, followers_gained, synced_at)
				VALUES ($1, $2, $3, $4::date, $5, $6, $7, $8, $9, $10)
				ON CONFLICT (owner, platform, day) DO UPDATE SET account_id = excluded.account_id,
					views = COALESCE(excluded.views, analytics.views), likes = COALESCE(excluded.likes, analytics.likes),
					comments = COALESCE(excluded.comments, analytics.comments), shares = COALESCE(excluded.shares, analytics.shares),
					followers_gained = COALESCE(excluded.followers_gained, analytics.followers_gained),
					synced_at = excluded.synced_at`,
				ev.Owner, ev.Platform, ev.AccountID, d.Date, d.Views, d.Likes, d.Comments, d.Shares, d.FollowersGained, ev.At); err != nil {
				return err
			}
		}
	}
	return err
}
