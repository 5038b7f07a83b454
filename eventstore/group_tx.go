package eventstore

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"strconv"
	"strings"

	wsql "github.com/ThreeDotsLabs/watermill-sql/v3/pkg/sql"
	"github.com/ThreeDotsLabs/watermill/message"
)

// reserveGroupQuery checks and moves the version of every stream of a group
// in one statement (the transaction's first write, after the group formed),
// and draws positions for all the group's events in order. A stream whose
// check fails returns no row. Positions drawn for a failed append are left
// unused (positions have gaps anyway, after rollbacks).
const reserveGroupQuery = `WITH req AS (
		SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[]) AS r(sid, stype, n, expected)
	), created AS (
		INSERT INTO es.streams (stream_id, stream_type, version)
		SELECT sid, stype, n FROM req WHERE expected = 0
		ON CONFLICT (stream_id) DO NOTHING
		RETURNING stream_id, version
	), moved AS (
		UPDATE es.streams s SET version = s.version + req.n, updated_at = clock_timestamp()
		FROM req
		WHERE req.expected > 0 AND s.stream_id = req.sid AND s.stream_type = req.stype AND s.version = req.expected
		RETURNING s.stream_id, s.version
	), pos AS (
		SELECT array_agg(nextval('es.events_position_seq') ORDER BY g) AS p FROM generate_series(1, $5::int) g
	)
	SELECT v.stream_id, v.version, pg_current_xact_id()::text::bigint, array_to_string(pos.p, ' ')
	FROM (SELECT * FROM created UNION ALL SELECT * FROM moved) v, pos`

// commitGroup appends every member of batch in one transaction and sets each
// member's outcome. A member whose version check fails gets the conflict
// error; the others commit. If the group fails for another reason before its
// commit, every member is appended alone instead, so one bad append cannot
// fail the others; if the commit itself fails, every member gets that error.
func (s *Store) commitGroup(batch []*pendingAppend) {
	s.group.batches.Add(1)
	s.group.appends.Add(int64(len(batch)))
	live := make([]*pendingAppend, 0, len(batch))
	for _, p := range batch {
		if err := p.ctx.Err(); err != nil { // the caller gave up before anything was written
			p.err = err
			continue
		}
		live = append(live, p)
	}
	if len(live) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(live[0].ctx), groupTimeout)
	defer cancel()
	tx, err := s.db.BeginTx(ctx, nil)
	if err == nil {
		var wrote bool
		wrote, err = s.appendGroup(ctx, tx, live)
		if err != nil {
			_ = tx.Rollback()
		} else if cerr := tx.Commit(); cerr != nil {
			for _, p := range live {
				if p.err == nil {
					p.out, p.err = Appended{}, fmt.Errorf("append %s: commit: %w", p.stream.ID, cerr)
				}
			}
			return
		} else {
			if wrote {
				var types []string
				for _, p := range live {
					if p.err == nil {
						for _, e := range p.events {
							types = append(types, e.EventType())
						}
					}
				}
				s.committed(types)
			}
			return
		}
	}
	for _, p := range live { // the group failed before its commit: each alone
		actx, acancel := context.WithTimeout(context.WithoutCancel(p.ctx), groupTimeout)
		p.out, p.err = s.appendAlone(actx, p.stream, p.expected, p.events...)
		acancel()
	}
}

// appendGroup runs the group's statements in tx: the version checks, then one
// INSERT (through the Watermill publisher bound to tx) of the events of every
// append whose check passed. It reports whether any event was written.
func (s *Store) appendGroup(ctx context.Context, tx *stdsql.Tx, live []*pendingAppend) (bool, error) {
	n := len(live)
	sids, stypes, counts, expected := make([]string, n), make([]string, n), make([]int64, n), make([]int64, n)
	total := 0
	for i, p := range live {
		sids[i], stypes[i], counts[i], expected[i] = p.stream.ID, p.stream.Type, int64(len(p.events)), p.expected
		total += len(p.events)
	}
	rows, err := tx.QueryContext(ctx, reserveGroupQuery, sids, stypes, counts, expected, total)
	if err != nil {
		return false, fmt.Errorf("append group: version check: %w", err)
	}
	moved := make(map[string]int64, n)
	var txid uint64
	var drawn string
	for rows.Next() {
		var sid string
		var version int64
		if err := rows.Scan(&sid, &version, &txid, &drawn); err != nil {
			rows.Close()
			return false, fmt.Errorf("append group: version check: %w", err)
		}
		moved[sid] = version
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return false, fmt.Errorf("append group: version check: %w", err)
	}
	positions, err := parsePositions(drawn, total, len(moved))
	if err != nil {
		return false, err
	}
	var parts []*appendRows
	var msgs []*message.Message
	next := 0
	for _, p := range live {
		k := len(p.events)
		version, ok := moved[p.stream.ID]
		if !ok {
			next += k
			p.err = s.clash(ctx, tx, p.stream, p.expected)
			continue
		}
		from := version - int64(k) + 1
		for i := range p.rows.versions {
			p.rows.versions[i] = from + int64(i)
		}
		p.rows.positions = positions[next : next+k]
		next += k
		p.out = Appended{Stream: p.stream, FromVersion: from, ToVersion: version, EventIDs: p.rows.ulids,
			Last: Key{TransactionID: txid, Position: p.rows.positions[k-1]}}
		parts = append(parts, p.rows)
		msgs = append(msgs, p.msgs...)
	}
	if len(parts) == 0 {
		return false, nil
	}
	pub, err := wsql.NewPublisher(tx, wsql.PublisherConfig{SchemaAdapter: SchemaAdapter{rows: mergeRows(parts)}}, s.logger)
	if err != nil {
		return false, fmt.Errorf("append group: publisher: %w", err)
	}
	if err := pub.Publish(Topic, msgs...); err != nil {
		return false, fmt.Errorf("append group: %w", err)
	}
	return true, nil
}

// parsePositions reads the positions the version check drew (space
// separated); with no stream moved there are none.
func parsePositions(drawn string, want, moved int) ([]int64, error) {
	if moved == 0 {
		return nil, nil
	}
	fields := strings.Fields(drawn)
	if len(fields) != want {
		return nil, fmt.Errorf("append group: drew %d positions for %d events", len(fields), want)
	}
	out := make([]int64, want)
	for i, f := range fields {
		v, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("append group: position %q: %w", f, err)
		}
		out[i] = v
	}
	return out, nil
}
