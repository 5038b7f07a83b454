package main

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

const chosenPassword = "Chosen-pass1"

func TestCRMSettings(t *testing.T) {
	t.Parallel()
	cfg, err := loadConfig(map[string]string{})
	if err != nil {
		t.Fatal(err)
	}
	if c := cfg.CRM; c.URL != "" || c.Token != "" || c.Timeout != 10*time.Second {
		t.Fatalf("defaults %+v", c)
	}
	cfg, err = loadConfig(map[string]string{"STRATA_CRM_URL": " https://crm.example.com/hooks/strata ", "STRATA_CRM_TOKEN": "tok",
		"STRATA_CRM_TIMEOUT": "30s"})
	if err != nil {
		t.Fatal(err)
	}
	if c := cfg.CRM; c.URL != "https://crm.example.com/hooks/strata" || c.Token != "tok" || c.Timeout != 30*time.Second {
		t.Fatalf("config %+v", c)
	}
	for _, env := range []map[string]string{
		{"STRATA_CRM_URL": "crm.example.com/hooks"},
		{"STRATA_CRM_URL": "ftp://crm.example.com"},
		{"STRATA_CRM_TOKEN": "tok"}, // a token with nowhere to go
		{"STRATA_CRM_URL": "https://crm.example.com", "STRATA_CRM_TIMEOUT": "2h"},
		{"STRATA_CRM_URL": "https://crm.example.com", "STRATA_CRM_TIMEOUT": "soon"},
	} {
		name := "STRATA_CRM_URL"
		for k := range env {
			if k != "STRATA_CRM_URL" {
				name = k
			}
		}
		if _, errOut, code := (cli{t: t, env: env}).run("version"); code != 2 || !strings.Contains(errOut, name) {
			t.Errorf("%v: exit %d, %q", env, code, errOut)
		}
	}
}

