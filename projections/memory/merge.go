package memory

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"github.com/strata-platform/strata/domain/memory"
)

// entitiesMerged applies memory.entities_merged: the merged entity's
// memories (about it or mentioning it) and edges (as subject or object)
// become the survivor's, and the memories whose entities or facts change
// are stamped so recall indexes catch up; the survivor gains the merged
// entity's names as aliases (memory.MergeNames, as the fold does) and its
// seen times; the merged entity's row stays, marked merged_into the
// survivor (and so does every row that was merged into it), with no
// memories of its own.
func (b *batch) entitiesMerged(ctx context.Context, e *memory.EntitiesMerged) error {
	v, err := b.version(ctx, e.UserID)
	if err != nil {
		return err
	}
	survivor, gone := e.SurvivorID, e.MergedID
	if err := b.exec(ctx, `UPDATE memories SET version = $3,
		entity_id = CASE WHEN entity_id = $2 THEN $1 ELSE entity_id END
		WHERE user_id = $4 AND (entity_id = $2 OR memory_id IN (SELECT memory_id FROM mentions WHERE entity_id = $2
			UNION SELECT memory_id FROM edges WHERE (subject_id = $2 OR object_id = $2) AND memory_id IS NOT NULL))`,
		survivor, gone, v, e.UserID); err != nil {
		return err
	}
	if err := b.exec(ctx, `INSERT INTO mentions (memory_id, entity_id, user_id) SELECT memory_id, $1, user_id
		FROM mentions WHERE entity_id = $2 ON CONFLICT DO NOTHING`, survivor, gone); err != nil {
		return err
	}
	if err := b.exec(ctx, `DELETE FROM mentions WHERE entity_id = $1`, gone); err != nil {
		return err
	}
	if err := b.exec(ctx, `UPDATE edges SET subject_id = CASE WHEN subject_id = $2 THEN $1 ELSE subject_id END,
		object_id = CASE WHEN object_id = $2 THEN $1 ELSE object_id END
		WHERE subject_id = $2 OR object_id = $2`, survivor, gone); err != nil {
		return err
	}
	s, okS, err := b.entityNames(ctx, survivor)
	if err != nil {
		return err
	}
	g, okG, err := b.entityNames(ctx, gone)
	if err != nil {
		return err
	}
	if okS && okG {
		aliases := memory.MergeNames(s.name, s.aliases, append([]string{g.name}, g.aliases...))
		if err := b.exec(ctx, `UPDATE entities SET aliases = $2, recognized_at = LEAST(recognized_at, $3),
			last_recognized_at = GREATEST(COALESCE(last_recognized_at, recognized_at), $4),
			first_seen = LEAST(first_seen, $5), last_seen = GREATEST(last_seen, $6) WHERE entity_id = $1`,
			survivor, nonNil(aliases), g.recognized, g.lastRecognized, g.firstSeen, g.lastSeen); err != nil {
			return err
		}
	}
	if err := b.exec(ctx, `UPDATE entities SET memory_count = (SELECT count(*) FROM mentions WHERE entity_id = $1)
		WHERE entity_id = $1`, survivor); err != nil {
		return err
	}
	// The merged row counts nothing of its own any more: its memories are the
	// survivor's, and it is seen when it was recognized (memories forgotten
	// later would otherwise stay in its times, which a rebuild cannot read).
	return b.exec(ctx, `UPDATE entities SET merged_into = $1, memory_count = 0, first_seen = recognized_at,
		last_seen = COALESCE(last_recognized_at, recognized_at) WHERE entity_id = $2 OR merged_into = $2`, survivor, gone)
}

// entityRow is what a merge reads of an entity's row.
type entityRow struct {
	name                                            string
	aliases                                         []string
	recognized, lastRecognized, firstSeen, lastSeen time.Time
}

// entityNames reads an entity's names and times; ok is false when it has no
// row (its key was destroyed before a rebuild read it).
func (b *batch) entityNames(ctx context.Context, id string) (entityRow, bool, error) {
	var r entityRow
	var aliases string
	err := b.tx.QueryRowContext(ctx, `SELECT name, array_to_json(aliases)::text, recognized_at,
		COALESCE(last_recognized_at, recognized_at), first_seen, last_seen FROM entities WHERE entity_id = $1 FOR UPDATE`, id).
		Scan(&r.name, &aliases, &r.recognized, &r.lastRecognized, &r.firstSeen, &r.lastSeen)
	if errors.Is(err, sql.ErrNoRows) {
		return r, false, nil
	}
	if err != nil {
		return r, false, err
	}
	return r, true, json.Unmarshal([]byte(aliases), &r.aliases)
}
