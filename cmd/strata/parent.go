package main

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// parentPoll is how often a binary started by `go run` checks its parent.
const parentPoll = 500 * time.Millisecond

// builtByGoRun reports whether this binary is a `go run` build: go run links
// it into a go-build* scratch directory and runs it as its child.
func builtByGoRun() bool {
	exe, err := os.Executable()
	if err != nil {
		return false
	}
	for dir := filepath.Dir(exe); dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		if strings.HasPrefix(filepath.Base(dir), "go-build") {
			return true
		}
	}
	return false
}

// exitWithGoRun returns a context that also ends when the `go run` process
// that started this one is gone. `go run` does not pass SIGTERM on to its
// child: it dies of it, and the child is handed to another parent (init or a
// subreaper), which is what the poll of os.Getppid sees. The context then
// ends as on SIGTERM: serve drains and stops the embedded cluster it started.
// Binaries not built by `go run` are left alone, so that `nohup strata
// serve &` outlives its shell. (PR_SET_PDEATHSIG is not used: it fires when
// the parent's thread that forked exits, which in a Go parent happens while
// the parent lives.)
func exitWithGoRun(ctx context.Context, logger *slog.Logger) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	if !builtByGoRun() {
		return ctx, cancel
	}
	parent := os.Getppid()
	go func() {
		t := time.NewTicker(parentPoll)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			if os.Getppid() != parent {
				logger.Warn("the go run process that started strata is gone (terminated?): shutting down as on SIGTERM", "go_run_pid", parent)
				cancel()
				return
			}
		}
	}()
	return ctx, cancel
}
