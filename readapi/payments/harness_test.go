package payments_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v85/webhook"

	idcmd "github.com/strata-platform/strata/commands/identity"
	"github.com/strata-platform/strata/commands/jobs"
	cmd "github.com/strata-platform/strata/commands/payments"
	"github.com/strata-platform/strata/commands/payments/stripemock"
	"github.com/strata-platform/strata/domain/payments"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/eventstore/shred"
	"github.com/strata-platform/strata/projections"
	projpayments "github.com/strata-platform/strata/projections/payments"
	readidentity "github.com/strata-platform/strata/readapi/identity"
	"github.com/strata-platform/strata/readapi/identity/identitytest"
	readpayments "github.com/strata-platform/strata/readapi/payments"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

const whsec = "whsec_readapi_test_secret"

// world is the platform API with identity and the payments routes on one
// store; its provider is Stripe against stripe-mock unless noProvider.
type world struct {
	t    *testing.T
	api  *identitytest.Env
	svc  *cmd.Service
	mock *stripemock.Server
	n    atomic.Int64
}

type setup struct {
	noProvider bool
	auditURLs  bool
	prices     map[string]payments.Price
}

func start(t *testing.T, s setup) *world {
	t.Helper()
	w := &world{t: t}
	if !s.noProvider {
		w.mock = stripemock.Start(t)
	}
	w.api = identitytest.StartWithEvents(t, readidentity.Options{}, payments.Events(), func(e *identitytest.Env) {
		logger := slog.New(slog.NewTextHandler(io.Discard, nil))
		runner, err := projections.NewRunner(e.DB, e.Reg, projections.NewSignal(), logger,
			projections.Config{PollInterval: 5 * time.Millisecond}, projpayments.Projector{})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); runner.Run(ctx) }()
		t.Cleanup(func() { cancel(); <-done })
		keys, err := shred.New(bytes.Repeat([]byte{9}, 32), 0)
		if err != nil {
			t.Fatal(err)
		}
		cfg := cmd.Config{Catalog: payments.NewCatalog(s.prices), PayerKey: bytes.Repeat([]byte{1}, 32), Logger: logger}
		if !s.noProvider {
			p, err := cmd.NewStripe(cmd.StripeConfig{SecretKey: "sk_test_readapi", WebhookSecrets: []string{whsec}, APIBase: w.mock.URL})
			if err != nil {
				t.Fatal(err)
			}
			cfg.Provider = p
		}
		w.svc = cmd.New(e.Store, keys, e.Clock, eventstore.NewULIDs(e.Clock), cfg)
		js, err := jobs.New(e.DB, jobs.Config{Workers: 4, PollInterval: 20 * time.Millisecond, RescueAfter: 5 * time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.svc.RegisterJobs(js); err != nil {
			t.Fatal(err)
		}
		if err := js.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			_ = js.Stop(ctx)
		})
		rc := readpayments.Config{Service: w.svc, DB: e.DB, Auth: e.Auth, ReturnURL: "https://app.example.com/account"}
		if s.auditURLs {
			rc.AuditSuccessURL, rc.AuditCancelURL = "https://audit.example.com/thanks", "https://audit.example.com/pricing"
		}
		readpayments.Routes(e.Router, rc)
	})
	return w
}

// user is a registered platform user calling with a bearer JWT.
type user struct {
	ID, Email, bearer string
	org, project      string
}

func (w *world) register() *user {
	w.t.Helper()
	email := fmt.Sprintf("payer%d-%d@payments.test", w.n.Add(1), time.Now().UnixNano())
	s, err := w.api.Svc.Register(context.Background(), idcmd.Register{Email: email, Password: "Correct-horse-battery-9!", FullName: "Pat Payer"})
	if err != nil {
		w.t.Fatal(err)
	}
	return &user{ID: s.User.ID, Email: email, bearer: s.AccessToken, org: s.User.OrganizationID, project: s.User.ProjectID}
}

type reply struct {
	status int
	body   map[string]any
	raw    []byte
}

// do calls the API as u (nil: anonymous) with a JSON body (raw bytes are
// sent as they are) and extra headers.
func (w *world) do(u *user, method, path string, body any, headers ...string) reply {
	w.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			w.t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, w.api.URL+path, rd)
	if err != nil {
		w.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if u != nil {
		req.Header.Set("Authorization", "Bearer "+u.bearer)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	out := reply{status: resp.StatusCode, raw: raw, body: map[string]any{}}
	if len(raw) > 0 && raw[0] == '{' {
		if err := json.Unmarshal(raw, &out.body); err != nil {
			w.t.Fatalf("%s %s: bad JSON %q", method, path, raw)
		}
	}
	return out
}

// must calls and fails the test unless the status is want.
func (w *world) must(u *user, want int, method, path string, body any) map[string]any {
	w.t.Helper()
	r := w.do(u, method, path, body)
	if r.status != want {
		w.t.Fatalf("%s %s: status %d, want %d: %s", method, path, r.status, want, r.raw)
	}
	return r.body
}

// refused checks a 4xx answer names field and rule.
func (w *world) refused(r reply, status int, field, rule string) {
	w.t.Helper()
	if r.status != status || r.body["field"] != field || r.body["rule"] != rule {
		w.t.Fatalf("got %d %v/%v, want %d %s/%s: %s", r.status, r.body["field"], r.body["rule"], status, field, rule, r.raw)
	}
}

// webhook posts a Stripe event, signed now with secret, to the webhook route.
func (w *world) webhook(id, typ string, created int64, object map[string]any, secret string) reply {
	w.t.Helper()
	payload, err := json.Marshal(map[string]any{"id": id, "object": "event", "api_version": "2026-03-25.dahlia",
		"created": created, "type": typ, "livemode": false, "data": map[string]any{"object": object}})
	if err != nil {
		w.t.Fatal(err)
	}
	sig := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: time.Now()})
	return w.do(nil, "POST", "/api/v1/payments/webhook", payload, "Stripe-Signature", sig.Header)
}

// eventually polls get until ok, for reads of the read model (eventual).
func (w *world) eventually(what string, ok func() bool) {
	w.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			w.t.Fatalf("%s: not seen within 10 s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
