package gateway_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	cmdgateway "github.com/strata-platform/strata/commands/gateway"
	cmdplans "github.com/strata-platform/strata/commands/plans"
	"github.com/strata-platform/strata/domain/gateway/catalog"
	"github.com/strata-platform/strata/domain/gateway/credits"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/plans"
	"github.com/strata-platform/strata/projections"
	projgateway "github.com/strata-platform/strata/projections/gateway"
	"github.com/strata-platform/strata/readapi/auth"
	readgateway "github.com/strata-platform/strata/readapi/gateway"
	"github.com/strata-platform/strata/readapi/httpx"
	readidentity "github.com/strata-platform/strata/readapi/identity"
	"github.com/strata-platform/strata/readapi/identity/identitytest"
)

// creditsWorld is the platform API with identity (its key verification
// reading the ledger), plans, the catalog and the credits routes, the
// ledger's projector running.
type creditsWorld struct {
	*world
	billing *cmdgateway.Billing
	credits *readgateway.CreditsAPI
	runner  *projections.Runner
}

func startCredits(t *testing.T) *creditsWorld {
	t.Helper()
	cw := &creditsWorld{world: &world{t: t}}
	events := append(append(plans.Events(), catalog.Events()...), credits.Events()...)
	opts := readidentity.Options{Credits: func(ctx context.Context, id string) (int64, int64, error) {
		return cw.credits.IdentityCredits(ctx, id)
	}}
	cw.api = identitytest.StartWithEvents(t, opts, events, func(e *identitytest.Env) {
		logger := slog.New(slog.NewTextHandler(io.Discard, nil))
		ctx, cancel := context.WithCancel(context.Background())
		cw.view = projgateway.NewCatalogView(e.Store, logger)
		cw.catalog = cmdgateway.NewCatalog(e.Store, e.Clock, cw.view.Sync)
		if _, err := cw.catalog.ImportBuiltin(ctx); err != nil {
			t.Fatal(err)
		}
		dir := e.Svc.Directory()
		cw.plans = cmdplans.New(e.Store, e.Clock, dir.Sync)
		view := projgateway.NewCreditsView(e.DB, e.Reg, logger)
		if err := view.Start(ctx); err != nil {
			t.Fatal(err)
		}
		ledger := cmdgateway.NewLedger(e.Store, e.Clock, cmdgateway.Entitlements(dir, nil), view, 5*time.Second)
		cw.billing = cmdgateway.NewBilling(cmdgateway.BillingConfig{Ledger: ledger,
			Recorder: cmdgateway.NewRecorder(e.Store, e.Clock, view, cmdgateway.RecorderConfig{FlushInterval: 5 * time.Millisecond,
				JournalDir: t.TempDir()}), // as strata serve does: debits journaled, spooled off the request path
			Limiter: cmdgateway.NewRateLimiter(e.DB, e.Clock), View: view, PlansSync: dir.Sync})
		cw.credits = readgateway.NewCredits(readgateway.CreditsConfig{Billing: cw.billing, Auth: e.Auth, DB: e.DB})
		r, err := projections.NewRunner(e.DB, e.Reg, projections.NewSignal(), logger, projections.Config{PollInterval: 10 * time.Millisecond},
			projgateway.CreditsProjector{})
		if err != nil {
			t.Fatal(err)
		}
		cw.runner = r
		done := make(chan struct{}, 3)
		go func() { r.Run(ctx); done <- struct{}{} }()
		go func() { cw.billing.Run(ctx); done <- struct{}{} }()
		go func() { view.Run(ctx, nil, 10*time.Millisecond); done <- struct{}{} }()
		t.Cleanup(func() { cancel(); <-done; <-done; <-done })
		readgateway.Routes(e.Router, readgateway.Config{Catalog: readgateway.NewCatalog(readgateway.CatalogConfig{
			View: cw.view, Auth: e.Auth, Plans: dir}), Credits: cw.credits})
	})
	return cw
}

