//go:build unix

package pgcluster

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
)

// account is the operating-system user PostgreSQL programs run as. A nil
// *account means "the current user" (the process is not root).
type account struct {
	name   string
	uid    int
	gid    int
	groups []int
}

// lookupAccount picks the account for the cluster in pgDir: nil when the
// process is not root; otherwise the owner of an existing, non-root-owned
// pgDir, or else the `postgres` system user.
func lookupAccount(pgDir string) (*account, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	var u *user.User
	var err error
	if st, statErr := os.Stat(pgDir); statErr == nil && st.Sys().(*syscall.Stat_t).Uid != 0 {
		uid := st.Sys().(*syscall.Stat_t).Uid
		if u, err = user.LookupId(strconv.Itoa(int(uid))); err != nil {
			return nil, fmt.Errorf("owner (uid %d) of %s: %w", uid, pgDir, err)
		}
	} else if u, err = user.Lookup("postgres"); err != nil {
		return nil, fmt.Errorf("running as root, but PostgreSQL refuses to run as root and there is no `postgres` system user to run it as (%w): run strata as a regular user, or create that user", err)
	}
	a := &account{name: u.Username}
	if a.uid, err = strconv.Atoi(u.Uid); err != nil {
		return nil, fmt.Errorf("uid of %s: %w", u.Username, err)
	}
	if a.gid, err = strconv.Atoi(u.Gid); err != nil {
		return nil, fmt.Errorf("gid of %s: %w", u.Username, err)
	}
	a.groups = []int{a.gid}
	if ids, err := u.GroupIds(); err == nil {
		for _, id := range ids {
			if g, err := strconv.Atoi(id); err == nil && !slices.Contains(a.groups, g) {
				a.groups = append(a.groups, g)
			}
		}
	}
	return a, nil
}

// apply makes cmd run as the account.
func (a *account) apply(cmd *exec.Cmd) {
	if a == nil {
		return
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	groups := make([]uint32, len(a.groups))
	for i, g := range a.groups {
		groups[i] = uint32(g)
	}
	cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(a.uid), Gid: uint32(a.gid), Groups: groups}
}

// chown gives path to the account.
func (a *account) chown(path string) error {
	if a == nil {
		return nil
	}
	if err := os.Chown(path, a.uid, a.gid); err != nil {
		return fmt.Errorf("chown %s to %s: %w", path, a.name, err)
	}
	return nil
}

// checkTraversable returns a clear error when the account cannot search
// (x permission) dir or one of its parents, which would otherwise surface as
// a cryptic initdb or pg_ctl failure. ACLs are not considered.
func (a *account) checkTraversable(dir string) error {
	if a == nil {
		return nil
	}
	for p := dir; ; p = filepath.Dir(p) {
		st, err := os.Stat(p)
		if err != nil {
			return fmt.Errorf("stat %s: %w", p, err)
		}
		sys := st.Sys().(*syscall.Stat_t)
		perm := st.Mode().Perm()
		var ok bool
		switch {
		case int(sys.Uid) == a.uid:
			ok = perm&0o100 != 0
		case slices.Contains(a.groups, int(sys.Gid)):
			ok = perm&0o010 != 0
		default:
			ok = perm&0o001 != 0
		}
		if !ok {
			return fmt.Errorf("PostgreSQL runs as user %q (it refuses to run as root), who cannot reach %s: directory %s (mode %v) is not searchable by that user; "+
				"run `chmod o+x %s` or choose a data directory elsewhere", a.name, dir, p, perm, p)
		}
		if p == filepath.Dir(p) {
			return nil
		}
	}
}

// processAlive reports whether a process with this pid exists (including one
// of another user, which we may not signal).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// watchdog is a shell, in its own process group (a terminal's Ctrl-C does not
// reach it), that blocks reading its stdin, a pipe whose only writer is this
// process. When this process exits, however it exits, the kernel closes the
// pipe, the read returns, and the shell stops the server with
// `pg_ctl stop -m immediate`.
type watchdog struct {
	cmd *exec.Cmd
	wfd int // write end of the pipe; a raw fd, so no finalizer can close it
}

func startWatchdog(c *Cluster) (*watchdog, error) {
	var fds [2]int
	syscall.ForkLock.RLock() // no child may inherit the fds before CloseOnExec
	err := syscall.Pipe(fds[:])
	if err == nil {
		syscall.CloseOnExec(fds[0])
		syscall.CloseOnExec(fds[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, fmt.Errorf("watchdog pipe: %w", err)
	}
	r := os.NewFile(uintptr(fds[0]), "watchdog-pipe")
	defer r.Close()
	script := `read -r _; "$0" stop -m immediate -w -D "$1"`
	cmd := exec.Command("/bin/sh", "-c", script, filepath.Join(c.binDir, "pg_ctl"), c.pgDir)
	cmd.Dir = filepath.Dir(c.pgDir)
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.acct.apply(cmd)
	if err := cmd.Start(); err != nil {
		syscall.Close(fds[1])
		return nil, fmt.Errorf("start watchdog: %w", err)
	}
	return &watchdog{cmd: cmd, wfd: fds[1]}, nil
}

// disarm kills the watchdog without letting it stop the server. It is safe
// to call on a nil or already disarmed watchdog.
func (w *watchdog) disarm() {
	if w == nil || w.cmd == nil {
		return
	}
	_ = w.cmd.Process.Kill()
	_ = w.cmd.Wait()
	syscall.Close(w.wfd)
	w.cmd = nil
}
