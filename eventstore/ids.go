package eventstore

import (
	"crypto/rand"
	"fmt"
	"sync"

	"github.com/google/uuid"
	"github.com/oklog/ulid/v2"
	"github.com/strata-platform/strata/domain/kernel"
)

// ULIDs mints monotonic ULIDs (github.com/oklog/ulid/v2) timed by a kernel
// clock: identifiers minted in the same millisecond still sort in mint order.
type ULIDs struct {
	mu      sync.Mutex
	clock   kernel.Clock
	entropy *ulid.MonotonicEntropy
}

// NewULIDs returns a ULID source reading time from clock.
func NewULIDs(clock kernel.Clock) *ULIDs {
	return &ULIDs{clock: clock, entropy: ulid.Monotonic(rand.Reader, 0)}
}

// NewID returns a new ULID string.
func (u *ULIDs) NewID() string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return ulid.MustNew(ulid.Timestamp(u.clock.Now()), u.entropy).String()
}

// uuidString renders a ULID's 16 bytes in the uuid text form PostgreSQL takes.
func uuidString(id ulid.ULID) string { return uuid.UUID(id).String() }

// parseUUIDAsULID reads a uuid column back as a ULID string.
func parseUUIDAsULID(s string) (string, error) {
	u, err := uuid.Parse(s)
	if err != nil {
		return "", fmt.Errorf("event id %q: %w", s, err)
	}
	return ulid.ULID(u).String(), nil
}