// record records a finished request of u on the catalog's model id.
func (cw *creditsWorld) record(u user, id, model string, in, out int64) credits.Micro {
	cw.t.Helper()
	m, ok := cw.view.Catalog().Model(model)
	if !ok {
		cw.t.Fatalf("no model %s", model)
	}
	r, err := cw.billing.Record(context.Background(), credits.Usage{AccountID: u.ID, RequestID: id, Model: m,
		Tokens: credits.Tokens{Input: in, Output: out}, Status: credits.StatusCompleted, Latency: time.Second, At: cw.api.Clock.Now()})
	if err != nil {
		cw.t.Fatal(err)
	}
	return r.Debit.AmountMicro
}

type balanceBody struct {
	Balance      json.Number `json:"balance"`
	BalanceMicro int64       `json:"balance_micro"`
	Unit         string      `json:"unit"`
	Period       *struct {
		Start, End    time.Time
		Granted, Used json.Number
	} `json:"period"`
	Plan struct {
		ID              string `json:"id"`
		MonthlyCredits  int64  `json:"monthly_credits"`
		RequestsPerHour int64  `json:"requests_per_hour"`
	} `json:"plan"`
	RateLimit struct {
		RequestsPerHour int64 `json:"requests_per_hour"`
		Used            int64 `json:"used"`
	} `json:"rate_limit"`
	Pending struct {
		Requests int64 `json:"requests"`
	} `json:"pending"`
}

func (cw *creditsWorld) balance(headers ...string) (int, balanceBody) {
	cw.t.Helper()
	r := cw.call("GET", "/api/v1/public/credits/balance", nil, headers...)
	var b balanceBody
	if r.status == http.StatusOK {
		if err := json.Unmarshal(r.raw, &b); err != nil {
			cw.t.Fatal(err)
		}
	}
	return r.status, b
}

// The balance route shows the ledger: the plan's monthly grant, each
// recorded request at once (pending or flushed), the period's use, the
// plan and its requests an hour; with the key or a session token.
func TestBalanceRoute(t *testing.T) {
	t.Parallel()
	cw := startCredits(t)
	u := cw.register()
	st, b := cw.balance("X-API-Key", u.Key)
	if st != http.StatusOK || b.Balance != "1000" || b.BalanceMicro != 1e9 || b.Unit != "credit" || b.Plan.ID != "starter" ||
		b.Plan.MonthlyCredits != 1000 || b.Plan.RequestsPerHour != 60 || b.RateLimit.RequestsPerHour != 60 || b.Period == nil || b.Period.Granted != "1000" ||
		b.Period.Used != "0" || b.Period.Start.Day() != 1 || !b.Period.End.Equal(b.Period.Start.AddDate(0, 1, 0)) {
		t.Fatalf("fresh account: %d %+v", st, b)
	}
	// strata-dev-frontier: $3 / $15 per 1M: 1,000 in + 200 out = 3 + 3 = 6 credits.
	cost := cw.record(u, "req-1", "strata-dev-frontier", 1000, 200)
	if cost != credits.FromCredits(6) {
		t.Fatalf("cost %s", cost.Decimal())
	}
	st, b = cw.balance("Authorization", "Bearer "+u.Bearer)
	if st != http.StatusOK || b.Balance != "994" || b.Period.Used != "6" {
		t.Fatalf("after a request: %d %+v", st, b)
	}
	if r := cw.call("GET", "/api/v1/public/credits/balance", nil); r.status != http.StatusUnauthorized {
		t.Errorf("no credentials: %d", r.status)
	}
	if r := cw.call("GET", "/api/v1/public/credits/balance", nil, "X-API-Key", "sk-ant-api03-xyz"); r.status != http.StatusUnauthorized ||
		r.body["rule"] != "sk_key" {
		t.Errorf("a vendor's key: %d %s", r.status, r.raw)
	}
	cw.setPlan(u, plans.LineGateway, "pro")
	st, b = cw.balance("X-API-Key", u.Key)
	if st != http.StatusOK || b.Balance != "49994" || b.Period.Granted != "50000" || b.Plan.RequestsPerHour != 300 {
		t.Fatalf("after the upgrade: %d %+v", st, b)
	}
}

