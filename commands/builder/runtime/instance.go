package runtime

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"time"
)

// outputLinger bounds how long the output of a process group is read after
// the group was killed (a grandchild that left the group may hold the pipe).
const outputLinger = time.Second

// killWait bounds how long Stop waits for a process after SIGKILL.
const killWait = 5 * time.Second

// ProcessInstance is one app process started by Process. The app's process
// leads a process group of its own, and the group goes with it: signals go
// to the whole group, and whatever is left of the group when the app's
// process exits is killed, as a container's processes end with its first.
type ProcessInstance struct {
	cmd    *exec.Cmd
	addr   string
	ring   *RingLog
	grace  time.Duration
	log    *slog.Logger
	output *os.File      // read end of the stdout+stderr pipe
	exited chan struct{} // closed after the group is gone and its output read
	copied chan struct{} // closed when the output copy ends
}

// Addr returns 127.0.0.1:port, where the app was told to listen.
func (in *ProcessInstance) Addr() string { return in.addr }

// PID returns the app's process id, which is also its process group id.
func (in *ProcessInstance) PID() int { return in.cmd.Process.Pid }

// LogTail returns the last n lines of the app's stdout and stderr.
func (in *ProcessInstance) LogTail(n int) string { return in.ring.Tail(n) }

// Exited is closed once the app's process has exited, the rest of its group
// has been killed and its output has been read.
func (in *ProcessInstance) Exited() <-chan struct{} { return in.exited }

// wait reaps the app's process, kills what is left of its group, finishes
// reading its output and notes the exit status in the log.
func (in *ProcessInstance) wait() {
	err := in.cmd.Wait()
	_ = killGroup(in.cmd.Process.Pid)
	select {
	case <-in.copied:
	case <-time.After(outputLinger):
		in.output.Close()
		<-in.copied
	}
	status := "exit status 0"
	if err != nil {
		status = err.Error()
	}
	in.ring.Line("[runtime] exited: " + status)
	in.log.Info("app exited", "status", status)
	close(in.exited)
}

// Stop sends SIGTERM to the app's process group, waits up to the grace
// period (less if ctx ends first) and then sends SIGKILL. It returns nil
// once the app's process has exited and the rest of its group is killed,
// and nil at once if it had already exited.
func (in *ProcessInstance) Stop(ctx context.Context) error {
	select {
	case <-in.exited:
		return nil
	default:
	}
	pgid := in.cmd.Process.Pid
	in.ring.Line("[runtime] stopping: SIGTERM")
	if err := terminateGroup(pgid); err != nil {
		return fmt.Errorf("runtime: stop pid %d: %w", pgid, err)
	}
	grace := time.NewTimer(in.grace)
	defer grace.Stop()
	select {
	case <-in.exited:
		in.log.Info("app stopped")
		return nil
	case <-grace.C:
	case <-ctx.Done():
	}
	in.ring.Line("[runtime] still running: SIGKILL")
	if err := killGroup(pgid); err != nil {
		return fmt.Errorf("runtime: kill pid %d: %w", pgid, err)
	}
	select {
	case <-in.exited:
		in.log.Warn("app killed after the grace period")
		return nil
	case <-time.After(killWait):
		return fmt.Errorf("runtime: pid %d still running %s after SIGKILL", pgid, killWait)
	}
}
