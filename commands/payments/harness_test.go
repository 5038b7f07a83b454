package payments_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v85/webhook"

	"github.com/strata-platform/strata/commands/jobs"
	cmd "github.com/strata-platform/strata/commands/payments"
	"github.com/strata-platform/strata/commands/payments/stripemock"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/payments"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/eventstore/shred"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

const (
	testKey    = "sk_test_strata"
	secretOld  = "whsec_old_0123456789"
	secretNew  = "whsec_new_9876543210"
	apiVersion = "2026-03-25.dahlia"
)

// env is the payments service on a fresh database, its provider Stripe
// against stripe-mock (nil mock: no provider configured).
type env struct {
	t     *testing.T
	svc   *cmd.Service
	store *eventstore.Store
	keys  *shred.KeyRing
	clock *kernel.FixedClock
	mock  *stripemock.Server
	jobs  *jobs.Service
	n     atomic.Int64
}

type opts struct {
	noProvider bool
	secrets    []string
	prices     map[string]payments.Price
}

func start(t *testing.T, o opts) *env {
	t.Helper()
	db := pgtest.DB(t)
	reg := eventstore.NewRegistry()
	for _, c := range payments.Events() {
		if err := reg.Register(eventstore.EventDef{Name: c().EventType(), Version: 1, New: c}); err != nil {
			t.Fatal(err)
		}
	}
	if err := reg.Seal(); err != nil {
		t.Fatal(err)
	}
	clock := kernel.NewFixedClock(time.Now().UTC().Truncate(time.Second))
	store := eventstore.New(db.SQL, reg, clock, eventstore.NewULIDs(clock))
	keys, err := shred.New(bytes.Repeat([]byte{3}, 32), 0)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, store: store, keys: keys, clock: clock}
	cfg := cmd.Config{Catalog: payments.NewCatalog(o.prices), PayerKey: bytes.Repeat([]byte{5}, 32),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if !o.noProvider {
		e.mock = stripemock.Start(t)
		secrets := o.secrets
		if secrets == nil {
			secrets = []string{secretOld, secretNew}
		}
		p, err := cmd.NewStripe(cmd.StripeConfig{SecretKey: testKey, WebhookSecrets: secrets, APIBase: e.mock.URL})
		if err != nil {
			t.Fatal(err)
		}
		cfg.Provider = p
	}
	e.svc = cmd.New(store, keys, clock, eventstore.NewULIDs(clock), cfg)
	e.jobs = startJobs(t, db.SQL, e.svc)
	return e
}

// startJobs runs the platform's jobs service with the payments kinds,
// polling often so tests see processing quickly.
func startJobs(t *testing.T, db *sql.DB, svc *cmd.Service) *jobs.Service {
	t.Helper()
	js, err := jobs.New(db, jobs.Config{Workers: 4, PollInterval: 20 * time.Millisecond, RescueAfter: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.RegisterJobs(js); err != nil {
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
	return js
}

// events loads a stream's events (sealed parts as stored).
func (e *env) events(stream string) []eventstore.Envelope {
	e.t.Helper()
	envs, err := e.store.Load(context.Background(), stream, eventstore.LoadOptions{})
	if err != nil {
		e.t.Fatal(err)
	}
	return envs
}

// raw returns the stored payloads of a stream, as text.
func (e *env) raw(stream string) string {
	e.t.Helper()
	var out strings.Builder
	rows, err := e.store.DB().Query(`SELECT payload::text FROM es.events WHERE stream_id = $1 ORDER BY stream_version`, stream)
	if err != nil {
		e.t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			e.t.Fatal(err)
		}
		out.WriteString(s + "\n")
	}
	return out.String()
}

// open decrypts a sealed value with the service's key ring.
func (e *env) open(s kernel.Sealed) []byte {
	e.t.Helper()
	b, err := e.keys.Open(context.Background(), e.store.DB(), s)
	if err != nil {
		e.t.Fatal(err)
	}
	return b
}

// stripeEvent is a Stripe event payload around object.
func stripeEvent(id, typ string, created int64, object map[string]any) []byte {
	b, err := json.Marshal(map[string]any{"id": id, "object": "event", "api_version": apiVersion, "created": created,
		"type": typ, "livemode": false, "pending_webhooks": 1, "request": map[string]any{"id": nil, "idempotency_key": nil},
		"data": map[string]any{"object": object}})
	if err != nil {
		panic(err)
	}
	return b
}

// sign signs payload with secret at ts, with stripe-go's own test helper.
func sign(payload []byte, secret string, ts time.Time) string {
	return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: ts}).Header
}

// deliver posts a signed event to the service as the webhook route does.
func (e *env) deliver(payload []byte, header string) (cmd.Receipt, error) {
	return e.svc.ReceiveWebhook(context.Background(), payload, header)
}

// subscription builds a subscription object of the current API version
// (periods on the items).
func subscription(id, status string, start, end int64, md map[string]string) map[string]any {
	return map[string]any{"id": id, "object": "subscription", "status": status, "customer": "cus_test_1",
		"cancel_at_period_end": false, "canceled_at": nil, "ended_at": nil, "metadata": md,
		"items": map[string]any{"object": "list", "data": []any{map[string]any{"id": "si_1", "object": "subscription_item",
			"current_period_start": start, "current_period_end": end,
			"price": map[string]any{"id": "price_voice_pro", "object": "price", "recurring": map[string]any{"interval": "month"}}}}}}
}

func (e *env) id(prefix string) string {
	return fmt.Sprintf("%s_%d_%d", prefix, time.Now().UnixNano(), e.n.Add(1))
}
