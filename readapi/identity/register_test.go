package identity_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/google/uuid"
)

// countEvents counts the events of type eventType in the env's store.
func countEvents(t testing.TB, e *env, eventType string) int {
	t.Helper()
	var n int
	if err := e.store.DB().QueryRowContext(context.Background(),
		`SELECT count(*) FROM es.events WHERE event_type = $1`, eventType).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// expectProblem asserts an RFC 9457 problem body with the given status and,
// when not empty, field and rule.
func expectProblem(t testing.TB, st int, body map[string]any, h http.Header, raw []byte, status int, field, rule string) {
	t.Helper()
	if st != status {
		t.Fatalf("status %d, want %d: %s", st, status, raw)
	}
	if ct := h.Get("Content-Type"); ct != "application/problem+json" {
		t.Errorf("Content-Type = %q, want application/problem+json", ct)
	}
	if body["status"] != float64(status) {
		t.Errorf("body status = %v, want %d", body["status"], status)
	}
	if field != "" && body["field"] != field {
		t.Errorf("field = %v, want %q: %s", body["field"], field, raw)
	}
	if rule != "" && body["rule"] != rule {
		t.Errorf("rule = %v, want %q: %s", body["rule"], rule, raw)
	}
}

// caseVariant upper-cases the letters of s selected by the bits of n (the
// k-th letter follows bit k mod 5), so n in [0, 32) gives distinct spellings.
func caseVariant(s string, n int) string {
	var b strings.Builder
	k := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			if n>>(k%5)&1 == 1 {
				r = unicode.ToUpper(r)
			}
			k++
		}
		b.WriteRune(r)
	}
	return b.String()
}

// registerOutcome is one concurrent registration's answer.
type registerOutcome struct {
	email  string
	status int
	body   map[string]any
	ctype  string
	err    error
}

// tryRegister registers without touching t (it runs on its own goroutine).
func tryRegister(e *env, email string) registerOutcome {
	out := registerOutcome{email: email}
	b, _ := json.Marshal(map[string]any{"email": email, "password": goodPassword, "full_name": "Race Condition"})
	resp, err := http.Post(e.url+"/api/v1/auth/register", "application/json", bytes.NewReader(b))
	if err != nil {
		out.err = err
		return out
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		out.err = err
		return out
	}
	out.status, out.ctype = resp.StatusCode, resp.Header.Get("Content-Type")
	out.body = map[string]any{}
	if err := json.Unmarshal(raw, &out.body); err != nil {
		out.err = fmt.Errorf("bad JSON %q: %w", raw, err)
	}
	return out
}

func TestRegisterConcurrentSameEmail(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const n = 20
	const email = "race@example.com"
	emails := make([]string, n)
	for i := range emails {
		emails[i] = caseVariant(email, i)
	}
	if len(slices.Compact(slices.Sorted(slices.Values(emails)))) != n {
		t.Fatalf("case variants are not distinct: %v", emails)
	}

	outcomes := make([]registerOutcome, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			outcomes[i] = tryRegister(e, emails[i])
		}()
	}
	close(start)
	wg.Wait()

	var winners []registerOutcome
	for _, o := range outcomes {
		switch {
		case o.err != nil:
			t.Errorf("register %s: %v", o.email, o.err)
		case o.status == http.StatusCreated:
			winners = append(winners, o)
		case o.status == http.StatusConflict:
			if o.ctype != "application/problem+json" || o.body["field"] != "email" || o.body["rule"] != "unique" {
				t.Errorf("register %s: 409 with %s %v, want problem+json field email rule unique", o.email, o.ctype, o.body)
			}
		default:
			t.Errorf("register %s: status %d %v, want 201 or 409", o.email, o.status, o.body)
		}
	}
	if len(winners) != 1 {
		t.Fatalf("%d registrations succeeded, want exactly 1: %v", len(winners), winners)
	}
	win := winners[0]
	if !strings.EqualFold(win.body["email"].(string), email) {
		t.Errorf("winner's email = %v", win.body["email"])
	}

	// The account works under any spelling of its email, and is the winner's.
	for _, spelling := range []string{email, strings.ToUpper(email), win.email} {
		tok := login(t, e, spelling)
		if got := expect200(t, e, tok); got != win.body["id"] {
			t.Errorf("login %s: user %s, want the winner %v", spelling, got, win.body["id"])
		}
	}

	// Exactly one registration reached the store, with nothing left behind
	// by the 19 losers.
	if got := countEvents(t, e, "identity.user_registered"); got != 1 {
		t.Errorf("%d identity.user_registered events, want 1", got)
	}
	if got := countEvents(t, e, "identity.organization_created"); got != 1 {
		t.Errorf("%d identity.organization_created events, want 1", got)
	}
	var claims int
	if err := e.store.DB().QueryRow(`SELECT count(*) FROM es.unique_keys WHERE lower(value) = $1`, email).Scan(&claims); err != nil {
		t.Fatal(err)
	}
	if claims != 1 {
		t.Errorf("%d unique claims on the email, want 1", claims)
	}

	// A later registration under yet another spelling is refused too.
	st, body, h, raw := send(t, e, http.MethodPost, "/api/v1/auth/register", "application/json",
		strings.NewReader(`{"email":"RACE@EXAMPLE.COM","password":"`+goodPassword+`","full_name":"Late"}`))
	expectProblem(t, st, body, h, raw, http.StatusConflict, "email", "unique")
}

