package identity_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	cmd "github.com/strata-platform/strata/commands/identity"
	"github.com/strata-platform/strata/commands/mail"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/readapi/auth"
	"github.com/strata-platform/strata/readapi/identity"
	"github.com/strata-platform/strata/readapi/identity/identitytest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

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
	ie := identitytest.Start(t, opts, func(ie *identitytest.Env) {
		ie.Router.Handle("/test/whoami", auth.Require(ie.Auth, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			p, _ := auth.From(r.Context())
			_ = json.NewEncoder(w).Encode(map[string]string{"user_id": p.UserID, "method": p.Method, "org": p.OrganizationID})
		})))
	})
	return &env{t: t, url: ie.URL, svc: ie.Svc, clock: ie.Clock, mailbox: ie.Mailbox, store: ie.Store, auth: ie.Auth}
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
