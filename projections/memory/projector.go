// Package memory projects the memory context's events into the tables of
// schema rm_memory_v1: memories (plain text, deleted when forgotten),
// entities, mentions and the temporal graph's edges. It opens the events'
// sealed parts with the key ring; an event whose key was destroyed (its
// memory forgotten, its entity deleted) projects nothing, so a rebuild never
// brings forgotten text back.
//
// Every batch bumps each touched user's version once and stamps the
// memories it changed (or whose facts changed) with it; removed memories are
// listed with the version that removed them. A recall index catches up with
// "rows with version > mine".
package memory

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/strata-platform/strata/domain/memory"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/shred"
)

// Name is the projector's name; its tables live in schema rm_memory_v1.
const Name = "memory.v1"

// Schema is the schema of the projector's tables, for qualified queries.
const Schema = "rm_memory_v1"

// Projector maintains rm_memory_v1.
type Projector struct {
	Keys *shred.KeyRing
}

// Name implements projections.Projector.
func (Projector) Name() string { return Name }

// PartitionedByStream implements projections.Partitioned: the rows one
// stream's events write are that stream's alone, so an event that cannot be
// applied parks its stream and the others go on.
func (Projector) PartitionedByStream() {}

// Handles implements projections.Projector: every memory event.
func (Projector) Handles() []string {
	var out []string
	for _, c := range memory.Events() {
		out = append(out, c().EventType())
	}
	return out
}

// Apply implements projections.Projector.
func (p Projector) Apply(ctx context.Context, tx *stdsql.Tx, e eventstore.Envelope) error {
	return p.ApplyBatch(ctx, tx, []eventstore.Envelope{e})
}

// ApplyBatch implements projections.BatchProjector: events in order, with
// one version bump per user.
func (p Projector) ApplyBatch(ctx context.Context, tx *stdsql.Tx, events []eventstore.Envelope) error {
	b := &batch{tx: tx, versions: map[string]int64{}}
	for _, e := range events {
		if sec, ok := memory.SecretOf(e.Event); ok {
			if sec.Sealed.Key == "" {
				return fmt.Errorf("%s at %d: its personal data is not sealed", e.Type, e.Position)
			}
			raw, err := p.Keys.Open(ctx, tx, *sec.Sealed)
			switch {
			case errors.Is(err, shred.ErrShredded):
				continue // forgotten: nothing of it may reach the read model
			case err != nil:
				return err
			}
			if err := sec.Open(raw); err != nil {
				return fmt.Errorf("open %s at %d: %w", e.Type, e.Position, err)
			}
		}
		if err := b.apply(ctx, e.Event); err != nil {
			return fmt.Errorf("%s at %d: %w", e.Type, e.Position, err)
		}
	}
	return nil
}

// batch is one ApplyBatch call.
type batch struct {
	tx       *stdsql.Tx
	versions map[string]int64
}

// version is user's version for this batch, bumped on first use.
func (b *batch) version(ctx context.Context, user string) (int64, error) {
	if v, ok := b.versions[user]; ok {
		return v, nil
	}
	var v int64
	err := b.tx.QueryRowContext(ctx, `INSERT INTO users (user_id, epoch, version) VALUES ($1, gen_random_uuid(), 1)
		ON CONFLICT (user_id) DO UPDATE SET version = users.version + 1 RETURNING version`, user).Scan(&v)
	if err != nil {
		return 0, fmt.Errorf("bump version of %s: %w", user, err)
	}
	b.versions[user] = v
	return v, nil
}

func (b *batch) exec(ctx context.Context, q string, args ...any) error {
	_, err := b.tx.ExecContext(ctx, q, args...)
	return err
}

// touchMemory stamps a memory with the user's batch version.
func (b *batch) touchMemory(ctx context.Context, user, memoryID string) error {
	if memoryID == "" {
		return nil
	}
	v, err := b.version(ctx, user)
	if err != nil {
		return err
	}
	return b.exec(ctx, `UPDATE memories SET version = $2 WHERE memory_id = $1`, memoryID, v)
}

func jsonOrEmpty(m map[string]any) ([]byte, error) {
	if m == nil {
		return []byte(`{}`), nil
	}
	return json.Marshal(m)
}

func nonNil(v []string) []string {
	if v == nil {
		return []string{}
	}
	return v
}

func isNoRows(err error) bool { return errors.Is(err, stdsql.ErrNoRows) }