// Key verification reads the same ledger: credits_total is the period's
// grants, credits_remaining the balance; a paid plan whose balance is not
// positive is insufficient_credits. /auth/me shows the balance too.
func TestVerificationReadsTheLedger(t *testing.T) {
	t.Parallel()
	cw := startCredits(t)
	u := cw.register()
	cw.setPlan(u, plans.LinePlatform, "professional")
	verify := func() map[string]any {
		r := cw.call("POST", "/api/v1/public/api-keys/verify", nil, "X-API-Key", u.Key)
		if r.status != http.StatusOK {
			t.Fatalf("verify: %d %s", r.status, r.raw)
		}
		return r.body
	}
	v := verify()
	sub := v["subscription"].(map[string]any)
	if v["status"] != "READY" || sub["credits_total"] != 1000.0 || sub["credits_remaining"] != 1000.0 {
		t.Fatalf("fresh paid account: %v", v)
	}
	cw.record(u, "big", "strata-dev-frontier", 400_000, 0) // 1,200 credits
	v = verify()
	sub = v["subscription"].(map[string]any)
	if v["status"] != "insufficient_credits" || sub["credits_total"] != 1000.0 || sub["credits_remaining"] != -200.0 {
		t.Fatalf("overdrawn: %v", v)
	}
	if r := cw.call("GET", "/api/v1/auth/me", nil, "X-API-Key", u.Key); r.body["credits"] != -200.0 {
		t.Errorf("/auth/me: %s", r.raw)
	}
	if _, err := cw.billing.Ledger().Grant(context.Background(), credits.Grant{AccountID: u.ID, Credits: credits.Micro(200_000_001)}); err != nil {
		t.Fatal(err)
	}
	v = verify()
	sub = v["subscription"].(map[string]any)
	if v["status"] != "READY" || sub["credits_remaining"] != 1.0 || sub["credits_total"] != 1201.0 {
		t.Fatalf("0.000001 credits above zero: %v", v)
	}
}

// The chat routes' credits hook: a paid model is refused (402) once the
// balance is spent, a free one is not; past the plan's requests an hour
// the refusal carries Retry-After; the record function records once.
func TestChatCreditsAdmission(t *testing.T) {
	t.Parallel()
	cw := startCredits(t)
	u := cw.register()
	ctx := context.Background()
	p := auth.Principal{UserID: u.ID, KeyID: "key_1"}
	paid, _ := cw.view.Catalog().Model("strata-dev-frontier")
	free, _ := cw.view.Catalog().Model("strata-dev-7b-text")
	record, err := cw.credits.Admit(ctx, p, paid, "chat-1")
	if err != nil {
		t.Fatal(err)
	}
	record(readgateway.ChatUsage{RequestID: "chat-1", Model: paid.ID, Upstream: "dev", Status: 200, Latency: time.Second})
	cw.record(u, "big", paid.ID, 400_000, 0)
	if _, err := cw.credits.Admit(ctx, p, paid, "chat-2"); kernel.KindOf(err) != kernel.KindPaymentRequired {
		t.Fatalf("paid model without credits: %v", err)
	}
	for i := range 59 { // chat-1 counted, chat-2 refused before the limiter: 60 in all
		if _, err := cw.credits.Admit(ctx, p, free, fmt.Sprintf("free-%d", i)); err != nil {
			t.Fatalf("free request %d: %v", i, err)
		}
	}
	_, err = cw.credits.Admit(ctx, p, free, "free-x")
	var ra *httpx.RetryAfter
	if !errors.As(err, &ra) || kernel.KindOf(err) != kernel.KindRateLimited || ra.After <= 0 || ra.After > time.Hour {
		t.Fatalf("61st request: %v", err)
	}
	// The debit is journaled: spool what this process journaled (as the
	// balance route does) so it is in PostgreSQL, in the ledger or, had the
	// ledger's transaction failed, pending. One statement, one snapshot: the
	// flush moves a pending debit into the ledger in one transaction, so the
	// two counts are read at one moment (two statements could see the row in
	// both, the flush between them).
	if err := cw.billing.Spool(ctx); err != nil {
		t.Fatal(err)
	}
	var n int64
	if err := cw.api.DB.QueryRow(`SELECT (SELECT count(*) FROM platform.gateway_pending_debits WHERE request_id = 'chat-1')
		+ (SELECT count(*) FROM platform.gateway_debits WHERE request_id = 'chat-1')`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Errorf("chat-1 recorded %d times", n)
	}
}

