//go:build unix

package main

import "syscall"

// syscallZero is signal 0: it checks that a process exists without touching it.
var syscallZero = syscall.Signal(0)
