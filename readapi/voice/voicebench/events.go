package voicebench

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/strata-platform/strata/domain/voice"
)

// callEvent is one event of a call's stream as stored.
type callEvent struct {
	Type     string // "voice.call_answered", ...
	Version  int
	Recorded time.Time // es.events.recorded_at: clock_timestamp() at the INSERT
	// Of the payload:
	At        time.Time // when the provider saw what the event records
	Seq       int
	Status    string
	Reason    string
	Direction string
	Delivered bool // voice.callback_attempted
}

// Latency is recorded_at minus the payload's at.
func (e callEvent) Latency() time.Duration { return e.Recorded.Sub(e.At) }

// call is a call's stream.
type call struct {
	ID        string
	Direction string
	Events    []callEvent
}

// moveTypes are the status moves: each has a status callback.
var moveTypes = map[string]bool{
	"voice.call_requested": true, "voice.call_dialing": true, "voice.call_ringing": true, "voice.call_answered": true,
	"voice.call_held": true, "voice.call_resumed": true, "voice.call_transferred": true, "voice.call_ended": true,
}

// Moves is how many status moves the call has (its callbacks).
func (c *call) Moves() int {
	n := 0
	for _, e := range c.Events {
		if moveTypes[e.Type] {
			n++
		}
	}
	return n
}

// Ended is the call's call_ended event.
func (c *call) Ended() (callEvent, bool) {
	for _, e := range c.Events {
		if e.Type == "voice.call_ended" {
			return e, true
		}
	}
	return callEvent{}, false
}

// Event is the call's first event of type typ.
func (c *call) Event(typ string) (callEvent, bool) {
	for _, e := range c.Events {
		if e.Type == typ {
			return e, true
		}
	}
	return callEvent{}, false
}

// Has reports whether the call has an event of type typ.
func (c *call) Has(typ string) bool {
	for _, e := range c.Events {
		if e.Type == typ {
			return true
		}
	}
	return false
}

// Attempts counts the call's callback attempts, delivered and not.
func (c *call) Attempts() (delivered, failed int) {
	for _, e := range c.Events {
		if e.Type == "voice.callback_attempted" {
			if e.Delivered {
				delivered++
			} else {
				failed++
			}
		}
	}
	return delivered, failed
}

// Latencies are the latencies of the call's events of the given types.
func (c *call) Latencies(types ...string) []time.Duration {
	var out []time.Duration
	for _, e := range c.Events {
		for _, t := range types {
			if e.Type == t {
				out = append(out, e.Latency())
			}
		}
	}
	return out
}

// loadCalls reads every call's stream from es.events.
func loadCalls(ctx context.Context, db *stdsql.DB) (map[string]*call, error) {
	return loadStreams(ctx, db, voice.StreamCall)
}

// loadStreams reads every stream of a type (voice.StreamCall,
// voice.StreamMessage) from es.events.
func loadStreams(ctx context.Context, db *stdsql.DB, streamType string) (map[string]*call, error) {
	rows, err := db.QueryContext(ctx, `SELECT stream_id, stream_version, event_type, payload, recorded_at
		FROM es.events WHERE stream_type = $1 ORDER BY stream_id, stream_version`, streamType)
	if err != nil {
		return nil, fmt.Errorf("voicebench: read the %s streams: %w", streamType, err)
	}
	defer rows.Close()
	out := map[string]*call{}
	for rows.Next() {
		var id string
		var raw []byte
		e := callEvent{}
		if err := rows.Scan(&id, &e.Version, &e.Type, &raw, &e.Recorded); err != nil {
			return nil, err
		}
		var p struct {
			At        time.Time `json:"at"`
			Seq       int       `json:"seq"`
			Status    string    `json:"status"`
			Reason    string    `json:"reason"`
			Direction string    `json:"direction"`
			Delivered bool      `json:"delivered"`
		}
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, fmt.Errorf("voicebench: %s #%d %s: %w", id, e.Version, e.Type, err)
		}
		e.At, e.Seq, e.Status, e.Reason, e.Direction, e.Delivered = p.At, p.Seq, p.Status, p.Reason, p.Direction, p.Delivered
		c := out[id]
		if c == nil {
			c = &call{ID: id}
			out[id] = c
		}
		if e.Type == "voice.call_requested" || e.Type == "voice.message_requested" {
			c.Direction = e.Direction
		}
		c.Events = append(c.Events, e)
	}
	return out, rows.Err()
}