// The end-to-end: a signed checkout.session.completed webhook
// gives an account (role USER, a default workspace) awaiting completion,
// the set-password mail in the dev mailbox, the CRM call on the loopback
// CRM, the welcome mail a day later (the clock moved), and a later
// register with the session id completes that same account.
func TestCheckoutProvisionsAnAccountEndToEnd(t *testing.T) {
	t.Parallel()
	e := startProvisioningServer(t)
	session := e.id("cs_test_e2e")
	email := "Buyer.One@Example.com"
	meta := map[string]string{"strata_product_line": "voice", "strata_plan": "pro", "strata_billing": "monthly",
		"utm_source": "newsletter", "utm_campaign": "spring"}
	e.crm.fail.Store(1) // the CRM is down once: the sync is retried
	if status, body := e.deliver(e.id("evt"), checkoutSession(session, email, "Buyer One", "paid", meta)); status != http.StatusOK {
		t.Fatalf("webhook: %d %v", status, body)
	}
	provisionedAt := e.clock.Now()
	var userID string
	e.waitUntil(20*time.Second, "the provisioned account", func() bool {
		userID, _ = e.checkoutAccount(session)
		return userID != ""
	})
	if _, typ := e.checkoutAccount(session); typ != "identity.checkout_provisioned" {
		t.Fatalf("the checkout's account was %s, want provisioned", typ)
	}
	var role, plan, orgID string
	var provisioned bool
	if err := e.db.SQL.QueryRow(`SELECT payload->>'role', payload->>'plan', payload->>'organization_id', (payload->>'provisioned')::bool
		FROM es.events WHERE stream_id = $1 AND event_type = 'identity.user_registered'`, userID).Scan(&role, &plan, &orgID, &provisioned); err != nil {
		t.Fatal(err)
	}
	if role != "USER" || !provisioned || orgID == "" {
		t.Fatalf("account: role %s, plan %s, organization %q, provisioned %v", role, plan, orgID, provisioned)
	}
	if n := e.count(`SELECT count(*) FROM es.events WHERE stream_id = $1 AND event_type = 'identity.organization_created'
		AND payload->>'owner_id' = $2 AND payload->>'name' = 'Buyer''s workspace'`, orgID, userID); n != 1 {
		t.Fatalf("no default workspace owned by the account (%d)", n)
	}
	if n := e.count(`SELECT count(*) FROM es.events WHERE stream_id = $1 AND payload->>'password_hash' LIKE '$argon2id$%'`, userID); n != 1 {
		t.Fatal("the account has no hashed temporary password")
	}
	// No personal data in the jobs table: the jobs carry ids.
	if n := e.count(`SELECT count(*) FROM jobs.river_job WHERE lower(args::text) LIKE '%buyer%'`); n != 0 {
		t.Fatalf("%d jobs carry the payer's email or name in the clear", n)
	}

	// The set-password mail, once, with a working-looking link.
	var setMail sentMail
	e.waitUntil(20*time.Second, "the set-password mail", func() bool {
		m := e.mailsTo(email, "choose your password")
		if len(m) > 0 {
			setMail = m[0]
		}
		return len(m) > 0
	})
	token := tokenInLink.FindStringSubmatch(setMail.Text)
	if token == nil || !strings.Contains(setMail.Text, "/reset-password?token=") {
		t.Fatalf("set-password mail without a link:\n%s", setMail.Text)
	}
	// The CRM call, after one refused attempt, with the expected JSON.
	e.waitUntil(60*time.Second, "the CRM call", func() bool { return len(e.crm.callsFor(email)) > 0 })
	sync1 := e.crm.callsFor(email)[0]
	want := map[string]any{"email": email, "name": "Buyer One", "source": "checkout", "product_line": "voice", "plan": "pro",
		"utm": map[string]any{"source": "newsletter", "campaign": "spring"}, "account_id": userID}
	if fmt.Sprint(sync1.Body) != fmt.Sprint(want) || sync1.Auth != "Bearer crm-token-1" || sync1.Path != "/v1/contacts" ||
		sync1.Idempotency != "checkout:"+userID {
		t.Fatalf("CRM got %+v, want body %v", sync1, want)
	}

	// The welcome mail is a job due 24 hours after the checkout; it runs
	// once the clock gets there, not before.
	var due time.Time
	if err := e.db.SQL.QueryRow(`SELECT scheduled_at FROM jobs.river_job WHERE kind = 'identity.welcome_mail' AND args->>'user_id' = $1`,
		userID).Scan(&due); err != nil {
		t.Fatal(err)
	}
	if d := due.Sub(provisionedAt.Add(24 * time.Hour)); d < -time.Minute || d > time.Minute {
		t.Fatalf("welcome mail due %s, want 24 hours after %s", due, provisionedAt)
	}
	e.waitUntil(20*time.Second, "the mail and CRM jobs done", func() bool {
		return fmt.Sprint(e.jobStates("identity.set_password_mail", "user_id", userID)) == "[completed]" &&
			fmt.Sprint(e.jobStates("identity.crm_sync", "user_id", userID)) == "[completed]" &&
			fmt.Sprint(e.jobStates("identity.provision_checkout", "session_id", session)) == "[completed]"
	})
	if m := e.mailsTo(email, "Welcome"); len(m) != 0 {
		t.Fatal("the welcome mail went out before its day")
	}
	e.clock.Advance(24*time.Hour + time.Minute)
	e.waitUntil(40*time.Second, "the welcome mail a day later", func() bool { return len(e.mailsTo(email, "Welcome to Strata")) == 1 })
	if w := e.mailsTo(email, "Welcome to Strata")[0]; !strings.Contains(w.Text, "not chosen a password yet") {
		t.Fatalf("welcome mail to an account awaiting completion:\n%s", w.Text)
	}

	// Register with the session id: the email must be the payer's.
	if status, body := e.register("someone.else@example.com", chosenPassword, "Mallory", session); status != http.StatusBadRequest ||
		body["field"] != "email" || body["rule"] != "checkout_email" {
		t.Fatalf("another email: %d %v", status, body)
	}
	status, body := e.register("buyer.one@example.com", chosenPassword, "Buyer Actual", session)
	if status != http.StatusCreated || body["id"] != userID || body["access_token"] == "" {
		t.Fatalf("register with the session: %d %v (want the account %s)", status, body, userID)
	}
	if n := e.accountsWith(email); n != 1 {
		t.Fatalf("%d accounts with the payer's email, want 1", n)
	}
	status, body = call(t, "POST", e.api+"/api/v1/auth/login", "", map[string]any{"email": email, "password": chosenPassword})
	if status != http.StatusOK {
		t.Fatalf("sign in with the chosen password: %d %v", status, body)
	}
	status, me := call(t, "GET", e.api+"/api/v1/auth/me", body["access_token"].(string), nil)
	if status != http.StatusOK || me["id"] != userID || me["full_name"] != "Buyer Actual" || me["role"] != "USER" {
		t.Fatalf("me: %d %v", status, me)
	}
	// The account is on the plan it bought, from the plans source.
	if voice, _ := me["plans"].(map[string]any)["voice"].(map[string]any); voice["plan"] != "pro" || voice["status"] != "active" ||
		voice["source"] != "checkout" {
		t.Fatalf("plans: %v", me["plans"])
	}
	// Used: a second registration is refused, and the set-password link
	// no longer works.
	if status, body := e.register(email, chosenPassword, "Buyer Again", session); status != http.StatusConflict ||
		body["field"] != "stripe_session_id" || body["rule"] != "session_used" {
		t.Fatalf("second register: %d %v", status, body)
	}
	if status, body := call(t, "POST", e.api+"/api/v1/auth/reset-password", "", map[string]any{"token": token[1],
		"new_password": "An0ther-pass"}); status != http.StatusBadRequest {
		t.Fatalf("the set-password link after completion: %d %v", status, body)
	}
	if n := len(e.mailsTo(email, "choose your password")); n != 1 {
		t.Fatalf("%d set-password mails, want 1", n)
	}
	if n := len(e.crm.callsFor(email)); n != 1 {
		t.Fatalf("%d CRM records, want 1", n)
	}
}

