package eventstore

import (
	"bytes"
	stdsql "database/sql"
	"fmt"

	"github.com/google/uuid"
	"github.com/oklog/ulid/v2"
)

// rowDecoder reads consumed rows (consumeColumns) from *sql.Rows with as
// few allocations as database/sql allows: the scan destinations are built
// once, text columns arrive as sql.RawBytes (valid until the next row),
// stream and event type names are interned, and a row whose metadata bytes
// equal the previous row's (the events of one append) reuses its decoded
// metadata. A catch-up batch is read at the rate of the consumer, so what a
// row costs the garbage collector shows in every batch's tail latency.
type rowDecoder struct {
	e                          Envelope
	id, stype, etype, pl, meta stdsql.RawBytes
	dest                       []any
	names                      map[string]string
	lastMeta                   []byte
	lastMD                     Metadata
}

// maxInterned bounds the interned names; past it a name is copied per row.
const maxInterned = 4096

func newRowDecoder() *rowDecoder {
	d := &rowDecoder{names: map[string]string{}}
	d.dest = []any{&d.e.Position, &d.e.TransactionID, &d.id, &d.stype, &d.e.StreamID, &d.e.StreamVersion,
		&d.etype, &d.e.SchemaVersion, &d.pl, &d.meta, &d.e.OccurredAt, &d.e.RecordedAt}
	return d
}

// decode scans the current row of rows into a new envelope.
func (d *rowDecoder) decode(rows scanner) (Envelope, error) {
	d.e = Envelope{}
	if err := rows.Scan(d.dest...); err != nil {
		return Envelope{}, fmt.Errorf("scan event: %w", err)
	}
	e := d.e
	var u uuid.UUID
	if err := u.UnmarshalText(d.id); err != nil {
		return Envelope{}, fmt.Errorf("event id %q: %w", d.id, err)
	}
	e.EventID = ulid.ULID(u).String()
	e.StreamType, e.Type = d.intern(d.stype), d.intern(d.etype)
	if d.pl != nil {
		e.Payload = bytes.Clone(d.pl)
	}
	if !bytes.Equal(d.meta, d.lastMeta) || d.lastMeta == nil {
		var md Metadata
		if err := jsonUnmarshalMetadata(d.meta, &md); err != nil {
			return Envelope{}, err
		}
		d.lastMeta, d.lastMD = append(d.lastMeta[:0], d.meta...), md
	}
	e.Metadata = d.lastMD
	e.OccurredAt, e.RecordedAt = e.OccurredAt.UTC(), e.RecordedAt.UTC()
	return e, nil
}

// intern returns b as a string, shared with earlier rows holding the same name.
func (d *rowDecoder) intern(b []byte) string {
	if s, ok := d.names[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(d.names) < maxInterned {
		d.names[s] = s
	}
	return s
}
