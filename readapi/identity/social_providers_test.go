package identity_test

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"

	cmd "github.com/strata-platform/strata/commands/identity"
)

// The two providers below are loopback servers speaking the real protocols
// of a GitHub OAuth app and of LinkedIn's OpenID Connect sign-in, error
// shapes included; whoever "signs in" at their authorization page is the
// account set with signIn.

func randHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// bearer returns the token of an "Authorization: Bearer x" (or GitHub's
// older "token x") header.
func bearer(r *http.Request, schemes ...string) string {
	h := r.Header.Get("Authorization")
	for _, s := range schemes {
		if len(h) > len(s)+1 && strings.EqualFold(h[:len(s)], s) && h[len(s)] == ' ' {
			return h[len(s)+1:]
		}
	}
	return ""
}

// ghEmail is an entry of GitHub's GET /user/emails.
type ghEmail struct {
	Email      string  `json:"email"`
	Primary    bool    `json:"primary"`
	Verified   bool    `json:"verified"`
	Visibility *string `json:"visibility"`
}

// ghAccount is a user of the code-hosting provider.
type ghAccount struct {
	ID        int64
	Login     string
	Name      string
	AvatarURL string
	Emails    []ghEmail
}

type ghGrant struct {
	account     ghAccount
	redirectURI string
}

// codehostProvider is a GitHub-style OAuth app provider: the authorization
// page (auto-approving the current account), the token endpoint (errors
// answered with HTTP 200 and an error body, JSON only when asked for with
// Accept), and the REST API's GET /user and GET /user/emails.
type codehostProvider struct {
	t            testing.TB
	srv          *httptest.Server
	clientID     string
	clientSecret string

	mu           sync.Mutex
	current      ghAccount
	codes        map[string]ghGrant
	tokens       map[string]ghAccount
	tokenAccepts []string
	tokenGarbage bool // the token endpoint answers an HTML error page
}

func newCodehostProvider(t testing.TB) *codehostProvider {
	p := &codehostProvider{t: t, clientID: "Iv1." + randHex(8), clientSecret: randHex(20),
		codes: map[string]ghGrant{}, tokens: map[string]ghAccount{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /login/oauth/authorize", p.authorize)
	mux.HandleFunc("POST /login/oauth/access_token", p.token)
	mux.HandleFunc("GET /api/user", p.user)
	mux.HandleFunc("GET /api/user/emails", p.emails)
	p.srv = httptest.NewServer(mux)
	t.Cleanup(p.srv.Close)
	return p
}

func (p *codehostProvider) config() cmd.CodehostConfig {
	return cmd.CodehostConfig{ClientID: p.clientID, ClientSecret: p.clientSecret,
		AuthorizeURL: p.srv.URL + "/login/oauth/authorize", TokenURL: p.srv.URL + "/login/oauth/access_token",
		APIURL: p.srv.URL + "/api"}
}

func (p *codehostProvider) signIn(a ghAccount) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.current = a
}

func (p *codehostProvider) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Get("client_id") != p.clientID {
		http.Error(w, "404 page not found", http.StatusNotFound) // GitHub's answer to an unknown app
		return
	}
	redirect := q.Get("redirect_uri")
	if redirect == "" || q.Get("scope") != "user:email" || q.Get("state") == "" {
		http.Error(w, "unexpected authorization request "+q.Encode(), http.StatusBadRequest)
		return
	}
	code := randHex(10)
	p.mu.Lock()
	p.codes[code] = ghGrant{account: p.current, redirectURI: redirect}
	p.mu.Unlock()
	http.Redirect(w, r, redirect+"?"+url.Values{"code": {code}, "state": {q.Get("state")}}.Encode(), http.StatusFound)
}

