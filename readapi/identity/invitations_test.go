package identity_test

import (
	"bytes"
	"io"
	"mime/quotedprintable"
	"net/http"
	"net/mail"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

var invitationToken = regexp.MustCompile(`"token": "(inv_[A-Za-z0-9_-]+)"`)

// invitation returns the recipient and token of the n-th mail (1-based).
func (e *env) invitation(n int) (string, string) {
	e.t.Helper()
	paths, err := e.mailbox.Messages()
	if err != nil || len(paths) < n {
		e.t.Fatalf("mail %d: %v (%d mails)", n, err, len(paths))
	}
	f, err := os.Open(paths[n-1])
	if err != nil {
		e.t.Fatal(err)
	}
	defer f.Close()
	msg, err := mail.ReadMessage(f)
	if err != nil {
		e.t.Fatal(err)
	}
	body, _ := io.ReadAll(quotedprintable.NewReader(msg.Body))
	m := invitationToken.FindSubmatch(body)
	if m == nil {
		e.t.Fatalf("no invitation token in mail:\n%s", body)
	}
	return msg.Header.Get("To"), string(m[1])
}

// raw sends a JSON body with a bearer token and returns status and body.
func (e *env) raw(method, path, body, token string) (int, []byte) {
	e.t.Helper()
	req, _ := http.NewRequest(method, e.url+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

// signIn returns a fresh access token for a registered email.
func (e *env) signIn(email string) string {
	e.t.Helper()
	st, b, _ := e.call("POST", "/api/v1/auth/login-json", map[string]any{"username": email, "password": goodPassword})
	if st != http.StatusOK {
		e.t.Fatalf("sign in %s: %d %v", email, st, b)
	}
	return b["access_token"].(string)
}

func (e *env) newOrg(owner string) string {
	e.t.Helper()
	st, org, _ := e.call("POST", "/api/v1/organizations", map[string]any{"name": "Corp"}, bearerH(owner)...)
	if st != http.StatusCreated {
		e.t.Fatalf("create org: %d %v", st, org)
	}
	return org["id"].(string)
}

func (e *env) members(orgID, token string) int {
	e.t.Helper()
	st, b, _ := e.call("GET", "/api/v1/organizations/"+orgID+"/members", nil, bearerH(token)...)
	if st != http.StatusOK {
		e.t.Fatalf("members: %d %v", st, b)
	}
	return len(b["list"].([]any))
}

// TestInvitationAnswerSaysNothingAboutAccounts: inviting a registered and
// an unregistered address answers 202 with the same bytes apart from the
// invitation id, mails both, and adds nobody before they accept.
func TestInvitationAnswerSaysNothingAboutAccounts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, owner := e.register("owner@inv.example")
	e.register("known@inv.example")
	orgID := e.newOrg(owner)
	path := "/api/v1/organizations/" + orgID + "/members"
	st1, known := e.raw("POST", path, `{"email":"known@inv.example","role":"admin"}`, owner)
	st2, unknown := e.raw("POST", path, `{"email":"nobody@inv.example","role":"admin"}`, owner)
	if st1 != http.StatusAccepted || st2 != http.StatusAccepted {
		t.Fatalf("invite: %d %s / %d %s", st1, known, st2, unknown)
	}
	id := regexp.MustCompile(`"id":"[^"]+"`)
	a, b := id.ReplaceAll(known, []byte(`"id":""`)), id.ReplaceAll(unknown, []byte(`"id":""`))
	if !bytes.Equal(a, b) || bytes.Equal(known, unknown) || !bytes.Contains(a, []byte(`"status":"pending"`)) {
		t.Fatalf("answers differ beyond the id:\n%s\n%s", known, unknown)
	}
	if to, _ := e.invitation(1); !strings.Contains(to, "known@inv.example") {
		t.Fatalf("first mail to %s", to)
	}
	if to, _ := e.invitation(2); !strings.Contains(to, "nobody@inv.example") {
		t.Fatalf("second mail to %s", to)
	}
	if n := e.members(orgID, owner); n != 1 {
		t.Fatalf("members before acceptance: %d", n)
	}
}

// TestInvitationAcceptance: only the signed-in invitee whose email matches
// accepts, once; an address without an account registers and then
// accepts; acceptance is the membership.
func TestInvitationAcceptance(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, owner := e.register("owner@acc.example")
	_, invitee := e.register("invitee@acc.example")
	_, other := e.register("other@acc.example")
	orgID := e.newOrg(owner)
	path := "/api/v1/organizations/" + orgID + "/members"
	e.raw("POST", path, `{"email":"Invitee@acc.example","role":"admin"}`, owner)
	_, token := e.invitation(1)
	accept := "/api/v1/organizations/invitations/accept"

	if st, b, _ := e.call("POST", accept, map[string]any{"token": token}, bearerH(other)...); st != http.StatusForbidden {
		t.Fatalf("another account accepting: %d %v", st, b)
	}
	if st, _ := e.raw("POST", accept, `{"token":"`+token+`"}`, ""); st != http.StatusUnauthorized {
		t.Fatalf("unauthenticated accept: %d", st)
	}
	if st, b, _ := e.call("POST", accept, map[string]any{}, bearerH(invitee)...); st != http.StatusBadRequest || b["field"] != "token" || b["rule"] != "required" {
		t.Fatalf("no token: %d %v", st, b)
	}
	st, org, _ := e.call("POST", accept, map[string]any{"token": token}, bearerH(invitee)...)
	if st != http.StatusOK || org["id"] != orgID || org["role"] != "admin" {
		t.Fatalf("accept: %d %v", st, org)
	}
	if n := e.members(orgID, invitee); n != 2 {
		t.Fatalf("members after acceptance: %d", n)
	}
	if st, b, _ := e.call("POST", accept, map[string]any{"token": token}, bearerH(invitee)...); st != http.StatusBadRequest || b["rule"] != "valid_invitation" {
		t.Fatalf("second use: %d %v", st, b)
	}
	if st, b, _ := e.call("POST", accept, map[string]any{"token": "inv_forged"}, bearerH(invitee)...); st != http.StatusBadRequest || b["rule"] != "valid_invitation" {
		t.Fatalf("forged token: %d %v", st, b)
	}

	// No account yet: the invitee registers with the address, then accepts.
	e.raw("POST", path, `{"email":"later@acc.example"}`, owner)
	_, later := e.invitation(2)
	_, fresh := e.register("later@acc.example")
	if st, org, _ := e.call("POST", accept, map[string]any{"token": later}, bearerH(fresh)...); st != http.StatusOK || org["role"] != "member" {
		t.Fatalf("accept after registering: %d %v", st, org)
	}
	st, list, _ := e.call("GET", "/api/v1/organizations/"+orgID+"/invitations", nil, bearerH(owner)...)
	items := list["list"].([]any)
	if st != http.StatusOK || len(items) != 2 || items[0].(map[string]any)["status"] != "accepted" || items[0].(map[string]any)["email"] != "later@acc.example" {
		t.Fatalf("invitations: %d %v", st, list)
	}
}

// TestInvitationExpiryRevocationAndRights: invitations expire after 7 days
// and can be revoked; only owners and admins list and revoke them; an
// outsider or an unauthenticated caller learns nothing, whatever the body.
func TestInvitationExpiryRevocationAndRights(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, owner := e.register("owner@exp.example")
	_, invitee := e.register("invitee@exp.example")
	_, outsider := e.register("outsider@exp.example")
	orgID := e.newOrg(owner)
	path := "/api/v1/organizations/" + orgID + "/members"
	accept := "/api/v1/organizations/invitations/accept"

	// Authorization comes before validation.
	if st, _ := e.raw("POST", path, `{"email":"x","role":"owner"}`, ""); st != http.StatusUnauthorized {
		t.Fatalf("unauthenticated, bad body: %d", st)
	}
	if st, b := e.raw("POST", path, `{"email":"x","role":"owner"}`, outsider); st != http.StatusNotFound {
		t.Fatalf("outsider, bad body: %d %s", st, b)
	}
	if st, b := e.raw("POST", path, `{not json`, outsider); st != http.StatusNotFound {
		t.Fatalf("outsider, malformed body: %d %s", st, b)
	}
	if st, b, _ := e.call("POST", path, map[string]any{"email": "a@exp.example", "role": "owner"}, bearerH(owner)...); st != http.StatusBadRequest || b["field"] != "role" {
		t.Fatalf("owner, bad role: %d %v", st, b)
	}
	if st, b, _ := e.call("POST", path, map[string]any{"email": "not-an-address"}, bearerH(owner)...); st != http.StatusBadRequest || b["field"] != "email" {
		t.Fatalf("owner, bad email: %d %v", st, b)
	}

	e.raw("POST", path, `{"email":"invitee@exp.example"}`, owner)
	_, expiring := e.invitation(1)
	e.raw("POST", path, `{"email":"invitee@exp.example"}`, owner)
	_, revoked := e.invitation(2)
	st, list, _ := e.call("GET", "/api/v1/organizations/"+orgID+"/invitations", nil, bearerH(owner)...)
	items := list["list"].([]any)
	if st != http.StatusOK || len(items) != 2 {
		t.Fatalf("invitations: %d %v", st, list)
	}
	revokedID := items[0].(map[string]any)["id"].(string)
	if st, _, _ := e.call("GET", "/api/v1/organizations/"+orgID+"/invitations", nil, bearerH(outsider)...); st != http.StatusNotFound {
		t.Fatalf("outsider listing: %d", st)
	}
	if st, _, _ := e.call("DELETE", "/api/v1/organizations/"+orgID+"/invitations/"+revokedID, nil, bearerH(outsider)...); st != http.StatusNotFound {
		t.Fatalf("outsider revoking: %d", st)
	}
	if st, _, _ := e.call("DELETE", "/api/v1/organizations/"+orgID+"/invitations/"+revokedID, nil, bearerH(owner)...); st != http.StatusNoContent {
		t.Fatalf("revoke: %d", st)
	}
	if st, _, _ := e.call("DELETE", "/api/v1/organizations/"+orgID+"/invitations/nope", nil, bearerH(owner)...); st != http.StatusNotFound {
		t.Fatalf("revoke unknown: %d", st)
	}
	if st, b, _ := e.call("POST", accept, map[string]any{"token": revoked}, bearerH(invitee)...); st != http.StatusBadRequest || b["rule"] != "valid_invitation" {
		t.Fatalf("revoked token: %d %v", st, b)
	}
	e.clock.Advance(7*24*time.Hour + time.Second)
	owner, invitee = e.signIn("owner@exp.example"), e.signIn("invitee@exp.example")
	if st, b, _ := e.call("POST", accept, map[string]any{"token": expiring}, bearerH(invitee)...); st != http.StatusBadRequest || b["rule"] != "valid_invitation" {
		t.Fatalf("expired token: %d %v", st, b)
	}
	_, list, _ = e.call("GET", "/api/v1/organizations/"+orgID+"/invitations", nil, bearerH(owner)...)
	items = list["list"].([]any)
	if items[0].(map[string]any)["status"] != "revoked" || items[1].(map[string]any)["status"] != "expired" {
		t.Fatalf("statuses: %v", items)
	}
	if n := e.members(orgID, owner); n != 1 {
		t.Fatalf("members: %d", n)
	}
}

// TestInvitationLimits: one organization invites one address at most three
// times a day, and an inviter sends at most 50 invitations an hour (429
// with Retry-After), so invitations cannot flood a mailbox.
func TestInvitationLimits(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, owner := e.register("owner@limit.example")
	orgID := e.newOrg(owner)
	path := "/api/v1/organizations/" + orgID + "/members"
	for i := 0; i < 3; i++ {
		if st, b := e.raw("POST", path, `{"email":"same@limit.example"}`, owner); st != http.StatusAccepted {
			t.Fatalf("invitation %d: %d %s", i+1, st, b)
		}
	}
	st, _, h := e.call("POST", path, map[string]any{"email": "same@limit.example"}, bearerH(owner)...)
	if st != http.StatusTooManyRequests || h.Get("Retry-After") == "" {
		t.Fatalf("fourth invitation of one address: %d %v", st, h)
	}
	for i := 4; i < 50; i++ { // the refused fourth counts too
		if st, b := e.raw("POST", path, `{"email":"a`+strconv.Itoa(i)+`@limit.example"}`, owner); st != http.StatusAccepted {
			t.Fatalf("invitation %d: %d %s", i+1, st, b)
		}
	}
	if st, _ := e.raw("POST", path, `{"email":"last@limit.example"}`, owner); st != http.StatusTooManyRequests {
		t.Fatalf("51st invitation: %d", st)
	}
}
