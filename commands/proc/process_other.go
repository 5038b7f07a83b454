//go:build !unix

package proc

import "os/exec"

// ownGroup leaves cmd as it is where there are no process groups: a
// cancelled context kills the process alone (exec.CommandContext's default).
func ownGroup(*exec.Cmd) {}
