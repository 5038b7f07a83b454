// Command strata runs the Strata platform backend and its operator commands:
// serve, migrate, projections status|rebuild, events export and bench.
package main

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
)

// defaultGCPercent is the garbage collector's target when GOGC is not set.
// Go's default (100) runs a collection each time the heap doubles over a
// small live heap; a projector's catch-up batch, which allocates about 1 KB
// per event through database/sql, then meets a collection every few dozen
// batches and its p99 doubles (docs/architecture.md, "Garbage collector").
// GOGC and GOMEMLIMIT, when set, win.
const defaultGCPercent = 400

func main() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(defaultGCPercent)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	ctx, stopWatch := exitWithGoRun(ctx, newLogger(os.Stderr, slog.LevelWarn))
	code := run(ctx, os.Args[1:], environ(), os.Stdout, os.Stderr, productionWiring)
	stopWatch()
	stop()
	os.Exit(code)
}

func environ() map[string]string {
	env := map[string]string{}
	for _, kv := range os.Environ() {
		for i := 0; i < len(kv); i++ {
			if kv[i] == '=' {
				env[kv[:i]] = kv[i+1:]
				break
			}
		}
	}
	return env
}
