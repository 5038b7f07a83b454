package connections

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// OAuth2 is the standard OAuth 2 dialect (RFC 6749's authorization-code
// and refresh_token grants as form POSTs, RFC 7636's PKCE S256, RFC 7009's
// revocation) over Settings' endpoints. Adapters whose provider speaks it
// delegate their Provider methods to it, configured with the provider's
// parameter names and extras; a provider that deviates further keeps the
// deviation in its adapter, built on Send, NewRequest, ReadJSON,
// TokenAnswer and TokenFailure.
type OAuth2 struct {
	Settings Settings
	Client   Doer
	// Label names the provider in messages ("the video site").
	Label string
	// PKCE: the authorization URL carries code_challenge (S256) when a
	// challenge is given.
	PKCE bool
	// ClientIDParam is the client id's parameter name ("": client_id;
	// TikTok: client_key).
	ClientIDParam string
	// ScopeParam is the scopes' parameter name ("": scope), ScopeSep
	// what joins them ("": a space). No scopes: no parameter.
	ScopeParam, ScopeSep string
	// AuthParams are added to the authorization URL (Google's
	// access_type=offline, GitHub's allow_signup=false).
	AuthParams url.Values
	// BasicAuth sends the client credentials as HTTP Basic instead of in
	// the form body.
	BasicAuth bool
	// RevokeWithClient sends the client credentials with a revocation.
	RevokeWithClient bool
	// Idempotent: token endpoint calls are classified as idempotent by
	// Call (a 500, 504 or lost answer is Transient, not Unconfirmed).
	Idempotent bool
	// Parse reads the token and revocation endpoints' error bodies (nil:
	// OAuthProblem).
	Parse Parser
	// Refine refines a token endpoint failure after TokenFailure (the
	// provider's own codes); nil: none.
	Refine Refiner
	// Now is the clock lifetimes are counted from (nil: time.Now).
	Now func() time.Time
}

func (o *OAuth2) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

func (o *OAuth2) parse() Parser {
	if o.Parse != nil {
		return o.Parse
	}
	return OAuthProblem
}

func (o *OAuth2) clientParam() string {
	if o.ClientIDParam != "" {
		return o.ClientIDParam
	}
	return "client_id"
}

// AuthCodeURL is the authorization URL: client id, redirect_uri,
// response_type=code, the scopes, state, AuthParams and, with PKCE and a
// challenge, code_challenge and code_challenge_method=S256.
func (o *OAuth2) AuthCodeURL(state, redirectURI, challenge string) string {
	q := url.Values{o.clientParam(): {o.Settings.ClientID}, "redirect_uri": {redirectURI}, "response_type": {"code"}, "state": {state}}
	if len(o.Settings.Scopes) > 0 {
		param, sep := o.ScopeParam, o.ScopeSep
		if param == "" {
			param = "scope"
		}
		if sep == "" {
			sep = " "
		}
		q.Set(param, strings.Join(o.Settings.Scopes, sep))
	}
	for k, v := range o.AuthParams {
		q[k] = v
	}
	if o.PKCE && challenge != "" {
		q.Set("code_challenge", challenge)
		q.Set("code_challenge_method", "S256")
	}
	return AuthURL(o.Settings.AuthURL, q)
}

// Exchange redeems an authorization code (with the PKCE verifier when one
// is given).
func (o *OAuth2) Exchange(ctx context.Context, code, redirectURI, verifier string) (Tokens, error) {
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {redirectURI}}
	if verifier != "" {
		form.Set("code_verifier", verifier)
	}
	return o.Token(ctx, form, Tokens{}, false)
}

// Refresh obtains new tokens with t's refresh token; t's refresh token and
// scope are kept where the answer has none. A refused refresh is
// Unauthorized (TokenFailure).
func (o *OAuth2) Refresh(ctx context.Context, t Tokens) (Tokens, error) {
	if t.RefreshToken == "" {
		return Tokens{}, NoRefresh(o.Label)
	}
	return o.Token(ctx, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {t.RefreshToken}}, t, true)
}

// credentials adds the client credentials to form, or to req as HTTP Basic.
func (o *OAuth2) credentials(form url.Values) func(*http.Request) {
	if o.BasicAuth {
		return func(req *http.Request) { req.SetBasicAuth(o.Settings.ClientID, o.Settings.ClientSecret) }
	}
	form.Set(o.clientParam(), o.Settings.ClientID)
	form.Set("client_secret", o.Settings.ClientSecret)
	return func(*http.Request) {}
}

