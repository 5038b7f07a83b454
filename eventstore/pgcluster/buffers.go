package pgcluster

import (
	"fmt"
	"regexp"
)

// Bounds of AutoSharedBuffers, in MiB.
const (
	minSharedBuffersMB = 128  // PostgreSQL's own default
	maxSharedBuffersMB = 1024 // leaves the page cache most of a small machine
)

// AutoSharedBuffers is the shared_buffers an embedded cluster gets by
// default: an eighth of the machine's memory, at least PostgreSQL's default
// 128MB and at most 1GB. PostgreSQL's 128MB suits a machine it shares with
// much else; Strata's cluster is its only database, and read models of a
// million rows (the community benchmark's RSVPs) no longer fit in 128MB:
// there the paced RSVP p95 went from 43 ms to 14 ms with 1GB. "" when the
// memory is unknown (PostgreSQL's default then applies).
func AutoSharedBuffers() string {
	mem := physicalMemory()
	if mem == 0 {
		return ""
	}
	mb := min(max(mem/8/(1<<20), minSharedBuffersMB), maxSharedBuffersMB)
	return fmt.Sprintf("%dMB", mb)
}

// sizeSetting is a PostgreSQL memory size: a number with a unit.
var sizeSetting = regexp.MustCompile(`^[1-9][0-9]*(kB|MB|GB|TB)$`)

// CheckSize reports whether v is a PostgreSQL memory size such as 512MB.
func CheckSize(v string) error {
	if !sizeSetting.MatchString(v) {
		return fmt.Errorf("want a size such as 512MB or 2GB (units kB, MB, GB, TB), got %q", v)
	}
	return nil
}
