// Command strata runs the Strata platform backend and its operator commands:
// serve, migrate, projections status|rebuild, events export and bench.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], environ(), os.Stdout, os.Stderr, productionWiring)
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
