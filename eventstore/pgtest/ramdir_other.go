//go:build !linux

package pgtest

// ramDir returns "": only Linux is known to offer /dev/shm as a memory file
// system; elsewhere the private cluster lives in the temporary directory.
func ramDir() string { return "" }
