//go:build unix

package proc

import (
	"errors"
	"os/exec"
	"syscall"
)

// ownGroup makes cmd the leader of a new process group and has a cancelled
// context kill the whole group, so nothing the tool started outlives it.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		if errors.Is(err, syscall.ESRCH) {
			return nil
		}
		return err
	}
}
