// Package content projects the content workflow's events into schema
// rm_content_v1: twins, posts (calendar items and direct publishes) with
// their status derived from their publish targets, the targets, tasks
// (publish targets are tasks too, by the target's id) and daily analytics.
package content

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"fmt"

	"github.com/strata-platform/strata/domain/content"
	"github.com/strata-platform/strata/eventstore"
)

// Name is the projector's name; its tables live in schema rm_content_v1.
const Name = "content.v1"

// Projector maintains rm_content_v1.
type Projector struct{}

// Name implements projections.Projector.
func (Projector) Name() string { return Name }

// PartitionedByStream implements projections.Partitioned: every row is
// written by one stream's events (a twin, a post and its targets, a task,
// an account's analytics).
func (Projector) PartitionedByStream() {}

// Handles implements projections.Projector.
func (Projector) Handles() []string {
	var out []string
	for _, c := range content.Events() {
		out = append(out, c().EventType())
	}
	return out
}

// Apply implements projections.Projector.
func (Projector) Apply(ctx context.Context, tx *stdsql.Tx, e eventstore.Envelope) error {
	var err error
	switch ev := e.Event.(type) {
	case *content.TwinCreated, *content.TwinUpdated:
		err = twin(ctx, tx, ev)
	case *content.TwinDeleted:
		_, err = tx.ExecContext(ctx, `UPDATE twins SET deleted_at = $2, updated_at = $2 WHERE id = $1`, ev.TwinID, ev.At)
	case *content.PostScheduled:
		err = scheduled(ctx, tx, ev)
	case *content.PostDeleted:
		_, err = tx.ExecContext(ctx, `UPDATE posts SET deleted_at = $2, updated_at = $2 WHERE id = $1`, ev.PostID, ev.At)
	default:
		err = targetOrTask(ctx, tx, e)
	}
	if err != nil {
		return fmt.Errorf("content.v1: %s: %w", e.Type, err)
	}
	return nil
}

func twin(ctx context.Context, tx *stdsql.Tx, e any) error {
	var t content.Twin
	switch ev := e.(type) {
	case *content.TwinCreated:
		t = ev.Twin
	case *content.TwinUpdated:
		t = ev.Twin
	}
	tags, err := json.Marshal(t.StyleTags)
	if err != nil {
		return err
	}
	defs, err := json.Marshal(t.PlatformDefaults)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO twins (id, owner, name, voice_id, style_tags, persona_prompt, platform_defaults, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
		ON CONFLICT (id) DO UPDATE SET name = excluded.name, voice_id = excluded.voice_id, style_tags = excluded.style_tags,
			persona_prompt = excluded.persona_prompt, platform_defaults = excluded.platform_defaults, updated_at = excluded.updated_at`,
		t.ID, t.Owner, t.Name, t.VoiceID, tags, t.PersonaPrompt, defs, t.CreatedAt, t.UpdatedAt)
	return err
}

func scheduled(ctx context.Context, tx *stdsql.Tx, ev *content.PostScheduled) error {
	media, err := json.Marshal(ev.Media)
	if err != nil {
		return err
	}
	warn, err := json.Marshal(ev.Warnings)
	if err != nil {
		return err
	}
	var twinID any
	if ev.TwinID != "" {
		twinID = ev.TwinID
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO posts (id, owner, origin, twin_id, title, platforms, script, media, scheduled_at,
			status, warnings, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'scheduled', $10, $11, $11) ON CONFLICT (id) DO NOTHING`,
		ev.PostID, ev.Owner, ev.Origin, twinID, ev.Title, ev.Platforms, ev.Script, media, ev.ScheduledAt, warn, ev.At)
	return err
}
