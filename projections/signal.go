package projections

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/strata-platform/strata/eventstore"
)

// Signal is a broadcast wake-up: Wait returns a channel that is closed at the
// next Fire. Fire never blocks. A Sub waits only for the event types it
// names: FireTypes wakes the plain waiters and the subs that name one of
// the types; Fire wakes everyone.
type Signal struct {
	mu   sync.Mutex
	ch   chan struct{}
	subs map[*Sub]struct{}
}

// NewSignal returns a ready signal.
func NewSignal() *Signal { return &Signal{ch: make(chan struct{}), subs: map[*Sub]struct{}{}} }

// Wait returns the channel closed by the next Fire or FireTypes.
func (s *Signal) Wait() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ch
}

// Fire wakes every current waiter.
func (s *Signal) Fire() { s.FireTypes(nil) }

// FireTypes wakes the plain waiters and the subs interested in one of types
// (every sub when types is empty: the types are not known).
func (s *Signal) FireTypes(types []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	close(s.ch)
	s.ch = make(chan struct{})
	for u := range s.subs {
		if u.ch != nil && u.wants(types) {
			close(u.ch)
			u.ch = nil
		}
	}
}

// Sub is a waiter for some event types (see Signal.Subscribe).
type Sub struct {
	sig   *Signal
	types map[string]bool // nil: every type
	ch    chan struct{}
}

// Subscribe returns a waiter woken only by commits of one of types (by
// every Fire when types is empty). Close it when done.
func (s *Signal) Subscribe(types []string) *Sub {
	u := &Sub{sig: s}
	if len(types) > 0 {
		u.types = map[string]bool{}
		for _, t := range types {
			u.types[t] = true
		}
	}
	s.mu.Lock()
	s.subs[u] = struct{}{}
	s.mu.Unlock()
	return u
}

// Wait returns the channel closed at the next wake-up that concerns the sub.
func (u *Sub) Wait() <-chan struct{} {
	u.sig.mu.Lock()
	defer u.sig.mu.Unlock()
	if u.ch == nil {
		u.ch = make(chan struct{})
	}
	return u.ch
}

// Close unregisters the sub.
func (u *Sub) Close() {
	u.sig.mu.Lock()
	delete(u.sig.subs, u)
	u.sig.mu.Unlock()
}

func (u *Sub) wants(types []string) bool {
	if u.types == nil || len(types) == 0 {
		return true
	}
	for _, t := range types {
		if u.types[t] {
			return true
		}
	}
	return false
}

// Listen holds one connection LISTENing on eventstore.NotifyChannel and fires sig on
// every notification (and once after each reconnect, in case one was missed
// while disconnected), until ctx ends. It reconnects with a backoff (100 ms
// doubling to about 6 s) that starts again from 100 ms after a connection
// that worked, so every new outage heals promptly.
func Listen(ctx context.Context, connString string, sig *Signal, logger *slog.Logger) {
	const minBackoff = 100 * time.Millisecond
	backoff := minBackoff
	for ctx.Err() == nil {
		listened, err := listenOnce(ctx, connString, sig)
		if ctx.Err() != nil {
			return
		}
		if listened { // the connection worked: this drop is a new outage
			backoff = minBackoff
		}
		logger.Warn("event notification listener lost its connection; polling until it is back", "err", err, "retry_in", backoff)
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		if backoff < 5*time.Second {
			backoff *= 2
		}
	}
}

// listenOnce listens on one connection until it fails; listened reports
// whether LISTEN had succeeded on it.
func listenOnce(ctx context.Context, connString string, sig *Signal) (listened bool, err error) {
	conn, err := pgx.Connect(ctx, connString)
	if err != nil {
		return false, err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+eventstore.NotifyChannel); err != nil {
		return false, err
	}
	sig.Fire()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return true, err
		}
		var types []string
		if n.Payload != "" {
			types = strings.Split(n.Payload, ",")
		}
		sig.FireTypes(types)
	}
}
