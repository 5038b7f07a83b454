package memory

import (
	"context"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/memory"
)

// apply writes one opened event.
func (b *batch) apply(ctx context.Context, ev kernel.Event) error {
	switch e := ev.(type) {
	case *memory.MemoryRemembered:
		return b.remembered(ctx, e)
	case *memory.MemoryMerged:
		v, err := b.version(ctx, e.UserID)
		if err != nil {
			return err
		}
		meta, err := jsonOrEmpty(e.Text.Metadata)
		if err != nil {
			return err
		}
		return b.exec(ctx, `UPDATE memories SET importance = $2, variants = array_append(variants, $3),
			variant_times = array_append(variant_times, $8), variant_importances = array_append(variant_importances, $2),
			tags = ARRAY(SELECT DISTINCT unnest(tags || $4::text[])), metadata = metadata || $5::jsonb,
			updated_at = $6, version = $7 WHERE memory_id = $1`,
			e.MemoryID, e.Importance, e.Text.Variant, nonNil(e.Text.Tags), meta, e.At, v, e.Stated())
	case *memory.MemoryForgotten:
		return b.forgotten(ctx, e)
	case *memory.EntityRecognized:
		return b.exec(ctx, `INSERT INTO entities (entity_id, user_id, name, entity_type, recognized_at, first_seen, last_seen)
			VALUES ($1, $2, $3, $4, $5, $5, $5) ON CONFLICT (entity_id) DO NOTHING`,
			e.EntityID, e.UserID, e.Text.Name, e.EntityType, e.At)
	case *memory.EntityAliased:
		return b.exec(ctx, `UPDATE entities SET aliases = array_append(aliases, $2) WHERE entity_id = $1`,
			e.EntityID, e.Text.Name)
	case *memory.EntityDeleted:
		return b.entityDeleted(ctx, e)
	case *memory.EdgeAsserted:
		if e.Ends {
			return nil // no fact of its own: the edges it ends arrive as EdgeSuperseded
		}
		if err := b.exec(ctx, `INSERT INTO edges (edge_id, user_id, subject_id, predicate, object_id, confidence,
			exclusive, valid_from, status, memory_id, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'current', NULLIF($9, ''), $10) ON CONFLICT (edge_id) DO NOTHING`,
			e.EdgeID, e.UserID, e.SubjectID, e.Text.Predicate, e.ObjectID, e.Confidence, e.Exclusive, e.ValidFrom,
			e.MemoryID, e.At); err != nil {
			return err
		}
		return b.touchMemory(ctx, e.UserID, e.MemoryID)
	case *memory.EdgeSuperseded:
		return b.edgeChanged(ctx, e.UserID, `UPDATE edges SET valid_until = $2, status = 'superseded'
			WHERE edge_id = $1 RETURNING COALESCE(memory_id, '')`, e.EdgeID, e.ValidUntil)
	case *memory.EdgeReinstated:
		return b.edgeChanged(ctx, e.UserID, `UPDATE edges SET valid_until = NULL, status = 'current'
			WHERE edge_id = $1 RETURNING COALESCE(memory_id, '')`, e.EdgeID)
	case *memory.EdgeRetracted:
		return b.edgeChanged(ctx, e.UserID, `DELETE FROM edges WHERE edge_id = $1
			RETURNING COALESCE(memory_id, '')`, e.EdgeID)
	case *memory.EntitiesMerged:
		return b.entitiesMerged(ctx, e)
	}
	return nil
}

