package storebench

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/oklog/ulid/v2"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// Stream types of the bench's streams: raw baseline and ours.
const (
	rawStreamType  = "bench.raw"
	oursStreamType = "bench.ours"
)

// Raw SQL of the baseline: what an expert would hand-write with pgx.
const (
	rawCreate = `INSERT INTO es.streams (stream_id, stream_type, version) VALUES ($1, $2, $3) ON CONFLICT (stream_id) DO NOTHING`
	rawMove   = `UPDATE es.streams SET version = version + $3, updated_at = clock_timestamp()
		WHERE stream_id = $1 AND stream_type = $2 AND version = $4`
	rawInsertOne = `INSERT INTO es.events (event_id, stream_type, stream_id, stream_version, event_type, schema_version, payload, occurred_at)
		VALUES ($1, $2, $3, $4, $5, 1, $6, $7)`
	rawInsertMany = `INSERT INTO es.events (event_id, stream_type, stream_id, stream_version, event_type, schema_version, payload, occurred_at)
		SELECT id, $2, $3, v, $5, 1, p, $6 FROM unnest($1::uuid[], $4::int[], $7::jsonb[]) AS t(id, v, p)`
	plainInsert = `INSERT INTO storebench.plain (payload) VALUES ($1)`
)

// rawAppend appends n bench events to stream at expected version (0: a new
// stream) in one pgx transaction: the version check, one INSERT, COMMIT.
func (b *bench) rawAppend(ctx context.Context, stream string, expected int64, n int, seq int64) error {
	tx, err := b.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback(ctx) }()
	var moved int64
	if expected == 0 {
		tag, err := tx.Exec(ctx, rawCreate, stream, rawStreamType, n)
		if err != nil {
			return fmt.Errorf("raw append %s: %w", stream, err)
		}
		moved = tag.RowsAffected()
	} else {
		tag, err := tx.Exec(ctx, rawMove, stream, rawStreamType, n, expected)
		if err != nil {
			return fmt.Errorf("raw append %s: %w", stream, err)
		}
		moved = tag.RowsAffected()
	}
	if moved != 1 {
		return fmt.Errorf("raw append %s: not at version %d", stream, expected)
	}
	now := time.Now()
	if n == 1 {
		_, err = tx.Exec(ctx, rawInsertOne, newUUID(), rawStreamType, stream, expected+1, EventType, payload(seq), now)
	} else {
		ids, versions, payloads := make([]string, n), make([]int64, n), make([]string, n)
		for i := range n {
			ids[i], versions[i], payloads[i] = newUUID(), expected+int64(i)+1, payload(seq+int64(i))
		}
		_, err = tx.Exec(ctx, rawInsertMany, ids, rawStreamType, stream, versions, EventType, now, payloads)
	}
	if err != nil {
		return fmt.Errorf("raw append %s: %w", stream, err)
	}
	return tx.Commit(ctx)
}

// oursAppend appends n bench events with Store.Append (expected 0 is
// eventstore.NoStream: a new stream).
func (b *bench) oursAppend(ctx context.Context, stream string, expected int64, n int, seq int64) error {
	events := make([]kernel.Event, n)
	for i := range events {
		events[i] = Tick{N: int(seq) + i}
	}
	_, err := b.store.Append(ctx, eventstore.Stream{Type: oursStreamType, ID: stream}, expected, events...)
	return err
}

func newUUID() string { return uuid.UUID(ulid.Make()).String() }

func payload(n int64) string { return `{"n": ` + strconv.FormatInt(n, 10) + `}` }

// plain measures the reference lines: one-row INSERT transactions (autocommit)
// into a plain table, from one client and from Clients clients.
func (b *bench) plain(ctx context.Context) ([]Figure, error) {
	var figs []Figure
	for _, clients := range []int{1, b.o.Clients} {
		out, err := drive(ctx, clients, b.o.PlainDuration, 0, func(ctx context.Context, _ int, seq int64) error {
			_, err := b.pool.Exec(ctx, plainInsert, payload(seq))
			return err
		})
		if err != nil {
			return nil, err
		}
		b.progress("  single-row INSERT, %d clients: %.0f tx/s", clients, out.rate(1))
		figs = append(figs, Figure{Name: fmt.Sprintf("reference: raw 1-row INSERT tx, %d client(s)", clients),
			Unit: UnitRate, Baseline: out.rate(1), Reference: true, Samples: int(out.ops)})
	}
	return figs, nil
}