func TestRegisterRejectsWeakPasswords(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cases := []struct {
		name, password, rule string
		words                []string
	}{
		{"too short", "Short1!", "min_length:8", []string{"at least 8 characters"}},
		{"too short, no uppercase", "short1!", "min_length:8,uppercase", []string{"at least 8 characters", "an uppercase letter"}},
		{"no uppercase", "alllowercase1!", "uppercase", []string{"an uppercase letter"}},
		{"no lowercase", "ALLUPPERCASE1!", "lowercase", []string{"a lowercase letter"}},
		{"no digit", "NoDigitsHere!", "digit", []string{"a digit"}},
		{"no special character", "NoSpecial123", "special_character", []string{"a special character"}},
		{"empty", "", "required", []string{"password is required"}},
		{"several rules", "abc", "min_length:8,uppercase,digit,special_character",
			[]string{"at least 8 characters", "an uppercase letter", "a digit", "a special character"}},
		{"too long", "Aa1!" + strings.Repeat("x", 125), "max_length:128", []string{"at most 128 characters"}},
		{"white space is not special", "No Special 123", "special_character", []string{"a special character"}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			b, _ := json.Marshal(map[string]any{"email": fmt.Sprintf("weak%d@example.com", i), "password": c.password, "full_name": "Weak Password"})
			st, body, h, raw := send(t, e, http.MethodPost, "/api/v1/auth/register", "application/json", bytes.NewReader(b))
			expectProblem(t, st, body, h, raw, http.StatusBadRequest, "password", c.rule)
			detail, _ := body["detail"].(string)
			for _, w := range c.words {
				if !strings.Contains(detail, w) {
					t.Errorf("detail %q does not say %q", detail, w)
				}
			}
			if strings.Contains(string(raw), c.password) && c.password != "" {
				t.Errorf("the response echoes the password: %s", raw)
			}
		})
	}
	t.Cleanup(func() {
		if got := countEvents(t, e, "identity.user_registered"); got != 0 {
			t.Errorf("%d identity.user_registered events after weak passwords, want 0", got)
		}
	})
}

// unsized hides a body's length, so the client sends it chunked.
type unsized struct{ io.Reader }

