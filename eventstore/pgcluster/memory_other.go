//go:build !linux

package pgcluster

// physicalMemory returns 0: unknown on this platform (AutoSharedBuffers
// then keeps PostgreSQL's default).
func physicalMemory() uint64 { return 0 }