// appendFn appends n events to a stream at a version.
type appendFn func(ctx context.Context, stream string, expected int64, n int, seq int64) error

// appends measures single-event appends with a version check from Clients
// clients, each on its own stream, raw and ours alternating per round.
func (b *bench) appends(ctx context.Context) ([]Figure, error) {
	sides := []struct {
		name string
		fn   appendFn
	}{{"raw", b.rawAppend}, {"ours", b.oursAppend}}
	versions := [2][]int64{make([]int64, b.o.Clients), make([]int64, b.o.Clients)}
	var results [2]outcome
	for round := 0; round <= b.o.Rounds; round++ { // round 0 warms up (and creates the streams)
		for i, s := range sides {
			d := b.o.AppendDuration
			if round == 0 {
				d = min(d/5, time.Second)
			}
			out, err := drive(ctx, b.o.Clients, d, 0, func(ctx context.Context, c int, seq int64) error {
				if err := s.fn(ctx, fmt.Sprintf("append-%s-%d", s.name, c), versions[i][c], 1, seq); err != nil {
					return err
				}
				versions[i][c]++
				return nil
			})
			if err != nil {
				return nil, err
			}
			if round > 0 {
				b.progress("  append, %s, round %d: %.0f ev/s", s.name, round, out.rate(1))
				results[i].ops += out.ops
				results[i].wall += out.wall
				results[i].lat = append(results[i].lat, out.lat...)
			}
		}
	}
	raw, ours := results[0], results[1]
	cl := fmt.Sprintf("%d clients", b.o.Clients)
	return []Figure{
		{Name: "append 1 event + version check, " + cl, Unit: UnitRate, Ours: ours.rate(1), Baseline: raw.rate(1),
			Target: Target{MinRatio: 0.8}, Samples: int(ours.ops)},
		{Name: "append latency p50, " + cl, Unit: UnitMs, Ours: ours.lat.quantile(0.5), Baseline: raw.lat.quantile(0.5), Samples: len(ours.lat)},
		{Name: "append latency p99, " + cl, Unit: UnitMs, Ours: ours.lat.quantile(0.99), Baseline: raw.lat.quantile(0.99),
			Target: Target{Max: 10}, Samples: len(ours.lat)},
	}, nil
}

// bulk measures appends of BulkSize events each, to new streams, raw and
// ours alternating per round.
func (b *bench) bulk(ctx context.Context) ([]Figure, error) {
	sides := []struct {
		name string
		fn   appendFn
	}{{"raw", b.rawAppend}, {"ours", b.oursAppend}}
	var results [2]outcome
	ops := int64(b.o.BulkEvents / b.o.BulkSize)
	for round := 0; round <= b.o.Rounds; round++ {
		for i, s := range sides {
			n := ops
			if round == 0 {
				n = max(1, n/10)
			}
			out, err := drive(ctx, b.o.BulkClients, 0, n, func(ctx context.Context, _ int, seq int64) error {
				return s.fn(ctx, fmt.Sprintf("bulk-%s-%d-%d", s.name, round, seq), 0, b.o.BulkSize, seq*int64(b.o.BulkSize))
			})
			if err != nil {
				return nil, err
			}
			if round > 0 {
				b.progress("  bulk, %s, round %d: %.0f ev/s", s.name, round, out.rate(b.o.BulkSize))
				results[i].ops += out.ops
				results[i].wall += out.wall
			}
		}
	}
	return []Figure{{Name: fmt.Sprintf("bulk append, %d events/append, %d client(s)", b.o.BulkSize, b.o.BulkClients),
		Unit: UnitRate, Ours: results[1].rate(b.o.BulkSize), Baseline: results[0].rate(b.o.BulkSize),
		Target: Target{Min: 70_000}, Samples: int(results[1].ops) * b.o.BulkSize}}, nil
}