// The usage route lists the caller's records, newest first, by model and
// time, in pages.
func TestUsageRoute(t *testing.T) {
	t.Parallel()
	cw := startCredits(t)
	u, other := cw.register(), cw.register()
	start := cw.api.Clock.Now()
	for i := range 5 {
		cw.api.Clock.Advance(time.Minute)
		model := "strata-dev-frontier"
		if i%2 == 1 {
			model = "strata-dev-7b-text"
		}
		cw.record(u, fmt.Sprintf("u-%d", i), model, 1000, 100)
	}
	cw.record(other, "o-1", "strata-dev-frontier", 10, 10)
	deadline := time.Now().Add(10 * time.Second)
	for {
		r := cw.call("GET", "/api/v1/public/usage", nil, "X-API-Key", u.Key)
		if recs, _ := r.body["records"].([]any); len(recs) == 5 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("usage records never showed: %s", r.raw)
		}
		time.Sleep(20 * time.Millisecond)
	}
	ids := func(r reply) []string {
		var out []string
		for _, rec := range r.body["records"].([]any) {
			out = append(out, rec.(map[string]any)["request_id"].(string))
		}
		return out
	}
	r := cw.call("GET", "/api/v1/public/usage?limit=2", nil, "X-API-Key", u.Key)
	if got := ids(r); fmt.Sprint(got) != "[u-4 u-3]" || r.body["next_cursor"] == nil {
		t.Fatalf("first page: %s", r.raw)
	}
	r = cw.call("GET", "/api/v1/public/usage?limit=2&cursor="+r.body["next_cursor"].(string), nil, "X-API-Key", u.Key)
	if got := ids(r); fmt.Sprint(got) != "[u-2 u-1]" {
		t.Fatalf("second page: %s", r.raw)
	}
	r = cw.call("GET", "/api/v1/public/usage?model=strata-dev-7b-text", nil, "X-API-Key", u.Key)
	if got := ids(r); fmt.Sprint(got) != "[u-3 u-1]" {
		t.Fatalf("by model: %s", r.raw)
	}
	from := start.Add(2 * time.Minute).Format(time.RFC3339)
	to := start.Add(4 * time.Minute).Format(time.RFC3339)
	r = cw.call("GET", "/api/v1/public/usage?from="+from+"&to="+to, nil, "X-API-Key", u.Key)
	if got := ids(r); fmt.Sprint(got) != "[u-2 u-1]" {
		t.Fatalf("by time: %s", r.raw)
	}
	rec := cw.call("GET", "/api/v1/public/usage?limit=1", nil, "X-API-Key", u.Key).body["records"].([]any)[0].(map[string]any)
	if rec["cost"] != 4.5 || rec["input_tokens"] != 1000.0 || rec["status"] != "completed" || rec["upstream"] != "dev" {
		t.Errorf("a record: %v", rec)
	}
	for _, bad := range []string{"limit=0", "limit=x", "cursor=zz", "from=2026-01-01T00:00:00"} {
		if r := cw.call("GET", "/api/v1/public/usage?"+bad, nil, "X-API-Key", u.Key); r.status != http.StatusBadRequest {
			t.Errorf("%s: %d", bad, r.status)
		}
	}
}

// A gateway plan change grants the new plan's credits at once (the plans
// reaction), before anyone reads the balance.
func TestPlanChangeGrantsAtOnce(t *testing.T) {
	t.Parallel()
	cw := startCredits(t)
	u := cw.register()
	cw.setPlan(u, plans.LineGateway, "business")
	deadline := time.Now().Add(5 * time.Second)
	for {
		var n int64
		if err := cw.api.DB.QueryRow(`SELECT count(*) FROM es.events WHERE event_type = 'credits.granted'
			AND payload->>'account_id' = $1 AND payload->>'plan' = 'business'`, u.ID).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the business plan's credits were not granted")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if st, b := cw.balance("X-API-Key", u.Key); st != http.StatusOK || b.Balance != "150000" {
		t.Fatalf("%d %+v", st, b)
	}
}