func (b *batch) remembered(ctx context.Context, e *memory.MemoryRemembered) error {
	v, err := b.version(ctx, e.UserID)
	if err != nil {
		return err
	}
	meta, err := jsonOrEmpty(e.Text.Metadata)
	if err != nil {
		return err
	}
	if err := b.exec(ctx, `INSERT INTO memories (memory_id, user_id, namespace, memory_type, importance, entity_id,
		content, tags, metadata, created_at, updated_at, version, first_importance)
		VALUES ($1, $2, $3, $4, $5, NULLIF($6, ''), $7, $8, $9, $10, $10, $11, $5) ON CONFLICT (memory_id) DO NOTHING`,
		e.MemoryID, e.UserID, e.Namespace, e.MemoryType, e.Importance, e.EntityID, e.Text.Content,
		nonNil(e.Text.Tags), meta, e.At, v); err != nil {
		return err
	}
	ids := e.Mentions
	if e.EntityID != "" {
		ids = append([]string{e.EntityID}, ids...)
	}
	if len(ids) == 0 {
		return nil
	}
	if err := b.exec(ctx, `INSERT INTO mentions (memory_id, entity_id, user_id)
		SELECT $1, unnest($2::text[]), $3 ON CONFLICT DO NOTHING`, e.MemoryID, ids, e.UserID); err != nil {
		return err
	}
	return b.exec(ctx, `UPDATE entities SET memory_count = memory_count + 1,
		first_seen = LEAST(first_seen, $2), last_seen = GREATEST(last_seen, $2) WHERE entity_id = ANY($1)`, ids, e.At)
}

func (b *batch) forgotten(ctx context.Context, e *memory.MemoryForgotten) error {
	v, err := b.version(ctx, e.UserID)
	if err != nil {
		return err
	}
	// The entities it named are seen as if it had never been stated (as a
	// rebuild, which cannot read it any more, sees them); a survivor of
	// merges was recognized from recognized_at to last_recognized_at.
	if err := b.exec(ctx, `WITH named AS (DELETE FROM mentions WHERE memory_id = $1 RETURNING entity_id)
		UPDATE entities e SET memory_count = memory_count - 1,
			first_seen = LEAST(e.recognized_at, s.first),
			last_seen = GREATEST(COALESCE(e.last_recognized_at, e.recognized_at), s.last)
		FROM named n LEFT JOIN LATERAL (SELECT min(m.created_at) AS first, max(m.created_at) AS last
			FROM mentions o JOIN memories m ON m.memory_id = o.memory_id
			WHERE o.entity_id = n.entity_id AND o.memory_id <> $1) s ON true
		WHERE e.entity_id = n.entity_id`, e.MemoryID); err != nil {
		return err
	}
	if err := b.exec(ctx, `DELETE FROM memories WHERE memory_id = $1`, e.MemoryID); err != nil {
		return err
	}
	return b.exec(ctx, `INSERT INTO removed (user_id, memory_id, version) VALUES ($1, $2, $3)
		ON CONFLICT (user_id, memory_id) DO UPDATE SET version = EXCLUDED.version`, e.UserID, e.MemoryID, v)
}

func (b *batch) entityDeleted(ctx context.Context, e *memory.EntityDeleted) error {
	v, err := b.version(ctx, e.UserID)
	if err != nil {
		return err
	}
	if err := b.exec(ctx, `UPDATE memories SET version = $2,
		entity_id = CASE WHEN entity_id = $1 THEN NULL ELSE entity_id END
		WHERE memory_id IN (SELECT memory_id FROM mentions WHERE entity_id = $1)`, e.EntityID, v); err != nil {
		return err
	}
	if err := b.exec(ctx, `DELETE FROM mentions WHERE entity_id = $1`, e.EntityID); err != nil {
		return err
	}
	if err := b.exec(ctx, `DELETE FROM edges WHERE subject_id = $1 OR object_id = $1`, e.EntityID); err != nil {
		return err
	}
	return b.exec(ctx, `DELETE FROM entities WHERE entity_id = $1 OR merged_into = $1`, e.EntityID)
}

// edgeChanged runs q on one edge and stamps the memory that stated it.
func (b *batch) edgeChanged(ctx context.Context, user, q string, args ...any) error {
	var memoryID string
	err := b.tx.QueryRowContext(ctx, q, args...).Scan(&memoryID)
	if err != nil {
		if isNoRows(err) {
			return nil
		}
		return err
	}
	return b.touchMemory(ctx, user, memoryID)
}
