package voice_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/strata-platform/strata/commands/blobs"
	idcmd "github.com/strata-platform/strata/commands/identity"
	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/commands/outbound"
	"github.com/strata-platform/strata/commands/transcribe"
	cmd "github.com/strata-platform/strata/commands/voice"
	"github.com/strata-platform/strata/commands/voice/telephony"
	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/eventstore/shred"
	"github.com/strata-platform/strata/projections"
	projvoice "github.com/strata-platform/strata/projections/voice"
	"github.com/strata-platform/strata/readapi"
	"github.com/strata-platform/strata/readapi/httpx"
	readidentity "github.com/strata-platform/strata/readapi/identity"
	"github.com/strata-platform/strata/readapi/identity/identitytest"
	readvoice "github.com/strata-platform/strata/readapi/voice"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

type readiness struct{}

func (readiness) Readiness(context.Context) readapi.Readiness { return readapi.Readiness{} }

// world is the platform (identity) and a voice surface on one fresh
// database: the voice.v1 projector and the jobs running, callbacks through
// the outbound client (loopback allowed).
type world struct {
	t        *testing.T
	URL      string
	Platform *identitytest.Env
	Svc      *cmd.Service
	Runner   *projections.Runner
	Jobs     *jobs.Service
	// BlobDir is where the blob store keeps its files.
	BlobDir string
}

// options tune start.
type options struct {
	Provider telephony.Provider
	Limiter  *httpx.WindowLimiter
	Zones    func(string) []*time.Location
	Handlers map[string]http.Handler
	// Transcriber transcribes recordings (none when nil).
	Transcriber transcribe.Transcriber
}

func start(t *testing.T, o options) *world {
	t.Helper()
	api := identitytest.StartWithEvents(t, readidentity.Options{}, voice.Events())
	logger := slog.New(slog.DiscardHandler)
	keys, err := shred.New(api.Master.Derive("subject keys"), 0)
	if err != nil {
		t.Fatal(err)
	}
	runner, err := projections.NewRunner(api.DB, api.Reg, projections.NewSignal(), logger,
		projections.Config{PollInterval: 5 * time.Millisecond}, projvoice.Projector{Keys: keys})
	if err != nil {
		t.Fatal(err)
	}
	js, err := jobs.New(api.DB, jobs.Config{PollInterval: 20 * time.Millisecond, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	wait := func(ctx context.Context, key eventstore.Key) error {
		wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		return runner.WaitFor(wctx, key, projvoice.Name)
	}
	client := outbound.New(outbound.Config{Allow: outbound.Allow{Private: true}, Timeout: 5 * time.Second})
	deliver := func(ctx context.Context, url string, body []byte, h http.Header) (int, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			return 0, err
		}
		req.Header = h
		resp, err := client.Do(ctx, req, outbound.RetryPolicy{Attempts: 1})
		if err != nil {
			return 0, err
		}
		resp.Body.Close()
		return resp.StatusCode, nil
	}
	blobDir := t.TempDir()
	zones := o.Zones
	if zones == nil {
		zones = func(string) []*time.Location { return []*time.Location{time.UTC} }
	}
	svc := cmd.New(api.Store, api.Clock, logger, cmd.Config{Provider: o.Provider, Keys: keys,
		IndexKey: api.Master.Derive("voice party index"), Jobs: js, Deliver: deliver, Sign: outbound.Sign,
		SecretKey: api.Master.Derive("voice callback signing"), Blobs: blobs.NewLocal(blobDir), Zones: zones, Wait: wait, Transcriber: o.Transcriber,
		Inline: projvoice.Inline})
	if err := svc.RegisterJobs(js); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); runner.Run(ctx) }()
	go svc.RunControl(ctx)
	if err := js.Start(ctx); err != nil {
		t.Fatal(err)
	}
	sf, err := readapi.NewSurface("voice", readapi.Deps{Logger: logger, Registry: prometheus.NewRegistry(), Health: readiness{}})
	if err != nil {
		t.Fatal(err)
	}
	lim := o.Limiter
	if lim == nil {
		lim = httpx.NewWindowLimiter(1_000_000, nil)
	}
	readvoice.Routes(sf.Router, readvoice.Config{Service: svc, DB: api.DB, Auth: api.Auth, Limiter: lim, Handlers: o.Handlers})
	srv := httptest.NewServer(sf.Handler)
	t.Cleanup(func() {
		srv.Close()
		svc.Close()
		cancel()
		<-done
		stop, c2 := context.WithTimeout(context.Background(), 5*time.Second)
		defer c2()
		_ = js.Stop(stop)
	})
	w := &world{t: t, URL: srv.URL, Platform: api, Svc: svc, Runner: runner, Jobs: js, BlobDir: blobDir}
	w.setClock(time.Date(2026, 11, 27, 15, 0, 0, 0, time.UTC))
	return w
}

