package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/quotedprintable"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/mail"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v85/webhook"

	"github.com/strata-platform/strata/commands/payments/stripemock"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore/pgtest"
)

const provWebhookSecret = "whsec_provisioning_test"

// provEnv is `strata serve` with the production wiring on a clock the test
// moves, Stripe's API behind a loopback front (stripe-mock, with the
// checkout sessions the test says the provider has), a loopback CRM and
// the dev mailbox.
type provEnv struct {
	t       *testing.T
	api     string
	db      *pgtest.Database
	clock   *kernel.OffsetClock
	stripe  *fakeStripe
	crm     *fakeCRMServer
	mailDir string
	n       atomic.Int64
}

func startProvisioningServer(t *testing.T) *provEnv {
	t.Helper()
	db := pgtest.DB(t)
	mock := stripemock.Start(t)
	fs := newFakeStripe(t, mock.URL)
	crmSrv := newFakeCRM(t)
	dataDir := t.TempDir()
	e := &provEnv{t: t, db: db, clock: kernel.NewOffsetClock(0), stripe: fs, crm: crmSrv, mailDir: filepath.Join(dataDir, "mail")}
	w := productionWiring
	w.Clock = e.clock
	env := map[string]string{"DATABASE_URL": db.URL, "STRATA_DATA_DIR": dataDir, "STRATA_LOG_LEVEL": "error",
		"STRATA_STRIPE_SECRET_KEY": "sk_test_provisioning", "STRATA_STRIPE_API_BASE": fs.URL,
		"STRATA_STRIPE_WEBHOOK_SECRETS": provWebhookSecret, "STRATA_JOBS_POLL_INTERVAL": "50ms",
		"STRATA_CRM_URL": crmSrv.URL + "/v1/contacts", "STRATA_CRM_TOKEN": "crm-token-1",
		"STRATA_API_ADDR": freeAddr(t), "STRATA_ADMIN_ADDR": freeAddr(t)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	logs := &syncBuffer{}
	go func() { done <- run(ctx, []string{"serve", "--surfaces", "api"}, env, logs, logs, w) }()
	t.Cleanup(func() {
		cancel()
		<-done
		if t.Failed() {
			t.Logf("serve logged:\n%s", logs.String())
		}
	})
	e.api = "http://" + env["STRATA_API_ADDR"]
	waitFor(t, func() bool { return healthy(e.api) })
	return e
}

// id returns a unique id with prefix.
func (e *provEnv) id(prefix string) string {
	return fmt.Sprintf("%s_%d%d", prefix, time.Now().UnixNano(), e.n.Add(1))
}

// checkoutSession is a completed checkout session object as Stripe sends it.
func checkoutSession(id, email, name, paymentStatus string, metadata map[string]string) map[string]any {
	return map[string]any{"id": id, "object": "checkout.session", "mode": "subscription", "status": "complete",
		"payment_status": paymentStatus, "customer": "cus_" + id, "subscription": "sub_" + id, "amount_total": 4900,
		"currency": "usd", "customer_email": nil, "client_reference_id": nil, "metadata": metadata,
		"customer_details": map[string]any{"email": email, "name": name}}
}

// deliver posts a signed checkout.session.completed event for session.
func (e *provEnv) deliver(eventID string, session map[string]any) (int, map[string]any) {
	e.t.Helper()
	payload := e.event(eventID, session)
	sig := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: provWebhookSecret, Timestamp: time.Now()})
	return call(e.t, "POST", e.api+"/api/v1/payments/webhook", "", payload, "Stripe-Signature", sig.Header)
}

func (e *provEnv) event(eventID string, session map[string]any) []byte {
	payload, err := json.Marshal(map[string]any{"id": eventID, "object": "event", "api_version": "2026-03-25.dahlia",
		"created": time.Now().Unix(), "type": "checkout.session.completed", "livemode": false, "data": map[string]any{"object": session}})
	if err != nil {
		e.t.Fatal(err)
	}
	return payload
}

// register posts a registration and returns its status and body.
func (e *provEnv) register(email, password, name, session string) (int, map[string]any) {
	e.t.Helper()
	body := map[string]any{"email": email, "password": password, "full_name": name}
	if session != "" {
		body["stripe_session_id"] = session
	}
	return call(e.t, "POST", e.api+"/api/v1/auth/register", "", body)
}

// count runs a counting query.
func (e *provEnv) count(query string, args ...any) int {
	e.t.Helper()
	var n int
	if err := e.db.SQL.QueryRow(query, args...).Scan(&n); err != nil {
		e.t.Fatalf("%s: %v", query, err)
	}
	return n
}

// accountsWith counts the accounts registered with email (any case).
func (e *provEnv) accountsWith(email string) int {
	return e.count(`SELECT count(*) FROM es.events WHERE event_type = 'identity.user_registered' AND lower(payload->>'email') = lower($1)`, email)
}

// checkoutAccount returns the account the checkout's stream names, "" when
// it has none.
func (e *provEnv) checkoutAccount(session string) (userID, eventType string) {
	e.t.Helper()
	err := e.db.SQL.QueryRow(`SELECT payload->>'user_id', event_type FROM es.events WHERE stream_id = $1 ORDER BY stream_version LIMIT 1`,
		"identity-checkout:"+session).Scan(&userID, &eventType)
	if err != nil && !strings.Contains(err.Error(), "no rows") {
		e.t.Fatal(err)
	}
	return userID, eventType
}

