package eventstore

import (
	stdsql "database/sql"
	"errors"
	"fmt"
	"strconv"
	"sync"

	wsql "github.com/ThreeDotsLabs/watermill-sql/v3/pkg/sql"
	"github.com/ThreeDotsLabs/watermill/message"
)

// Topic is the single Watermill topic of the store: every event is a message
// on it, and its "table" is es.events itself.
const Topic = "strata_events"

// SchemaAdapter is our Watermill schema adapter. Publishing a message inserts
// an event row into es.events (the append is the publication, in one
// statement). Subscribing reads es.events with a keyset condition on
// (transaction_id, position) below the snapshot's xmin horizon, so a batch
// costs the same whatever the backlog, and a row whose transaction commits
// late is never skipped. Handles, when set, limits which payloads are shipped
// to the consumer; every event still advances the checkpoint.
type SchemaAdapter struct {
	BatchSize int
	Handles   []string
	// Only, when set, is the event types the consumer is given: a read
	// finds the next events of these types after the checkpoint (at most
	// BatchSize, through the index es.events_type_order: one range scan a
	// type) and, when it finds fewer, the last event below the horizon
	// too, whatever its type, so the checkpoint moves past every other
	// event at once without any being a message, however many there are.
	// nil: every event is given.
	Only []string
	// Batch, when set, receives the decoded envelopes of the batch being
	// delivered (see Batch).
	Batch *Batch

	rows *appendRows // the typed columns of the append being published
}

// Batch hands a consumer the envelopes of the batch Watermill is delivering,
// already decoded by the adapter, so the consumer need not parse them back out
// of message metadata; it also tells which message is the batch's last.
// watermill-sql v3 reads and unmarshals every row of a batch before it sends
// the first message, so when a message arrives the batch is complete.
//
// Messages are found by event id from a cursor: Watermill delivers a batch's
// messages in row order and resends a nacked one (as a copy) before the next,
// so a lookup is the cursor's row or the one before it.
type Batch struct {
	mu   sync.Mutex
	envs []Envelope
	next int // index after the last message looked up
	dec  *rowDecoder
}

func (b *Batch) reset() {
	b.mu.Lock()
	clear(b.envs)
	b.envs, b.next = b.envs[:0], 0
	b.mu.Unlock()
}

// decode reads the current row into the batch.
func (b *Batch) decode(row wsql.Scanner) (Envelope, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dec == nil { // sized once for a whole batch; reset keeps the room
		b.dec, b.envs = newRowDecoder(), make([]Envelope, 0, DefaultBatchSize)
	}
	e, err := b.dec.decode(row)
	if err != nil {
		return e, err
	}
	b.envs = append(b.envs, e)
	return e, nil
}

// Envelope returns the raw (not yet upcast) envelope of a consumed message
// and whether it is the batch's last.
func (b *Batch) Envelope(m *message.Message) (e Envelope, last bool, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	i := b.find(m.UUID)
	if i < 0 {
		return Envelope{}, false, fmt.Errorf("message %s is not in the current batch", m.UUID)
	}
	b.next = i + 1
	return b.envs[i], i == len(b.envs)-1, nil
}

// find returns the index of the envelope with event id id, or -1.
func (b *Batch) find(id string) int {
	for _, i := range [2]int{b.next, b.next - 1} {
		if i >= 0 && i < len(b.envs) && b.envs[i].EventID == id {
			return i
		}
	}
	for i := range b.envs {
		if b.envs[i].EventID == id {
			return i
		}
	}
	return -1
}

var _ wsql.SchemaAdapter = SchemaAdapter{}