// The same webhook delivered 20 times at once provisions one account, one
// set-password mail and one CRM call.
func TestTwentyDeliveriesOfOneCheckoutProvisionOneAccount(t *testing.T) {
	t.Parallel()
	e := startProvisioningServer(t)
	session, eventID := e.id("cs_test_twenty"), e.id("evt")
	email := "twenty@example.com"
	obj := checkoutSession(session, email, "Twenty Times", "paid", map[string]string{"strata_product_line": "voice", "strata_plan": "pro"})
	var wg sync.WaitGroup
	statuses := make([]int, 20)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i], _ = e.deliver(eventID, obj)
		}()
	}
	wg.Wait()
	for i, s := range statuses {
		if s != http.StatusOK {
			t.Fatalf("delivery %d: %d", i, s)
		}
	}
	e.waitUntil(20*time.Second, "the set-password mail and the CRM call", func() bool {
		return len(e.mailsTo(email, "choose your password")) > 0 && len(e.crm.callsFor(email)) > 0
	})
	time.Sleep(time.Second) // room for a duplicate to show
	if n := e.accountsWith(email); n != 1 {
		t.Fatalf("%d accounts, want 1", n)
	}
	if n := len(e.mailsTo(email, "choose your password")); n != 1 {
		t.Fatalf("%d set-password mails, want 1", n)
	}
	if n := len(e.crm.callsFor(email)); n != 1 {
		t.Fatalf("%d CRM calls, want 1", n)
	}
	if n := len(e.jobStates("identity.provision_checkout", "session_id", session)); n != 1 {
		t.Fatalf("%d provisioning jobs, want 1", n)
	}
}