func (p *codehostProvider) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	accept := r.Header.Get("Accept")
	p.tokenAccepts = append(p.tokenAccepts, accept)
	if p.tokenGarbage {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte("<html><body>Unicorn! We're having a really bad day.</body></html>"))
		return
	}
	answer := func(v map[string]string) { // always 200, in the format asked for
		if strings.Contains(accept, "application/json") {
			writeJSON(w, http.StatusOK, v)
			return
		}
		form := url.Values{}
		for k, s := range v {
			form.Set(k, s)
		}
		w.Header().Set("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
		_, _ = w.Write([]byte(form.Encode()))
	}
	fail := func(code, desc, anchor string) {
		answer(map[string]string{"error": code, "error_description": desc,
			"error_uri": "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors/#" + anchor})
	}
	if r.PostForm.Get("client_id") != p.clientID || r.PostForm.Get("client_secret") != p.clientSecret {
		fail("incorrect_client_credentials", "The client_id and/or client_secret passed are incorrect.", "incorrect-client-credentials")
		return
	}
	g, ok := p.codes[r.PostForm.Get("code")]
	if !ok {
		fail("bad_verification_code", "The code passed is incorrect or expired.", "bad-verification-code")
		return
	}
	if ru := r.PostForm.Get("redirect_uri"); ru != "" && ru != g.redirectURI {
		fail("redirect_uri_mismatch", "The redirect_uri MUST match the registered callback URL for this application.", "redirect-uri-mismatch")
		return
	}
	delete(p.codes, r.PostForm.Get("code"))
	tok := "gho_" + randHex(18)
	p.tokens[tok] = g.account
	answer(map[string]string{"access_token": tok, "token_type": "bearer", "scope": "user:email"})
}

// account returns the account of the request's token or answers 401 the way
// the REST API does.
func (p *codehostProvider) account(w http.ResponseWriter, r *http.Request) (ghAccount, bool) {
	p.mu.Lock()
	a, ok := p.tokens[bearer(r, "Bearer", "token")]
	p.mu.Unlock()
	if !ok {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"message": "Bad credentials",
			"documentation_url": "https://docs.github.com/rest", "status": "401"})
	}
	return a, ok
}

func (p *codehostProvider) user(w http.ResponseWriter, r *http.Request) {
	a, ok := p.account(w, r)
	if !ok {
		return
	}
	var public any // the public profile email: null unless the user made one public
	writeJSON(w, http.StatusOK, map[string]any{"login": a.Login, "id": a.ID, "node_id": "MDQ6VXNlcj" + randHex(4),
		"avatar_url": a.AvatarURL, "html_url": "https://github.example/" + a.Login, "type": "User", "site_admin": false,
		"name": a.Name, "company": nil, "email": public, "public_repos": 2, "created_at": "2008-01-14T04:33:35Z"})
}

func (p *codehostProvider) emails(w http.ResponseWriter, r *http.Request) {
	a, ok := p.account(w, r)
	if !ok {
		return
	}
	if a.Emails == nil {
		a.Emails = []ghEmail{}
	}
	writeJSON(w, http.StatusOK, a.Emails)
}

// liAccount is a member of the professional network.
type liAccount struct {
	Sub           string
	Name          string
	GivenName     string
	FamilyName    string
	Picture       string
	Email         string
	EmailVerified bool
}

type liGrant struct {
	account     liAccount
	redirectURI string
	nonce       string
}

// networkProvider is a LinkedIn-style OpenID Connect provider: the
// authorization page (auto-approving the current member), the token
// endpoint with an RS256 id_token, its JWKS, and userinfo.
type networkProvider struct {
	t            testing.TB
	srv          *httptest.Server
	clientID     string
	clientSecret string
	key          *rsa.PrivateKey
	kid          string

	mu          sync.Mutex
	current     liAccount
	codes       map[string]liGrant
	tokens      map[string]liAccount
	signWith    *rsa.PrivateKey // not nil: id_tokens are signed with this key, which the JWKS does not have
	nonce       *string         // not nil: the id_token's nonce instead of the authorization request's
	userinfoSub string          // not empty: userinfo says this sub
}