// waitUntil polls cond for up to limit.
func (e *provEnv) waitUntil(limit time.Duration, what string, cond func() bool) {
	e.t.Helper()
	for deadline := time.Now().Add(limit); ; time.Sleep(25 * time.Millisecond) {
		if cond() {
			return
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("%s: not within %s", what, limit)
		}
	}
}

// jobStates returns the states of the jobs of kind whose args hold
// field = value.
func (e *provEnv) jobStates(kind, field, value string) []string {
	e.t.Helper()
	rows, err := e.db.SQL.Query(`SELECT state::text FROM jobs.river_job WHERE kind = $1 AND args->>$2 = $3 ORDER BY id`, kind, field, value)
	if err != nil {
		e.t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			e.t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// sentMail is one message in the dev mailbox.
type sentMail struct {
	To, Subject, Text string
}

// mails reads the dev mailbox.
func (e *provEnv) mails() []sentMail {
	e.t.Helper()
	paths, _ := filepath.Glob(filepath.Join(e.mailDir, "*.eml"))
	var out []sentMail
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			e.t.Fatal(err)
		}
		m, err := mail.ReadMessage(f)
		if err != nil {
			f.Close()
			e.t.Fatalf("%s: %v", p, err)
		}
		body, err := io.ReadAll(quotedprintable.NewReader(m.Body))
		f.Close()
		if err != nil {
			e.t.Fatal(err)
		}
		subject, _ := new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
		to, _ := mail.ParseAddress(m.Header.Get("To"))
		out = append(out, sentMail{To: strings.ToLower(to.Address), Subject: subject, Text: string(body)})
	}
	return out
}

// mailsTo returns the messages to address whose subject contains about.
func (e *provEnv) mailsTo(address, about string) []sentMail {
	var out []sentMail
	for _, m := range e.mails() {
		if m.To == strings.ToLower(address) && strings.Contains(m.Subject, about) {
			out = append(out, m)
		}
	}
	return out
}

var tokenInLink = regexp.MustCompile(`\?token=([A-Za-z0-9_-]+)`)

// fakeStripe fronts stripe-mock: GET /v1/checkout/sessions/{id} answers the
// sessions the test put in (complete ones; stripe-mock's canned session is
// always "open"), 404 for ids marked missing, and stripe-mock for the rest.
type fakeStripe struct {
	URL      string
	mu       sync.Mutex
	sessions map[string]map[string]any
	missing  map[string]bool
	gets     map[string]int
}

func newFakeStripe(t *testing.T, mockURL string) *fakeStripe {
	t.Helper()
	target, _ := url.Parse(mockURL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	fs := &fakeStripe{sessions: map[string]map[string]any{}, missing: map[string]bool{}, gets: map[string]int{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if id, ok := strings.CutPrefix(r.URL.Path, "/v1/checkout/sessions/"); ok && r.Method == http.MethodGet {
			fs.mu.Lock()
			fs.gets[id]++
			obj, known := fs.sessions[id]
			missing := fs.missing[id]
			fs.mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			switch {
			case known:
				_ = json.NewEncoder(w).Encode(obj)
				return
			case missing:
				w.WriteHeader(http.StatusNotFound)
				_, _ = io.WriteString(w, `{"error":{"type":"invalid_request_error","code":"resource_missing","message":"No such checkout.session: '`+id+`'","param":"session"}}`)
				return
			}
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	fs.URL = srv.URL
	return fs
}

func (fs *fakeStripe) put(session map[string]any) {
	fs.mu.Lock()
	fs.sessions[session["id"].(string)] = session
	fs.mu.Unlock()
}

func (fs *fakeStripe) markMissing(id string) {
	fs.mu.Lock()
	fs.missing[id] = true
	fs.mu.Unlock()
}

func (fs *fakeStripe) retrievals(id string) int {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return fs.gets[id]
}

// fakeCRMServer is a loopback CRM recording what it receives.
type fakeCRMServer struct {
	URL  string
	mu   sync.Mutex
	got  []crmCall
	fail atomic.Int32 // answer 503 to this many calls first
}

type crmCall struct {
	Path, Auth, Idempotency string
	Body                    map[string]any
}

func newFakeCRM(t *testing.T) *fakeCRMServer {
	t.Helper()
	c := &fakeCRMServer{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			t.Errorf("CRM body: %v", err)
		}
		if c.fail.Load() > 0 {
			c.fail.Add(-1)
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		c.mu.Lock()
		c.got = append(c.got, crmCall{Path: r.URL.Path, Auth: r.Header.Get("Authorization"), Idempotency: r.Header.Get("Idempotency-Key"), Body: body})
		c.mu.Unlock()
		w.WriteHeader(http.StatusAccepted)
	}))
	t.Cleanup(srv.Close)
	c.URL = srv.URL
	return c
}

// callsFor returns the CRM calls about email.
func (c *fakeCRMServer) callsFor(email string) []crmCall {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []crmCall
	for _, g := range c.got {
		if strings.EqualFold(fmt.Sprint(g.Body["email"]), email) {
			out = append(out, g)
		}
	}
	return out
}
