package eventstore

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/oklog/ulid/v2"

	"github.com/strata-platform/strata/domain/kernel"
)

// appendRows are the typed columns of one append. The store hands them to
// its SchemaAdapter next to the Watermill messages (which carry the event id
// and payload), so InsertQuery needs no round trip through string metadata.
type appendRows struct {
	ulids     []string
	ids       []string // the ULIDs in uuid text form
	positions []int64  // drawn by the version check for one event; nil: column default
	stype     string
	sid       string
	versions  []int64
	types     []string
	schemas   []int64
	payloads  []string
	meta      string
	occurred  []time.Time
	// Set only on the rows of a group commit (mergeRows): the stream and
	// metadata of every row, whose positions are then always given.
	stypes, sids, metas []string
}

// mergeRows joins the rows of several appends (each with its positions and
// versions set) into the rows of one INSERT.
func mergeRows(parts []*appendRows) *appendRows {
	m := &appendRows{}
	for _, r := range parts {
		m.ulids = append(m.ulids, r.ulids...)
		m.ids = append(m.ids, r.ids...)
		m.positions = append(m.positions, r.positions...)
		m.versions = append(m.versions, r.versions...)
		m.types = append(m.types, r.types...)
		m.schemas = append(m.schemas, r.schemas...)
		m.payloads = append(m.payloads, r.payloads...)
		m.occurred = append(m.occurred, r.occurred...)
		for range r.ulids {
			m.stypes = append(m.stypes, r.stype)
			m.sids = append(m.sids, r.sid)
			m.metas = append(m.metas, r.meta)
		}
	}
	return m
}

// encode turns events into rows and messages, checking every type is registered.
func (s *Store) encode(ctx context.Context, stream Stream, events []kernel.Event) (*appendRows, []*message.Message, error) {
	md, err := json.Marshal(MetadataFrom(ctx))
	if err != nil {
		return nil, nil, fmt.Errorf("encode metadata: %w", err)
	}
	n := len(events)
	r := &appendRows{ulids: make([]string, n), ids: make([]string, n), stype: stream.Type, sid: stream.ID,
		versions: make([]int64, n), types: make([]string, n), schemas: make([]int64, n), payloads: make([]string, n),
		meta: string(md), occurred: make([]time.Time, n)}
	msgs := make([]*message.Message, n)
	now := s.clock.Now().UTC()
	for i, ev := range events {
		name := ev.EventType()
		version, ok := s.reg.Version(name)
		if !ok {
			return nil, nil, fmt.Errorf("append %s: event type %q is not registered", stream.ID, name)
		}
		payload, err := json.Marshal(ev)
		if err != nil {
			return nil, nil, fmt.Errorf("append %s: encode %s: %w", stream.ID, name, err)
		}
		r.occurred[i] = now
		if d, ok := ev.(kernel.Dated); ok && !d.OccurredAt().IsZero() {
			r.occurred[i] = d.OccurredAt().UTC()
		}
		id := s.ids.NewID()
		u, err := ulid.ParseStrict(id)
		if err != nil {
			return nil, nil, fmt.Errorf("append %s: event id %q is not a ULID: %w", stream.ID, id, err)
		}
		r.ulids[i], r.ids[i], r.types[i], r.schemas[i], r.payloads[i] = id, uuidString(u), name, int64(version), string(payload)
		msgs[i] = message.NewMessage(id, payload)
	}
	return r, msgs, nil
}

// matches reports whether msgs are the messages these rows were encoded with.
func (r *appendRows) matches(msgs message.Messages) bool {
	if r == nil || len(msgs) != len(r.ulids) {
		return false
	}
	for i, m := range msgs {
		if m.UUID != r.ulids[i] {
			return false
		}
	}
	return true
}