func TestRegisterRejectsBadInput(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	good := func(email string, extra map[string]any) string {
		m := map[string]any{"email": email, "password": goodPassword, "full_name": "Bad Input"}
		for k, v := range extra {
			if v == nil {
				delete(m, k)
			} else {
				m[k] = v
			}
		}
		b, _ := json.Marshal(m)
		return string(b)
	}
	big := `{"email":"big@example.com","password":"` + goodPassword + `","full_name":"` + strings.Repeat("a", 2<<20) + `"}`
	cases := []struct {
		name        string
		contentType string
		body        func() io.Reader
		status      int
		field, rule string
	}{
		{"malformed JSON", "application/json", str(`{"email": "bad1@example.com", "password": `), 400, "body", "json_syntax"},
		{"not JSON at all", "application/json", str(`email=bad2@example.com`), 400, "body", "json_syntax"},
		{"empty body", "application/json", str(``), 400, "body", "required"},
		{"two JSON values", "application/json", str(good("bad3@example.com", nil) + good("bad3@example.com", nil)), 400, "body", "single_value"},
		{"missing email", "application/json", str(good("", map[string]any{"email": nil})), 400, "email", "required"},
		{"blank email", "application/json", str(good("   ", nil)), 400, "email", "required"},
		{"invalid email", "application/json", str(good("not-an-email", nil)), 400, "email", "email"},
		{"email with display name", "application/json", str(good("Bad <bad4@example.com>", nil)), 400, "email", "email"},
		{"email of the wrong type", "application/json", str(`{"email": 5, "password": "` + goodPassword + `", "full_name": "X"}`), 400, "email", "type:string"},
		{"missing full_name", "application/json", str(good("bad5@example.com", map[string]any{"full_name": nil})), 400, "full_name", "required"},
		{"blank full_name", "application/json", str(good("bad6@example.com", map[string]any{"full_name": "  "})), 400, "full_name", "required"},
		{"missing password", "application/json", str(good("bad7@example.com", map[string]any{"password": nil})), 400, "password", "required"},
		{"unknown field", "application/json", str(good("bad8@example.com", map[string]any{"role": "ADMIN"})), 400, "role", "unknown_field"},
		{"text/plain", "text/plain", str(good("bad9@example.com", nil)), 415, "", ""},
		{"no content type", "", str(good("bad10@example.com", nil)), 415, "", ""},
		{"form content type", "application/x-www-form-urlencoded", str("email=bad11@example.com"), 415, "", ""},
		{"2 MB body", "application/json", str(big), 413, "", ""},
		{"2 MB body, chunked", "application/json", func() io.Reader { return unsized{strings.NewReader(big)} }, 413, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			st, body, h, raw := send(t, e, http.MethodPost, "/api/v1/auth/register", c.contentType, c.body())
			expectProblem(t, st, body, h, raw, c.status, c.field, c.rule)
		})
	}
	t.Cleanup(func() {
		if got := countEvents(t, e, "identity.user_registered"); got != 0 {
			t.Errorf("%d identity.user_registered events after bad input, want 0", got)
		}
		if got := countEvents(t, e, "identity.organization_created"); got != 0 {
			t.Errorf("%d identity.organization_created events after bad input, want 0", got)
		}
	})
}

func str(s string) func() io.Reader { return func() io.Reader { return strings.NewReader(s) } }

