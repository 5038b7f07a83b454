package captable_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/strata-platform/strata/commands/blobs"
	cmd "github.com/strata-platform/strata/commands/captable"
	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/projections"
	projcaptable "github.com/strata-platform/strata/projections/captable"
	"github.com/strata-platform/strata/readapi"
	readcaptable "github.com/strata-platform/strata/readapi/captable"
	"github.com/strata-platform/strata/readapi/identity"
	"github.com/strata-platform/strata/readapi/identity/identitytest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// uploadLimit is the tests' document size limit (2 MiB, above the
// surface's 1 MiB body limit, to show the upload route's own limit).
const uploadLimit = 2 << 20

type readiness struct{}

func (readiness) Readiness(context.Context) readapi.Readiness { return readapi.Readiness{} }

// world is a platform API (identity) and a cap table surface on one store.
type world struct {
	t        *testing.T
	platform *identitytest.Env
	url      string // cap table base URL, with /api/v1
	svc      *cmd.Service
}

func start(t *testing.T) *world {
	t.Helper()
	api := identitytest.StartWithEvents(t, identity.Options{}, append(captable.CompanyEvents(), captable.AccountEvents()...))
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx, cancel := context.WithCancel(context.Background())
	runner, err := projections.NewRunner(api.DB, api.Reg, projections.NewSignal(), logger,
		projections.Config{PollInterval: 5 * time.Millisecond}, projcaptable.Projector{})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); runner.Run(ctx) }()
	surface, err := readapi.NewSurface("captable", readapi.Deps{Logger: logger, Registry: prometheus.NewRegistry(),
		Health: readiness{}, MaxBodyBytes: 1 << 20, BodyLimitFor: readcaptable.BodyLimit(uploadLimit)})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(surface.Handler)
	t.Cleanup(func() { srv.Close(); cancel(); <-done })
	wait := func(ctx context.Context, key eventstore.Key) error {
		wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		return runner.WaitFor(wctx, key, projcaptable.Name)
	}
	svc := cmd.New(api.Store, api.Clock, eventstore.NewULIDs(api.Clock), logger, cmd.Config{
		TokenKey: bytes.Repeat([]byte{5}, 32), Wait: wait, Argon2: identitytest.CheapArgon2,
		PlatformTokens: platformTokens{api.Auth},
		Blobs:          blobs.NewLocal(t.TempDir()), MaxUploadBytes: uploadLimit})
	readcaptable.Routes(surface.Router, svc, api.DB)
	return &world{t: t, platform: api, url: srv.URL + "/api/v1", svc: svc}
}

// platformTokens wires platform sign-in to the platform's authenticator,
// as cmd/strata does.
type platformTokens struct{ auth *identity.Authenticator }

func (p platformTokens) VerifyPlatformToken(ctx context.Context, token string) (cmd.PlatformUser, error) {
	h, err := p.auth.VerifyToken(ctx, token)
	if err != nil {
		return cmd.PlatformUser{}, err
	}
	return cmd.PlatformUser{ID: h.UserID, Email: h.Email, EmailVerified: h.EmailVerified, Name: h.FullName}, nil
}

// client is a caller of the cap table with a bearer token.
type client struct {
	w       *world
	token   string
	company string
}

type reply struct {
	status int
	header http.Header
	body   map[string]any
	raw    []byte
}

func (c *client) do(method, path string, body any) reply {
	c.w.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			c.w.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.w.url+path, rd)
	if err != nil {
		c.w.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return c.send(req)
}

// send sends a request with the client's credentials.
func (c *client) send(req *http.Request) reply {
	c.w.t.Helper()
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if c.company != "" {
		req.Header.Set("X-Company-ID", c.company)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.w.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	out := reply{status: res.StatusCode, header: res.Header, raw: raw}
	_ = json.Unmarshal(raw, &out.body)
	return out
}

// must asserts the status and returns the reply.
func (c *client) must(status int, method, path string, body any) reply {
	c.w.t.Helper()
	r := c.do(method, path, body)
	if r.status != status {
		c.w.t.Fatalf("%s %s: status %d, want %d: %s", method, path, r.status, status, r.raw)
	}
	return r
}

// register opens an account on the Enterprise plan (the Free plan's
// 10 calls a minute would throttle a test) and returns its client.
func (w *world) register(name, email, company string) *client {
	w.t.Helper()
	anon := &client{w: w}
	r := anon.must(http.StatusCreated, "POST", "/auth/register", map[string]any{"name": name, "email": email,
		"password": "correct-horse-9", "companyName": company})
	if err := w.svc.SetPlan(context.Background(), email, captable.PlanEnterprise); err != nil {
		w.t.Fatal(err)
	}
	return &client{w: w, token: r.body["accessToken"].(string)}
}

func str(v any) string { s, _ := v.(string); return s }

func field(t *testing.T, r reply, status int, code, fieldName string) {
	t.Helper()
	if r.status != status || str(r.body["error"]) != code || str(r.body["field"]) != fieldName ||
		r.body["statusCode"] != float64(status) || str(r.body["message"]) == "" {
		t.Fatalf("got %d %s, want %d %s field %q", r.status, r.raw, status, code, fieldName)
	}
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }
