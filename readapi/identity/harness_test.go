package identity_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	cmd "github.com/strata-platform/strata/commands/identity"
	"github.com/strata-platform/strata/commands/mail"
	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/projections/accounts"
	"github.com/strata-platform/strata/readapi"
	"github.com/strata-platform/strata/readapi/auth"
	"github.com/strata-platform/strata/readapi/identity"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// cheapArgon2 keeps tests fast; production uses cmd.DefaultArgon2Params().
var cheapArgon2 = cmd.Argon2Params{MemoryKiB: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}

type readiness struct{}

func (readiness) Readiness(context.Context) readapi.Readiness { return readapi.Readiness{} }

// env is a platform API surface with the identity routes on a fresh
// database, a pinned clock and a dev mailbox.
type env struct {
	t       testing.TB
	url     string
	svc     *cmd.Service
	clock   *kernel.FixedClock
	mailbox *mail.Mailbox
	store   *eventstore.Store
	auth    *identity.Authenticator
}

func newEnv(t testing.TB) *env { return newEnvWith(t, identity.Options{}) }

func newEnvWith(t testing.TB, opts identity.Options) *env {
	t.Helper()
	db := pgtest.DB(t)
	reg := eventstore.NewRegistry()
	for _, c := range ident.Events() {
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
	box := mail.NewMailbox(filepath.Join(t.TempDir(), "mail"), logger)
	dir := accounts.New(db.SQL, reg, logger)
	svc := cmd.NewService(store, dir, master, box, clock, logger, cmd.Config{Issuer: "http://strata.test",
		ResetURL: "http://strata.test/reset-password", Argon2: cheapArgon2})
	ctx, cancel := context.WithCancel(context.Background())
	if err := svc.Start(ctx, master); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); svc.Run(ctx) }()
	surface, err := readapi.NewSurface("api", readapi.Deps{Logger: logger, Registry: prometheus.NewRegistry(),
		Health: readiness{}, MaxBodyBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	a := identity.NewAuthenticator(svc)
	identity.Routes(surface.Router, svc, a, opts)
	surface.Router.Handle("/test/whoami", auth.Require(a, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, _ := auth.From(r.Context())
		_ = json.NewEncoder(w).Encode(map[string]string{"user_id": p.UserID, "method": p.Method, "org": p.OrganizationID})
	})))
	srv := httptest.NewServer(surface.Handler)
	t.Cleanup(func() { srv.Close(); cancel(); <-done })
	return &env{t: t, url: srv.URL, svc: svc, clock: clock, mailbox: box, store: store, auth: a}
}

// call sends a JSON request (body nil: none) with optional headers
// ("Authorization", "Bearer x", ...) and decodes a JSON answer into a map.
func (e *env) call(method, path string, body any, headers ...string) (int, map[string]any, http.Header) {
	e.t.Helper()
	var rd io.Reader
	if body != nil {
		if s, ok := body.(string); ok {
			rd = bytes.NewBufferString(s)
		} else {
			b, _ := json.Marshal(body)
			rd = bytes.NewReader(b)
		}
	}
	req, err := http.NewRequest(method, e.url+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	out := map[string]any{}
	if len(raw) > 0 && raw[0] == '{' {
		if err := json.Unmarshal(raw, &out); err != nil {
			e.t.Fatalf("%s %s: bad JSON %q", method, path, raw)
		}
	} else if len(raw) > 0 && raw[0] == '[' {
		var list []any
		_ = json.Unmarshal(raw, &list)
		out["list"] = list
	}
	return resp.StatusCode, out, resp.Header
}

func bearerH(tok string) []string { return []string{"Authorization", "Bearer " + tok} }

const goodPassword = "Corr3ct-horse"

// register creates an account and returns its id and access token.
func (e *env) register(email string) (string, string) {
	e.t.Helper()
	st, body, _ := e.call("POST", "/api/v1/auth/register", map[string]any{"email": email, "password": goodPassword, "full_name": "Test User"})
	if st != http.StatusCreated {
		e.t.Fatalf("register %s: %d %v", email, st, body)
	}
	return body["id"].(string), body["access_token"].(string)
}

// newKey creates an API key for the token's user and returns the secret and id.
func (e *env) newKey(tok string, body map[string]any) (string, string) {
	e.t.Helper()
	st, out, _ := e.call("POST", "/api/v1/api-keys", body, bearerH(tok)...)
	if st != http.StatusCreated {
		e.t.Fatalf("create key: %d %v", st, out)
	}
	return out["api_key"].(string), out["id"].(string)
}

// status returns the HTTP status of GET /test/whoami with headers.
func (e *env) whoami(headers ...string) int {
	e.t.Helper()
	st, _, _ := e.call("GET", "/test/whoami", nil, headers...)
	return st
}
