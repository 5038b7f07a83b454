// Package projections runs projectors: each turns events into read-model
// tables, live through Watermill (one consumer group per projector, read-model
// writes and checkpoint in one transaction) or by a rebuild that replays the
// store into fresh tables and swaps them in.
package projections

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"strings"

	"github.com/strata-platform/strata/eventstore"
)

// Projector builds one read model from events.
//
// Apply runs inside the consumer's transaction, whose search_path is the
// projector's own schema (SchemaName(Name())), so it writes unqualified table
// names; the same code then works on the live tables and on the fresh tables
// of a rebuild. Apply must be deterministic in the events it is given: a
// rebuild must produce the same rows as the live run.
type Projector interface {
	// Name is stable ("captable.summary.v1"); bumping the suffix means a new
	// schema, a new consumer group and so a full replay.
	Name() string
	// Handles lists the event type names Apply wants; other events only move
	// the checkpoint.
	Handles() []string
	// Apply applies one event. An error stops the projector at this event;
	// nothing of the failed batch is kept, and the event is retried later.
	Apply(ctx context.Context, tx *stdsql.Tx, e eventstore.Envelope) error
}

// SchemaName is the PostgreSQL schema that holds a projector's tables:
// "captable.summary.v1" -> "rm_captable_summary_v1". Migrations create it and
// its tables; a rebuild clones them.
func SchemaName(projector string) string {
	var b strings.Builder
	b.WriteString("rm_")
	for _, r := range strings.ToLower(projector) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// EnvelopeOnly is implemented by projectors that read only events'
// envelopes (type, stream, version, position, times), never their payloads
// (the store's catalog). Their payloads are neither shipped nor decoded, so
// an event whose payload does not decode cannot stop them, and they cost
// less.
type EnvelopeOnly interface {
	Projector
	// EnvelopeOnly marks the projector; it is never called.
	EnvelopeOnly()
}

// payloadTypes lists the event types whose payloads p needs: its Handles,
// or none for an EnvelopeOnly projector.
func payloadTypes(p Projector) []string {
	if _, ok := p.(EnvelopeOnly); ok {
		return []string{}
	}
	return p.Handles()
}

// deliveredTypes lists the event types p's consumer is given (nil: all):
// its Handles, so that events no one of them are read past in the
// database rather than delivered one by one (every projector of a
// process reads the whole store); all of them for an EnvelopeOnly
// projector (it counts every event) and while an observer watches every
// event.
func deliveredTypes(p Projector, h *handler) []string {
	if _, ok := p.(EnvelopeOnly); ok || h.observe != nil {
		return nil
	}
	if t := p.Handles(); t != nil {
		return t
	}
	return []string{}
}

func handlesSet(p Projector) map[string]bool {
	set := map[string]bool{}
	for _, t := range p.Handles() {
		set[t] = true
	}
	return set
}

// configureTx points unqualified table names of a projector's transaction at
// its schema, and lets the transaction commit without waiting for its WAL
// flush: a read model and its checkpoint commit together, so a crash can only
// lose the last few batches of both, which are then applied again. Appends to
// the event store keep synchronous commits.
func configureTx(ctx context.Context, tx *stdsql.Tx, schema string) error {
	_, err := tx.ExecContext(ctx, `SELECT set_config('search_path', $1, true), set_config('synchronous_commit', 'off', true)`,
		quoteIdent(schema)+", public")
	if err != nil {
		return fmt.Errorf("configure projector transaction: %w", err)
	}
	return nil
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
