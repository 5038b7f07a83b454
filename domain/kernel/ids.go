package kernel

import (
	"sync"
	"time"
)

// IDs produces identifiers. Commands receive one so tests can pin the values
// they produce.
type IDs interface {
	// NewID returns a new unique, lexicographically time-ordered identifier
	// (in production a ULID in its 26-character Crockford base32 form; the
	// implementation lives with the infrastructure, in eventstore).
	NewID() string
}

// FixedIDs returns identifiers from a list, in order, for tests. It panics
// when the list runs out, which makes a test that mints more IDs than it
// expected fail loudly.
func FixedIDs(ids ...string) IDs { return &fixedIDs{ids: ids} }

type fixedIDs struct {
	mu  sync.Mutex
	ids []string
}

func (f *fixedIDs) NewID() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.ids) == 0 {
		panic("kernel: FixedIDs exhausted")
	}
	id := f.ids[0]
	f.ids = f.ids[1:]
	return id
}

// Clock tells the time. Commands receive one so tests can pin it.
type Clock interface {
	Now() time.Time
}

// SystemClock is the wall clock, in UTC.
type SystemClock struct{}

// Now returns the current time in UTC.
func (SystemClock) Now() time.Time { return time.Now().UTC() }

// FixedClock always returns the same instant; Advance moves it.
type FixedClock struct {
	mu sync.Mutex
	t  time.Time
}

// NewFixedClock returns a clock pinned at t.
func NewFixedClock(t time.Time) *FixedClock { return &FixedClock{t: t} }

// Now returns the pinned instant.
func (c *FixedClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the pinned instant forward by d.
func (c *FixedClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}
