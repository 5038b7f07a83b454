// Package memorytest mounts the memory service on a test platform API
// (identitytest.Env): a fixed key ring, the memory.v1 projector running
// live, the command service waiting for it (read your writes), and the
// REST routes. Tests of the memory packages share it.
package memorytest

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	cmd "github.com/strata-platform/strata/commands/memory"
	"github.com/strata-platform/strata/domain/memory"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/shred"
	"github.com/strata-platform/strata/projections"
	projmemory "github.com/strata-platform/strata/projections/memory"
	"github.com/strata-platform/strata/readapi/identity/identitytest"
	readmemory "github.com/strata-platform/strata/readapi/memory"
)

// Keys returns a key ring with a fixed wrapping key.
func Keys(t testing.TB) *shred.KeyRing {
	t.Helper()
	keys, err := shred.New(bytes.Repeat([]byte{9}, 32), 0)
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// Mount runs the memory projector over e's store until the test ends and
// adds the memory routes to e's router; it returns the API (its Service()
// is the command service).
func Mount(t testing.TB, e *identitytest.Env, keys *shred.KeyRing) *readmemory.API {
	t.Helper()
	return MountWith(t, e, keys, readmemory.Config{})
}

// MountWith is Mount with the optional parts of extra (Embedder, Writer);
// its other fields are ignored.
func MountWith(t testing.TB, e *identitytest.Env, keys *shred.KeyRing, extra readmemory.Config) *readmemory.API {
	t.Helper()
	return MountTuned(t, e, keys, extra, nil)
}

// MountTuned is MountWith with the command service's configuration passed
// through tune (a model Extractor, its timeout) before the service starts.
func MountTuned(t testing.TB, e *identitytest.Env, keys *shred.KeyRing, extra readmemory.Config,
	tune func(*cmd.Config)) *readmemory.API {
	t.Helper()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	runner, err := projections.NewRunner(e.DB, e.Reg, projections.NewSignal(), logger,
		projections.Config{PollInterval: 5 * time.Millisecond}, projmemory.Projector{Keys: keys})
	if err != nil {
		t.Fatal(err)
	}
	e.Store.SetGuard(runner.Guard().Check) // as strata serve does: a parked stream refuses commands
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); runner.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	wait := func(ctx context.Context, key eventstore.Key) error {
		wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		return runner.WaitFor(wctx, key, projmemory.Name)
	}
	cfg := cmd.Config{Wait: wait, Vocabulary: memory.NewVocabulary()}
	if tune != nil {
		tune(&cfg)
	}
	svc := cmd.New(e.Store, keys, e.Clock, logger, cfg)
	return readmemory.Routes(e.Router, readmemory.Config{Service: svc, DB: e.DB, Auth: e.Auth, Embedder: extra.Embedder,
		Writer: extra.Writer})
}
