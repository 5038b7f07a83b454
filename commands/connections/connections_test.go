package connections_test

import (
	"bytes"
	"context"
	stdsql "database/sql"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/connections"
	domain "github.com/strata-platform/strata/domain/connections"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

const redirect = "https://app.strata.test/connections/callback"

// env is a connections service on a fresh database with providers at one
// fake authorization server: alpha (PKCE), beta (no PKCE), norevoke (no
// revocation) and unset (no client credentials).
type env struct {
	t     *testing.T
	svc   *connections.Service
	store *eventstore.Store
	db    *stdsql.DB
	clock *kernel.FixedClock
	as    *authServer
}

func newEnv(t *testing.T) *env {
	t.Helper()
	db := pgtest.DB(t)
	reg := eventstore.NewRegistry()
	for _, c := range domain.Events() {
		if err := reg.Register(eventstore.EventDef{Name: c().EventType(), Version: 1, New: c}); err != nil {
			t.Fatal(err)
		}
	}
	if err := reg.Seal(); err != nil {
		t.Fatal(err)
	}
	clock := kernel.NewFixedClock(time.Now().UTC().Truncate(time.Second))
	store := eventstore.New(db.SQL, reg, clock, eventstore.NewULIDs(clock))
	svc, err := connections.New(connections.Config{Store: store, Key: bytes.Repeat([]byte{9}, 32), Clock: clock,
		IDs: eventstore.NewULIDs(clock), RefreshBefore: 5 * time.Minute, StateTTL: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	as := newAuthServer(t)
	d := &http.Client{Timeout: 10 * time.Second}
	unset := as.settings("STRATA_UNSET_")
	unset.ClientID, unset.ClientSecret = "", ""
	if err := svc.Register(
		&provider{name: "alpha", s: as.settings("STRATA_ALPHA_"), pkce: true, clock: clock, d: d},
		&provider{name: "beta", s: as.settings("STRATA_BETA_"), clock: clock, d: d},
		&provider{name: "norevoke", s: as.settings("STRATA_NOREVOKE_"), noRevoke: true, clock: clock, d: d},
		&provider{name: "unset", s: unset, clock: clock, d: d},
	); err != nil {
		t.Fatal(err)
	}
	if err := svc.Register(&provider{name: "alpha"}); err == nil {
		t.Fatal("a provider registered twice")
	}
	return &env{t: t, svc: svc, store: store, db: db.SQL, clock: clock, as: as}
}

// connect runs the whole authorization as owner (user at the fake).
func (e *env) connect(owner, prov, user string) domain.Account {
	e.t.Helper()
	ctx := context.Background()
	a, err := e.svc.Begin(ctx, owner, prov, redirect)
	if err != nil {
		e.t.Fatal(err)
	}
	code, state := e.as.consent(a.URL, user)
	acc, err := e.svc.Complete(ctx, owner, prov, code, state)
	if err != nil {
		e.t.Fatalf("complete: %v", err)
	}
	return acc
}

func (e *env) events(owner, prov string) []kernel.Event {
	e.t.Helper()
	envs, err := e.store.Load(context.Background(), domain.StreamID(owner, prov), eventstore.LoadOptions{})
	if err != nil {
		e.t.Fatal(err)
	}
	var out []kernel.Event
	for _, en := range envs {
		out = append(out, en.Event)
	}
	return out
}

// rows counts owner's token rows.
func (e *env) rows(owner string) int {
	e.t.Helper()
	var n int
	if err := e.db.QueryRow(`SELECT count(*) FROM platform.connection_tokens WHERE owner = $1`, owner).Scan(&n); err != nil {
		e.t.Fatal(err)
	}
	return n
}

func (e *env) sealedOf(owner, prov string) string {
	e.t.Helper()
	var s string
	if err := e.db.QueryRow(`SELECT sealed FROM platform.connection_tokens WHERE owner = $1 AND provider = $2`, owner, prov).Scan(&s); err != nil {
		e.t.Fatal(err)
	}
	return s
}

// allPayloads is every event's payload and metadata, as text.
func (e *env) allPayloads() string {
	e.t.Helper()
	var s stdsql.NullString
	if err := e.db.QueryRow(`SELECT string_agg(payload::text || metadata::text, ' ') FROM es.events`).Scan(&s); err != nil {
		e.t.Fatal(err)
	}
	return s.String
}

// wantErr checks err is a kernel error of kind on field with rule ("":
// any).
func wantErr(t *testing.T, err error, kind kernel.Kind, field, rule string) *kernel.Error {
	t.Helper()
	var ke *kernel.Error
	if !errors.As(err, &ke) || ke.Kind != kind {
		t.Fatalf("error %v (%T), want kind %v", err, err, kind)
	}
	if field != "" && ke.Field != field {
		t.Fatalf("field %q, want %q: %v", ke.Field, field, err)
	}
	if rule != "" && ke.Rule != rule {
		t.Fatalf("rule %q, want %q: %v", ke.Rule, rule, err)
	}
	return ke
}

func TestBegin(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()

	_, err := e.svc.Begin(ctx, "user:ana", "unset", redirect)
	ke := wantErr(t, err, kernel.KindUnavailable, "", "")
	if !strings.Contains(ke.Message, "STRATA_UNSET_CLIENT_ID") || !strings.Contains(ke.Message, "STRATA_UNSET_CLIENT_SECRET") {
		t.Fatalf("missing settings not named: %s", ke.Message)
	}
	_, err = e.svc.Complete(ctx, "user:ana", "unset", "c", "s")
	wantErr(t, err, kernel.KindUnavailable, "", "")
	_, err = e.svc.Begin(ctx, "user:ana", "nope", redirect)
	wantErr(t, err, kernel.KindNotFound, "", "")

	for _, c := range []struct {
		uri string
		ok  bool
	}{
		{"https://app.example/cb", true},
		{"https://app.example:8443/cb?x=1", true},
		{"http://localhost:8080/cb", true},
		{"http://127.0.0.1/cb", true},
		{"http://[::1]:9000/cb", true},
		{"http://app.example/cb", false},
		{"http://localhost.evil.example/cb", false},
		{"https://app.example/cb#frag", false},
		{"https://user:pw@app.example/cb", false},
		{"https://user@app.example/cb", false},
		{"ftp://app.example/cb", false},
		{"/relative/cb", false},
		{"https:///nohost", false},
		{"", false},
		{"https://app.example/" + strings.Repeat("a", 2001), false},
	} {
		t.Run(c.uri, func(t *testing.T) {
			a, err := e.svc.Begin(ctx, "user:ana", "alpha", c.uri)
			if c.ok {
				if err != nil || a.URL == "" {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			wantErr(t, err, kernel.KindInvalid, "redirect_uri", "url")
		})
	}

	// The authorization URL carries the state and, for a PKCE provider,
	// an S256 challenge (43 base64url characters); none without PKCE.
	for _, c := range []struct {
		prov string
		pkce bool
	}{{"alpha", true}, {"beta", false}} {
		a, err := e.svc.Begin(ctx, "user:ana", c.prov, redirect)
		if err != nil {
			t.Fatal(err)
		}
		u, err := url.Parse(a.URL)
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		if q.Get("state") != a.State || a.State == "" || q.Get("redirect_uri") != redirect || a.ExpiresIn != 600 {
			t.Fatalf("%s: %s (%+v)", c.prov, a.URL, a)
		}
		ch := q.Get("code_challenge")
		if c.pkce && (q.Get("code_challenge_method") != "S256" || len(ch) != 43 || strings.ContainsAny(ch, "+/=")) {
			t.Fatalf("%s: challenge %q in %s", c.prov, ch, a.URL)
		}
		if !c.pkce && (ch != "" || q.Has("code_challenge_method")) {
			t.Fatalf("%s: a challenge without PKCE: %s", c.prov, a.URL)
		}
		// The state is opaque: it names neither the owner nor the verifier.
		if strings.Contains(a.State, "ana") {
			t.Fatalf("state readable: %s", a.State)
		}
	}
}

// flip changes one character in the middle of s.
func flip(s string) string {
	b := []byte(s)
	i := len(b) / 2
	if b[i] == 'A' {
		b[i] = 'B'
	} else {
		b[i] = 'A'
	}
	return string(b)
}

func TestCompleteRefusesBadStates(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	const owner = "user:ana"
	begin := func(prov string) (code, state string) {
		t.Helper()
		a, err := e.svc.Begin(ctx, owner, prov, redirect)
		if err != nil {
			t.Fatal(err)
		}
		return e.as.consent(a.URL, "ana")
	}
	cases := []struct {
		name string
		run  func() error
		rule string
	}{
		{"tampered", func() error {
			code, st := begin("alpha")
			_, err := e.svc.Complete(ctx, owner, "alpha", code, flip(st))
			return err
		}, "valid"},
		{"truncated", func() error {
			code, st := begin("alpha")
			_, err := e.svc.Complete(ctx, owner, "alpha", code, st[:len(st)-4])
			return err
		}, "valid"},
		{"not base64", func() error {
			code, _ := begin("alpha")
			_, err := e.svc.Complete(ctx, owner, "alpha", code, "%%%not-a-state%%%")
			return err
		}, "valid"},
		{"missing", func() error {
			code, _ := begin("alpha")
			_, err := e.svc.Complete(ctx, owner, "alpha", code, "")
			return err
		}, "required"},
		{"another provider", func() error {
			code, st := begin("beta")
			_, err := e.svc.Complete(ctx, owner, "alpha", code, st)
			return err
		}, "valid"},
		{"another owner", func() error {
			code, st := begin("alpha")
			_, err := e.svc.Complete(ctx, "user:mallory", "alpha", code, st)
			return err
		}, "valid"},
		{"expired", func() error {
			code, st := begin("alpha")
			e.clock.Advance(10*time.Minute + 2*time.Second)
			_, err := e.svc.Complete(ctx, owner, "alpha", code, st)
			return err
		}, "unexpired"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantErr(t, c.run(), kernel.KindInvalid, "state", c.rule)
			if n := e.rows(owner); n != 0 {
				t.Fatalf("%d token rows stored", n)
			}
			for _, p := range []string{"alpha", "beta"} {
				if evs := e.events(owner, p); len(evs) != 0 {
					t.Fatalf("events stored: %v", evs)
				}
			}
		})
	}

	// A state refused for another caller is still the owner's to use
	// (the refusal did not spend it); used once, it is refused again.
	code, st := begin("alpha")
	_, err := e.svc.Complete(ctx, "user:mallory", "alpha", code, st)
	wantErr(t, err, kernel.KindInvalid, "state", "valid")
	if _, err := e.svc.Complete(ctx, "", "alpha", code, st); err != nil {
		t.Fatalf("the owner's unauthenticated callback: %v", err)
	}
	code2, _ := begin("alpha")
	_, err = e.svc.Complete(ctx, owner, "alpha", code2, st)
	wantErr(t, err, kernel.KindInvalid, "state", "unused")
	if evs := e.events(owner, "alpha"); len(evs) != 1 {
		t.Fatalf("%d events after a reused state", len(evs))
	}

	// A code the provider refuses: 400 on code, nothing stored.
	code, st = begin("beta")
	_, err = e.svc.Complete(ctx, owner, "beta", code+"x", st)
	ke := wantErr(t, err, kernel.KindInvalid, "code", "accepted_by_provider")
	if !strings.Contains(ke.Message, "invalid_grant") {
		t.Fatalf("no provider reason: %s", ke.Message)
	}
	_, err = e.svc.Complete(ctx, owner, "beta", "", st)
	wantErr(t, err, kernel.KindInvalid, "code", "required")
	// A PKCE provider whose challenge does not match the verifier: the
	// fake refuses the code (the verifier is the one the state carries).
	a, err := e.svc.Begin(ctx, owner, "alpha", redirect)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(a.URL)
	q := u.Query()
	q.Set("code_challenge", strings.Repeat("x", 43))
	u.RawQuery = q.Encode()
	code, st = e.as.consent(u.String(), "ana")
	_, err = e.svc.Complete(ctx, owner, "alpha", code, st)
	wantErr(t, err, kernel.KindInvalid, "code", "accepted_by_provider")
	if evs := e.events(owner, "beta"); len(evs) != 0 || e.rows(owner) != 1 {
		t.Fatalf("stored after refused codes: %v, %d rows", evs, e.rows(owner))
	}
}

func TestCompleteStoresSealedTokens(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	acc := e.connect("user:ana", "alpha", "ana")
	if acc.Status != domain.StatusConnected || acc.Subject != "sub-ana" || acc.Handle != "@ana" || acc.Owner != "user:ana" ||
		acc.ID == "" || acc.TokenVersion != 1 {
		t.Fatalf("account %+v", acc)
	}
	tok, id, err := e.svc.Token(ctx, "user:ana", "alpha")
	if err != nil || tok.AccessToken == "" || tok.RefreshToken == "" || id.ID != "sub-ana" || id.Extra["tenant"] != "t1" {
		t.Fatalf("token %+v %+v %v", tok, id, err)
	}
	evs := e.events("user:ana", "alpha")
	if len(evs) != 1 {
		t.Fatalf("events %v", evs)
	}
	c, ok := evs[0].(*domain.Connected)
	if !ok || c.Method != "oauth" || c.By != "user:ana" || c.TokenVersion != 1 || c.Scope != "read write" || c.Expiry.IsZero() {
		t.Fatalf("event %+v", evs[0])
	}
	raw, _ := json.Marshal(evs[0])
	all := e.allPayloads()
	for _, secret := range []string{tok.AccessToken, tok.RefreshToken} {
		if strings.Contains(string(raw), secret) || strings.Contains(all, secret) {
			t.Fatalf("a token is in an event: %s", raw)
		}
	}
	sealedA := e.sealedOf("user:ana", "alpha")
	if strings.Contains(sealedA, tok.AccessToken) || strings.Contains(sealedA, tok.RefreshToken) || strings.Contains(sealedA, "access_token") {
		t.Fatalf("sealed column readable: %s", sealedA)
	}
	var expiry stdsql.NullTime
	var refreshable bool
	if err := e.db.QueryRow(`SELECT expiry, refreshable FROM platform.connection_tokens WHERE owner = 'user:ana'`).Scan(&expiry, &refreshable); err != nil ||
		!expiry.Valid || !refreshable {
		t.Fatalf("row expiry %v refreshable %v: %v", expiry, refreshable, err)
	}

	// A sealed value copied onto another row (another owner, another
	// provider, another version) does not open there.
	e.connect("user:bob", "alpha", "bob")
	e.connect("user:ana", "beta", "ana")
	copyTo := func(owner, prov, sealed string, version int64) {
		t.Helper()
		if _, err := e.db.Exec(`UPDATE platform.connection_tokens SET sealed = $3, version = $4 WHERE owner = $1 AND provider = $2`,
			owner, prov, sealed, version); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		owner, prov string
		version     int64
	}{{"user:bob", "alpha", 1}, {"user:ana", "beta", 1}, {"user:ana", "alpha", 2}} {
		orig := e.sealedOf(c.owner, c.prov)
		copyTo(c.owner, c.prov, sealedA, c.version)
		if _, _, err := e.svc.Token(ctx, c.owner, c.prov); err == nil || kernel.KindOf(err) != kernel.KindInternal {
			t.Fatalf("%s/%s v%d opened a copied value: %v", c.owner, c.prov, c.version, err)
		}
		copyTo(c.owner, c.prov, orig, 1)
	}
	if _, _, err := e.svc.Token(ctx, "user:bob", "alpha"); err != nil {
		t.Fatal(err)
	}
}

func TestToken(t *testing.T) {
	ctx := context.Background()
	t.Run("refreshes when due", func(t *testing.T) {
		e := newEnv(t)
		e.connect("user:ana", "alpha", "ana")
		first, _, err := e.svc.Token(ctx, "user:ana", "alpha")
		if err != nil {
			t.Fatal(err)
		}
		e.clock.Advance(54 * time.Minute) // 6 minutes left: not due
		if tok, _, err := e.svc.Token(ctx, "user:ana", "alpha"); err != nil || tok != first || e.as.refreshes.Load() != 0 {
			t.Fatalf("refreshed early: %v, %d refreshes", err, e.as.refreshes.Load())
		}
		e.clock.Advance(2 * time.Minute) // 4 minutes left: due
		tok, _, err := e.svc.Token(ctx, "user:ana", "alpha")
		if err != nil || tok.AccessToken == first.AccessToken || tok.RefreshToken == first.RefreshToken ||
			!tok.Expiry.Equal(e.clock.Now().Add(time.Hour)) || e.as.refreshes.Load() != 1 {
			t.Fatalf("refresh: %+v %v (%d refreshes)", tok, err, e.as.refreshes.Load())
		}
		evs := e.events("user:ana", "alpha")
		r, ok := evs[len(evs)-1].(*domain.Refreshed)
		if len(evs) != 2 || !ok || r.TokenVersion != 2 || !r.Expiry.Equal(tok.Expiry) {
			t.Fatalf("events %v", evs)
		}
		// The new tokens are what is stored now; no second refresh.
		again, _, err := e.svc.Token(ctx, "user:ana", "alpha")
		if err != nil || again != tok || e.as.refreshes.Load() != 1 {
			t.Fatalf("after refresh: %+v %v", again, err)
		}
		if strings.Contains(e.allPayloads(), tok.AccessToken) {
			t.Fatal("refreshed token in an event")
		}
	})

	t.Run("concurrent callers refresh once", func(t *testing.T) {
		e := newEnv(t)
		e.connect("user:ana", "alpha", "ana")
		e.clock.Advance(58 * time.Minute)
		e.as.refreshDelay.Store(int64(150 * time.Millisecond))
		const n = 4
		var wg sync.WaitGroup
		toks := make([]connections.Tokens, n)
		errs := make([]error, n)
		start := make(chan struct{})
		for i := range n {
			wg.Go(func() {
				<-start
				toks[i], _, errs[i] = e.svc.Token(ctx, "user:ana", "alpha")
			})
		}
		close(start)
		wg.Wait()
		for i := range n {
			if errs[i] != nil || toks[i] != toks[0] {
				t.Fatalf("caller %d: %+v %v (first %+v)", i, toks[i], errs[i], toks[0])
			}
		}
		if got := e.as.refreshes.Load(); got != 1 {
			t.Fatalf("%d refreshes at the provider, want 1", got)
		}
		if evs := e.events("user:ana", "alpha"); len(evs) != 2 {
			t.Fatalf("events %v", evs)
		}
	})

	t.Run("refused refresh needs reconnect", func(t *testing.T) {
		e := newEnv(t)
		e.connect("user:ana", "alpha", "ana")
		e.as.revokeRefresh()
		e.clock.Advance(58 * time.Minute)
		_, _, err := e.svc.Token(ctx, "user:ana", "alpha")
		ke := wantErr(t, err, kernel.KindConflict, "provider", "connected")
		if !strings.Contains(ke.Message, "reconnected") {
			t.Fatalf("message %q", ke.Message)
		}
		evs := e.events("user:ana", "alpha")
		nr, ok := evs[len(evs)-1].(*domain.NeedsReconnect)
		if len(evs) != 2 || !ok || !strings.Contains(nr.Reason, "invalid_grant") {
			t.Fatalf("events %v", evs)
		}
		// No further attempts at the provider while it needs reconnecting.
		_, _, err = e.svc.Token(ctx, "user:ana", "alpha")
		wantErr(t, err, kernel.KindConflict, "provider", "connected")
		if e.as.refreshes.Load() != 1 {
			t.Fatalf("%d refreshes", e.as.refreshes.Load())
		}
		// Connecting again clears it.
		e.connect("user:ana", "alpha", "ana")
		if _, _, err := e.svc.Token(ctx, "user:ana", "alpha"); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("not connected", func(t *testing.T) {
		e := newEnv(t)
		_, _, err := e.svc.Token(ctx, "user:ana", "alpha")
		ke := wantErr(t, err, kernel.KindConflict, "provider", "connected")
		if !strings.Contains(ke.Message, "connect") {
			t.Fatalf("message %q", ke.Message)
		}
		_, _, err = e.svc.Token(ctx, "user:ana", "nope")
		wantErr(t, err, kernel.KindNotFound, "", "")
		// Another owner's connection is not ana's.
		e.connect("user:bob", "alpha", "bob")
		_, _, err = e.svc.Token(ctx, "user:ana", "alpha")
		wantErr(t, err, kernel.KindConflict, "provider", "connected")
	})
}

func TestReportAndDisconnect(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.connect("user:ana", "alpha", "ana")

	// Failures other than Unauthorized change nothing.
	e.svc.Report(ctx, "user:ana", "alpha", connections.Fail(connections.Refused, 404, "not_found"))
	e.svc.Report(ctx, "user:ana", "alpha", errors.New("boom"))
	if evs := e.events("user:ana", "alpha"); len(evs) != 1 {
		t.Fatalf("events %v", evs)
	}
	e.svc.Report(ctx, "user:ana", "alpha", connections.Fail(connections.Unauthorized, 401, "token_revoked"))
	e.svc.Report(ctx, "user:ana", "alpha", connections.Fail(connections.Unauthorized, 401, "token_revoked"))
	evs := e.events("user:ana", "alpha")
	if len(evs) != 2 {
		t.Fatalf("events %v", evs)
	}
	if nr, ok := evs[1].(*domain.NeedsReconnect); !ok || nr.Reason != "token_revoked" {
		t.Fatalf("event %+v", evs[1])
	}
	changed, err := e.svc.MarkNeedsReconnect(ctx, "user:ana", "alpha", "again")
	if err != nil || changed {
		t.Fatalf("marked twice: %v %v", changed, err)
	}
	if changed, err := e.svc.MarkNeedsReconnect(ctx, "user:nobody", "alpha", "x"); err != nil || changed {
		t.Fatalf("marked nothing: %v %v", changed, err)
	}
	_, _, err = e.svc.Token(ctx, "user:ana", "alpha")
	ke := wantErr(t, err, kernel.KindConflict, "provider", "connected")
	if !strings.Contains(ke.Message, "reconnected") {
		t.Fatalf("message %q", ke.Message)
	}
	acc, err := e.svc.Account(ctx, "user:ana", "alpha")
	if err != nil || acc.Status != domain.StatusNeedsReconnect || acc.Reason != "token_revoked" {
		t.Fatalf("account %+v %v", acc, err)
	}

	// Disconnect revokes at the provider (even an account that needs
	// reconnecting), forgets the row and records it.
	e.connect("user:ana", "beta", "ana")
	betaTok, _, err := e.svc.Token(ctx, "user:ana", "beta")
	if err != nil {
		t.Fatal(err)
	}
	revoked, err := e.svc.Disconnect(ctx, "user:ana", "user:ana", "beta")
	if err != nil || !revoked {
		t.Fatalf("disconnect: %v %v", revoked, err)
	}
	if got := e.as.revokedTokens(); len(got) != 1 || got[0] != betaTok.AccessToken {
		t.Fatalf("revoked at the provider: %v", got)
	}
	evs = e.events("user:ana", "beta")
	if d, ok := evs[len(evs)-1].(*domain.Disconnected); !ok || !d.Revoked || d.Note != "" || d.By != "user:ana" {
		t.Fatalf("event %+v", evs[len(evs)-1])
	}
	if e.rows("user:ana") != 1 {
		t.Fatalf("%d rows after disconnect", e.rows("user:ana"))
	}
	_, _, err = e.svc.Token(ctx, "user:ana", "beta")
	wantErr(t, err, kernel.KindConflict, "provider", "connected")
	_, err = e.svc.Disconnect(ctx, "user:ana", "user:ana", "beta")
	wantErr(t, err, kernel.KindNotFound, "", "")
	_, err = e.svc.Disconnect(ctx, "user:ana", "user:ana", "norevoke")
	wantErr(t, err, kernel.KindNotFound, "", "")

	revoked, err = e.svc.Disconnect(ctx, "user:ana", "user:ana", "alpha")
	if err != nil || !revoked || e.rows("user:ana") != 0 {
		t.Fatalf("disconnect needs-reconnect: %v %v", revoked, err)
	}

	// A provider without revocation: disconnected with a note.
	e.connect("user:ana", "norevoke", "ana")
	revoked, err = e.svc.Disconnect(ctx, "user:ana", "user:ana", "norevoke")
	if err != nil || revoked {
		t.Fatalf("disconnect: %v %v", revoked, err)
	}
	evs = e.events("user:ana", "norevoke")
	if d, ok := evs[len(evs)-1].(*domain.Disconnected); !ok || d.Revoked || !strings.Contains(d.Note, "no token revocation") {
		t.Fatalf("event %+v", evs[len(evs)-1])
	}
	if e.rows("user:ana") != 0 || len(e.as.revokedTokens()) != 2 {
		t.Fatalf("rows %d, revoked %v", e.rows("user:ana"), e.as.revokedTokens())
	}
}

func TestList(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	if l, err := e.svc.List(ctx, "user:ana", nil); err != nil || len(l) != 0 {
		t.Fatalf("empty list: %v %v", l, err)
	}
	e.connect("user:ana", "alpha", "ana")
	e.connect("user:ana", "beta", "ana")
	e.connect("user:ana", "norevoke", "ana")
	e.connect("user:bob", "alpha", "bob")
	if _, err := e.svc.Disconnect(ctx, "user:ana", "user:ana", "beta"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.MarkNeedsReconnect(ctx, "user:ana", "norevoke", "revoked"); err != nil {
		t.Fatal(err)
	}
	names := func(l []domain.Account) string {
		var s []string
		for _, a := range l {
			s = append(s, a.Provider+"="+a.Status)
		}
		return strings.Join(s, " ")
	}
	l, err := e.svc.List(ctx, "user:ana", nil)
	if err != nil || names(l) != "alpha=connected norevoke=needs_reconnect" {
		t.Fatalf("list %q %v", names(l), err)
	}
	l, err = e.svc.List(ctx, "user:ana", []string{"beta", "norevoke"})
	if err != nil || names(l) != "norevoke=needs_reconnect" {
		t.Fatalf("filtered %q %v", names(l), err)
	}
	l, err = e.svc.List(ctx, "user:bob", nil)
	if err != nil || names(l) != "alpha=connected" || l[0].Handle != "@bob" {
		t.Fatalf("bob %q %v", names(l), err)
	}
}

func TestRefreshDue(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.as.expiresIn.Store(30 * 60)
	e.connect("user:soon", "alpha", "soon")
	e.as.expiresIn.Store(3 * 3600)
	e.connect("user:later", "alpha", "later")
	e.as.expiresIn.Store(0)
	e.connect("user:never", "alpha", "never")
	e.as.expiresIn.Store(3600)

	// Nothing expires within 5 minutes (RefreshBefore) plus 10 minutes.
	if r, f, err := e.svc.RefreshDue(ctx, 10*time.Minute); err != nil || r != 0 || f != 0 {
		t.Fatalf("refreshed %d refused %d: %v", r, f, err)
	}
	// Within 5 plus 30 minutes: the 30-minute token only.
	before, _, _ := e.svc.Token(ctx, "user:soon", "alpha")
	r, f, err := e.svc.RefreshDue(ctx, 30*time.Minute)
	if err != nil || r != 1 || f != 0 || e.as.refreshes.Load() != 1 {
		t.Fatalf("refreshed %d refused %d (%d at the provider): %v", r, f, e.as.refreshes.Load(), err)
	}
	after, _, _ := e.svc.Token(ctx, "user:soon", "alpha")
	if after.AccessToken == before.AccessToken || !after.Expiry.Equal(e.clock.Now().Add(time.Hour)) {
		t.Fatalf("not refreshed: %+v", after)
	}
	if evs := e.events("user:later", "alpha"); len(evs) != 1 {
		t.Fatalf("later refreshed: %v", evs)
	}
	// A refused refresh is counted, and marks the account.
	e.as.revokeRefresh()
	e.clock.Advance(2*time.Hour + 58*time.Minute)
	r, f, err = e.svc.RefreshDue(ctx, 0)
	if err != nil || r != 0 || f != 2 {
		t.Fatalf("refreshed %d refused %d: %v", r, f, err)
	}
	for _, o := range []string{"user:soon", "user:later"} {
		if a, _ := e.svc.Account(ctx, o, "alpha"); a.Status != domain.StatusNeedsReconnect {
			t.Fatalf("%s: %+v", o, a)
		}
	}
	if a, _ := e.svc.Account(ctx, "user:never", "alpha"); a.Status != domain.StatusConnected {
		t.Fatalf("never: %+v", a)
	}
}

func TestConnectToken(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.as.addToken("pat-ana-123", "ana")
	_, err := e.svc.ConnectToken(ctx, "user:ana", "user:ana", "beta", connections.Tokens{})
	wantErr(t, err, kernel.KindInvalid, "access_token", "required")
	_, err = e.svc.ConnectToken(ctx, "user:ana", "user:ana", "nope", connections.Tokens{AccessToken: "x"})
	wantErr(t, err, kernel.KindNotFound, "", "")
	// A token the provider does not accept is refused; nothing stored.
	_, err = e.svc.ConnectToken(ctx, "user:ana", "user:ana", "beta", connections.Tokens{AccessToken: "pat-wrong"})
	ke := wantErr(t, err, kernel.KindInvalid, "", "accepted_by_provider")
	if !strings.Contains(ke.Message, "invalid_token") || e.rows("user:ana") != 0 {
		t.Fatalf("%s; %d rows", ke.Message, e.rows("user:ana"))
	}
	acc, err := e.svc.ConnectToken(ctx, "user:ana", "user:admin", "beta", connections.Tokens{AccessToken: "pat-ana-123"})
	if err != nil || acc.Subject != "sub-ana" || acc.Handle != "@ana" || acc.Status != domain.StatusConnected {
		t.Fatalf("connect: %+v %v", acc, err)
	}
	evs := e.events("user:ana", "beta")
	if c, ok := evs[0].(*domain.Connected); !ok || c.Method != "token" || c.By != "user:admin" || !c.Expiry.IsZero() {
		t.Fatalf("event %+v", evs[0])
	}
	tok, _, err := e.svc.Token(ctx, "user:ana", "beta")
	if err != nil || tok.AccessToken != "pat-ana-123" {
		t.Fatalf("token %+v %v", tok, err)
	}
	if strings.Contains(e.allPayloads(), "pat-ana-123") || strings.Contains(e.sealedOf("user:ana", "beta"), "pat-ana-123") {
		t.Fatal("the token is readable at rest")
	}
	// Connecting again replaces the account (a new id, version 2).
	e.as.addToken("pat-ana-456", "ana")
	acc2, err := e.svc.ConnectToken(ctx, "user:ana", "user:ana", "beta", connections.Tokens{AccessToken: "pat-ana-456"})
	if err != nil || acc2.ID == acc.ID || acc2.TokenVersion != 2 {
		t.Fatalf("reconnect %+v %v", acc2, err)
	}
	if tok, _, err := e.svc.Token(ctx, "user:ana", "beta"); err != nil || tok.AccessToken != "pat-ana-456" {
		t.Fatalf("token %+v %v", tok, err)
	}
}
