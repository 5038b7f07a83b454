//go:build unix

package runtime

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// needNode skips the test when there is no node binary to run the fixtures.
func needNode(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not in PATH: the runtime tests run the Node.js fixture apps in testdata/ (Node 20)")
	}
}

// app returns a fixture app of the company at version, with APP_VERSION set.
func app(t *testing.T, company, version, fixture string, extra ...string) App {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", fixture))
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"APP_VERSION": version}
	for i := 0; i+1 < len(extra); i += 2 {
		env[extra[i]] = extra[i+1]
	}
	return App{CompanyID: company, Version: version, Dir: dir, Env: env}
}

// pidGone reports whether a process is gone: no such process, or a zombie
// (dead, waiting to be reaped by a parent that may never do it).
func pidGone(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err == nil {
		if i := bytes.LastIndexByte(stat, ')'); i > 0 && i+2 < len(stat) {
			return stat[i+2] == 'Z' || stat[i+2] == 'X'
		}
	}
	if errors.Is(err, os.ErrNotExist) {
		return true
	}
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

// eventually waits up to limit for cond, polling.
func eventually(t *testing.T, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	end := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(end) {
			t.Fatalf("after %s: %s", limit, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
