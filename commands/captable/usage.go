package captable

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/eventstore"
)

// Quota is the state of a caller's rate limit after one call: Limit is the
// per-minute burst of the plan, Remaining the calls left before the
// tighter of the minute window and the monthly quota runs out, Reset when
// that window starts again.
type Quota struct {
	Limit     int
	Remaining int
	Reset     time.Time
	Allowed   bool
}

// AnonymousPerMinute is the burst of unauthenticated calls (register,
// login, refresh, agent onboarding) per client address.
const AnonymousPerMinute = 60

// usage counts calls per minute and per month. Minute windows live in
// memory (per process); monthly counts are recorded as events every flush,
// so a restart keeps them.
type usage struct {
	mu      sync.Mutex
	minute  map[string]*window // key -> current minute window
	monthly map[string]*month  // account -> current month
}

type window struct {
	start time.Time
	count int
}

type month struct {
	name     string // "2026-11"
	recorded int    // calls recorded as events (or loaded)
	pending  int    // calls not yet recorded
	loaded   bool
}

func newUsage() *usage {
	return &usage{minute: map[string]*window{}, monthly: map[string]*month{}}
}

func usageStream(account, monthName string) string { return "usage-" + account + "-" + monthName }

// minuteTake counts one call in key's minute window.
func (u *usage) minuteTake(key string, limit int, now time.Time) (used int, reset time.Time) {
	start := now.Truncate(time.Minute)
	w := u.minute[key]
	if w == nil || !w.start.Equal(start) {
		w = &window{start: start}
		u.minute[key] = w
	}
	if w.count < limit {
		w.count++
		return w.count, start.Add(time.Minute)
	}
	return limit + 1, start.Add(time.Minute)
}

// TakeAnonymous counts an unauthenticated call from client.
func (s *Service) TakeAnonymous(client string) Quota {
	u := s.usage
	u.mu.Lock()
	defer u.mu.Unlock()
	used, reset := u.minuteTake("anon:"+client, AnonymousPerMinute, s.clock.Now())
	return Quota{Limit: AnonymousPerMinute, Remaining: max(0, AnonymousPerMinute-used), Reset: reset, Allowed: used <= AnonymousPerMinute}
}

// Take counts a call by account on plan against the plan's burst and
// monthly quota.
func (s *Service) Take(ctx context.Context, account, plan string) (Quota, error) {
	lim := captable.Limits(plan)
	now := s.clock.Now()
	name := now.Format("2006-01")
	if err := s.loadMonth(ctx, account, name); err != nil {
		return Quota{}, err
	}
	u := s.usage
	u.mu.Lock()
	defer u.mu.Unlock()
	m := u.monthly[account]
	if lim.Monthly > 0 && m.recorded+m.pending >= lim.Monthly {
		next := time.Date(now.Year(), now.Month()+1, 1, 0, 0, 0, 0, time.UTC)
		return Quota{Limit: lim.PerMinute, Remaining: 0, Reset: next, Allowed: false}, nil
	}
	used, reset := u.minuteTake("acct:"+account, lim.PerMinute, now)
	q := Quota{Limit: lim.PerMinute, Remaining: max(0, lim.PerMinute-used), Reset: reset, Allowed: used <= lim.PerMinute}
	if !q.Allowed {
		return q, nil
	}
	m.pending++
	if lim.Monthly > 0 {
		if left := lim.Monthly - m.recorded - m.pending; left < q.Remaining {
			q.Remaining = left
			if left == 0 {
				q.Reset = time.Date(now.Year(), now.Month()+1, 1, 0, 0, 0, 0, time.UTC)
			}
		}
	}
	return q, nil
}

// loadMonth reads an account's recorded calls for the month the first time
// the month is used.
func (s *Service) loadMonth(ctx context.Context, account, name string) error {
	u := s.usage
	u.mu.Lock()
	m := u.monthly[account]
	if m != nil && m.name == name && m.loaded {
		u.mu.Unlock()
		return nil
	}
	u.mu.Unlock()
	evs, err := s.store.Load(ctx, usageStream(account, name), eventstore.LoadOptions{})
	if err != nil {
		return fmt.Errorf("load usage: %w", err)
	}
	total := 0
	for _, e := range evs {
		if r, ok := e.Event.(*captable.UsageRecorded); ok {
			total += r.Calls
		}
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if m = u.monthly[account]; m == nil || m.name != name || !m.loaded {
		pending := 0
		if m != nil && m.name == name {
			pending = m.pending
		}
		u.monthly[account] = &month{name: name, recorded: total, pending: pending, loaded: true}
	}
	return nil
}

// FlushUsage records every account's pending calls as events.
func (s *Service) FlushUsage(ctx context.Context) error {
	u := s.usage
	u.mu.Lock()
	type item struct {
		account string
		m       string
		calls   int
	}
	var todo []item
	for acct, m := range u.monthly {
		if m.pending > 0 {
			todo = append(todo, item{acct, m.name, m.pending})
			m.recorded += m.pending
			m.pending = 0
		}
	}
	u.mu.Unlock()
	now := s.clock.Now()
	for _, it := range todo {
		_, err := s.store.Append(ctx, eventstore.Stream{Type: "captable.usage", ID: usageStream(it.account, it.m)}, eventstore.AnyVersion,
			&captable.UsageRecorded{AccountID: it.account, Month: it.m, Calls: it.calls, At: now})
		if err != nil {
			return fmt.Errorf("record usage of %s: %w", it.account, err)
		}
	}
	return nil
}

// Run records usage every 10 seconds until ctx ends, then once more, and
// records lapsed awards' expiry at start and then hourly.
func (s *Service) Run(ctx context.Context) {
	tick := time.NewTicker(10 * time.Second)
	defer tick.Stop()
	hourly := time.NewTicker(time.Hour)
	defer hourly.Stop()
	expire := func() {
		if _, err := s.ExpireDue(ctx); err != nil && ctx.Err() == nil {
			s.log.Error("captable expiry sweep", "err", err)
		}
	}
	expire()
	for {
		select {
		case <-ctx.Done():
			if err := s.FlushUsage(context.WithoutCancel(ctx)); err != nil {
				s.log.Error("captable usage flush", "err", err)
			}
			return
		case <-hourly.C:
			expire()
		case <-tick.C:
			if err := s.FlushUsage(ctx); err != nil {
				s.log.Error("captable usage flush", "err", err)
			}
		}
	}
}
