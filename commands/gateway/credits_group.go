package gateway

import (
	"context"
	"runtime"
	"sync"
	"time"
)

// Group defaults: the most items one statement carries, and how long one
// statement may take.
const (
	groupMax     = 64
	groupTimeout = 10 * time.Second
)

// group runs concurrent calls of one statement as one: each request's
// count (RateLimiter.Allow) and each request's debit (Recorder.Record)
// would otherwise be a transaction of its own, and at a few thousand
// requests a second those transactions, not the gateway, are the work
// (strata bench gateway). A caller queues its item; while fewer than
// parallel statements run, it leads one, taking the queued items in
// arrival order (at most groupMax, at most one per key: a later item of a
// key waits for the next statement); otherwise it waits, and a leader
// that finishes hands what is queued to a waiting caller (the pattern of
// the event store's group commit). Alone, an item is a statement of one,
// run by its own caller at once: no wait is added. Each item keeps its
// own outcome; an error of the statement is every item's.
type group[T any] struct {
	key func(*T) string
	run func(ctx context.Context, items []*T) error // sets each item's outcome

	parallel int
	mu       sync.Mutex
	queue    []*groupItem[T]
	active   int
}

type groupItem[T any] struct {
	v   *T
	err error
	// done receives nil when err and v's outcome are final, or the batch
	// this caller must now lead.
	done chan []*groupItem[T]
}

func newGroup[T any](key func(*T) string, run func(ctx context.Context, items []*T) error) *group[T] {
	return &group[T]{key: key, run: run, parallel: min(max(runtime.GOMAXPROCS(0), 2), 8)}
}

// do runs v's statement, with others queued meanwhile, and returns once
// its outcome is set in v.
func (g *group[T]) do(ctx context.Context, v *T) error {
	it := &groupItem[T]{v: v, done: make(chan []*groupItem[T], 1)}
	g.mu.Lock()
	g.queue = append(g.queue, it)
	var batch []*groupItem[T]
	if g.active < g.parallel {
		g.active++
		batch = g.takeLocked()
	}
	g.mu.Unlock()
	if batch == nil {
		if batch = <-it.done; batch == nil {
			return it.err
		}
	}
	for {
		g.exec(ctx, batch)
		mine := false
		for _, q := range batch {
			if q == it {
				mine = true
			} else {
				q.done <- nil
			}
		}
		g.mu.Lock()
		next := g.takeLocked() // never empty while it is still queued
		if len(next) == 0 {
			g.active--
		}
		g.mu.Unlock()
		if !mine {
			batch = next
			continue
		}
		if len(next) > 0 {
			next[0].done <- next // its caller leads the next statement
		}
		return it.err
	}
}

// exec runs one statement for batch, on the leader's context without its
// cancellation (the other items are other requests'), bounded by
// groupTimeout.
func (g *group[T]) exec(ctx context.Context, batch []*groupItem[T]) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), groupTimeout)
	defer cancel()
	items := make([]*T, len(batch))
	for i, q := range batch {
		items[i] = q.v
	}
	err := g.run(ctx, items)
	for _, q := range batch {
		q.err = err
	}
}

// takeLocked removes the next batch from the queue. g.mu must be held.
func (g *group[T]) takeLocked() []*groupItem[T] {
	if len(g.queue) == 0 {
		return nil
	}
	var batch, rest []*groupItem[T]
	keys := make(map[string]bool, len(g.queue))
	for _, q := range g.queue {
		k := g.key(q.v)
		if len(batch) >= groupMax || keys[k] {
			rest = append(rest, q)
			continue
		}
		keys[k] = true
		batch = append(batch, q)
	}
	g.queue = rest
	return batch
}
