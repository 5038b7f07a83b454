package kernel

import (
	"sync"
	"time"
)

// OffsetClock is the wall clock moved by an offset: it flows like real
// time, and Advance jumps it ahead (a test that must see "24 hours later"
// while timers, leases and polls keep running in real time).
type OffsetClock struct {
	mu     sync.Mutex
	offset time.Duration
}

// NewOffsetClock returns a clock reading the wall clock plus offset.
func NewOffsetClock(offset time.Duration) *OffsetClock { return &OffsetClock{offset: offset} }

// Now returns the wall clock plus the offset, in UTC.
func (c *OffsetClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.offset).UTC()
}

// Advance moves the clock forward by d.
func (c *OffsetClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.offset += d
	c.mu.Unlock()
}