func TestRegisterResponseAndLogin(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const email = "alice@example.com"
	st, reg, h := postJSON(t, e, "/api/v1/auth/register", map[string]any{"email": email, "password": goodPassword, "full_name": "Alice Example"})
	if st != http.StatusCreated {
		t.Fatalf("register: %d %v", st, reg)
	}
	if ct := h.Get("Content-Type"); ct != "application/json" {
		t.Errorf("register Content-Type = %q", ct)
	}
	if got, want := slices.Sorted(maps.Keys(reg)), []string{"access_token", "email", "expires_in", "id", "token_type"}; !slices.Equal(got, want) {
		t.Errorf("register keys = %v, want %v", got, want)
	}
	id, _ := reg["id"].(string)
	if _, err := uuid.Parse(id); err != nil {
		t.Errorf("id %q is not a UUID", id)
	}
	if reg["email"] != email || reg["token_type"] != "bearer" || reg["expires_in"] != float64(28800) {
		t.Errorf("register response = %v", reg)
	}
	token, _ := reg["access_token"].(string)
	if strings.Count(token, ".") != 2 {
		t.Fatalf("access_token %q is not a JWT", token)
	}

	// The profile.
	st, me, _, raw := send(t, e, http.MethodGet, "/api/v1/auth/me", "", nil, bearerH(token)...)
	if st != http.StatusOK {
		t.Fatalf("me: %d %s", st, raw)
	}
	for k, want := range map[string]any{"id": id, "email": email, "full_name": "Alice Example", "role": "USER",
		"plan": "free", "email_verified": false, "is_active": true} {
		if me[k] != want {
			t.Errorf("me.%s = %#v, want %#v", k, me[k], want)
		}
	}
	org, _ := me["organization"].(map[string]any)
	if org == nil {
		t.Fatalf("me has no organization: %s", raw)
	}
	if oid, _ := org["id"].(string); oid == "" || oid != me["organization_id"] {
		t.Errorf("organization.id = %v, organization_id = %v", org["id"], me["organization_id"])
	}
	if name, _ := org["name"].(string); name == "" {
		t.Errorf("organization.name is empty")
	}
	created, err := time.Parse(time.RFC3339Nano, fmt.Sprint(me["created_at"]))
	if err != nil || !created.Equal(e.clock.Now()) {
		t.Errorf("created_at = %v (%v), want %v", me["created_at"], err, e.clock.Now())
	}
	for _, secret := range []string{"password", "password_hash", "hash"} {
		if _, ok := me[secret]; ok {
			t.Errorf("me exposes %q", secret)
		}
	}

	// Both login routes answer with a token response whose token works.
	logins := []struct {
		name, path string
		body       map[string]any
	}{
		{"login", "/api/v1/auth/login", map[string]any{"email": email, "password": goodPassword}},
		{"login, other case", "/api/v1/auth/login", map[string]any{"email": "ALICE@Example.COM", "password": goodPassword}},
		{"login-json", "/api/v1/auth/login-json", map[string]any{"username": email, "password": goodPassword}},
	}
	for _, l := range logins {
		t.Run(l.name, func(t *testing.T) {
			st, out, _ := postJSON(t, e, l.path, l.body)
			if st != http.StatusOK {
				t.Fatalf("%d %v", st, out)
			}
			if out["token_type"] != "bearer" || out["expires_in"] != float64(28800) {
				t.Errorf("token response = %v", out)
			}
			tok, _ := out["access_token"].(string)
			if tok == "" {
				t.Fatalf("no access_token: %v", out)
			}
			if got := expect200(t, e, tok); got != id {
				t.Errorf("token's user = %s, want %s", got, id)
			}
		})
	}

	// Wrong password and unknown email are the same 401.
	failures := []struct {
		name, path string
		body       map[string]any
	}{
		{"wrong password", "/api/v1/auth/login", map[string]any{"email": email, "password": "Wr0ng-password"}},
		{"unknown email", "/api/v1/auth/login", map[string]any{"email": "nobody@example.com", "password": goodPassword}},
		{"wrong password, login-json", "/api/v1/auth/login-json", map[string]any{"username": email, "password": "Wr0ng-password"}},
		{"unknown email, login-json", "/api/v1/auth/login-json", map[string]any{"username": "nobody@example.com", "password": goodPassword}},
	}
	var details []string
	for _, f := range failures {
		b, _ := json.Marshal(f.body)
		st, body, h, raw := send(t, e, http.MethodPost, f.path, "application/json", bytes.NewReader(b))
		if st != http.StatusUnauthorized {
			t.Errorf("%s: status %d, want 401: %s", f.name, st, raw)
			continue
		}
		expectProblem(t, st, body, h, raw, http.StatusUnauthorized, "", "")
		if _, ok := body["field"]; ok {
			t.Errorf("%s: a failed sign-in names a field: %s", f.name, raw)
		}
		details = append(details, fmt.Sprint(body["detail"]))
	}
	if len(slices.Compact(slices.Clone(details))) != 1 {
		t.Errorf("failed sign-ins differ in detail: %q", details)
	}
}
