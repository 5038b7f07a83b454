package content

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	"github.com/google/uuid"

	"github.com/strata-platform/strata/domain/content"
	"github.com/strata-platform/strata/domain/kernel"
)

// targetJSON is one publish target (its id is its task's).
type targetJSON struct {
	TaskID         string  `json:"task_id"`
	Platform       string  `json:"platform"`
	AccountID      string  `json:"account_id"`
	Handle         string  `json:"account_handle"`
	State          string  `json:"state"`
	Attempt        int     `json:"attempt"`
	Class          *string `json:"failure_class"`
	Reason         *string `json:"reason"`
	PlatformPostID *string `json:"platform_post_id"`
	URL            *string `json:"url"`
	PlannedAt      string  `json:"planned_at"`
	FinishedAt     *string `json:"finished_at"`
}

// itemJSON is a calendar item (or a publish job) as the API shows it.
type itemJSON struct {
	ID          string          `json:"id"`
	TwinID      *string         `json:"twin_id"`
	Title       string          `json:"title"`
	Platform    string          `json:"platform,omitempty"`
	Platforms   []string        `json:"platforms,omitempty"`
	Status      string          `json:"status"`
	Reason      *string         `json:"reason"`
	ScheduledAt string          `json:"scheduled_at"`
	Script      string          `json:"script"`
	Media       json.RawMessage `json:"media"`
	Warnings    json.RawMessage `json:"warnings"`
	Targets     []targetJSON    `json:"targets"`
	CreatedAt   string          `json:"created_at"`
	UpdatedAt   string          `json:"updated_at"`
}

// itemFilter selects calendar items.
type itemFilter struct {
	Owner, Origin, ID, Platform, Status string
	From, To                            time.Time // zero: open
	Limit, Offset                       int
}

// items reads posts with their targets.
func (a *API) items(ctx context.Context, f itemFilter) ([]itemJSON, error) {
	if f.ID != "" {
		if _, err := uuid.Parse(f.ID); err != nil {
			return []itemJSON{}, nil
		}
	}
	var from, to any
	if !f.From.IsZero() {
		from = f.From
	}
	if !f.To.IsZero() {
		to = f.To
	}
	rows, err := a.db.QueryContext(ctx, `SELECT id, twin_id, title, to_jsonb(platforms), status, reason, scheduled_at, script, media, warnings,
			created_at, updated_at
		FROM rm_content_v1.posts
		WHERE owner = $1 AND origin = $2 AND deleted_at IS NULL AND ($3 = '' OR id = $3::text::uuid)
		  AND ($4 = '' OR $4 = ANY (platforms)) AND ($5 = '' OR status = $5)
		  AND ($6::timestamptz IS NULL OR scheduled_at >= $6) AND ($7::timestamptz IS NULL OR scheduled_at < $7)
		ORDER BY scheduled_at, id LIMIT $8 OFFSET $9`, f.Owner, f.Origin, f.ID, f.Platform, f.Status, from, to, f.Limit, f.Offset)
	if err != nil {
		return nil, err
	}
	out := []itemJSON{}
	index := map[string]int{}
	for rows.Next() {
		var it itemJSON
		var twin, reason *string
		var platforms []string
		var rawPlatforms []byte
		var at, created, updated time.Time
		if err := rows.Scan(&it.ID, &twin, &it.Title, &rawPlatforms, &it.Status, &reason, &at, &it.Script, &it.Media, &it.Warnings,
			&created, &updated); err != nil {
			rows.Close()
			return nil, err
		}
		if err := json.Unmarshal(rawPlatforms, &platforms); err != nil {
			rows.Close()
			return nil, err
		}
		it.TwinID, it.Reason, it.ScheduledAt, it.CreatedAt, it.UpdatedAt = twin, reason, ts(at), ts(created), ts(updated)
		if f.Origin == content.OriginCalendar && len(platforms) == 1 {
			it.Platform = platforms[0]
		} else {
			it.Platforms = platforms
		}
		it.Targets = []targetJSON{}
		index[it.ID] = len(out)
		out = append(out, it)
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return out, nil
	}
	ids := make([]string, 0, len(out))
	for _, it := range out {
		ids = append(ids, it.ID)
	}
	return out, a.targets(ctx, ids, func(post string, t targetJSON) { out[index[post]].Targets = append(out[index[post]].Targets, t) })
}

// targets reads the targets of posts, in planning order.
func (a *API) targets(ctx context.Context, posts []string, add func(post string, t targetJSON)) error {
	rows, err := a.db.QueryContext(ctx, `SELECT post_id, id, platform, account_id, handle, state, attempt, class, reason,
			platform_post_id, url, planned_at, finished_at
		FROM rm_content_v1.targets WHERE post_id = ANY ($1::text[]::uuid[]) ORDER BY post_id, id`, posts)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var post string
		var t targetJSON
		var planned time.Time
		var finished *time.Time
		if err := rows.Scan(&post, &t.TaskID, &t.Platform, &t.AccountID, &t.Handle, &t.State, &t.Attempt, &t.Class, &t.Reason,
			&t.PlatformPostID, &t.URL, &planned, &finished); err != nil {
			return err
		}
		t.PlannedAt = ts(planned)
		if finished != nil {
			s := ts(*finished)
			t.FinishedAt = &s
		}
		add(post, t)
	}
	return rows.Err()
}

// oneItem reads one post of the owner by origin: 404 when there is none.
func (a *API) oneItem(ctx context.Context, owner, origin, id string) (itemJSON, error) {
	list, err := a.items(ctx, itemFilter{Owner: owner, Origin: origin, ID: id, Limit: 1})
	if err != nil {
		return itemJSON{}, err
	}
	if len(list) == 0 {
		what := "calendar item"
		if origin == content.OriginPublish {
			what = "publish job"
		}
		return itemJSON{}, kernel.NotFound("no " + what + " with id " + strconv.Quote(trim(id)))
	}
	return list[0], nil
}

func trim(s string) string {
	if len(s) > 64 {
		return s[:64] + "..."
	}
	return s
}

func itoa(n int) string { return strconv.Itoa(n) }
