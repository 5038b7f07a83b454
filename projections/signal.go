package projections

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/strata-platform/strata/eventstore"
)

// Signal is a broadcast wake-up: Wait returns a channel that is closed at the
// next Fire. Fire never blocks.
type Signal struct {
	mu sync.Mutex
	ch chan struct{}
}

// NewSignal returns a ready signal.
func NewSignal() *Signal { return &Signal{ch: make(chan struct{})} }

// Wait returns the channel closed by the next Fire.
func (s *Signal) Wait() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ch
}

// Fire wakes every current waiter.
func (s *Signal) Fire() {
	s.mu.Lock()
	close(s.ch)
	s.ch = make(chan struct{})
	s.mu.Unlock()
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
		if _, err := conn.WaitForNotification(ctx); err != nil {
			return true, err
		}
		sig.Fire()
	}
}