// What a registration with a stripe_session_id refuses, and checkouts that
// belong to accounts that exist already.
func TestRegisterWithACheckoutSessionIsChecked(t *testing.T) {
	t.Parallel()
	e := startProvisioningServer(t)
	refused := func(what string, status int, body map[string]any, wantStatus int, field, rule string) {
		t.Helper()
		if status != wantStatus || body["field"] != field || body["rule"] != rule {
			t.Errorf("%s: %d %v, want %d %s/%s", what, status, body, wantStatus, field, rule)
		}
	}
	// Not a checkout session id at all: nothing is asked of Stripe.
	status, body := e.register("x@example.com", chosenPassword, "X", "pi_123")
	refused("not a session id", status, body, http.StatusBadRequest, "stripe_session_id", "unknown_session")
	// A session the provider does not know.
	missing := e.id("cs_test_missing")
	e.stripe.markMissing(missing)
	status, body = e.register("x@example.com", chosenPassword, "X", missing)
	refused("unknown session", status, body, http.StatusBadRequest, "stripe_session_id", "unknown_session")
	if e.stripe.retrievals(missing) != 1 {
		t.Errorf("the provider was asked %d times about the unknown session", e.stripe.retrievals(missing))
	}
	// A session the provider has, still open (stripe-mock's canned one).
	status, body = e.register("x@example.com", chosenPassword, "X", e.id("cs_test_open"))
	refused("open session", status, body, http.StatusPaymentRequired, "stripe_session_id", "unpaid_session")
	// A completed checkout whose payment is not settled provisions nothing.
	unpaid := e.id("cs_test_unpaid")
	if s, b := e.deliver(e.id("evt"), checkoutSession(unpaid, "late@example.com", "Late Payer", "unpaid", nil)); s != http.StatusOK {
		t.Fatalf("webhook: %d %v", s, b)
	}
	e.waitUntil(20*time.Second, "the unpaid completion recorded", func() bool {
		return e.count(`SELECT count(*) FROM es.events WHERE stream_id = $1 AND event_type = 'payments.checkout_session_completed'`,
			"payments-checkout:"+unpaid) == 1
	})
	status, body = e.register("late@example.com", chosenPassword, "Late Payer", unpaid)
	refused("unpaid session", status, body, http.StatusPaymentRequired, "stripe_session_id", "unpaid_session")
	if u, _ := e.checkoutAccount(unpaid); u != "" || e.accountsWith("late@example.com") != 0 {
		t.Error("an unpaid checkout provisioned an account")
	}

	// A payer who has an account: the checkout is linked to it, nothing is
	// created, and registering with the session is refused as used.
	if s, b := e.register("existing@example.com", chosenPassword, "Existing", ""); s != http.StatusCreated {
		t.Fatalf("register: %d %v", s, b)
	}
	existing := e.id("cs_test_existing")
	if s, b := e.deliver(e.id("evt"), checkoutSession(existing, "EXISTING@example.com", "Existing", "paid", nil)); s != http.StatusOK {
		t.Fatalf("webhook: %d %v", s, b)
	}
	e.waitUntil(20*time.Second, "the checkout linked", func() bool { u, _ := e.checkoutAccount(existing); return u != "" })
	if _, typ := e.checkoutAccount(existing); typ != "identity.checkout_linked" {
		t.Fatalf("the existing payer's checkout was %s", typ)
	}
	status, body = e.register("existing@example.com", chosenPassword, "Existing", existing)
	refused("linked session", status, body, http.StatusConflict, "stripe_session_id", "session_used")
	if n := e.accountsWith("existing@example.com"); n != 1 {
		t.Fatalf("%d accounts for the existing payer", n)
	}
	// A signed-in buyer (the session names the account), paying with
	// another email: linked to the buyer, no account for that email.
	if s, b := e.register("signedin@example.com", chosenPassword, "Signed In", ""); s != http.StatusCreated {
		t.Fatalf("register: %d %v", s, b)
	} else {
		buyer := b["id"].(string)
		own := e.id("cs_test_own")
		if s, b := e.deliver(e.id("evt"), checkoutSession(own, "billing@example.com", "Billing", "paid",
			map[string]string{"strata_account_id": buyer, "strata_product_line": "voice", "strata_plan": "pro"})); s != http.StatusOK {
			t.Fatalf("webhook: %d %v", s, b)
		}
		e.waitUntil(20*time.Second, "the buyer's checkout linked", func() bool { u, _ := e.checkoutAccount(own); return u != "" })
		if u, typ := e.checkoutAccount(own); u != buyer || typ != "identity.checkout_linked" {
			t.Fatalf("the signed-in buyer's checkout: %s %s, want linked to %s", typ, u, buyer)
		}
		if n := e.accountsWith("billing@example.com"); n != 0 {
			t.Fatalf("%d accounts for the billing email", n)
		}
	}
	time.Sleep(500 * time.Millisecond)
	for _, email := range []string{"existing@example.com", "billing@example.com", "late@example.com"} {
		if n := len(e.mailsTo(email, "choose your password")) + len(e.crm.callsFor(email)); n != 0 {
			t.Errorf("%s got %d set-password mails or CRM records", email, n)
		}
	}
	// Unknown sessions are asked of the provider at most 20 times an hour
	// per client.
	for i := 0; ; i++ {
		status, body = e.register("x@example.com", chosenPassword, "X", e.id("cs_test_flood"))
		if status == http.StatusTooManyRequests {
			break
		}
		if i > 25 {
			t.Fatalf("no limit on provider lookups: %d %v", status, body)
		}
	}
}