// setClock moves the platform's clock to at.
func (w *world) setClock(at time.Time) { w.Platform.Clock.Advance(at.Sub(w.Platform.Clock.Now())) }

// user is a registered platform user with a bearer token, in their own
// organization (the tenant).
type user struct {
	w      *world
	ID     string
	Org    string
	bearer string
}

func (w *world) user(t *testing.T, email string) *user {
	t.Helper()
	ses, err := w.Platform.Svc.Register(context.Background(), idcmd.Register{Email: email,
		Password: "Correct-horse-battery-9!", FullName: strings.Split(email, "@")[0]})
	if err != nil {
		t.Fatalf("register %s: %v", email, err)
	}
	return &user{w: w, ID: ses.User.ID, Org: ses.User.OrganizationID, bearer: ses.AccessToken}
}

// actor is the user as the command service sees them.
func (u *user) actor() cmd.Actor { return cmd.Actor{Tenant: u.Org, User: u.ID} }

// do sends a request with the user's bearer (none when u is nil) and
// decodes a JSON answer into out (when not nil); it returns the status and
// the raw body.
func (w *world) do(t *testing.T, u *user, method, path string, body any, out any) (int, []byte) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, w.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if u != nil {
		req.Header.Set("Authorization", "Bearer "+u.bearer)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if out != nil && len(raw) > 0 {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s %s: %d %s: %v", method, path, resp.StatusCode, raw, err)
		}
	}
	return resp.StatusCode, raw
}

// voiceError is the voice surface's error body.
type voiceError struct {
	Error   string `json:"error"`
	Code    string `json:"code"`
	Details *struct {
		Field   string `json:"field"`
		Message string `json:"message"`
	} `json:"details"`
}

// wantError checks a status and the error's code (and field when given).
func (w *world) wantError(t *testing.T, u *user, method, path string, body any, status int, code, field string) voiceError {
	t.Helper()
	var e voiceError
	got, raw := w.do(t, u, method, path, body, &e)
	if got != status || e.Code != code {
		t.Fatalf("%s %s: %d %s, want %d code %s", method, path, got, raw, status, code)
	}
	if field != "" && (e.Details == nil || e.Details.Field != field) {
		t.Fatalf("%s %s: %s, want details.field %s", method, path, raw, field)
	}
	return e
}

// ownNumber imports phone into the inventory and has u buy it.
func (w *world) ownNumber(t *testing.T, u *user, phone string) string {
	t.Helper()
	if _, err := w.Svc.ImportNumber(context.Background(), cmd.ImportedNumber{Phone: phone, National: phone[2:], Country: "US",
		NumberType: voice.TypeLocal}, "test", "harness"); err != nil {
		t.Fatal(err)
	}
	var n struct {
		ID string `json:"id"`
	}
	if st, raw := w.do(t, u, "POST", "/api/v1/numbers/purchase", map[string]any{"phone_number": phone}, &n); st != 201 {
		t.Fatalf("purchase: %d %s", st, raw)
	}
	return n.ID
}
