package projections

import (
	"context"
	stdsql "database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net"
	"sort"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// Partitioned is implemented by projectors whose read model is partitioned
// by stream: no row that one stream's events write is read or written by
// another stream's events (memory per user, community per event, the cap
// table per company). When such a projector cannot apply an event, the
// runner parks that event's stream instead of stopping: the stream's later
// events wait behind it, in order, while every other stream goes on. A
// projector that is not Partitioned (a global read model that must see
// every stream in order) stops at the failing event and retries, as before.
type Partitioned interface {
	Projector
	// PartitionedByStream marks the projector; it is never called.
	PartitionedByStream()
}

// Parked is one parked stream of one projector.
type Parked struct {
	Projector  string         `json:"projector"`
	StreamID   string         `json:"stream_id"`
	StreamType string         `json:"stream_type"`
	At         eventstore.Key `json:"at"` // the first event held
	EventID    string         `json:"event_id"`
	EventType  string         `json:"event_type"`
	Error      string         `json:"error"`
	ParkedAt   time.Time      `json:"parked_at"`
	Retries    int            `json:"retries"`
	RetriedAt  *time.Time     `json:"retried_at,omitempty"`
}

// ListParked returns the parked streams of every projector (projector ""),
// or of one, oldest first.
func ListParked(ctx context.Context, db *stdsql.DB, projector string) ([]Parked, error) {
	rows, err := db.QueryContext(ctx, `SELECT projector, stream_id, stream_type, transaction_id::text::bigint, position,
			event_id, event_type, error, parked_at, retries, retried_at
		FROM es.parked_streams WHERE $1 = '' OR projector = $1 ORDER BY parked_at, projector, stream_id`, projector)
	if err != nil {
		return nil, fmt.Errorf("list parked streams: %w", err)
	}
	defer rows.Close()
	var out []Parked
	for rows.Next() {
		var p Parked
		var tx int64
		var retried stdsql.NullTime
		if err := rows.Scan(&p.Projector, &p.StreamID, &p.StreamType, &tx, &p.At.Position, &p.EventID, &p.EventType,
			&p.Error, &p.ParkedAt, &p.Retries, &retried); err != nil {
			return nil, fmt.Errorf("list parked streams: %w", err)
		}
		p.At.TransactionID = uint64(tx)
		p.ParkedAt = p.ParkedAt.UTC()
		if retried.Valid {
			t := retried.Time.UTC()
			p.RetriedAt = &t
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// park records that projector holds stream from env on, after err. A stream
// already parked keeps its first held event.
func park(ctx context.Context, db *stdsql.DB, projector string, env eventstore.Envelope, cause error) error {
	_, err := db.ExecContext(ctx, `INSERT INTO es.parked_streams
			(projector, stream_id, stream_type, transaction_id, position, event_id, event_type, error)
		VALUES ($1, $2, $3, $4::text::xid8, $5, $6, $7, $8)
		ON CONFLICT (projector, stream_id) DO NOTHING`,
		projector, env.StreamID, env.StreamType, fmt.Sprint(env.TransactionID), env.Position, env.EventID, env.Type,
		truncate(cause.Error(), 2000))
	if err != nil {
		return fmt.Errorf("park %s for %s: %w", env.StreamID, projector, err)
	}
	return nil
}

// parkedIn reads projector's parked streams, each with its first held
// event, inside a consumer's transaction.
func parkedIn(ctx context.Context, tx *stdsql.Tx, projector string) (map[string]eventstore.Key, error) {
	rows, err := tx.QueryContext(ctx, `SELECT stream_id, transaction_id::text::bigint, position FROM es.parked_streams WHERE projector = $1`, projector)
	if err != nil {
		return nil, fmt.Errorf("parked streams of %s: %w", projector, err)
	}
	defer rows.Close()
	set := map[string]eventstore.Key{}
	for rows.Next() {
		var id string
		var txid, pos int64
		if err := rows.Scan(&id, &txid, &pos); err != nil {
			return nil, err
		}
		set[id] = eventstore.Key{TransactionID: uint64(txid), Position: pos}
	}
	return set, rows.Err()
}

// held tells whether a parked stream holds e: its stream is parked at e or
// at an earlier event.
func held(parked map[string]eventstore.Key, e *eventstore.Envelope) bool {
	at, ok := parked[e.StreamID]
	return ok && !e.Key().Less(at)
}

// transient reports an error that says nothing about the event: the
// database went away, a statement timed out, a transaction was chosen as a
// deadlock or serialization victim, the server is short of resources. Such a
// failure stops the projector and is retried; any other failure of an event
// of a Partitioned projector parks its stream.
func transient(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, driver.ErrBadConn) || errors.Is(err, stdsql.ErrConnDone) || errors.Is(err, stdsql.ErrTxDone) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) && len(pe.Code) >= 2 {
		switch pe.Code[:2] {
		case "08", "40", "53", "55", "57", "58", "XX":
			return true
		}
		return false
	}
	return pgconn.SafeToRetry(err) || pgconn.Timeout(err)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// ParkedGuard answers whether a stream is parked by any Partitioned
// projector, from a copy in memory that this process's runner updates as it
// parks and unparks, and that Refresh reloads from es.parked_streams (every
// second while the runner runs), so parks and retries by other processes
// and by the CLI are seen within a second.
type ParkedGuard struct {
	db *stdsql.DB
	mu sync.RWMutex
	by map[string][]string // stream id -> projectors holding it
}

// NewParkedGuard returns an empty guard over db.
func NewParkedGuard(db *stdsql.DB) *ParkedGuard {
	return &ParkedGuard{db: db, by: map[string][]string{}}
}

// Check returns an unavailable error when streamID is parked: commands on
// it answer 503 until an operator retries or skips the event.
func (g *ParkedGuard) Check(streamID string) error {
	if g == nil {
		return nil
	}
	g.mu.RLock()
	holders := g.by[streamID]
	g.mu.RUnlock()
	if len(holders) == 0 {
		return nil
	}
	return kernel.Unavailable(fmt.Sprintf("this resource is paused: one of its recorded changes could not be applied to the %s read model, "+
		"so new changes wait until an operator retries or skips it (strata projections parked); other resources are not affected", holders[0]), nil)
}

// Any reports whether any stream is parked (by this guard's copy); it costs
// a read lock, for the hot paths that only need to know that.
func (g *ParkedGuard) Any() bool {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return len(g.by) > 0
}

// Count returns how many streams each projector has parked.
func (g *ParkedGuard) Count() map[string]int {
	out := map[string]int{}
	g.mu.RLock()
	defer g.mu.RUnlock()
	for _, ps := range g.by {
		for _, p := range ps {
			out[p]++
		}
	}
	return out
}

// Refresh reloads the parked streams from the database.
func (g *ParkedGuard) Refresh(ctx context.Context) error {
	ps, err := ListParked(ctx, g.db, "")
	if err != nil {
		return err
	}
	by := map[string][]string{}
	for _, p := range ps {
		by[p.StreamID] = append(by[p.StreamID], p.Projector)
	}
	for _, v := range by {
		sort.Strings(v)
	}
	g.mu.Lock()
	g.by = by
	g.mu.Unlock()
	return nil
}

// mark records locally that projector parked (or, with on false, released)
// stream, before the next Refresh.
func (g *ParkedGuard) mark(projector, stream string, on bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	cur := g.by[stream]
	out := cur[:0:0]
	for _, p := range cur {
		if p != projector {
			out = append(out, p)
		}
	}
	if on {
		out = append(out, projector)
		sort.Strings(out)
	}
	if len(out) == 0 {
		delete(g.by, stream)
	} else {
		g.by[stream] = out
	}
}