// InsertQuery inserts the messages of one append (Store.AppendTx) in one
// statement: VALUES for one event, unnest of typed arrays for many (their
// positions then come from the column default, in row order). It refuses
// messages that were not encoded by the store.
func (a SchemaAdapter) InsertQuery(topic string, msgs message.Messages) (wsql.Query, error) {
	if topic != Topic {
		return wsql.Query{}, fmt.Errorf("unknown topic %q", topic)
	}
	r := a.rows
	if !r.matches(msgs) {
		return wsql.Query{}, fmt.Errorf("events are published through eventstore.Store.Append only")
	}
	if r.sids != nil { // a group commit: several streams, positions drawn
		return wsql.Query{
			Query: `INSERT INTO es.events (position, event_id, stream_type, stream_id, stream_version,
					event_type, schema_version, payload, metadata, occurred_at)
				SELECT position, id, stype, sid, version, type, schema, payload::jsonb, meta::jsonb, occurred
				FROM unnest($1::bigint[], $2::uuid[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::int[],
					$8::text[], $9::text[], $10::timestamptz[])
					AS e(position, id, stype, sid, version, type, schema, payload, meta, occurred)`,
			Args: []any{r.positions, r.ids, r.stypes, r.sids, r.versions, r.types, r.schemas, r.payloads, r.metas, r.occurred},
		}, nil
	}
	if len(msgs) == 1 && len(r.positions) == 1 {
		return wsql.Query{
			Query: `INSERT INTO es.events (position, event_id, stream_type, stream_id, stream_version,
					event_type, schema_version, payload, metadata, occurred_at)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
			Args: []any{r.positions[0], r.ids[0], r.stype, r.sid, r.versions[0], r.types[0], r.schemas[0], r.payloads[0], r.meta, r.occurred[0]},
		}, nil
	}
	return wsql.Query{
		Query: `INSERT INTO es.events (event_id, stream_type, stream_id, stream_version,
				event_type, schema_version, payload, metadata, occurred_at)
			SELECT id, $2, $3, version, type, schema, payload::jsonb, $8::jsonb, occurred
			FROM unnest($1::uuid[], $4::bigint[], $5::text[], $6::int[], $7::text[], $9::timestamptz[])
				AS e(id, version, type, schema, payload, occurred)`,
		Args: []any{r.ids, r.stype, r.sid, r.versions, r.types, r.schemas, r.payloads, r.meta, r.occurred},
	}, nil
}

// consumeColumns is the column list of a consumed event; payload is NULL for
// types the consumer does not handle.
const consumeColumns = `e.position, e.transaction_id::text::bigint, e.event_id::text, e.stream_type, e.stream_id,
	e.stream_version, e.event_type, e.schema_version, %s, e.metadata, e.occurred_at, e.recorded_at`

// SelectQuery returns the next batch of a consumer group, locking its
// checkpoint row (one consumer of a group at a time, across processes).
func (a SchemaAdapter) SelectQuery(topic string, group string, _ wsql.OffsetsAdapter) wsql.Query {
	if a.Batch != nil {
		a.Batch.reset() // Watermill builds the query right before reading a batch
	}
	payload, args := "e.payload", []any{group}
	if a.Handles != nil {
		payload = "CASE WHEN e.event_type = ANY($2::text[]) THEN e.payload END"
		args = append(args, a.Handles)
	}
	if a.Only != nil {
		args = append(args, a.Only)
		only := "$" + strconv.Itoa(len(args))
		batch := strconv.Itoa(a.batchSize())
		return wsql.Query{
			Query: `WITH last AS (
					SELECT last_processed_transaction_id AS tx, offset_acked AS pos,
						pg_snapshot_xmin(pg_current_snapshot()) AS horizon
					FROM es.checkpoints WHERE consumer_group = $1 FOR UPDATE),
				picked AS (
					SELECT p.transaction_id, p.position
					FROM unnest(` + only + `::text[]) AS t(event_type),
					LATERAL (SELECT e.transaction_id, e.position FROM es.events e
						WHERE e.event_type = t.event_type
						  AND (e.transaction_id, e.position) > ((SELECT tx FROM last), (SELECT pos FROM last))
						  AND e.transaction_id < (SELECT horizon FROM last)
						ORDER BY e.transaction_id, e.position
						LIMIT ` + batch + `) p
					ORDER BY p.transaction_id, p.position
					LIMIT ` + batch + `),
				tail AS (
					SELECT e.transaction_id, e.position FROM es.events e
					WHERE (SELECT count(*) FROM picked) < ` + batch + `
					  AND (e.transaction_id, e.position) > ((SELECT tx FROM last), (SELECT pos FROM last))
					  AND e.transaction_id < (SELECT horizon FROM last)
					ORDER BY e.transaction_id DESC, e.position DESC LIMIT 1),
				pick AS (SELECT position FROM picked UNION SELECT position FROM tail)
				SELECT ` + fmt.Sprintf(consumeColumns, payload) + `
				FROM es.events e JOIN pick ON e.position = pick.position
				ORDER BY e.transaction_id, e.position`,
			Args: args,
		}
	}
	return wsql.Query{
		Query: `WITH last AS (
				SELECT last_processed_transaction_id AS tx, offset_acked AS pos
				FROM es.checkpoints WHERE consumer_group = $1 FOR UPDATE)
			SELECT ` + fmt.Sprintf(consumeColumns, payload) + `
			FROM es.events e
			WHERE (e.transaction_id, e.position) > ((SELECT tx FROM last), (SELECT pos FROM last))
			  AND e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())
			ORDER BY e.transaction_id, e.position
			LIMIT ` + strconv.Itoa(a.batchSize()),
		Args: args,
	}
}

// DefaultBatchSize is the consumer batch size when none is set: a batch
// then costs well under a millisecond to read, whatever the backlog.
const DefaultBatchSize = 100

func (a SchemaAdapter) batchSize() int {
	if a.BatchSize <= 0 {
		return DefaultBatchSize
	}
	return a.BatchSize
}

// UnmarshalMessage decodes a consumed row into the adapter's Batch and
// returns a message that carries the event id and the payload; the consumer
// takes the decoded envelope from the Batch.
func (a SchemaAdapter) UnmarshalMessage(row wsql.Scanner) (wsql.Row, error) {
	if a.Batch == nil {
		return wsql.Row{}, errors.New("a subscribing SchemaAdapter needs a Batch")
	}
	e, err := a.Batch.decode(row)
	if err != nil {
		return wsql.Row{}, err
	}
	return wsql.Row{Offset: e.Position, Payload: e.Payload, Msg: message.NewMessage(e.EventID, message.Payload(e.Payload))}, nil
}

// SchemaInitializingQueries returns nothing: migrations create every table.
func (a SchemaAdapter) SchemaInitializingQueries(string) []wsql.Query { return nil }

// SubscribeIsolationLevel is REPEATABLE READ: one snapshot per batch.
func (a SchemaAdapter) SubscribeIsolationLevel() stdsql.IsolationLevel {
	return stdsql.LevelRepeatableRead
}

// OffsetsAdapter keeps consumer checkpoints in es.checkpoints.
type OffsetsAdapter struct{}

var _ wsql.OffsetsAdapter = OffsetsAdapter{}

// AckMessageQuery moves the group's checkpoint to the acked row. The row's
// transaction id is looked up by its position (the primary key) once per
// batch rather than carried on every decoded row.
func (OffsetsAdapter) AckMessageQuery(_ string, row wsql.Row, group string) wsql.Query {
	return wsql.Query{
		Query: `UPDATE es.checkpoints SET offset_acked = e.position, last_processed_transaction_id = e.transaction_id,
			updated_at = clock_timestamp() FROM es.events e WHERE e.position = $1 AND consumer_group = $2`,
		Args: []any{row.Offset, group},
	}
}

// ConsumedMessageQuery is not needed: the checkpoint row lock serialises consumers.
func (OffsetsAdapter) ConsumedMessageQuery(string, wsql.Row, string, []byte) wsql.Query {
	return wsql.Query{}
}

// NextOffsetQuery is unused by our SchemaAdapter, which reads the checkpoint inline.
func (OffsetsAdapter) NextOffsetQuery(_ string, group string) wsql.Query {
	return wsql.Query{
		Query: `SELECT offset_acked, last_processed_transaction_id FROM es.checkpoints WHERE consumer_group = $1 FOR UPDATE`,
		Args:  []any{group},
	}
}

// SchemaInitializingQueries returns nothing: migrations create every table.
func (OffsetsAdapter) SchemaInitializingQueries(string) []wsql.Query { return nil }

// BeforeSubscribingQueries creates the group's checkpoint row at the start.
func (OffsetsAdapter) BeforeSubscribingQueries(_ string, group string) []wsql.Query {
	return []wsql.Query{{
		Query: `INSERT INTO es.checkpoints (consumer_group) VALUES ($1) ON CONFLICT DO NOTHING`,
		Args:  []any{group},
	}}
}
