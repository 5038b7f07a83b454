//go:build !unix

package runtime

import (
	"errors"
	"os/exec"
)

// processGroups: NewProcess refuses to run apps where there are no process
// groups to stop an app's children with it.
const processGroups = false

func setProcessGroup(*exec.Cmd) {}
func terminateGroup(int) error  { return errors.ErrUnsupported }
func killGroup(int) error       { return errors.ErrUnsupported }
