// Package identitytest starts the identity context for tests: a fresh
// database, the identity service with a pinned clock, a dev mailbox and
// cheap argon2 parameters, and a platform API surface serving its routes
// on a loopback listener.
package identitytest

import (
	"bytes"
	"context"
	stdsql "database/sql"
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/gorilla/mux"
	"github.com/prometheus/client_golang/prometheus"

	cmd "github.com/strata-platform/strata/commands/identity"
	"github.com/strata-platform/strata/commands/mail"
	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/projections/accounts"
	"github.com/strata-platform/strata/readapi"
	"github.com/strata-platform/strata/readapi/identity"
)

// CheapArgon2 keeps tests fast; production uses cmd.DefaultArgon2Params().
var CheapArgon2 = cmd.Argon2Params{MemoryKiB: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}

type readiness struct{}

func (readiness) Readiness(context.Context) readapi.Readiness { return readapi.Readiness{} }

// Env is a running platform API surface with the identity routes.
type Env struct {
	URL     string
	Svc     *cmd.Service
	Clock   *kernel.FixedClock
	Mailbox *mail.Mailbox
	Store   *eventstore.Store
	Auth    *identity.Authenticator
	Router  *mux.Router
	DB      *stdsql.DB
	Reg     *eventstore.Registry
	Master  *cmd.MasterKey
}

// Start starts the identity context on a fresh database (pgtest.Main must
// run the package's tests). routes adds more routes before the server
// starts; the issuer is the server's own URL, so tokens and discovery
// documents name an address clients can reach.
func Start(t testing.TB, opts identity.Options, routes ...func(e *Env)) *Env {
	t.Helper()
	return StartWithEvents(t, opts, nil, routes...)
}

// StartWithEvents is Start with more event types registered (another
// context's, for tests that run it next to identity).
func StartWithEvents(t testing.TB, opts identity.Options, events []func() kernel.Event, routes ...func(e *Env)) *Env {
	t.Helper()
	db := pgtest.DB(t)
	reg := eventstore.NewRegistry()
	for _, c := range append(ident.Events(), events...) {
		if err := reg.Register(eventstore.EventDef{Name: c().EventType(), Version: 1, New: c}); err != nil {
			t.Fatal(err)
		}
	}
	if err := reg.Seal(); err != nil {
		t.Fatal(err)
	}
	clock := kernel.NewFixedClock(time.Now().UTC().Truncate(time.Second))
	store := eventstore.New(db.SQL, reg, clock, eventstore.NewULIDs(clock))
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	master, err := cmd.NewMasterKey(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	surface, err := readapi.NewSurface("api", readapi.Deps{Logger: logger, Registry: prometheus.NewRegistry(),
		Health: readiness{}, MaxBodyBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(surface.Handler)
	srv.Start()
	box := mail.NewMailbox(filepath.Join(t.TempDir(), "mail"), logger)
	dir := accounts.New(db.SQL, reg, logger)
	svc := cmd.NewService(store, dir, master, box, clock, logger, cmd.Config{Issuer: srv.URL,
		ResetURL: srv.URL + "/reset-password", Argon2: CheapArgon2})
	ctx, cancel := context.WithCancel(context.Background())
	if err := svc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); svc.Run(ctx) }()
	t.Cleanup(func() { srv.Close(); cancel(); <-done })
	e := &Env{URL: srv.URL, Svc: svc, Clock: clock, Mailbox: box, Store: store, Auth: identity.NewAuthenticator(svc),
		Router: surface.Router, DB: db.SQL, Reg: reg, Master: master}
	identity.Routes(surface.Router, svc, e.Auth, opts)
	for _, add := range routes {
		add(e)
	}
	return e
}
