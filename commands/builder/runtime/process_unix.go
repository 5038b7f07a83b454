//go:build unix

package runtime

import (
	"errors"
	"os/exec"
	"syscall"
)

// processGroups: this system can run apps in process groups of their own.
const processGroups = true

// setProcessGroup makes cmd the leader of a new process group.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// terminateGroup sends SIGTERM to the process group pgid; a group that is
// gone already is not an error.
func terminateGroup(pgid int) error { return signalGroup(pgid, syscall.SIGTERM) }

// killGroup sends SIGKILL to the process group pgid; a group that is gone
// already is not an error.
func killGroup(pgid int) error { return signalGroup(pgid, syscall.SIGKILL) }

func signalGroup(pgid int, sig syscall.Signal) error {
	if err := syscall.Kill(-pgid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}