// A buyer back from the payment page before the webhook: register with the
// session id asks the provider, provisions and completes the account at
// once; the webhook that follows changes nothing. Fifteen such
// registrations at once make one account (one client may have Stripe asked
// 20 times an hour: the first registration and these stay below it).
func TestRegisterBeforeTheWebhookProvisionsOnce(t *testing.T) {
	t.Parallel()
	e := startProvisioningServer(t)
	session := e.id("cs_test_early")
	email := "early@example.com"
	obj := checkoutSession(session, email, "Early Bird", "paid", map[string]string{"strata_product_line": "voice", "strata_plan": "pro"})
	e.stripe.put(obj)
	status, body := e.register(email, chosenPassword, "Early Bird", session)
	if status != http.StatusCreated {
		t.Fatalf("register before the webhook: %d %v", status, body)
	}
	userID := body["id"].(string)
	if u, typ := e.checkoutAccount(session); u != userID || typ != "identity.checkout_provisioned" {
		t.Fatalf("the checkout's account: %s %s, want %s", typ, u, userID)
	}
	if s, b := call(t, "POST", e.api+"/api/v1/auth/login", "", map[string]any{"email": email, "password": chosenPassword}); s != http.StatusOK {
		t.Fatalf("sign in: %d %v", s, b)
	}
	if s, b := e.deliver(e.id("evt"), obj); s != http.StatusOK {
		t.Fatalf("the late webhook: %d %v", s, b)
	}
	e.waitUntil(20*time.Second, "the CRM call", func() bool { return len(e.crm.callsFor(email)) > 0 })
	e.waitUntil(20*time.Second, "the late webhook processed", func() bool {
		return e.count(`SELECT count(*) FROM es.events WHERE event_type = 'payments.webhook_processed'`) == 1
	})
	time.Sleep(time.Second)
	if n := e.accountsWith(email); n != 1 {
		t.Fatalf("%d accounts, want 1", n)
	}
	if n := e.count(`SELECT count(*) FROM es.events WHERE stream_id = $1 AND event_type = 'payments.checkout_session_completed'`,
		"payments-checkout:"+session); n != 1 {
		t.Fatalf("the completion was recorded %d times", n)
	}
	if n := len(e.mailsTo(email, "choose your password")); n != 0 {
		t.Fatalf("%d set-password mails to a buyer who chose a password at once", n)
	}
	if n := len(e.crm.callsFor(email)); n != 1 {
		t.Fatalf("%d CRM calls", n)
	}

	// Fifteen registrations with one session at once: one account, one
	// 201, the others told the session is used.
	race := e.id("cs_test_race")
	raceEmail := "race@example.com"
	e.stripe.put(checkoutSession(race, raceEmail, "Race", "paid", nil))
	var wg sync.WaitGroup
	var mu sync.Mutex
	got := map[int]int{}
	ids := map[string]bool{}
	const racers = 15
	for i := 0; i < racers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, b := e.register(raceEmail, chosenPassword, "Race", race)
			mu.Lock()
			defer mu.Unlock()
			got[s]++
			if s == http.StatusCreated {
				ids[b["id"].(string)] = true
			} else if s != http.StatusConflict || b["rule"] != "session_used" {
				t.Errorf("a racing registration: %d %v", s, b)
			}
		}()
	}
	wg.Wait()
	if got[http.StatusCreated] != 1 || got[http.StatusConflict] != racers-1 || len(ids) != 1 {
		t.Fatalf("statuses %v, accounts answered %v", got, ids)
	}
	e.waitUntil(20*time.Second, "the CRM call", func() bool { return len(e.crm.callsFor(raceEmail)) > 0 })
	time.Sleep(time.Second)
	if n := e.accountsWith(raceEmail); n != 1 {
		t.Fatalf("%d accounts, want 1", n)
	}
	if n := len(e.crm.callsFor(raceEmail)); n != 1 {
		t.Fatalf("%d CRM calls", n)
	}
}