func newNetworkProvider(t testing.TB) *networkProvider {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	p := &networkProvider{t: t, clientID: "86" + randHex(6), clientSecret: "WPL_AP1." + randHex(12), key: key,
		kid: randHex(8), codes: map[string]liGrant{}, tokens: map[string]liAccount{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /oauth/v2/authorization", p.authorize)
	mux.HandleFunc("POST /oauth/v2/accessToken", p.token)
	mux.HandleFunc("GET /oauth/openid/jwks", p.jwks)
	mux.HandleFunc("GET /v2/userinfo", p.userinfo)
	p.srv = httptest.NewServer(mux)
	t.Cleanup(p.srv.Close)
	return p
}

func (p *networkProvider) issuer() string { return p.srv.URL + "/oauth" }

func (p *networkProvider) config() cmd.NetworkConfig {
	return cmd.NetworkConfig{ClientID: p.clientID, ClientSecret: p.clientSecret, Issuer: p.issuer(),
		AuthorizeURL: p.srv.URL + "/oauth/v2/authorization", TokenURL: p.srv.URL + "/oauth/v2/accessToken",
		JWKSURL: p.srv.URL + "/oauth/openid/jwks", UserinfoURL: p.srv.URL + "/v2/userinfo"}
}

func (p *networkProvider) signIn(a liAccount) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.current = a
}

func (p *networkProvider) set(f func(p *networkProvider)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	f(p)
}

func liError(w http.ResponseWriter, status int, code, desc string) {
	writeJSON(w, status, map[string]string{"error": code, "error_description": desc})
}

func (p *networkProvider) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Get("client_id") != p.clientID {
		liError(w, http.StatusBadRequest, "invalid_request", "The passed in client_id is invalid \""+q.Get("client_id")+"\"")
		return
	}
	scopes := strings.Fields(q.Get("scope"))
	redirect := q.Get("redirect_uri")
	if q.Get("response_type") != "code" || redirect == "" || q.Get("state") == "" ||
		!slices.Contains(scopes, "openid") || !slices.Contains(scopes, "profile") || !slices.Contains(scopes, "email") {
		liError(w, http.StatusBadRequest, "invalid_request", "unexpected authorization request "+q.Encode())
		return
	}
	code := "AQ" + randHex(24)
	p.mu.Lock()
	p.codes[code] = liGrant{account: p.current, redirectURI: redirect, nonce: q.Get("nonce")}
	p.mu.Unlock()
	http.Redirect(w, r, redirect+"?"+url.Values{"code": {code}, "state": {q.Get("state")}}.Encode(), http.StatusFound)
}

func (p *networkProvider) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil || r.PostForm.Get("grant_type") != "authorization_code" {
		liError(w, http.StatusBadRequest, "invalid_request", "A required parameter \"grant_type\" is missing")
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if r.PostForm.Get("client_id") != p.clientID || r.PostForm.Get("client_secret") != p.clientSecret {
		liError(w, http.StatusUnauthorized, "invalid_client", "Client authentication failed")
		return
	}
	g, ok := p.codes[r.PostForm.Get("code")]
	if !ok || r.PostForm.Get("redirect_uri") != g.redirectURI {
		liError(w, http.StatusBadRequest, "invalid_request", "Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code. Or authorization code expired. Or external member binding exists")
		return
	}
	delete(p.codes, r.PostForm.Get("code"))
	tok := "AQV" + randHex(30)
	p.tokens[tok] = g.account
	now := time.Now()
	a := g.account
	claims := map[string]any{"iss": p.issuer(), "aud": p.clientID, "iat": now.Unix(), "exp": now.Add(time.Hour).Unix(),
		"sub": a.Sub, "name": a.Name, "given_name": a.GivenName, "family_name": a.FamilyName, "picture": a.Picture,
		"email": a.Email, "email_verified": map[bool]string{true: "true", false: "false"}[a.EmailVerified],
		"locale": "en_US"}
	if g.nonce != "" {
		claims["nonce"] = g.nonce
	}
	if p.nonce != nil {
		claims["nonce"] = *p.nonce
	}
	key := p.key
	if p.signWith != nil {
		key = p.signWith
	}
	writeJSON(w, http.StatusOK, map[string]any{"access_token": tok, "expires_in": 5183999, "scope": "email,openid,profile",
		"token_type": "Bearer", "id_token": p.sign(key, claims)})
}

func (p *networkProvider) sign(key *rsa.PrivateKey, claims map[string]any) string {
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: key, KeyID: p.kid}},
		(&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		p.t.Error(err)
		return ""
	}
	payload, _ := json.Marshal(claims)
	jws, err := signer.Sign(payload)
	if err != nil {
		p.t.Error(err)
		return ""
	}
	out, _ := jws.CompactSerialize()
	return out
}

func (p *networkProvider) jwks(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, jose.JSONWebKeySet{Keys: []jose.JSONWebKey{
		{Key: &p.key.PublicKey, KeyID: p.kid, Algorithm: "RS256", Use: "sig"}}})
}

func (p *networkProvider) userinfo(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	a, ok := p.tokens[bearer(r, "Bearer")]
	sub := p.userinfoSub
	p.mu.Unlock()
	if !ok {
		writeJSON(w, http.StatusUnauthorized, map[string]any{"serviceErrorCode": 65600, "message": "Invalid access token", "status": 401})
		return
	}
	if sub == "" {
		sub = a.Sub
	}
	writeJSON(w, http.StatusOK, map[string]any{"sub": sub, "email_verified": a.EmailVerified, "name": a.Name,
		"locale": map[string]string{"country": "US", "language": "en"}, "given_name": a.GivenName,
		"family_name": a.FamilyName, "email": a.Email, "picture": a.Picture})
}
