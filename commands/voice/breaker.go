package voice

import (
	"context"
	"sync"
	"time"
)

// BreakerConfig tunes a Breaker; zero fields take the defaults.
type BreakerConfig struct {
	// Failures is how many consecutive provider failures open the breaker
	// (default 5).
	Failures int
	// Cooldown is how long it stays open before one trial request is let
	// through (default 30 s).
	Cooldown time.Duration
	Now      func() time.Time
}

// Breaker is the circuit breaker around the telephony provider: closed, it
// lets requests through; after Failures consecutive failures, or a failed
// health ping (SIP OPTIONS to the trunk), it opens and requests are
// refused (503) until Cooldown passes; then it is half-open: requests go
// through and the first success (or a good ping) closes it, the first
// failure opens it again.
type Breaker struct {
	cfg      BreakerConfig
	mu       sync.Mutex
	state    string
	failures int
	opened   time.Time
	lastErr  string
}

// Breaker states.
const (
	BreakerClosed   = "closed"
	BreakerOpen     = "open"
	BreakerHalfOpen = "half-open"
)

// NewBreaker returns a closed breaker.
func NewBreaker(cfg BreakerConfig) *Breaker {
	if cfg.Failures <= 0 {
		cfg.Failures = 5
	}
	if cfg.Cooldown <= 0 {
		cfg.Cooldown = 30 * time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Breaker{cfg: cfg, state: BreakerClosed}
}

// Allow reports whether a request may go to the provider now.
func (b *Breaker) Allow() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state == BreakerOpen && b.cfg.Now().Sub(b.opened) >= b.cfg.Cooldown {
		b.state = BreakerHalfOpen
	}
	return b.state != BreakerOpen
}

// Success records a provider success: the breaker closes.
func (b *Breaker) Success() {
	b.mu.Lock()
	b.state, b.failures, b.lastErr = BreakerClosed, 0, ""
	b.mu.Unlock()
}

// Failure records a provider failure; enough of them, or any while
// half-open, open the breaker.
func (b *Breaker) Failure(err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.failures++
	if err != nil {
		b.lastErr = err.Error()
	}
	if b.state == BreakerHalfOpen || b.failures >= b.cfg.Failures {
		b.state, b.opened = BreakerOpen, b.cfg.Now()
	}
}

// Trip opens the breaker at once (a failed health ping).
func (b *Breaker) Trip(err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err != nil {
		b.lastErr = err.Error()
	}
	if b.state != BreakerOpen {
		b.state, b.opened = BreakerOpen, b.cfg.Now()
	}
}

// State is the breaker's state and the last failure it saw.
func (b *Breaker) State() (state, lastErr string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state == BreakerOpen && b.cfg.Now().Sub(b.opened) >= b.cfg.Cooldown {
		return BreakerHalfOpen, b.lastErr
	}
	return b.state, b.lastErr
}

// Ping checks the provider once (bounded by timeout) and moves the
// breaker: a good answer closes it, none opens it.
func (s *Service) Ping(ctx context.Context, timeout time.Duration) error {
	if s.cfg.Provider == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	err := s.cfg.Provider.Ping(ctx)
	if err != nil {
		s.cfg.Breaker.Trip(err)
		return err
	}
	s.cfg.Breaker.Success()
	return nil
}

// RunHealth pings the provider every interval until ctx ends.
func (s *Service) RunHealth(ctx context.Context, every time.Duration) {
	if s.cfg.Provider == nil {
		return
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if err := s.Ping(ctx, min(every, 5*time.Second)); err != nil && ctx.Err() == nil {
			s.log.Warn("voice: telephony health ping failed", "provider", s.cfg.Provider.Name(), "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
