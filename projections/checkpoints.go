package projections

import (
	"context"
	stdsql "database/sql"
	"strconv"
	"sync"
	"time"

	"github.com/strata-platform/strata/eventstore"
)

// checkpoints reads every consumer group's checkpoint for the waiters of
// WaitFor, one query for all of them: a waiter that asks while a read is in
// flight waits for the next read, which every waiter that asked meanwhile
// shares. Each waiter thus sees a read that started after it asked (never an
// older one), and a burst of commands costs one query per read instead of
// one per command.
type checkpoints struct {
	db *stdsql.DB

	mu      sync.Mutex
	next    *checkpointRead // the read that waiters asking now will get; nil: none asked yet
	running bool            // a read is in flight
}

// checkpointRead is one shared read: done closes when vals and err are set.
type checkpointRead struct {
	done chan struct{}
	vals map[string]eventstore.Key
	err  error
}

// fresh returns the checkpoints as read by a query that started after the
// call.
func (c *checkpoints) fresh(ctx context.Context) (map[string]eventstore.Key, error) {
	c.mu.Lock()
	rd := c.next
	if rd == nil {
		rd = &checkpointRead{done: make(chan struct{})}
		c.next = rd
	}
	if !c.running {
		c.start()
	}
	c.mu.Unlock()
	select {
	case <-rd.done:
		return rd.vals, rd.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// start runs the pending read (c.mu held); when it finishes, the next
// pending read starts if anyone asked meanwhile.
func (c *checkpoints) start() {
	rd := c.next
	c.next, c.running = nil, true
	go func() {
		rd.vals, rd.err = c.read()
		close(rd.done)
		c.mu.Lock()
		defer c.mu.Unlock()
		c.running = false
		if c.next != nil {
			c.start()
		}
	}()
}

// readTimeout bounds a shared read (waiters give up earlier on their own
// contexts).
const readTimeout = 10 * time.Second

// read queries every checkpoint. It does not depend on any one waiter's
// context, so a waiter giving up cannot fail the others' read.
func (c *checkpoints) read() (map[string]eventstore.Key, error) {
	ctx, cancel := context.WithTimeout(context.Background(), readTimeout)
	defer cancel()
	rows, err := c.db.QueryContext(ctx, `SELECT consumer_group, last_processed_transaction_id::text, offset_acked
		FROM es.checkpoints`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]eventstore.Key{}
	for rows.Next() {
		var group, txid string
		var k eventstore.Key
		if err := rows.Scan(&group, &txid, &k.Position); err != nil {
			return nil, err
		}
		if k.TransactionID, err = strconv.ParseUint(txid, 10, 64); err != nil {
			return nil, err
		}
		out[group] = k
	}
	return out, rows.Err()
}