// Token POSTs form (a grant) with the client credentials to the token
// endpoint and reads the standard answer. A failure is classified by
// TokenFailure (refresh: the grant is a refresh) and then Refine; an error
// answered with 2xx ({"error": ...}, GitHub and TikTok) is Refused and
// classified the same way; an answer without an access token cannot be
// read (Transient or Unconfirmed by Idempotent). For a refresh, prev's
// refresh token and scope are kept where the answer has none.
func (o *OAuth2) Token(ctx context.Context, form url.Values, prev Tokens, refresh bool) (Tokens, error) {
	auth := o.credentials(form)
	req, err := NewRequest(ctx, http.MethodPost, o.Settings.TokenURL, form)
	if err != nil {
		return Tokens{}, err
	}
	auth(req)
	refine := func(ce *CallError, p Problem) {
		TokenFailure(ce, refresh)
		if o.Refine != nil {
			o.Refine(ce, p)
		}
	}
	resp, err := Send(ctx, o.Client, req, o.Idempotent, o.parse(), refine)
	if err != nil {
		return Tokens{}, err
	}
	var a TokenAnswer
	if err := ReadJSON(resp, &a, o.Idempotent); err != nil {
		return Tokens{}, err
	}
	if a.AccessToken == "" {
		if a.Error == "" {
			return Tokens{}, unread(resp.StatusCode, o.Idempotent, "the token endpoint answered no access token")
		}
		p := Problem{Code: a.Error, Message: a.ErrorDescription}
		ce := Fail(Refused, resp.StatusCode, p.Reason())
		refine(ce, p)
		return Tokens{}, ce
	}
	if refresh {
		return a.Renewed(o.now(), prev), nil
	}
	return a.Tokens(o.now()), nil
}

// Revoke revokes token at the revocation endpoint (RFC 7009: a form POST
// of token, with the client credentials where RevokeWithClient). A token
// the provider answers invalid_token for is already revoked (nil); an
// error answered with 2xx is Refused. No RevokeURL: ErrNoRevoke.
func (o *OAuth2) Revoke(ctx context.Context, token string) error {
	if o.Settings.RevokeURL == "" {
		return ErrNoRevoke
	}
	form := url.Values{"token": {token}}
	auth := func(*http.Request) {}
	if o.RevokeWithClient {
		auth = o.credentials(form)
	}
	req, err := NewRequest(ctx, http.MethodPost, o.Settings.RevokeURL, form)
	if err != nil {
		return err
	}
	auth(req)
	resp, err := Send(ctx, o.Client, req, true, o.parse(), nil)
	if ce := AsCallError(err); ce != nil && ce.Status == http.StatusBadRequest && strings.HasPrefix(ce.Reason, "invalid_token") {
		return nil
	}
	if err != nil {
		return err
	}
	var a struct {
		Error string `json:"error"`
	}
	_ = ReadJSON(resp, &a, true)
	if a.Error != "" && a.Error != "invalid_token" {
		return Fail(Refused, resp.StatusCode, a.Error)
	}
	return nil
}

// RevokeGrant revokes t's refresh token when it has one (which ends the
// whole grant), else its access token.
func (o *OAuth2) RevokeGrant(ctx context.Context, t Tokens) error {
	if t.RefreshToken != "" {
		return o.Revoke(ctx, t.RefreshToken)
	}
	return o.Revoke(ctx, t.AccessToken)
}

// TokenFailure settles a token endpoint failure's class from its reason
// (which starts with the provider's error code): the operator's client
// credentials refused (invalid_client, GitHub's incorrect_client_credentials,
// Slack's bad_client_secret) is Refused, never a reason to reconnect an
// account; a refused refresh (invalid_grant and the like) is Unauthorized:
// the grant is gone, reconnect; a refused code exchange is Refused. nil
// does nothing.
func TokenFailure(ce *CallError, refresh bool) {
	switch {
	case ce == nil:
	case strings.HasPrefix(ce.Reason, "invalid_client") || strings.HasPrefix(ce.Reason, "incorrect_client_credentials") ||
		strings.HasPrefix(ce.Reason, "bad_client_secret"):
		ce.Class = Refused
	case refresh && ce.Class == Refused:
		ce.Class = Unauthorized
	case !refresh && ce.Class == Unauthorized:
		ce.Class = Refused
	}
}

// Google's OAuth 2 endpoints.
const (
	GoogleAuthURL   = "https://accounts.google.com/o/oauth2/v2/auth"
	GoogleTokenURL  = "https://oauth2.googleapis.com/token"
	GoogleRevokeURL = "https://oauth2.googleapis.com/revoke"
)

// Google is Google's OAuth 2 dialect (the video site, mail and calendar
// each with their own scopes): s's empty OAuth URLs get Google's;
// PKCE S256; access_type=offline and prompt=consent (a refresh token is
// always issued), include_granted_scopes=true; client credentials in the
// form; revocation of the token alone. Google keeps the refresh token on a
// refresh and answers invalid_grant once it is revoked or expired.
func Google(s Settings, d Doer, label string) *OAuth2 {
	s = s.WithDefaults(Settings{AuthURL: GoogleAuthURL, TokenURL: GoogleTokenURL, RevokeURL: GoogleRevokeURL})
	return &OAuth2{Settings: s, Client: d, Label: label, PKCE: true,
		AuthParams: url.Values{"access_type": {"offline"}, "prompt": {"consent"}, "include_granted_scopes": {"true"}}}
}
