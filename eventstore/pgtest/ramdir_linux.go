//go:build linux

package pgtest

import "syscall"

// minRAMDirFree is the free space /dev/shm needs to hold a private cluster
// (about 40 MB, plus 7 MB per open test database and some WAL).
const minRAMDirFree = 1 << 30

// ramDir returns /dev/shm when it is a memory file system with room for a
// private cluster, else "". Creating and dropping databases costs mostly
// file creation and removal, which is over ten times faster there than on a
// disk file system (measured: ~10 ms instead of ~150 ms per clone).
// Containers often mount a 64 MB /dev/shm; then the disk is used.
func ramDir() string {
	var st syscall.Statfs_t
	if err := syscall.Statfs("/dev/shm", &st); err != nil {
		return ""
	}
	if uint64(st.Bavail)*uint64(st.Bsize) < minRAMDirFree {
		return ""
	}
	return "/dev/shm"
}
